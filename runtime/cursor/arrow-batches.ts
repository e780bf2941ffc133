/**
 * `cursor.streamArrow()`: one apache-arrow `RecordBatch` per driver chunk, built as `fetchArrow()`
 * builds its table (columnar and typed-array copies where the driver reads columns), so a result of
 * any size streams as Arrow in bounded memory.
 */
import type { RecordBatch } from "apache-arrow";
import type { ColumnInfo, ResultStream, TypedColumn } from "../driver/query-result.js";
import { ArrowTableBuilder } from "./arrow-table.js";
import { loadArrow } from "./load-arrow.js";

export async function* arrowBatches(
  columns: readonly ColumnInfo[],
  stream: Pick<ResultStream, "preferColumns">,
  chunks: AsyncGenerator<unknown[][], void, undefined>,
): AsyncGenerator<RecordBatch, void, undefined> {
  try {
    await loadArrow();
  } catch (error) {
    await chunks.return(undefined); // closes the cursor
    throw error;
  }
  const columnar = stream.preferColumns?.({ typedArrays: true }) === true;
  let yielded = false;
  for await (const chunk of chunks) {
    const builder = new ArrowTableBuilder(columns);
    if (columnar) builder.appendColumns(chunk as readonly (readonly unknown[] | TypedColumn)[]);
    else builder.appendChunk(chunk);
    for (const batch of builder.finish().batches) {
      yielded = true;
      yield batch;
    }
  }
  // No rows at all: one empty batch, so a writer still learns the schema.
  if (!yielded) yield* new ArrowTableBuilder(columns).finish().batches;
}
