/**
 * An Arrow IPC stream (the `application/vnd.apache.arrow.stream` format), encoded batch by batch:
 * the schema message first, then one record-batch message per batch as it is read, then the
 * end-of-stream marker. apache-arrow's writer is given a sink that hands each message's bytes over
 * at once, so the caller can write them with backpressure instead of letting the writer queue the
 * whole result.
 */
import type { AsyncByteQueue } from "apache-arrow";
import { arrow } from "../cursor/load-arrow.js";
import { arrowBatches, type RowBatches } from "./result-batches.js";

type ByteChunk = ArrayBufferView;

/**
 * The IPC stream of `batches` as groups of byte chunks: the schema (also for an empty result), one
 * group per record batch, then the end-of-stream marker. Fails before yielding anything when a
 * column has no Arrow mapping.
 */
export async function arrowIpcStream(batches: RowBatches): Promise<AsyncIterable<readonly Uint8Array[]>> {
  const { schema, batches: records } = await arrowBatches(batches);
  const api = arrow();
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
    for await (const batch of records) {
      writer.write(batch);
      yield take();
    }
    writer.close(); // end-of-stream marker
    yield take();
  }
  return messages();
}
