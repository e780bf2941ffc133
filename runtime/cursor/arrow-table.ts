/**
 * Builds an apache-arrow `Table` column by column from a result's chunks. Arrow types follow the
 * column's value kind; every value is written exactly or the build fails naming column and value:
 *   integer → Int32 (Int64 for unsigned 32-bit type text), bigint → Int64 (values outside int64 fail),
 *   decimal → Decimal128(precision, scale) parsed from the type text (Utf8 of the exact digits when the
 *   type text has no precision/scale or precision > 38), float → Float64, string → Utf8, boolean → Bool,
 *   date → DateDay, timestamp → TimestampMillisecond (timezone "UTC" for zoned types; values are JS
 *   `Date`s, which hold milliseconds).
 */
import type { Builder, DataType, Table, Vector } from "apache-arrow";
import type { ColumnInfo } from "../driver/database-connection.js";
import { LibError } from "../errors.js";
import { Decimal } from "../values/decimal.js";
import type { ArrowApi } from "./load-arrow.js";

const DECIMAL_TYPE = /\b(?:DECIMAL|NUMERIC|NUMBER|DEC)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/i;
const UNSIGNED_32 = /^\s*(?:UINTEGER|UINT32|UINT|INTEGER\s+UNSIGNED|INT\s+UNSIGNED)\s*$/i;
const ZONED = /TIME\s+ZONE|TIMESTAMPTZ|TIMESTAMP_TZ|TIMESTAMP_LTZ/i;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Precision and scale from `DECIMAL(38,2)`-style type text, when present. */
export function decimalPrecisionScale(typeText: string): { precision: number; scale: number } | undefined {
  const m = DECIMAL_TYPE.exec(typeText);
  if (!m) return undefined;
  return { precision: Number(m[1]), scale: Number(m[2] ?? "0") };
}

type FixedArray = Int32Array | BigInt64Array | Float64Array | Uint32Array;

/** Where one column's values go: fixed-width columns fill typed arrays directly, the rest use Arrow builders. */
interface ColumnSink {
  append(rows: readonly unknown[][], index: number): void;
  finish(): Vector;
}

class BuilderSink implements ColumnSink {
  readonly #builder: Builder;
  constructor(
    arrow: ArrowApi,
    type: DataType,
    readonly toArrow: (value: unknown) => unknown,
  ) {
    this.#builder = arrow.makeBuilder({ type, nullValues: [null, undefined] });
  }
  append(rows: readonly unknown[][], index: number): void {
    const builder = this.#builder;
    for (const row of rows) {
      const v = row[index];
      builder.append(v === null || v === undefined ? null : this.toArrow(v));
    }
  }
  finish(): Vector {
    return this.#builder.finish().toVector();
  }
}

