/**
 * Bytes a cached result keeps alive, measured from its values (V8's layout, approximately): what
 * bounds a result cache by memory rather than by entry count. Strings count two bytes a character
 * (the worst case of V8's one- and two-byte strings), numbers as heap numbers, bigints by their
 * digits, containers by their slots plus their contents.
 */
import { Decimal } from "../values/decimal.js";

const SLOT = 8;
const HEADER = 16;

/** Bytes of one value as the cache holds it. */
export function measureValue(value: unknown): number {
  switch (typeof value) {
    case "number":
    case "boolean":
    case "undefined":
      return HEADER;
    case "string":
      return HEADER + 2 * value.length;
    case "bigint":
      return BigInt.asIntN(64, value) === value
        ? HEADER + SLOT
        : HEADER + SLOT * Math.ceil((value < 0n ? -value : value).toString(16).length / 16);
    case "object":
      return value === null ? 0 : measureObject(value);
    default:
      return HEADER;
  }
}

function measureObject(value: object): number {
  if (value instanceof Date) return 3 * HEADER;
  if (Decimal.isDecimal(value)) return 3 * HEADER + measureValue(value.unscaled);
  if (ArrayBuffer.isView(value)) return 4 * HEADER + value.byteLength;
  if (Array.isArray(value)) {
    let bytes = HEADER + SLOT * value.length;
    for (const item of value) bytes += measureValue(item);
    return bytes;
  }
  let bytes = 2 * HEADER;
  for (const [key, item] of Object.entries(value)) bytes += SLOT + HEADER + 2 * key.length + measureValue(item);
  return bytes;
}

/** Bytes of one chunk of row arrays. */
export function measureRows(rows: readonly (readonly unknown[])[]): number {
  let bytes = HEADER + SLOT * rows.length;
  for (const row of rows) {
    bytes += HEADER + SLOT * row.length;
    for (let i = 0; i < row.length; i++) bytes += measureValue(row[i]);
  }
  return bytes;
}
