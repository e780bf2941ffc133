/**
 * An Arrow IPC stream (the `application/vnd.apache.arrow.stream` format), encoded batch by batch:
 * the schema message first, then one record-batch message per batch as it is read, then the
 * end-of-stream marker. The batches are built from the cursor's driver chunks as `streamArrow()`
 * builds them (column-major typed arrays copied straight into Arrow buffers on DuckDB), not from row
 * objects. apache-arrow's writer is given a sink that hands each message's bytes over at once, so
 * the caller can write them with backpressure instead of letting the writer queue the whole result.
 */
import type { AsyncByteQueue } from "apache-arrow";
import { arrowBatches } from "../cursor/arrow-batches.js";
import { ArrowTableBuilder } from "../cursor/arrow-table.js";
import type { Cursor } from "../cursor/cursor.js";
import { loadArrow } from "../cursor/load-arrow.js";
import { isTypedColumn, type TypedColumn } from "../driver/query-result.js";
import { RowCap } from "./row-cap.js";

type ByteChunk = ArrayBufferView;
type Chunk = unknown[][];
type ColumnarChunk = readonly (readonly unknown[] | TypedColumn)[];

/** The IPC stream's messages, and whether the row cap cut the result. */
export interface ArrowIpcStream {
  readonly messages: AsyncIterable<readonly Uint8Array[]>;
  /** Rows handed out so far. */
  readonly delivered: number;
  /** True once a row beyond the cap was seen. */
  readonly truncated: boolean;
}

function rowCount(chunk: Chunk, columnar: boolean): number {
  if (!columnar) return chunk.length;
  const first = (chunk as ColumnarChunk)[0];
  return first === undefined ? 0 : first.length;
}

/** The first `count` rows of a chunk (the last one a row cap lets through). */
function firstRows(chunk: Chunk, count: number, columnar: boolean): Chunk {
  if (!columnar) return chunk.slice(0, count);
  return (chunk as ColumnarChunk).map((column) =>
    isTypedColumn(column)
      ? { typed: true, values: column.values.subarray(0, count), validity: column.validity, length: count }
      : column.slice(0, count),
  ) as unknown as Chunk;
}

/**
 * The IPC stream of `cursor`'s rows, at most `cap` rows in all (the query asked for one more, so
 * reading it means the answer was cut: `truncated`): the schema (also for an empty result), one
 * group of byte chunks per record batch, then the end-of-stream marker. Fails before reading
 * anything when a column has no Arrow mapping. Leaving the loop early closes the cursor.
 */
export async function arrowIpcStream(
  cursor: Cursor<Record<string, unknown>>,
  cap: number | undefined,
): Promise<ArrowIpcStream> {
  const api = await loadArrow();
  const schema = new ArrowTableBuilder(cursor.columns).schema; // throws for a column without an Arrow mapping
  const rowCap = new RowCap(cap);
  const { columnar, chunks } = cursor.streamChunks();
  async function* capped(): AsyncGenerator<Chunk, void, undefined> {
    try {
      for await (const chunk of chunks) {
        const count = rowCount(chunk, columnar);
        const taken = rowCap.take(count);
        if (taken > 0) yield taken === count ? chunk : firstRows(chunk, taken, columnar);
        if (rowCap.truncated) return;
      }
    } finally {
      await chunks.return(undefined); // closes the cursor (also when the loop is left early)
    }
  }
  let pending: Uint8Array[] = [];
  // The writer writes every message into its sink synchronously; this sink keeps the bytes for us.
  const Sink = class extends (api.AsyncByteQueue as unknown as new () => AsyncByteQueue) {
    override write(value: ByteChunk): void {
      if (value.byteLength > 0) pending.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    }
  };
  const writer = new api.RecordBatchStreamWriter();
  writer.reset(new Sink() as never, schema);
  const take = (): Uint8Array[] => {
    const out = pending;
    pending = [];
    return out;
  };
  async function* messages(): AsyncGenerator<readonly Uint8Array[], void, undefined> {
    yield take(); // the schema
    const records = arrowBatches(cursor.columns, { preferColumns: () => columnar }, capped(), () =>
      cursor.close().catch(() => undefined),
    );
    try {
      for await (const batch of records) {
        if (batch.numRows === 0) continue; // an empty result: the schema alone says it
        writer.write(new api.RecordBatch(schema, batch.data));
        yield take();
      }
    } finally {
      await records.return(undefined);
    }
    writer.close(); // end-of-stream marker
    yield take();
  }
  return {
    messages: messages(),
    get delivered() {
      return rowCap.delivered;
    },
    get truncated() {
      return rowCap.truncated;
    },
  };
}
