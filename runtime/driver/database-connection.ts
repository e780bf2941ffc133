/**
 * What a backend driver provides: physical connections that run SQL and hand back values already
 * normalized to the library's value types (README "How values arrive"). The engine pools these;
 * cursors stream from them. Drivers map their own errors to `WarehouseError` subclasses.
 */

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

/** A streamed result: the columns are known up front, the rows arrive in chunks. */
export interface ResultStream extends AsyncIterable<unknown[][]> {
  readonly columns: readonly ColumnInfo[];
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
}

/**
 * One column of a columnar chunk copied straight from the driver's memory, no value converted:
 * `values` holds one value per row in the representation of the column's kind — integer (types
 * within 32 bits): Int32Array; bigint (64-bit signed only): BigInt64Array; float: Float64Array;
 * date: Int32Array of days since 1970-01-01; decimal: the unscaled values at the type's scale,
 * Int32Array or BigInt64Array. `validity` has bit `i % 8` of byte `i >> 3` set when row `i` is not
 * null (Arrow's layout); null when no row is null. Values under a null are unspecified.
 */
export interface TypedColumn {
  readonly typed: true;
  readonly values: Int32Array | BigInt64Array | Float64Array;
  readonly validity: Uint8Array | null;
  readonly length: number;
}

/** Whether a column of a columnar chunk is a `TypedColumn` (else an array of normalized values). */
export function isTypedColumn(column: unknown): column is TypedColumn {
  return (column as Partial<TypedColumn> | null)?.typed === true;
}

export interface StreamOptions {
  /** Rows per chunk the driver should aim for (a hint; DuckDB reads whole 2048-row vectors). */
  readonly chunkRows?: number;
  /** What the statement reads, for warehouses that tag statements for cost attribution (backend A's QUERY_TAG). */
  readonly label?: StatementLabel | undefined;
}

/** A semantic query's view and selected field names: never a value. */
export interface StatementLabel {
  readonly view: string;
  readonly fields: readonly string[];
}

/** One physical connection. Not safe for concurrent statements: the pool hands it to one user at a time. */
export interface DatabaseConnection {
  /** When this physical connection was opened (ms since epoch), for `recycle`. */
  readonly createdAt: number;
  /** Runs SQL (one or several statements) and reads the whole result of the last one. */
  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult>;
  /** Runs one statement and streams its result. Hold the connection until the stream is closed. */
  stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream>;
  /** Cancels the statement that is running now, if any; the connection stays usable. */
  interrupt(): void;
  /** A cheap liveness check; resolves false (never rejects) when the connection is dead. */
  ping(): Promise<boolean>;
  /**
   * A local, synchronous check the pool makes at every checkout and return: true when the
   * connection knows it must not be reused (e.g. its database file was deleted or replaced).
   */
  isStale?(): boolean;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Brings the connection back to a clean state for the next user (rolls back an open transaction). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Opens physical connections for one configured backend; owns shared state such as a DuckDB instance. */
export interface Driver {
  openConnection(): Promise<DatabaseConnection>;
  /**
   * Whether an error raised on one of its connections means "this connection is dead" (network
   * gone, session unknown to the server, database invalidated), as opposed to a statement the
   * warehouse rejected: SQLAlchemy's `is_disconnect`. The pool then invalidates its connections.
   */
  isDisconnect?(error: unknown): boolean;
  /** Releases shared state after every connection has been closed. */
  destroy(): Promise<void>;
}
