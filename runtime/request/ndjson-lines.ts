/**
 * A result as NDJSON text, one string per driver chunk: the cursor's chunks as the driver reads them
 * (column-major with typed arrays on DuckDB, row arrays elsewhere), each column written by its cell
 * writer (json-cells.ts), then joined row by row. No row object, bigint, `Decimal` or `Date` is made
 * for a fixed-width value, so a long stream costs about what reading it does. The text is exactly
 * what `rowJsonWriter` writes for the same rows, one line each.
 */
import type { Cursor } from "../cursor/cursor.js";
import { isTypedColumn, type ColumnInfo, type TypedColumn } from "../driver/query-result.js";
import { cellWriterFor, type CellWriter } from "./json-cells.js";
import { RowCap } from "./row-cap.js";

type Chunk = unknown[][];
type ColumnarChunk = readonly (readonly unknown[] | TypedColumn)[];

/** Writes the first `count` rows of a chunk as NDJSON lines. */
export type ChunkLines = (chunk: Chunk, count: number) => string;

function rowCount(chunk: ColumnarChunk): number {
  const first = chunk[0];
  return first === undefined ? 0 : isTypedColumn(first) ? first.length : first.length;
}

/**
 * The NDJSON writer of a result with `columns`, for column-major chunks when `columnar`, else row
 * arrays. A name given to two columns is written twice with the later column's value, as the row
 * object of such a result holds it.
 */
export function chunkLines(columns: readonly ColumnInfo[], columnar: boolean): ChunkLines {
  const width = columns.length;
  if (width === 0) return (_chunk, count) => "{}\n".repeat(count);
  const source = columns.map((c) => columns.map((d) => d.name).lastIndexOf(c.name));
  const prefixes = columns.map((c, i) => `${i === 0 ? "{" : ","}${JSON.stringify(c.name)}:`);
  const writers: CellWriter[] = columns.map(cellWriterFor);
  // Reused from chunk to chunk at their largest length (entries past `count` are stale, never read):
  // emptied after each chunk, they were grown again element by element for the next one.
  const cells: string[][] = columns.map(() => []);
  const column: unknown[] = [];
  return (chunk, count) => {
    for (let c = 0; c < width; c++) {
      const from = source[c]!;
      if (columnar) writers[from]!((chunk as ColumnarChunk)[from]!, count, cells[c]!);
      else {
        for (let r = 0; r < count; r++) column[r] = chunk[r]![from];
        writers[from]!(column, count, cells[c]!);
      }
    }
    const first = cells[0]!;
    const head = prefixes[0]!;
    let text = "";
    for (let r = 0; r < count; r++) {
      let line = head + first[r]!;
      for (let c = 1; c < width; c++) line += prefixes[c]! + cells[c]![r]!;
      text += `${line}}\n`;
    }
    return text;
  };
}

/**
 * NDJSON text of `cursor`'s rows, one string per chunk, at most `cap` rows in all (the query asked
 * for one more, so reading it means the answer was cut: `truncated`). Leaving the loop early closes
 * the cursor.
 */
export class NdjsonLines implements AsyncIterable<string> {
  readonly #cursor: Cursor<Record<string, unknown>>;
  readonly #cap: RowCap;

  constructor(cursor: Cursor<Record<string, unknown>>, cap: number | undefined) {
    this.#cursor = cursor;
    this.#cap = new RowCap(cap);
  }

  /** Rows written so far. */
  get delivered(): number {
    return this.#cap.delivered;
  }

  /** True once a row beyond the cap was seen. */
  get truncated(): boolean {
    return this.#cap.truncated;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string, void, undefined> {
    const { columnar, chunks } = this.#cursor.streamChunks();
    const lines = chunkLines(this.#cursor.columns, columnar);
    try {
      for await (const chunk of chunks) {
        const count = columnar ? rowCount(chunk as ColumnarChunk) : chunk.length;
        const taken = this.#cap.take(count);
        if (taken > 0) yield lines(chunk, taken);
        if (this.#cap.truncated) return;
      }
    } finally {
      await chunks.return(undefined); // closes the cursor (also when the loop is left early)
    }
  }
}
