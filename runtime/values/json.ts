/**
 * Lossless JSON. `toJson()` works like `JSON.stringify()` except that `bigint` and `Decimal` are
 * written as exact JSON numbers (`9223372036854775807`, `12345678901234567890.123456789`): no
 * rounding through doubles, no quoting, no `TypeError` on bigint. Dates use their `toJSON()` (ISO text),
 * except in the DATE fields of result rows, which are written as the ISO day (`"2024-02-29"`, see
 * day-columns.ts); other objects' `toJSON()` methods are honoured, non-finite numbers become `null`,
 * and cycles throw.
 *
 * It is on every JSON answer's path (HTTP, MCP, NDJSON rows), so it is written for speed: module
 * functions (no closures per call), the text grown by concatenation (V8 joins the pieces once, when
 * the text is read), each key's quoted form made once, and a string that needs no escape quoted
 * without `JSON.stringify` (whose call costs several times a regular-expression test).
 */
import { Decimal } from "./decimal.js";
import { dayFieldsOf, dayTextOf } from "./day-columns.js";

type RawJson = (text: string) => unknown;
const rawJSON: RawJson | undefined = (JSON as unknown as { rawJSON?: RawJson }).rawJSON;

function indentOf(space: string | number | undefined): string {
  if (typeof space === "number") return " ".repeat(Math.max(0, Math.min(10, Math.floor(space))));
  if (typeof space === "string") return space.slice(0, 10);
  return "";
}

/** What `JSON.stringify` escapes in a string: `"`, `\`, control characters and (lone) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`, without its call where nothing needs an escape. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * Member names with their quotes and colon (`"country":`), made once per name: result rows repeat
 * the same few names. Bounded by count and by name length (a long name, e.g. a key of a request
 * body, is quoted per use, so the memo holds at most 4,096 × 128 characters); emptied when full.
 */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 4096;
const MAX_QUOTED_KEY_LENGTH = 128;

function quotedKey(key: string): string {
  if (key.length > MAX_QUOTED_KEY_LENGTH) return `${quote(key)}:`;
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    if (quotedKeys.size >= MAX_QUOTED_KEYS) quotedKeys.clear();
    quoted = `${quote(key)}:`;
    quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** One `toJson` call's state: the indentation unit and the containers being written (for cycles). */
interface Writer {
  readonly indent: string;
  readonly ancestors: object[];
}

/** Serializes `value` to JSON text, writing bigint and Decimal values as exact JSON numbers. */
export function toJson(value: unknown, space?: string | number): string {
  const out = write({ indent: indentOf(space), ancestors: [] }, "", value, "");
  if (out === undefined) throw new TypeError(`toJson: a top-level ${typeof value} has no JSON form`);
  return out;
}

/**
 * The text of `input` (the member `key` of its holder: an array index as a number, made text only for a `toJSON()`), after its `toJSON()` if it has one; undefined
 * for values JSON omits (undefined, functions, symbols), as JSON.stringify does. A bigint is always
 * written as digits, even if someone patched BigInt.prototype.toJSON. `days`: the calendar-day fields
 * of the row `input` (an item of an array of result rows).
 */
function write(
  writer: Writer,
  key: string | number,
  input: unknown,
  margin: string,
  days?: ReadonlySet<string>,
): string | undefined {
  if (typeof input !== "object") return primitiveText(input);
  if (input === null) return "null";
  if (Decimal.isDecimal(input)) return input.toString();
  const toJSON = (input as { toJSON?: unknown }).toJSON;
  return typeof toJSON === "function"
    ? resolved(writer, toJSON.call(input, typeof key === "string" ? key : String(key)), margin, days)
    : container(writer, input, margin, days);
}

/** The text of a value `toJSON()` returned (not asked for its own `toJSON()` again). */
function resolved(
  writer: Writer,
  v: unknown,
  margin: string,
  days: ReadonlySet<string> | undefined,
): string | undefined {
  if (typeof v !== "object") return primitiveText(v);
  if (v === null) return "null";
  return Decimal.isDecimal(v) ? v.toString() : container(writer, v, margin, days);
}

/** The text of a value that is not an object; undefined for what JSON omits (undefined, functions, symbols). */
function primitiveText(v: unknown): string | undefined {
  switch (typeof v) {
    case "string":
      return quote(v);
    case "number":
      return numberText(v);
    case "bigint":
      return v.toString();
    case "boolean":
      return v ? "true" : "false";
    default:
      return undefined;
  }
}

/** Boxed primitives as their values; arrays and plain objects member by member. */
function container(
  writer: Writer,
  object: object,
  margin: string,
  days: ReadonlySet<string> | undefined,
): string | undefined {
  // A plain object or array (the usual case) needs none of the boxed-primitive checks.
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) {
    const boxed = boxedText(object);
    if (boxed !== undefined) return boxed;
  }
  const { ancestors } = writer;
  if (ancestors.includes(object)) throw new TypeError("Converting circular structure to JSON");
  ancestors.push(object);
  const text = Array.isArray(object)
    ? arrayText(writer, object, margin)
    : objectText(writer, object as Record<string, unknown>, margin, days);
  ancestors.pop();
  return text;
}

