/**
 * Keeps secrets out of errors whatever form a driver echoes them in. Matching only the configured
 * byte string is not enough: a token read from a file ends in a newline the driver trims away (or
 * rejects in a message quoting the rest), a header carries it as `Bearer <token>` or base64, a
 * printer shows `\n` or NUL escaped, and a C library stops at the NUL. So every secret is expanded
 * into the forms it can take, and an error that holds any of them anywhere (message, stack, own
 * properties, cause chain) is replaced by a copy carrying only redacted text.
 */
import { inspect } from "node:util";

const REDACTED = "[redacted]";
/** Leading and trailing whitespace an HTTP header value (or a line read from a file) loses. */
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** Pieces shorter than this are not redacted on their own (too likely to occur in ordinary text). */
const MIN_PIECE = 6;

/** What a service keeps of a secret sent in an HTTP header: no leading or trailing whitespace. */
export function trimSecret(secret: string): string {
  return secret.replace(EDGE_SPACE, "");
}

/** Every form of each secret a driver, a header or a printer may produce, longest first. */
export function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret === "") continue;
    const trimmed = trimSecret(secret);
    for (const value of new Set([secret, trimmed, secret.replace(/[\r\n]+$/, "")])) {
      if (value === "") continue;
      forms.add(value);
      forms.add(JSON.stringify(value).slice(1, -1)); // JSON and most printers escape control characters
      forms.add(inspect(value).slice(1, -1)); // util.inspect's escapes (\x00, \')
      forms.add(encodeURIComponent(value)); // query strings, URIs, form bodies
      forms.add(Buffer.from(value).toString("base64")); // binary headers
      forms.add(Buffer.from(`token:${value}`).toString("base64")); // HTTP Basic auth as `token:<token>`
    }
    // What remains visible around control characters or spaces (a C string cut at NUL, a line).
    for (const piece of trimmed.split(/[\x00-\x20\x7f]+/)) if (piece.length >= MIN_PIECE) forms.add(piece);
  }
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/** `text` with every form replaced by `[redacted]`. */
export function redactText(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** Everything printing the error could show. */
function printed(error: unknown): string {
  if (typeof error !== "object" || error === null) return String(error);
  let json = "";
  try {
    json = JSON.stringify(error) ?? "";
  } catch {
    // a circular structure: inspect still shows it
  }
  return `${String(error)}\n${(error as { stack?: unknown }).stack}\n${inspect(error, { depth: 8 })}\n${json}`;
}

/** Whether any form appears anywhere in the printed error. */
export function holdsSecret(error: unknown, forms: readonly string[]): boolean {
  if (forms.length === 0) return false;
  const text = printed(error);
  return forms.some((form) => text.includes(form));
}

/**
 * The error itself when no form of a secret shows anywhere in it; else a plain `Error` with the same
 * name, the redacted message and stack, its own scalar properties (`code`, `statusCode`, ...)
 * redacted, and a redacted copy of its cause. Nested objects (a request with its headers) are dropped.
 */
export function withoutSecrets(error: unknown, forms: readonly string[], depth = 0): unknown {
  if (!holdsSecret(error, forms)) return error;
  if (typeof error !== "object" || error === null) return redactText(String(error), forms);
  const e = error as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
  const message = typeof e.message === "string" ? e.message : String(error);
  const cause = e.cause === undefined || depth >= 8 ? undefined : withoutSecrets(e.cause, forms, depth + 1);
  const copy = new Error(redactText(message, forms), cause === undefined ? undefined : { cause });
  copy.name = typeof e.name === "string" ? redactText(e.name, forms) : "Error";
  copy.stack = typeof e.stack === "string" ? redactText(e.stack, forms) : copy.stack;
  for (const [key, value] of Object.entries(error)) {
    if (key === "message" || key === "stack" || key === "name" || key === "cause") continue;
    const scalar = typeof value === "string" ? redactText(value, forms) : value;
    if (typeof scalar === "string" || typeof scalar === "number" || typeof scalar === "boolean") {
      Object.defineProperty(copy, key, { value: scalar, enumerable: true });
    }
  }
  return copy;
}
