/** `lib codegen --check`'s summary of model changes: one line per change as text, or a JSON document. */
import { isBreaking, type ModelChange } from "./classify.js";

/** One line for `change`: `breaking  sales.revenue removed (metric)`. */
export function changeLine(change: ModelChange): string {
  const label = isBreaking(change) ? "breaking" : change.kind.endsWith("-changed") ? "notice  " : "addition";
  return `${label}  ${describeChange(change)}`;
}

function describeChange(c: ModelChange): string {
  switch (c.kind) {
    case "view-removed":
      return `view "${c.view}" removed (class ${c.className})`;
    case "view-added":
      return `view "${c.view}" added (class ${c.className})`;
    case "member-removed":
      return `${c.view}.${c.field} removed (a ${c.memberKind})`;
    case "member-added":
      return `${c.view}.${c.field} added (a ${c.memberKind})`;
    case "member-renamed":
      return `${c.view}.${c.field} renamed to ${c.to} (same kind, value type and expression)`;
    case "type-changed":
      return `${c.view}.${c.field} changed from ${c.from} to ${c.to}`;
    case "pair-removed":
      return `${c.view}: metric ${c.metric} can no longer be grouped by dimension ${c.dimension}`;
    case "pair-added":
      return `${c.view}: metric ${c.metric} can now be grouped by dimension ${c.dimension}`;
    case "expression-changed":
      return `${c.view}.${c.field}: its expression changed`;
    case "comment-changed":
      return c.field === undefined
        ? `${c.view}: the view's comment changed`
        : `${c.view}.${c.field}: its comment changed`;
  }
}

/** The counts line: `2 breaking changes, 1 addition, 1 notice`. */
export function changeCounts(changes: readonly ModelChange[]): string {
  const breaking = changes.filter(isBreaking).length;
  const notices = changes.filter((c) => !isBreaking(c) && c.kind.endsWith("-changed")).length;
  const additions = changes.length - breaking - notices;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [plural(breaking, "breaking change"), plural(additions, "addition"), plural(notices, "notice")].join(", ");
}

/** The `--format json` document. */
export function jsonReport(report: {
  readonly current: boolean;
  readonly exitCode: number;
  readonly outDir: string;
  readonly files: readonly { readonly path: string; readonly status: string }[];
  readonly modelRecord: "found" | "missing";
  readonly changes: readonly ModelChange[];
}): string {
  return JSON.stringify(
    {
      ...report,
      breaking: report.changes.some(isBreaking),
      changes: report.changes.map((c) => ({ ...c, breaking: isBreaking(c) })),
    },
    null,
    2,
  );
}
