/**
 * `cursor.streamArrow()`: apache-arrow `RecordBatch`es of up to BATCH_ROWS rows (whole driver chunks
 * gathered), built as `fetchArrow()` builds its table (columnar and typed-array copies where the
 * driver reads columns), so a result of any size streams as Arrow in bounded memory. Gathering
 * chunks keeps the per-batch cost of building Arrow vectors off DuckDB's 2,048-row chunks.
 */
import type { RecordBatch } from "apache-arrow";
import { isTypedColumn, type ColumnInfo, type ResultStream, type TypedColumn } from "../driver/query-result.js";
import { ArrowTableBuilder } from "./arrow-table.js";
import { loadArrow } from "./load-arrow.js";

/**
 * The batches of `chunks`. `close` gives the result up when the batches fail before reading a chunk
 * (apache-arrow missing, a column without an Arrow mapping): `chunks` has not started then, so its
 * own cleanup would never run.
 */
export async function* arrowBatches(
  columns: readonly ColumnInfo[],
  stream: Pick<ResultStream, "preferColumns">,
  chunks: AsyncGenerator<unknown[][], void, undefined>,
  close: () => Promise<void>,
): AsyncGenerator<RecordBatch, void, undefined> {
  let builder: ArrowTableBuilder;
  try {
    await loadArrow();
    builder = new ArrowTableBuilder(columns, { rows: BATCH_CAPACITY });
  } catch (error) {
    await close();
    throw error;
  }
  const columnar = stream.preferColumns?.({ typedArrays: true }) === true;
  let yielded = false;
  let rows = 0;
  for await (const chunk of chunks) {
    if (columnar) {
      const cols = chunk as readonly (readonly unknown[] | TypedColumn)[];
      builder.appendColumns(cols);
      rows += cols.length === 0 ? 0 : lengthOf(cols[0]!);
    } else {
      builder.appendChunk(chunk);
      rows += chunk.length;
    }
    if (rows >= BATCH_ROWS) {
      yielded = true;
      yield builder.finishBatch();
      builder = new ArrowTableBuilder(columns, { rows: BATCH_CAPACITY, schema: builder.schema });
      rows = 0;
    }
  }
  // The rest; and with no rows at all, one empty batch, so a writer still learns the schema.
  if (rows > 0 || !yielded) yield builder.finishBatch();
}

/** Rows per batch a stream aims for: 32 DuckDB chunks; a few MB for typical columns. */
export const BATCH_ROWS = 65_536;

/** A batch's buffers, allocated once: a batch ends with the chunk that reaches BATCH_ROWS (DuckDB's chunks hold 2,048). */
const BATCH_CAPACITY = BATCH_ROWS + 2_048;

function lengthOf(column: readonly unknown[] | TypedColumn): number {
  return isTypedColumn(column) ? column.length : column.length;
}
