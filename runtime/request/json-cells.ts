/**
 * JSON text for one column of a chunk at a time, planned once per result from the column's kind:
 * what `rowJsonWriter` writes for each value, but read straight from a columnar chunk's typed arrays
 * (integers, BIGINT, DOUBLE, DATE days, DECIMAL unscaled values) without making a bigint, `Decimal`
 * or `Date` per value; columns of values (strings, or a driver that reads rows) use the per-value
 * writers of row-json.ts.
 */
import { isTypedColumn, type ColumnInfo, type TypedColumn } from "../driver/query-result.js";
import { decimalPrecisionScale } from "../cursor/arrow-table.js";
import { isoDayOfEpochDays } from "../values/iso-day.js";
import { valueWriterFor, type ValueWriter } from "./row-json.js";

/** Writes rows `[0, count)` of one column as JSON texts into `out`. */
export type CellWriter = (column: readonly unknown[] | TypedColumn, count: number, out: string[]) => void;

type TypedWriter = (column: TypedColumn, count: number, out: string[]) => void;
/** The text of row `r` of `values` (never null: validity is checked before). */
type TypedText = (values: TypedColumn["values"], r: number) => string;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_32 = 4_294_967_296;
/** Within ±2^53 the high word of a 64-bit integer is in [-2^21, 2^21). */
const SAFE_HIGH = 2_097_152;

function typedWriter(text: TypedText): TypedWriter {
  return (column, count, out) => {
    const { values, validity } = column;
    if (validity === null) for (let r = 0; r < count; r++) out[r] = text(values, r);
    else for (let r = 0; r < count; r++) out[r] = (validity[r >> 3]! & (1 << (r & 7))) === 0 ? "null" : text(values, r);
  };
}

/**
 * 64-bit integers read as numbers where that is exact (two 32-bit halves: no bigint made), as bigint
 * beyond ±2^53. `write` gets either.
 */
function int64Writer(write: (value: number | bigint) => string): TypedWriter {
  return (column, count, out) => {
    const values = column.values as BigInt64Array;
    const validity = column.validity;
    const words = LITTLE_ENDIAN ? new Int32Array(values.buffer, values.byteOffset, count * 2) : undefined;
    for (let r = 0; r < count; r++) {
      if (validity !== null && (validity[r >> 3]! & (1 << (r & 7))) === 0) {
        out[r] = "null";
        continue;
      }
      const high = words === undefined ? SAFE_HIGH : words[2 * r + 1]!;
      out[r] =
        high >= -SAFE_HIGH && high < SAFE_HIGH ? write(high * TWO_32 + (words![2 * r]! >>> 0)) : write(values[r]!);
    }
  };
}

/** `Decimal.prototype.toString()` of `unscaled` at `scale` (> 0): plain notation, exactly `scale` fraction digits. */
function decimalText(unscaled: number | bigint, scale: number): string {
  const negative = unscaled < 0;
  let digits = String(negative ? -unscaled : unscaled);
  if (digits.length <= scale) digits = "0".repeat(scale + 1 - digits.length) + digits;
  const cut = digits.length - scale;
  return `${negative ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

const numberText: TypedText = (values, r) => String(values[r]);
const floatText: TypedText = (values, r) => {
  const v = values[r] as number;
  return Number.isFinite(v) ? String(v) : "null";
};
/** Slots of a date column's cache of day texts (a power of two). */
const DAY_SLOTS = 1_024;

/**
 * The JSON text of a DATE column's days. A result's dates repeat (a year spans 366 days), so the
 * texts of recent days are kept in a direct-mapped cache by the day number's low bits: a repeated
 * day costs a compare instead of the civil-from-days arithmetic and a new string.
 */
function dayTexts(): TypedText {
  const days = new Float64Array(DAY_SLOTS).fill(Number.NaN); // NaN equals no day: every slot starts empty
  const texts = new Array<string>(DAY_SLOTS).fill("");
  return (values, r) => {
    const day = values[r] as number;
    const slot = day & (DAY_SLOTS - 1);
    if (days[slot] === day) return texts[slot]!;
    const iso = isoDayOfEpochDays(day);
    const text = iso === undefined ? "null" : `"${iso}"`;
    days[slot] = day;
    texts[slot] = text;
    return text;
  };
}

/** The writer of a typed column of `column`'s kind, or undefined when the kind has no typed form. */
function typedWriterFor(column: ColumnInfo): TypedWriter | undefined {
  switch (column.kind) {
    case "integer":
      return typedWriter(numberText);
    case "bigint":
      return int64Writer(String);
    case "float":
      return typedWriter(floatText);
    case "date":
      return typedWriter(dayTexts());
    case "decimal": {
      const scale = decimalPrecisionScale(column.type)?.scale;
      if (scale === undefined || scale === 0) return undefined;
      const text = (unscaled: number | bigint) => decimalText(unscaled, scale);
      const narrow = typedWriter((values, r) => text(values[r] as number));
      const wide = int64Writer(text);
      return (typed, count, out) => (typed.values instanceof BigInt64Array ? wide : narrow)(typed, count, out);
    }
    default:
      return undefined;
  }
}

function valuesWriter(write: ValueWriter): (values: readonly unknown[], count: number, out: string[]) => void {
  return (values, count, out) => {
    for (let r = 0; r < count; r++) {
      const v = values[r];
      out[r] = v === null || v === undefined ? "null" : write(v);
    }
  };
}

/** The cell writer of one column of a columnar chunk: typed arrays when the driver gave them, else values. */
export function cellWriterFor(column: ColumnInfo): CellWriter {
  const typed = typedWriterFor(column);
  const values = valuesWriter(valueWriterFor(column.kind));
  return (cells, count, out) => {
    if (!isTypedColumn(cells)) return values(cells, count, out);
    if (typed === undefined) {
      throw new TypeError(`column ${JSON.stringify(column.name)} (${column.type}) arrived as a typed array`);
    }
    typed(cells, count, out);
  };
}
