/**
 * The row-by-row streaming reads (`iterInto()`, `stream()`): an async iterator over the rows of the
 * driver's chunks, one chunk held at a time. Written by hand rather than as an async generator: a
 * row of the chunk in hand is answered with an already-resolved promise, without the generator's
 * queue and extra microtask turns per `yield` (a tenth of a microsecond a row that would dominate
 * the cost of streaming millions of rows). The next chunk is asked of the cursor only when the loop needs it
 * (the driver may have fetched it ahead).
 */

/** Reads one row of a chunk: the chunk, the row's position in it, the row's index in the result. */
export type ChunkRowMapper<T> = (chunk: readonly (readonly unknown[])[], position: number, index: number) => T;

/** How the rows of each chunk are read: `columnar` chunks hold one array per column (the driver was asked for columns). */
export interface ChunkRows<T> {
  readonly map: ChunkRowMapper<T>;
  readonly columnar: boolean;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

export class ChunkRowIterator<T> implements AsyncIterableIterator<T> {
  readonly #chunks: AsyncGenerator<unknown[][], void, undefined>;
  readonly #prepare: () => ChunkRows<T>;
  readonly #close: () => Promise<void>;
  #map: ChunkRowMapper<T> | undefined;
  #columnar = false;
  #chunk: readonly unknown[][] = [];
  /** Rows in the chunk in hand. */
  #length = 0;
  #position = 0;
  #index = 0;
  #done = false;
  /** A chunk being read: a `next()` meanwhile waits for it (calls are answered in order). */
  #pending: Promise<unknown> | undefined;

  /**
   * `prepare` runs at the first `next()`, before the first chunk is read, and returns how rows are
   * read (it may throw, e.g. a model that does not match the columns). `close` ends the result however the loop ends (the chunks' own
   * cleanup runs only once they were started).
   */
  constructor(
    chunks: AsyncGenerator<unknown[][], void, undefined>,
    prepare: () => ChunkRows<T>,
    close: () => Promise<void>,
  ) {
    this.#chunks = chunks;
    this.#prepare = prepare;
    this.#close = close;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#pending !== undefined) return this.#pending.then(() => this.next());
    if (this.#done) return Promise.resolve(DONE);
    if (this.#position < this.#length) {
      try {
        return Promise.resolve({ done: false, value: this.#map!(this.#chunk, this.#position++, this.#index++) });
      } catch (error) {
        return this.#fail(error);
      }
    }
    const reading = this.#nextChunk();
    this.#pending = reading;
    void reading.finally(() => {
      if (this.#pending === reading) this.#pending = undefined;
    });
    return reading;
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.#finish();
    await this.#chunks.return(undefined);
    await this.#close();
    return DONE;
  }

  async throw(error?: unknown): Promise<IteratorResult<T, undefined>> {
    await this.return();
    throw error;
  }

  async #nextChunk(): Promise<IteratorResult<T, undefined>> {
    try {
      if (this.#map === undefined) {
        const rows = this.#prepare();
        this.#map = rows.map;
        this.#columnar = rows.columnar;
      }
      for (;;) {
        const next = await this.#chunks.next();
        if (next.done === true) {
          this.#finish();
          return DONE;
        }
        this.#chunk = next.value;
        this.#length = this.#columnar ? (next.value[0]?.length ?? 0) : next.value.length;
        this.#position = 0;
        if (this.#length > 0) return { done: false, value: this.#map(this.#chunk, this.#position++, this.#index++) };
      }
    } catch (error) {
      return this.#fail(error);
    }
  }

  async #fail(error: unknown): Promise<never> {
    await this.return();
    throw error;
  }

  #finish(): void {
    this.#done = true;
    this.#chunk = [];
    this.#length = 0;
  }
}
