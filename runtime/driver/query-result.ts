/**
 * What a driver hands back: result columns with their value kinds, whole results and streamed
 * ones, values already normalized to the library's value types (README "How values arrive").
 * Cursors, `into()`, Arrow building and codegen read these shapes.
 */
import { rowObjectBuilder } from "./row-objects.js";

/** How a column's values arrive in JavaScript. Drives `into()` type checks and Arrow building. */
export type ValueKind =
  | "integer" // 8/16/32-bit integers: number
  | "bigint" // 64-bit and wider integers: bigint
  | "decimal" // fixed-point with scale > 0: Decimal
  | "float" // floating point: number
  | "string"
  | "boolean"
  | "date" // Date at UTC midnight
  | "timestamp" // Date
  | "other"; // anything else (lists, structs, blobs, ...): passed through as the driver gives it

export interface ColumnInfo {
  /** Column name as the result names it (the field name for semantic queries). */
  readonly name: string;
  /** The warehouse's type text, e.g. `BIGINT`, `DECIMAL(38,2)`, `NUMBER(38,0)`. */
  readonly type: string;
  readonly kind: ValueKind;
}

/** A fully read result: rows are arrays in column order, values normalized. */
export interface QueryResult {
  readonly columns: readonly ColumnInfo[];
  readonly rows: readonly unknown[][];
  /** The warehouse's id of the statement (Snowflake query id, Databricks statement id), when it has one. */
  readonly queryId?: string | undefined;
}

/**
 * Where a cursor's rows came from: the warehouse ran the statement; backend C's built-in engine
 * answered it from a declared materialization (a pre-aggregated table); or the engine's result cache
 * served them (a stored result, or the statement of an identical request in flight).
 */
export type ServedFrom = "warehouse" | "materialization" | "cache";

/** A streamed result: the columns are known up front, the rows arrive in chunks. */
export interface ResultStream extends AsyncIterable<unknown[][]> {
  readonly columns: readonly ColumnInfo[];
  /** Set by a driver that answered from somewhere other than the warehouse's tables (default `"warehouse"`). */
  readonly servedFrom?: ServedFrom | undefined;
  /** The warehouse's id of the statement, when it has one (see {@link QueryResult.queryId}). */
  readonly queryId?: string | undefined;
  /** Stops reading; further iteration ends. Idempotent. */
  close(): Promise<void>;
  /**
   * Optional, for columnar readers such as `fetchArrow()`: from the next chunk on, deliver each chunk
   * column-major (one array of normalized values per column) instead of as rows; with `typedArrays`,
   * a fixed-width column may arrive as a `TypedColumn` instead. Returns false when the driver
   * cannot, and chunks stay row arrays.
   */
  preferColumns?(options?: { readonly typedArrays?: boolean }): boolean;
  /**
   * Optional, for a result held in memory (the result cache's, or one the warehouse answered whole
   * before this stream was handed out: backend C's aggregates): every remaining row at once, without
   * a promise per chunk; the stream is then at its end. Absent on streams that still read from a
   * warehouse. The array may be shared with other readers: read it, never change it.
   */
  drain?(): unknown[][];
  /**
   * Optional, for a result held in memory: a row-object builder (row array → object keyed by column
   * name, columns as own properties in result order) that every reader of the result shares; undefined
   * when the reader should make its own.
   */
  rowObjects?(): ((row: readonly unknown[]) => Record<string, unknown>) | undefined;
  /**
   * Optional: `observer.noteError(error)` is called with every failed chunk read's error (a fetch or
   * a conversion) before the read rejects with it, so a pooled connection reports failures to its
   * pool without wrapping the stream. Called at most once per stream.
   */
  observeReadFailures?(observer: ReadFailureObserver): void;
}

/** Hears a stream's failed reads (a connection pool: a disconnect invalidates it). */
export interface ReadFailureObserver {
  noteError(error: unknown): unknown;
}

/**
 * One column of a columnar chunk as the driver holds it, no value converted: `values` holds one
 * value per row in the representation of the column's kind — integer (types within 32 bits): an
 * 8-, 16- or 32-bit integer array; bigint (64-bit signed only): BigInt64Array; float: Float32Array
 * or Float64Array; date: Int32Array of days since 1970-01-01; decimal: the unscaled values at the
 * type's scale, a 16-, 32- or 64-bit integer array. `validity` has bit `i % 8` of byte `i >> 3` set
 * when row `i` is not null (Arrow's layout); null when no row is null. Values under a null are
 * unspecified. Both may be views of the driver's buffers: read them, never write or keep them.
 */
export interface TypedColumn {
  readonly typed: true;
  readonly values:
    Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | BigInt64Array | Float32Array | Float64Array;
  readonly validity: Uint8Array | null;
  readonly length: number;
}

/** Whether a column of a columnar chunk is a `TypedColumn` (else an array of normalized values). */
export function isTypedColumn(column: unknown): column is TypedColumn {
  return (column as Partial<TypedColumn> | null)?.typed === true;
}

/** Turns row arrays into objects keyed by column name (a later duplicate name wins; `__proto__` is a column too). */
export function rowsToObjects(result: {
  readonly columns: readonly { readonly name: string }[];
  readonly rows: readonly (readonly unknown[])[];
}): Record<string, unknown>[] {
  return result.rows.map(rowObjectBuilder(result.columns.map((c) => c.name)));
}
