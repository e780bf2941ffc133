/**
 * A result held by the cache: its columns and every chunk of row arrays, with the bytes they keep
 * alive, and a `ResultStream` that replays it. The stored values are shared between readers, so a
 * reader gets its own copy of each mutable value (dates, and the lists, structs and blobs of
 * "other" columns); bigints, strings, numbers and Decimals are immutable and shared as they are.
 */
import type { ColumnInfo, ResultStream, ServedFrom } from "../driver/query-result.js";
import { literalRowObjects, type RowObjectBuilder } from "../driver/row-objects.js";

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

/** How every reader of one result reads it, worked out by its first reader. */
interface ReadPlan {
  /** Per column, how a reader's copy of a value is made; undefined when every value can be shared. */
  readonly copies: (Copy | undefined)[] | undefined;
  /** The row-object builder its readers share (undefined: the cursor's own). */
  readonly rowObjects: RowObjectBuilder | undefined;
}

const plans = new WeakMap<CachedResult, ReadPlan>();

function planOf(result: CachedResult): ReadPlan {
  let plan = plans.get(result);
  if (plan === undefined) {
    const names = result.columns.map((c) => c.name);
    plan = { copies: copiesFor(result.columns), rowObjects: literalRowObjects(names) };
    plans.set(result, plan);
  }
  return plan;
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
export class CachedStream implements ResultStream, AsyncIterator<unknown[][]> {
  readonly columns: readonly ColumnInfo[];
  readonly #chunks: readonly (readonly unknown[][])[];
  readonly #plan: ReadPlan;
  #next = 0;

  constructor(
    result: CachedResult,
    readonly servedFrom: ServedFrom,
  ) {
    this.columns = result.columns;
    this.#chunks = result.chunks;
    this.#plan = planOf(result);
  }

  async next(): Promise<IteratorResult<unknown[][]>> {
    if (this.#next >= this.#chunks.length) return DONE;
    const chunk = this.#chunks[this.#next++]!;
    const copies = this.#plan.copies;
    return { done: false, value: copies === undefined ? (chunk as unknown[][]) : copyChunk(chunk, copies) };
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
    const chunks = this.#chunks;
    const from = this.#next;
    this.#next = chunks.length;
    // The usual hit, one chunk read from the start, hands that chunk out as it is (no slice of the
    // frozen list, which V8 copies on a slow path).
    const rows = from === chunks.length - 1 ? (chunks[from] as unknown[][]) : chunks.slice(from).flat();
    const copies = this.#plan.copies;
    return copies === undefined ? rows : copyChunk(rows, copies);
  }

  rowObjects(): RowObjectBuilder | undefined {
    return this.#plan.rowObjects;
  }

  /** True while nothing was read (a reader may then be served the whole result at once). */
  get unread(): boolean {
    return this.#next === 0;
  }

  /** Marks every row read, by a reader that served the result some other way (its JSON text). */
  consume(): void {
    this.#next = this.#chunks.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown[][]> {
    return this;
  }
}

/** A stream replaying `result` from memory (no connection); `servedFrom` says "cache" unless given. */
export function cachedStream(result: CachedResult, servedFrom: ServedFrom = "cache"): CachedStream {
  return new CachedStream(result, servedFrom);
}
