/**
 * The one way warehouse text (names, comments, filters, DDL, sample values) enters generated
 * source, in string literals and comments alike. A table name with a line break once ended a `//`
 * comment and ran as code when the module was imported. `sourceText` escapes everything that could
 * end either context or hide what the source does:
 * - `\` and `"` (so the result is the inside of a double-quoted literal that reads back exactly);
 * - every line terminator (LF, CR, U+2028, U+2029) and every other control character, as `\n`,
 *   `\r` or `\uXXXX` (so a comment stays on its line and a NUL is visible);
 * - invisible format characters (zero-width and bidirectional controls, BOM) as `\uXXXX`;
 * - `*\/` as `*\\/` (so a block comment cannot be closed; in a literal `\/` is `/`).
 * Backticks and `${` are left alone: no generated text is a template literal.
 */

const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/** Controls (C0, DEL, C1), line and paragraph separators, zero-width and bidirectional format characters, BOM. */
const UNSAFE = /[\\"\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** Warehouse text made safe inside a double-quoted string literal and inside any comment. */
export function sourceText(text: string): string {
  return text
    .replace(UNSAFE, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replaceAll("*/", "*\\/");
}

/** Warehouse text as a double-quoted TypeScript string literal. */
export function quoted(text: string): string {
  return `"${sourceText(text)}"`;
}

/** The lines of a multi-line warehouse comment (any line terminator), each made safe by `sourceText`. */
export function commentLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u2028\u2029]/).map(sourceText);
}

/**
 * A JSON value (as `JSON.stringify` writes it, compact) as a TypeScript expression whose every
 * string, key included, is written by `quoted`: JSON leaves U+2028/9, bidirectional controls and
 * `*\/` as they are.
 */
export function jsonSource(value: unknown): string {
  if (typeof value === "string") return quoted(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : jsonSource(v))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${quoted(k)}:${jsonSource(v)}`).join(",")}}`;
  }
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`jsonSource: ${typeof value} is not a JSON value`);
  return text;
}
