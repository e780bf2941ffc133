/**
 * Lossless JSON. `toJson()` works like `JSON.stringify()` except that `bigint` and `Decimal` are
 * written as exact JSON numbers (`9223372036854775807`, `12345678901234567890.123456789`): no
 * rounding through doubles, no quoting, no `TypeError` on bigint. Dates use their `toJSON()` (ISO text),
 * except in the DATE fields of result rows, which are written as the ISO day (`"2024-02-29"`, see
 * day-columns.ts); other objects' `toJSON()` methods are honoured, non-finite numbers become `null`,
 * and cycles throw.
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

/** Serializes `value` to JSON text, writing bigint and Decimal values as exact JSON numbers. */
export function toJson(value: unknown, space?: string | number): string {
  const indent = indentOf(space);
  const ancestors: object[] = [];

  // A bigint is always written as digits, even if someone patched BigInt.prototype.toJSON.
  // Returns undefined for values JSON omits (undefined, functions, symbols), as JSON.stringify does.
  // `days`: the calendar-day fields of the row `input` (an item of an array of result rows).
  const write = (key: string, input: unknown, margin: string, days?: ReadonlySet<string>): string | undefined => {
    let v = input;
    if (typeof v === "object" && v !== null && !Decimal.isDecimal(v)) {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") v = toJSON.call(v, key);
    }
    if (v === null) return "null";
    switch (typeof v) {
      case "string":
        return JSON.stringify(v);
      case "number":
        return Number.isFinite(v) ? String(v) : "null";
      case "boolean":
        return v ? "true" : "false";
      case "bigint":
        return v.toString();
      case "undefined":
      case "function":
      case "symbol":
        return undefined;
      default:
        break;
    }
    const object = v as object;
    if (Decimal.isDecimal(object)) return object.toString();
    if (object instanceof Number) return write(key, Number(object), margin);
    if (object instanceof String) return JSON.stringify(String(object));
    if (object instanceof Boolean) return object.valueOf() ? "true" : "false";
    if (object instanceof BigInt) return (object as unknown as bigint).valueOf().toString();
    if (ancestors.includes(object)) throw new TypeError("Converting circular structure to JSON");
    ancestors.push(object);
    const inner = margin + indent;
    const open = indent === "" ? "" : `\n${inner}`;
    const separator = indent === "" ? "," : `,\n${inner}`;
    const close = indent === "" ? "" : `\n${margin}`;
    let text: string;
    if (Array.isArray(object)) {
      const items: string[] = [];
      const rowDays = dayFieldsOf(object);
      for (let i = 0; i < object.length; i++) items.push(write(String(i), object[i], inner, rowDays) ?? "null");
      text = items.length === 0 ? "[]" : `[${open}${items.join(separator)}${close}]`;
    } else {
      const record = object as Record<string, unknown>;
      const members: string[] = [];
      for (const k of Object.keys(record)) {
        const day = days?.has(k) === true ? dayTextOf(record[k]) : undefined;
        const item = day === undefined ? write(k, record[k], inner) : `"${day}"`;
        if (item !== undefined) members.push(`${JSON.stringify(k)}:${indent === "" ? "" : " "}${item}`);
      }
      text = members.length === 0 ? "{}" : `{${open}${members.join(separator)}${close}}`;
    }
    ancestors.pop();
    return text;
  };

  const out = write("", value, "");
  if (out === undefined) throw new TypeError(`toJson: a top-level ${typeof value} has no JSON form`);
  return out;
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
