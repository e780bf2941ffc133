/**
 * Picks the answer's media type from `Accept` (RFC 9110 §12.5.1: quality values, `type/*`, `*\/*`):
 * a JSON page by default, NDJSON or an Arrow IPC stream when asked for.
 */
export const MEDIA_TYPES = Object.freeze({
  json: "application/json",
  ndjson: "application/x-ndjson",
  arrow: "application/vnd.apache.arrow.stream",
});

export type AnswerFormat = keyof typeof MEDIA_TYPES;

const FORMATS = Object.entries(MEDIA_TYPES) as [AnswerFormat, string][];

/** The best supported format for `accept`, or undefined when it allows none of them (406). */
export function negotiateFormat(accept: string | undefined): AnswerFormat | undefined {
  if (accept === undefined || accept.trim() === "") return "json";
  let best: { format: AnswerFormat; q: number; specificity: number } | undefined;
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    for (const [format, media] of FORMATS) {
      const [major] = media.split("/");
      const specificity = type === media ? 2 : type === `${major}/*` ? 1 : type === "*/*" ? 0 : -1;
      if (specificity < 0) continue;
      if (best === undefined || q > best.q || (q === best.q && specificity > best.specificity)) {
        best = { format, q, specificity };
      }
    }
  }
  return best?.format;
}
