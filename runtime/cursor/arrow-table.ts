/**
 * Builds an apache-arrow `Table` column by column from a result's chunks. Arrow types follow the
 * column's value kind; every value is written exactly or the build fails naming column and value:
 *   integer → Int32 (Int64 for unsigned 32-bit type text), bigint → Int64 (values outside int64 fail),
 *   decimal → Decimal128(precision, scale) parsed from the type text (Utf8 of the exact digits when the
 *   type text has no precision/scale or precision > 38), float → Float64, string → Utf8, boolean → Bool,
 *   date → DateDay, timestamp → TimestampMillisecond (timezone "UTC" for zoned types; values are JS
 *   `Date`s, which hold milliseconds).
 */
import type { RecordBatch, Schema, Table } from "apache-arrow";
import { isTypedColumn, type ColumnInfo, type ResultStream, type TypedColumn } from "../driver/query-result.js";
import { LibError } from "../errors.js";
import { Decimal } from "../values/decimal.js";
import { BuilderSink, FixedSink, Utf8Sink, type ColumnSink, type FixedArray, type TypedCopy } from "./arrow-sinks.js";
import { arrow, loadArrow } from "./load-arrow.js";

const DECIMAL_TYPE = /\b(?:DECIMAL|NUMERIC|NUMBER|DEC)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/i;
const UNSIGNED_32 = /^\s*(?:UINTEGER|UINT32|UINT|INTEGER\s+UNSIGNED|INT\s+UNSIGNED)\s*$/i;
const ZONED = /TIME\s+ZONE|TIMESTAMPTZ|TIMESTAMP_TZ|TIMESTAMP_LTZ/i;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Same layout on both sides (Int32 → Int32, Int64 → Int64, Float64 → Float64): one `set`. */
const sameLayout: TypedCopy = (values, at, column) => values.set(column.values as never, at);

/** Unscaled 32- or 64-bit integers to Decimal128's four little-endian 32-bit words, sign-extended. */
const decimalWords: TypedCopy = (values, at, column) => {
  const out = values as Uint32Array;
  const source = column.values;
  const n = column.length;
  if (source instanceof BigInt64Array) {
    const words = new Int32Array(source.buffer, source.byteOffset, n * 2);
    for (let i = 0, o = at; i < n; i++, o += 4) {
      const high = words[2 * i + 1]!;
      out[o] = words[2 * i]!;
      out[o + 1] = high;
      out[o + 2] = out[o + 3] = high >> 31;
    }
  } else {
    for (let i = 0, o = at; i < n; i++, o += 4) {
      const value = source[i] as number;
      out[o] = value;
      out[o + 1] = out[o + 2] = out[o + 3] = value >> 31;
    }
  }
};

/** Precision and scale from `DECIMAL(38,2)`-style type text, when present. */
export function decimalPrecisionScale(typeText: string): { precision: number; scale: number } | undefined {
  const m = DECIMAL_TYPE.exec(typeText);
  if (!m) return undefined;
  return { precision: Number(m[1]), scale: Number(m[2] ?? "0") };
}

function sinkFor(column: ColumnInfo): ColumnSink {
  const { Bool, DateDay, Decimal: ArrowDecimal, Float64, Int32, Int64, TimestampMillisecond, Utf8 } = arrow();
  const fail = (value: unknown, why: string): never => {
    throw new LibError(
      `fetchArrow(): column ${JSON.stringify(column.name)} (${column.type}): value ${String(value)} ${why}`,
    );
  };
  const int64 = (values: FixedArray, at: number, v: unknown): void => {
    const b = typeof v === "bigint" ? v : BigInt(v as number);
    if (b < INT64_MIN || b > INT64_MAX) fail(v, "does not fit Int64");
    values[at] = b as never;
  };
  switch (column.kind) {
    case "integer":
      if (UNSIGNED_32.test(column.type)) return new FixedSink(new Int64(), (n) => new BigInt64Array(n), 1, int64);
      return new FixedSink(
        new Int32(),
        (n) => new Int32Array(n),
        1,
        (values, at, v) => {
          if (((v as number) | 0) !== v) fail(v, "does not fit Int32");
          values[at] = v as never;
        },
        sameLayout,
      );
    case "bigint":
      return new FixedSink(new Int64(), (n) => new BigInt64Array(n), 1, int64, sameLayout);
    case "decimal": {
      const ps = decimalPrecisionScale(column.type);
      if (ps === undefined || ps.precision > 38 || ps.precision < 1 || ps.scale > ps.precision) {
        return new BuilderSink(new Utf8(), (v) => Decimal.from(v as Decimal).toString());
      }
      const { precision, scale } = ps;
      const limit = 10n ** BigInt(precision);
      let halves: BigInt64Array | undefined;
      return new FixedSink(
        new ArrowDecimal(scale, precision, 128),
        (n) => new Uint32Array(n),
        4,
        (values, at, v) => {
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
          if (halves?.buffer !== values.buffer)
            halves = new BigInt64Array(values.buffer, values.byteOffset, values.length / 2);
          // Two's complement of the 128-bit value, low 64 bits first (little-endian words). A typed
          // array store wraps to 64 bits by itself; the high word is the sign unless the value is wider.
          halves[at / 2] = unscaled;
          halves[at / 2 + 1] =
            unscaled >= INT64_MIN && unscaled <= INT64_MAX ? (unscaled < 0n ? -1n : 0n) : unscaled >> 64n;
        },
        decimalWords,
      );
    }
    case "float":
      return new FixedSink(
        new Float64(),
        (n) => new Float64Array(n),
        1,
        (values, at, v) => {
          values[at] = v as never;
        },
        sameLayout,
      );
    case "string":
      return new Utf8Sink((v) => (typeof v === "string" ? v : fail(v, "is not a string")));
    case "boolean":
      return new BuilderSink(new Bool(), (v) => v);
    case "date":
      return new FixedSink(
        new DateDay(),
        (n) => new Int32Array(n),
        1,
        (values, at, v) => {
          if (!(v instanceof Date)) fail(v, "is not a Date");
          values[at] = Math.floor((v as Date).getTime() / 86_400_000) as never;
        },
        sameLayout,
      );
    case "timestamp":
      return new FixedSink(
        new TimestampMillisecond(ZONED.test(column.type) ? "UTC" : null),
        (n) => new BigInt64Array(n),
        1,
        (values, at, v) => {
          if (!(v instanceof Date)) fail(v, "is not a Date");
          values[at] = BigInt((v as Date).getTime()) as never;
        },
      );
    default:
      throw new LibError(
        `fetchArrow(): column ${JSON.stringify(column.name)} has type ${column.type}, which has no Arrow mapping in lib`,
      );
  }
}