/** A boxed primitive's text (`new Number(3)` → `3`), else undefined. */
function boxedText(object: object): string | undefined {
  if (object instanceof Number) return numberText(Number(object));
  if (object instanceof String) return quote(String(object));
  if (object instanceof Boolean) return object.valueOf() ? "true" : "false";
  if (object instanceof BigInt) return (object as unknown as bigint).valueOf().toString();
  return undefined;
}

const numberText = (n: number): string => (Number.isFinite(n) ? String(n) : "null");

function arrayText(writer: Writer, array: readonly unknown[], margin: string): string {
  if (array.length === 0) return "[]";
  const { indent } = writer;
  const inner = margin + indent;
  const rowDays = dayFieldsOf(array);
  const separator = indent === "" ? "," : `,\n${inner}`;
  let text = indent === "" ? "[" : `[\n${inner}`;
  for (let i = 0; i < array.length; i++) {
    if (i > 0) text += separator;
    text += write(writer, i, array[i], inner, rowDays) ?? "null";
  }
  return indent === "" ? `${text}]` : `${text}\n${margin}]`;
}

function objectText(
  writer: Writer,
  record: Record<string, unknown>,
  margin: string,
  days: ReadonlySet<string> | undefined,
): string {
  const { indent } = writer;
  const inner = margin + indent;
  const separator = indent === "" ? "," : `,\n${inner}`;
  let text = "";
  for (const k of Object.keys(record)) {
    const value = record[k];
    const day = days !== undefined && days.has(k) ? dayTextOf(value) : undefined;
    const item = day === undefined ? write(writer, k, value, inner) : `"${day}"`;
    if (item === undefined) continue;
    text += text === "" ? (indent === "" ? "{" : `{\n${inner}`) : separator;
    text += indent === "" ? quotedKey(k) + item : `${quotedKey(k)} ${item}`;
  }
  if (text === "") return "{}";
  return indent === "" ? `${text}}` : `${text}\n${margin}}`;
}

/**
 * A `JSON.stringify` replacer (e.g. Express `app.set("json replacer", jsonReplacer)`). A replacer
 * can only emit exact raw numbers through `JSON.rawJSON`, which Node 21+ has and Node 20 does not:
 * - with `JSON.rawJSON`: bigint and Decimal become exact JSON numbers;
 * - without it (Node 20): they become strings of their exact digits (lossless, but strings).
 * For exact numbers on every Node version use `toJson`, `sendJson` or the `jsonResponse()` middleware.
 */
export function jsonReplacer(this: unknown, key: string, value: unknown): unknown {
  // JSON.stringify calls toJSON before the replacer, so a Decimal arrives as its string; look at the holder.
  const original = this !== null && typeof this === "object" ? (this as Record<string, unknown>)[key] : value;
  if (typeof original === "bigint") return rawJSON ? rawJSON(original.toString()) : original.toString();
  if (Decimal.isDecimal(original)) return rawJSON ? rawJSON(original.toString()) : original.toString();
  return value;
}

/** True when `jsonReplacer` writes exact numbers on this runtime (`JSON.rawJSON` exists). */
export const jsonReplacerWritesNumbers: boolean = rawJSON !== undefined;
