/**
 * The result of `query.execute()`: reads one statement's streamed result from a pooled connection
 * that the cursor owns until it is closed (explicitly, at `await using` scope exit, when the result is
 * exhausted, or when a read fails or is cancelled).
 *
 * One read mode per result: the row reads (`fetchOne`/`fetchMany`/`fetchAllRows`, which may be mixed),
 * `into`, `iterInto` and `fetchArrow` are four separate modes; using a second mode throws.
 */
import type { RecordBatch, Table } from "apache-arrow";
import type { Static, TObject } from "typebox";
import type { ColumnInfo, ResultStream, ServedFrom } from "../driver/query-result.js";
import { LibError } from "../errors.js";
import { calendarDayFields, compileRowMapper, type RowMapper } from "../mapping/model-plan.js";
import { dateColumnNames, withDayFields } from "../values/day-columns.js";
import type { IntoOptions, ValidateMode } from "../mapping/validate-mode.js";
import { readArrowTable } from "./arrow-table.js";
import { arrowBatches } from "./arrow-batches.js";
import { ChunkRowIterator } from "./row-iterator.js";
import { modelRows, objectRows, readColumns, rowObjectsFor, validateModeOf } from "./cursor-rows.js";
import { NO_CONNECTION, type CursorConnection } from "./cursor-connection.js";
import type { CancelWatch } from "../driver/cancellation.js";
import { CANCELLED, cancellable } from "./cancellable-read.js";
import { captureOpenSite, unwatchUnclosed, watchUnclosed } from "./unclosed-cursor.js";

type ReadMode = "rows" | "into" | "iterInto" | "arrow" | "stream" | "streamArrow" | "chunks";
type State = "open" | "exhausted" | "closed" | "cancelled";

/** What `#pull` answers at the end (no promise per read of an exhausted cursor). */
const NOTHING: Promise<undefined> = Promise.resolve(undefined);
const NO_ROWS: readonly unknown[][] = Object.freeze([]);

export class Cursor<Row = Record<string, unknown>> implements AsyncDisposable {
  readonly #connection: CursorConnection;
  readonly #stream: ResultStream;
  readonly #iterator: AsyncIterator<unknown[][]>;
  /** Undefined when nothing can cancel this result (no signal, no deadline). */
  readonly #watch: CancelWatch | undefined;
  /** Built by the first row read (into/iterInto/fetchArrow never need it). */
  #rowObject: ((row: readonly unknown[]) => Record<string, unknown>) | undefined;
  #state: State = "open";
  #released: Promise<void> | undefined;
  #mode: ReadMode | undefined;
  #modeMethod = "";
  #buffer: readonly unknown[][] = NO_ROWS;
  #position = 0;
  /** Whether a chunk was asked of the driver (column-major chunks must be asked for before). */
  #started = false;
  #pending: Promise<unknown> | undefined;
  /** Ends the pending read's wait when cancellation fires. */
  #wakeRead: ((cancelled: typeof CANCELLED) => void) | undefined;
  #queue: Promise<unknown> = NOTHING;
  /** Reads queued or running (`#read`). */
  #reads = 0;
  /** Whether the safety net for a never-closed cursor watches this one (it holds a connection). */
  readonly #watched: boolean;

  /**
   * @internal Cursors are made by `execute()` (see `openCursor`). Without a connection (a result
   * served from memory) there is nothing to give back and nothing to warn about.
   */
  constructor(
    connection: CursorConnection | undefined,
    stream: ResultStream,
    watch: CancelWatch | undefined,
    openedAt?: Error,
  ) {
    this.#connection = connection ?? NO_CONNECTION;
    this.#stream = stream;
    this.#iterator = stream[Symbol.asyncIterator]();
    this.#watch = watch;
    // Never closed and garbage-collected: the connection goes back anyway, with a warning.
    this.#watched = connection !== undefined;
    if (connection !== undefined) watchUnclosed(this, { stream, connection }, openedAt ?? captureOpenSite());
    // A cancellation while no read is pending still ends the statement and frees the connection.
    watch?.onFire(() => {
      this.#wakeRead?.(CANCELLED);
      if (this.#pending === undefined && this.#state === "open") {
        this.#state = "cancelled";
        void this.#release().catch(() => undefined);
      }
    });
  }

  /** The result's columns (name, warehouse type text, value kind), in result order. */
  get columns(): readonly ColumnInfo[] {
    return this.#stream.columns;
  }

  /**
   * Where the rows come from: `"warehouse"` (a statement ran for this cursor), `"materialization"` (backend C's
   * built-in engine answered from a declared materialization) or `"cache"` (the engine's result cache).
   */
  get servedFrom(): ServedFrom {
    return this.#stream.servedFrom ?? "warehouse";
  }

