/**
 * Builds an apache-arrow `Table` column by column from a result's chunks. Arrow types follow the
 * column's value kind; every value is written exactly or the build fails naming column and value:
 *   integer → Int32 (Int64 for unsigned 32-bit type text), bigint → Int64 (values outside int64 fail),
 *   decimal → Decimal128(precision, scale) parsed from the type text (Utf8 of the exact digits when the
 *   type text has no precision/scale or precision > 38), float → Float64, string → Utf8, boolean → Bool,
 *   date → DateDay, timestamp → TimestampMillisecond (timezone "UTC" for zoned types; values are JS
 *   `Date`s, which hold milliseconds).
 */
import {
  Bool,
  DateDay,
  Decimal as ArrowDecimal,
  Float64,
  Int32,
  Int64,
  makeBuilder,
  Table,
  TimestampMillisecond,
  Utf8,
  type Builder,
  type DataType,
  type Vector,
} from "apache-arrow";
import type { ColumnInfo } from "../driver/database-connection.js";
import { LibError } from "../errors.js";
import { Decimal } from "../values/decimal.js";

const DECIMAL_TYPE = /\b(?:DECIMAL|NUMERIC|NUMBER|DEC)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/i;
const UNSIGNED_32 = /^\s*(?:UINTEGER|UINT32|UINT|INTEGER\s+UNSIGNED|INT\s+UNSIGNED)\s*$/i;
const ZONED = /TIME\s+ZONE|TIMESTAMPTZ|TIMESTAMP_TZ|TIMESTAMP_LTZ/i;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TWO_128 = 2n ** 128n;

/** Precision and scale from `DECIMAL(38,2)`-style type text, when present. */
export function decimalPrecisionScale(typeText: string): { precision: number; scale: number } | undefined {
  const m = DECIMAL_TYPE.exec(typeText);
  if (!m) return undefined;
  return { precision: Number(m[1]), scale: Number(m[2] ?? "0") };
}

class ColumnBuild {
  readonly builder: Builder;
  readonly toArrow: (value: unknown) => unknown;

  constructor(readonly column: ColumnInfo) {
    const fail = (value: unknown, why: string): never => {
      throw new LibError(`fetchArrow(): column ${JSON.stringify(column.name)} (${column.type}): value ${String(value)} ${why}`);
    };
    let type: DataType;
    let toArrow: (value: unknown) => unknown = (v) => v;
    switch (column.kind) {
      case "integer":
        if (UNSIGNED_32.test(column.type)) {
          type = new Int64();
          toArrow = (v) => BigInt(v as number);
        } else {
          type = new Int32();
          toArrow = (v) => ((v as number) | 0) === v ? v : fail(v, "does not fit Int32");
        }
        break;
      case "bigint":
        type = new Int64();
        toArrow = (v) => {
          const b = typeof v === "bigint" ? v : BigInt(v as number);
          return b < INT64_MIN || b > INT64_MAX ? fail(v, "does not fit Int64") : b;
        };
        break;
      case "decimal": {
        const ps = decimalPrecisionScale(column.type);
        if (ps === undefined || ps.precision > 38 || ps.precision < 1 || ps.scale > ps.precision) {
          type = new Utf8();
          toArrow = (v) => Decimal.from(v as Decimal).toString();
          break;
        }
        const { precision, scale } = ps;
        const limit = 10n ** BigInt(precision);
        const words = new Uint32Array(4);
        type = new ArrowDecimal(scale, precision, 128);
        toArrow = (v) => {
          let unscaled: bigint;
          try {
            unscaled = Decimal.from(v as Decimal).withScale(scale).unscaled;
          } catch {
            return fail(v, `has more than ${scale} fraction digits`);
          }
          if (unscaled >= limit || unscaled <= -limit) fail(v, `does not fit DECIMAL(${precision},${scale})`);
          let u = unscaled < 0n ? TWO_128 + unscaled : unscaled;
          for (let i = 0; i < 4; i++) {
            words[i] = Number(u & 0xffffffffn);
            u >>= 32n;
          }
          return words; // the builder copies the words, so one buffer serves every value
        };
        break;
      }
      case "float":
        type = new Float64();
        break;
      case "string":
        type = new Utf8();
        break;
      case "boolean":
        type = new Bool();
        break;
      case "date":
        type = new DateDay();
        break;
      case "timestamp":
        type = new TimestampMillisecond(ZONED.test(column.type) ? "UTC" : null);
        toArrow = (v) => (v instanceof Date ? v.getTime() : fail(v, "is not a Date"));
        break;
      default:
        throw new LibError(`fetchArrow(): column ${JSON.stringify(column.name)} has type ${column.type}, which has no Arrow mapping in lib`);
    }
    this.builder = makeBuilder({ type, nullValues: [null, undefined] });
    this.toArrow = toArrow;
  }

  append(rows: readonly unknown[][], index: number): void {
    const { builder, toArrow } = this;
    for (const row of rows) {
      const v = row[index];
      builder.append(v === null || v === undefined ? null : toArrow(v));
    }
  }
}

/** Accumulates chunks column by column, then assembles the `Table`. */
export class ArrowTableBuilder {
  readonly #columns: ColumnBuild[];

  constructor(columns: readonly ColumnInfo[]) {
    const seen = new Set<string>();
    for (const c of columns) {
      if (seen.has(c.name)) throw new LibError(`fetchArrow(): the result has two columns named ${JSON.stringify(c.name)}; an Arrow table needs unique names`);
      seen.add(c.name);
    }
    this.#columns = columns.map((c) => new ColumnBuild(c));
  }

  appendChunk(rows: readonly unknown[][]): void {
    this.#columns.forEach((c, i) => c.append(rows, i));
  }

  finish(): Table {
    const vectors: Record<string, Vector> = {};
    for (const c of this.#columns) vectors[c.column.name] = c.builder.finish().toVector();
    return new Table(vectors);
  }
}