/** A fixed-width column written straight into a growing typed array plus a validity bitmap. */
class FixedSink implements ColumnSink {
  #values: FixedArray;
  #validity = new Uint8Array(128);
  #length = 0;
  #nulls = 0;
  constructor(
    readonly arrow: ArrowApi,
    readonly type: DataType,
    readonly make: (size: number) => FixedArray,
    readonly stride: number,
    readonly write: (values: FixedArray, at: number, value: unknown) => void,
  ) {
    this.#values = make(1024 * stride);
  }
  append(rows: readonly unknown[][], index: number): void {
    const needed = (this.#length + rows.length) * this.stride;
    if (needed > this.#values.length) {
      const grown = this.make(Math.max(needed, this.#values.length * 2));
      grown.set(this.#values as never);
      this.#values = grown;
    }
    const bytes = Math.ceil((this.#length + rows.length) / 8);
    if (bytes > this.#validity.length) {
      const grown = new Uint8Array(Math.max(bytes, this.#validity.length * 2));
      grown.set(this.#validity);
      this.#validity = grown;
    }
    const values = this.#values;
    const validity = this.#validity;
    let i = this.#length;
    for (const row of rows) {
      const v = row[index];
      if (v === null || v === undefined) this.#nulls++;
      else {
        validity[i >> 3]! |= 1 << (i & 7);
        this.write(values, i * this.stride, v);
      }
      i++;
    }
    this.#length = i;
  }
  finish(): Vector {
    const length = this.#length;
    return this.arrow.makeVector(
      this.arrow.makeData({
        type: this.type,
        length,
        nullCount: this.#nulls,
        nullBitmap: this.#nulls === 0 ? new Uint8Array(0) : this.#validity.subarray(0, Math.ceil(length / 8)),
        data: this.#values.subarray(0, length * this.stride),
      } as never),
    );
  }
}

function sinkFor(arrow: ArrowApi, column: ColumnInfo): ColumnSink {
  const { Bool, DateDay, Decimal: ArrowDecimal, Float64, Int32, Int64, TimestampMillisecond, Utf8 } = arrow;
  const fail = (value: unknown, why: string): never => {
    throw new LibError(`fetchArrow(): column ${JSON.stringify(column.name)} (${column.type}): value ${String(value)} ${why}`);
  };
  const int64 = (values: FixedArray, at: number, v: unknown): void => {
    const b = typeof v === "bigint" ? v : BigInt(v as number);
    if (b < INT64_MIN || b > INT64_MAX) fail(v, "does not fit Int64");
    values[at] = b as never;
  };
  switch (column.kind) {
    case "integer":
      if (UNSIGNED_32.test(column.type)) return new FixedSink(arrow, new Int64(), (n) => new BigInt64Array(n), 1, int64);
      return new FixedSink(arrow, new Int32(), (n) => new Int32Array(n), 1, (values, at, v) => {
        if (((v as number) | 0) !== v) fail(v, "does not fit Int32");
        values[at] = v as never;
      });
    case "bigint":
      return new FixedSink(arrow, new Int64(), (n) => new BigInt64Array(n), 1, int64);
    case "decimal": {
      const ps = decimalPrecisionScale(column.type);
      if (ps === undefined || ps.precision > 38 || ps.precision < 1 || ps.scale > ps.precision) {
        return new BuilderSink(arrow, new Utf8(), (v) => Decimal.from(v as Decimal).toString());
      }
      const { precision, scale } = ps;
      const limit = 10n ** BigInt(precision);
      let halves: BigUint64Array | undefined;
      return new FixedSink(arrow, new ArrowDecimal(scale, precision, 128), (n) => new Uint32Array(n), 4, (values, at, v) => {
        let unscaled: bigint;
        if (Decimal.isDecimal(v) && v.scale === scale) unscaled = v.unscaled;
        else {
          try {
            unscaled = Decimal.from(v as Decimal).withScale(scale).unscaled;
          } catch {
            return fail(v, `has more than ${scale} fraction digits`);
          }
        }
        if (unscaled >= limit || unscaled <= -limit) fail(v, `does not fit DECIMAL(${precision},${scale})`);
        if (halves?.buffer !== values.buffer) halves = new BigUint64Array(values.buffer, values.byteOffset, values.length / 2);
        // Two's complement of the 128-bit value, low 64 bits first (little-endian words).
        halves[at / 2] = BigInt.asUintN(64, unscaled);
        halves[at / 2 + 1] = BigInt.asUintN(64, unscaled >> 64n);
      });
    }
    case "float":
      return new FixedSink(arrow, new Float64(), (n) => new Float64Array(n), 1, (values, at, v) => {
        values[at] = v as never;
      });
    case "string":
      return new BuilderSink(arrow, new Utf8(), (v) => v);
    case "boolean":
      return new BuilderSink(arrow, new Bool(), (v) => v);
    case "date":
      return new FixedSink(arrow, new DateDay(), (n) => new Int32Array(n), 1, (values, at, v) => {
        if (!(v instanceof Date)) fail(v, "is not a Date");
        values[at] = Math.floor((v as Date).getTime() / 86_400_000) as never;
      });
    case "timestamp":
      return new FixedSink(arrow, new TimestampMillisecond(ZONED.test(column.type) ? "UTC" : null), (n) => new BigInt64Array(n), 1, (values, at, v) => {
        if (!(v instanceof Date)) fail(v, "is not a Date");
        values[at] = BigInt((v as Date).getTime()) as never;
      });
    default:
      throw new LibError(`fetchArrow(): column ${JSON.stringify(column.name)} has type ${column.type}, which has no Arrow mapping in lib`);
  }
}

/** Accumulates chunks column by column, then assembles the `Table`. */
export class ArrowTableBuilder {
  readonly #columns: ColumnInfo[];
  readonly #sinks: ColumnSink[];
  readonly #arrow: ArrowApi;

  /** `arrow`: the module from `loadArrow()`. */
  constructor(columns: readonly ColumnInfo[], arrow: ArrowApi) {
    this.#arrow = arrow;
    const seen = new Set<string>();
    for (const c of columns) {
      if (seen.has(c.name)) throw new LibError(`fetchArrow(): the result has two columns named ${JSON.stringify(c.name)}; an Arrow table needs unique names`);
      seen.add(c.name);
    }
    this.#columns = [...columns];
    this.#sinks = columns.map((c) => sinkFor(arrow, c));
  }

  appendChunk(rows: readonly unknown[][]): void {
    this.#sinks.forEach((sink, i) => sink.append(rows, i));
  }

  finish(): Table {
    const vectors: Record<string, Vector> = {};
    this.#columns.forEach((c, i) => (vectors[c.name] = this.#sinks[i]!.finish()));
    return new this.#arrow.Table(vectors);
  }
}