  /** True once the connection has been given back (closed, exhausted, failed or cancelled). */
  get closed(): boolean {
    return this.#state !== "open";
  }

  /** The next row, or `undefined` at the end. */
  fetchOne(): Promise<Row | undefined> {
    return this.#read("rows", "fetchOne()", async () => {
      const row = await this.#nextRow();
      return row === undefined ? undefined : (this.#toObject()(row) as Row);
    });
  }

  /** Up to `size` next rows (fewer at the end, `[]` once exhausted). */
  fetchMany(size: number): Promise<Row[]> {
    return this.#read("rows", "fetchMany()", async () => {
      if (!Number.isSafeInteger(size) || size < 1)
        throw new LibError(`fetchMany(size): size must be a positive integer, got ${String(size)}`);
      const rows: Row[] = [];
      const toObject = this.#toObject();
      while (rows.length < size) {
        const row = await this.#nextRow();
        if (row === undefined) break;
        rows.push(toObject(row) as Row);
      }
      return withDayFields(rows, dateColumnNames(this.columns));
    });
  }

  /** Every remaining row as a plain object keyed by column name (columns as own properties, in result order). */
  fetchAllRows(): Promise<Row[]> {
    return this.#read("rows", "fetchAllRows()", async () => {
      const toObject = this.#toObject();
      const held = this.#position < this.#buffer.length ? undefined : this.#heldRows(); // a cache hit: all at once
      if (held !== undefined) return withDayFields(held.map(toObject) as Row[], dateColumnNames(this.columns));
      // Nothing read yet: column-major chunks (fetched one ahead) where the driver gives them.
      const whole = this.#started ? undefined : objectRows<Row>(this.#stream, this.columns, () => toObject);
      if (whole?.columnar === true)
        return withDayFields(await readColumns(this.#next, whole.map), dateColumnNames(this.columns));
      const rows: Row[] = [];
      for (; this.#position < this.#buffer.length; this.#position++)
        rows.push(toObject(this.#buffer[this.#position]!) as Row);
      for (let chunk = this.#heldRows() ?? (await this.#pull()); chunk !== undefined; chunk = await this.#pull()) {
        for (const row of chunk) rows.push(toObject(row) as Row);
      }
      // toJson(rows) writes the DATE columns as the ISO day, as the HTTP answers do.
      return withDayFields(rows, dateColumnNames(this.columns));
    });
  }

  /**
   * One object per row shaped by a TypeBox object model: keys in the model's declaration order,
   * columns matched by name, checked per `validate` (default `"strict"`) before any row is converted.
   * Throws `LibSchemaMismatchError` listing every mismatched field.
   */
  into<M extends TObject>(model: M, options?: IntoOptions): Promise<Static<M>[]> {
    return this.#read("into", "into()", () => {
      try {
        // Row arrays, not columns: sharing iterInto()'s column mappers made it ~50 % slower per row (round 37).
        const mapper = compileRowMapper(model, this.columns, validateModeOf(options, "into()"));
        const held = this.#heldRows();
        if (held === undefined) return this.#intoChunks(model, mapper);
        // Held whole (backend C's aggregates, a cache hit): mapped at once, no async frame, no await for the end.
        return Promise.resolve(withDayFields(held.map(mapper) as Static<M>[], calendarDayFields(model)));
      } catch (error) {
        return Promise.reject(error); // #read closes the cursor, as for a failed read
      }
    });
  }

  /** `into()` of a streamed result: chunk by chunk as the driver gives them. */
  async #intoChunks<M extends TObject>(model: M, mapper: RowMapper): Promise<Static<M>[]> {
    const out: Static<M>[] = [];
    let index = 0;
    for (let chunk = await this.#pull(); chunk !== undefined; chunk = await this.#pull()) {
      for (const row of chunk) out.push(mapper(row, index++) as Static<M>);
    }
    return withDayFields(out, calendarDayFields(model));
  }

  /**
   * Streaming `into()`: rows are read from the driver one chunk at a time as you iterate, so memory
   * stays bounded by a chunk. Leaving the loop early (break/throw) closes the cursor.
   */
  iterInto<M extends TObject>(model: M, options?: IntoOptions): AsyncIterableIterator<Static<M>> {
    this.#enter("iterInto", "iterInto()");
    const mode = validateModeOf(options, "iterInto()");
    return this.#iterate(model, mode);
  }

  /**
   * Every remaining row as a plain object, streamed (Kysely's `stream()`): the chunk being read and at
   * most one fetched ahead in memory (backpressure). Leaving the loop early closes the cursor.
   */
  stream(): AsyncIterableIterator<Row> {
    this.#enter("stream", "stream()");
    return this.#streamRows();
  }

  /** Like `stream()`, one array of row objects per driver chunk (for writers that flush per batch, e.g. NDJSON). */
  streamBatches(): AsyncIterableIterator<Row[]> {
    this.#enter("stream", "streamBatches()");
    return this.#streamBatches();
  }

  /**
   * The result as apache-arrow `RecordBatch`es of up to 65,536 rows (whole driver chunks gathered),
   * streamed with bounded memory (e.g. into `RecordBatchStreamWriter` for Arrow IPC). Same column types as `fetchArrow()`; a result
   * without rows yields one empty batch, so a writer still learns the schema.
   */
  streamArrow(): AsyncIterableIterator<RecordBatch> {
    this.#enter("streamArrow", "streamArrow()");
    return arrowBatches(this.columns, this.#stream, this.#chunks("streamArrow()"), () => this.#closeQuietly());
  }

  /**
   * @internal For writers that serialize whole chunks (the NDJSON answer): the driver's chunks as they
   * arrive, column-major when `columnar` (fixed-width columns as `TypedColumn`s, as `fetchArrow()`
   * reads them), else row arrays. Its own read mode; leaving the loop early closes the cursor.
   */
  streamChunks(): { readonly columnar: boolean; readonly chunks: AsyncGenerator<unknown[][], void, undefined> } {
    this.#enter("chunks", "streamChunks()");
    const columnar = this.#stream.preferColumns?.({ typedArrays: true }) === true;
    return { columnar, chunks: this.#chunks("streamChunks()") };
  }

  /** The whole result as an apache-arrow `Table`, built column by column from the driver's chunks. */
  fetchArrow(): Promise<Table> {
    return this.#read("arrow", "fetchArrow()", () => readArrowTable(this.#stream, this.#next));
  }

  /** Stops reading and returns the connection to the pool. Harmless to call twice. */
  close(): Promise<void> {
    if (this.#state === "open") this.#state = "closed";
    // No read in flight (e.g. `await using` after a whole read): no async frame.
    if (this.#pending === undefined || this.#released !== undefined) return this.#release();
    return this.#closeDuringRead(this.#pending);
  }

  /** A read is in flight (e.g. close() from another task): stop the statement, then let the read settle. */
  async #closeDuringRead(pending: Promise<unknown>): Promise<void> {
    try {
      this.#connection.interrupt();
    } catch {
      // nothing to interrupt
    }
    await pending.catch(() => undefined);
    await this.#release();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #iterate<M extends TObject>(model: M, mode: ValidateMode): AsyncIterableIterator<Static<M>> {
    // The model is checked at the first next(), before any row, even for an empty result.
    return new ChunkRowIterator(
      this.#chunks("iterInto()"),
      () => {
        this.#assertReadable("iterInto()");
        return modelRows<Static<M>>(this.#stream, this.columns, model, mode);
      },
      () => this.#closeQuietly(),
    );
  }

  /** The driver's chunks as they arrive; the cursor closes when the loop ends, however it ends. */
  async *#chunks(method: string): AsyncGenerator<unknown[][], void, undefined> {
    try {
      this.#assertReadable(method);
      for (let chunk = await this.#pull(); chunk !== undefined; chunk = await this.#pull()) yield chunk;
    } finally {
      await this.#closeQuietly();
    }
  }

  async *#streamBatches(): AsyncGenerator<Row[], void, undefined> {
    for await (const chunk of this.#chunks("streamBatches()")) {
      const toObject = this.#toObject();
      yield chunk.map((row) => toObject(row) as Row);
    }
  }

  #streamRows(): AsyncIterableIterator<Row> {
    return new ChunkRowIterator(
      this.#chunks("stream()"),
      () => objectRows<Row>(this.#stream, this.columns, () => this.#toObject()),
      () => this.#closeQuietly(),
    );
  }

  #toObject(): (row: readonly unknown[]) => Record<string, unknown> {
    return (this.#rowObject ??= rowObjectsFor(this.#stream));
  }

  /**
   * A result held in memory (a cache hit, or one the warehouse answered whole: backend C's aggregates)
   * gives every row at once, with no promise per chunk.
   */
  #heldRows(): unknown[][] | undefined {
    if (this.#stream.drain === undefined || this.#watch !== undefined || this.#state !== "open") return undefined;
    const rows = this.#stream.drain();
    this.#state = "exhausted";
    void this.#release(); // nothing to give back: it settles at once
    return rows;
  }

  #enter(mode: ReadMode, method: string): void {
    if (this.#mode === undefined) {
      this.#mode = mode;
      this.#modeMethod = method;
    } else if (this.#mode !== mode) {
      throw new LibError(
        `Cannot call ${method} on this cursor: it was already read with ${this.#modeMethod}. ` +
          "A result supports one read mode: row reads (fetchOne/fetchMany/fetchAllRows), into(), iterInto(), " +
          "fetchArrow(), stream()/streamBatches() or streamArrow().",
      );
    }
  }

  #assertReadable(method: string): void {
    if (this.#state === "closed") throw new LibError(`Cannot call ${method}: the cursor is closed`);
    if (this.#state === "cancelled") throw this.#watch!.error();
  }

  /** Runs one read: mode check, one read at a time, and on any failure the connection goes back before the error surfaces. */
  #read<T>(mode: ReadMode, method: string, body: () => Promise<T>): Promise<T> {
    // `then` rather than an async frame: a read runs once per query.
    const run = (): Promise<T> => {
      try {
        this.#enter(mode, method);
        this.#assertReadable(method);
        return body().then(this.#readDone, this.#readFailed) as Promise<T>;
      } catch (error) {
        this.#reads--;
        return Promise.reject(error);
      }
    };
    // The next read runs after this one however it ends; its caller handles this one's failure. With
    // none queued (the usual single read) it starts at once, without a turn through the queue.
    const result = this.#reads++ === 0 ? run() : this.#queue.then(run, run);
    this.#queue = result;
    return result;
  }

  readonly #readDone = <T>(value: T): T => (this.#reads--, value);
  readonly #readFailed = (error: unknown): Promise<never> =>
    this.#closeQuietly().then(() => (this.#reads--, Promise.reject(error)));

  async #nextRow(): Promise<unknown[] | undefined> {
    while (this.#position >= this.#buffer.length) {
      const chunk = await this.#pull();
      if (chunk === undefined) return undefined;
      this.#buffer = chunk;
      this.#position = 0;
    }
    return this.#buffer[this.#position++];
  }

  /**
   * The next chunk from the driver, or undefined at the end. Without a watch (nothing can cancel
   * the result) one `then` per chunk instead of an async frame: this runs per chunk of every query.
   */
  #pull(): Promise<unknown[][] | undefined> {
    if (this.#watch !== undefined) return this.#pullWatched(this.#watch);
    if (this.#state === "exhausted") return NOTHING;
    try {
      this.#assertReadable("a read");
      this.#started = true;
      const pending = this.#iterator.next();
      this.#pending = pending;
      return pending.then(this.#pulled, this.#pullFailed);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  readonly #next = (): Promise<unknown[][] | undefined> => this.#pull();

  readonly #pulled = (next: IteratorResult<unknown[][]>): unknown[][] | Promise<undefined> => {
    this.#pending = undefined;
    if (this.#state === "closed") throw new LibError("The cursor was closed while a read was in progress");
    if (next.done !== true) return next.value;
    this.#state = "exhausted";
    this.#buffer = NO_ROWS;
    this.#position = 0;
    return this.#release() as Promise<unknown> as Promise<undefined>; // resolves to nothing
  };

  readonly #pullFailed = (error: unknown): never => {
    this.#pending = undefined;
    if (this.#state === "closed") throw new LibError("The cursor was closed while a read was in progress");
    throw error; // #read closes the cursor, then the original error surfaces
  };

  /** `#pull` racing the watch: the read, or the cancellation while it waits. */
  async #pullWatched(watch: CancelWatch): Promise<unknown[][] | undefined> {
    if (this.#state === "exhausted") return undefined;
    this.#assertReadable("a read");
    this.#started = true;
    const pending = this.#iterator.next();
    this.#pending = pending;
    let next: IteratorResult<unknown[][]> | undefined;
    let failure: { readonly error: unknown } | undefined;
    try {
      next = await cancellable(watch, pending, (wake) => (this.#wakeRead = wake));
    } catch (error) {
      failure = { error };
    } finally {
      this.#pending = undefined;
      this.#wakeRead = undefined;
    }
    if (watch.reason !== undefined) {
      this.#state = "cancelled";
      await this.#closeQuietly();
      throw watch.error(failure?.error);
    }
    if (this.#state === "closed") throw new LibError("The cursor was closed while a read was in progress");
    if (failure !== undefined) throw failure.error; // #read closes the cursor, then the original error surfaces
    if (next!.done === true) {
      this.#state = "exhausted";
      this.#buffer = NO_ROWS;
      this.#position = 0;
      await this.#release();
      return undefined;
    }
    return next!.value;
  }

  #release(): Promise<void> {
    if (this.#released === undefined) {
      if (this.#watched) unwatchUnclosed(this);
      this.#watch?.dispose();
      let closed: Promise<void>;
      try {
        closed = this.#stream.close();
      } catch {
        closed = NOTHING; // the statement is being abandoned; the pool resets the connection anyway
      }
      const giveBack = (): Promise<void> => this.#connection.release();
      this.#released = closed.then(giveBack, giveBack);
    }
    return this.#released;
  }

  async #closeQuietly(): Promise<void> {
    if (this.#state === "open") this.#state = "closed";
    try {
      await this.#release();
    } catch {
      // Keep the error that made us close.
    }
  }
}
