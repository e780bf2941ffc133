/**
 * The lossless JSON writer as it was before it was rewritten for speed (r34), kept unchanged as the
 * oracle `test/values/json-writer-corpus.test.ts` compares `toJson` with: the rewrite must write
 * exactly the same text for every value.
 */
import { Decimal } from "../../runtime/values/decimal.js";
import { dayFieldsOf, dayTextOf } from "../../runtime/values/day-columns.js";

function indentOf(space: string | number | undefined): string {
  if (typeof space === "number") return " ".repeat(Math.max(0, Math.min(10, Math.floor(space))));
  if (typeof space === "string") return space.slice(0, 10);
  return "";
}

/** The pre-r34 `toJson`: serializes `value`, writing bigint and Decimal values as exact JSON numbers. */
export function referenceToJson(value: unknown, space?: string | number): string {
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
