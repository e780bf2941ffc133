/**
 * A result held by the cache: its columns and every chunk of row arrays, with the bytes they keep
 * alive, and a `ResultStream` that replays it. The stored values are shared between readers, so a
 * reader gets its own copy of each mutable value (dates, and the lists, structs and blobs of
 * "other" columns); bigints, strings, numbers and Decimals are immutable and shared as they are.
 */
import type { ColumnInfo, ResultStream, ServedFrom } from "../driver/query-result.js";

export interface CachedResult {
  readonly columns: readonly ColumnInfo[];
  readonly chunks: readonly (readonly unknown[][])[];
  readonly rowCount: number;
  /** Measured bytes of the values and their containers. */
  readonly bytes: number;
  /** Where the statement that produced it was answered. */
  readonly origin: Exclude<ServedFrom, "cache">;
}

type Copy = (value: unknown) => unknown;

const copyDate: Copy = (value) => (value instanceof Date ? new Date(value.getTime()) : value);
const copyOther: Copy = (value) => {
  if (value === null || typeof value !== "object") return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
};

/** Per column, how a reader's copy of a value is made; undefined when every value can be shared. */
function copiesFor(columns: readonly ColumnInfo[]): (Copy | undefined)[] | undefined {
  const copies = columns.map((c) =>
    c.kind === "date" || c.kind === "timestamp" ? copyDate : c.kind === "other" ? copyOther : undefined,
  );
  return copies.some((c) => c !== undefined) ? copies : undefined;
}

/** `copiesFor` per result, worked out by its first reader (null: nothing to copy). */
const copiesByResult = new WeakMap<CachedResult, (Copy | undefined)[] | null>();

function copiesOf(result: CachedResult): (Copy | undefined)[] | undefined {
  let copies = copiesByResult.get(result);
  if (copies === undefined) copiesByResult.set(result, (copies = copiesFor(result.columns) ?? null));
  return copies ?? undefined;
}

function copyChunk(chunk: readonly unknown[][], copies: readonly (Copy | undefined)[]): unknown[][] {
  return chunk.map((row) => row.map((value, i) => (copies[i] === undefined ? value : copies[i]!(value))));
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });
const CLOSED: Promise<void> = Promise.resolve();

/**
 * Replays a cached result: its own iterator (a plain object, not an async generator: a hit's one or
 * two chunks cost no generator machinery, and one object is the stream and its iterator).
 */
class CachedStream implements ResultStream, AsyncIterator<unknown[][]> {
  readonly columns: readonly ColumnInfo[];
  readonly #chunks: readonly (readonly unknown[][])[];
  readonly #copies: (Copy | undefined)[] | undefined;
  #next = 0;

  constructor(
    result: CachedResult,
    readonly servedFrom: ServedFrom,
  ) {
    this.columns = result.columns;
    this.#chunks = result.chunks;
    this.#copies = copiesOf(result);
  }

  async next(): Promise<IteratorResult<unknown[][]>> {
    if (this.#next >= this.#chunks.length) return DONE;
    const chunk = this.#chunks[this.#next++]!;
    return { done: false, value: this.#copies === undefined ? (chunk as unknown[][]) : copyChunk(chunk, this.#copies) };
  }

  async return(): Promise<IteratorResult<unknown[][]>> {
    this.#next = this.#chunks.length;
    return DONE;
  }

  close(): Promise<void> {
    this.#next = this.#chunks.length;
    return CLOSED;
  }

  drain(): unknown[][] {
    const rest = this.#chunks.slice(this.#next);
    this.#next = this.#chunks.length;
    const rows = rest.length === 1 ? (rest[0] as unknown[][]) : rest.flat();
    return this.#copies === undefined ? rows : copyChunk(rows, this.#copies);
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown[][]> {
    return this;
  }
}

/** A stream replaying `result` from memory (no connection); `servedFrom` says "cache" unless given. */
export function cachedStream(result: CachedResult, servedFrom: ServedFrom = "cache"): ResultStream {
  return new CachedStream(result, servedFrom);
}