/**
 * Accumulates chunks column by column, then assembles a `RecordBatch` or a `Table`. Every field is
 * nullable (as DuckDB's own Arrow export marks result columns), whatever a batch holds, so all the
 * batches of one result share one schema: an IPC writer given a batch whose schema differs would
 * start a new stream.
 */
export class ArrowTableBuilder {
  readonly #sinks: ColumnSink[];
  readonly #names: string[];
  /** The result's schema; pass it on to the next batch's builder (`{ schema }`) to share it. */
  readonly schema: Schema;

  /**
   * With `rows`, every column's buffers are sized for that many rows up front (a stream's batch);
   * with `schema` (a previous builder's, same columns), batches share that schema object.
   */
  constructor(columns: readonly ColumnInfo[], options: { readonly rows?: number; readonly schema?: Schema } = {}) {
    const seen = new Set<string>();
    for (const c of columns) {
      if (seen.has(c.name))
        throw new LibError(
          `fetchArrow(): the result has two columns named ${JSON.stringify(c.name)}; an Arrow table needs unique names`,
        );
      seen.add(c.name);
    }
    this.#names = columns.map((c) => c.name);
    this.#sinks = columns.map(sinkFor);
    const { Field, Schema } = arrow();
    this.schema =
      options.schema ?? new Schema(this.#sinks.map((sink, i) => new Field(this.#names[i]!, sink.type, true)));
    if (options.rows !== undefined) for (const sink of this.#sinks) sink.reserve(options.rows);
  }

  /** Appends a chunk of row arrays. */
  appendChunk(rows: readonly unknown[][]): void {
    this.#sinks.forEach((sink, i) => sink.append(rows.map((row) => row[i])));
  }

  /**
   * Appends a chunk given column by column, as a columnar driver reads it: per column an array of
   * values, or a `TypedColumn` copied whole into a fixed-width column.
   */
  appendColumns(columns: readonly (readonly unknown[] | TypedColumn)[]): void {
    if (columns.length !== this.#sinks.length)
      throw new LibError(`fetchArrow(): a chunk has ${columns.length} columns, the result ${this.#sinks.length}`);
    this.#sinks.forEach((sink, i) => {
      const column = columns[i]!;
      if (!isTypedColumn(column)) sink.append(column);
      else if (sink instanceof FixedSink) sink.appendTyped(column);
      else throw new LibError(`fetchArrow(): column ${JSON.stringify(this.#names[i])} cannot take typed values`);
    });
  }

  /** Everything appended, as one record batch of `schema`. */
  finishBatch(): RecordBatch {
    const { makeData, RecordBatch, Struct } = arrow();
    const children = this.#sinks.map((sink) => sink.finish());
    const length = children[0]?.length ?? 0;
    return new RecordBatch(
      this.schema,
      makeData({ type: new Struct(this.schema.fields), length, nullCount: 0, children }),
    );
  }

  /** Everything appended, as a table of one record batch. */
  finish(): Table {
    return new (arrow().Table)(this.schema, this.finishBatch());
  }
}

/** `fetchArrow()`: the whole result as a `Table` from its remaining chunks (`pull` gives the next, undefined at the end). */
export async function readArrowTable(
  stream: ResultStream,
  pull: () => Promise<unknown[][] | undefined>,
): Promise<Table> {
  await loadArrow();
  const builder = new ArrowTableBuilder(stream.columns);
  // Columnar in, columnar out when the driver reads columns (DuckDB does): no row arrays in
  // between, and fixed-width columns copied whole as typed arrays.
  const columnar = stream.preferColumns?.({ typedArrays: true }) === true;
  for (let chunk = await pull(); chunk !== undefined; chunk = await pull()) {
    if (columnar) builder.appendColumns(chunk as readonly (readonly unknown[] | TypedColumn)[]);
    else builder.appendChunk(chunk);
  }
  return builder.finish();
}
