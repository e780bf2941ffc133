/**
 * Reads a result in batches of row objects for the JSON page and the MCP answer: `fetchMany()` pulls
 * one driver chunk at a time, so memory stays bounded by a batch however long the result. (The NDJSON
 * and Arrow IPC streams read the cursor's chunks directly: ndjson-lines.ts, arrow-ipc.ts.)
 */
import type { Cursor } from "../cursor/cursor.js";
import type { ColumnInfo } from "../driver/query-result.js";
import { RowCap } from "./row-cap.js";

/** Rows per batch: DuckDB's vector size, and a few hundred KB of JSON. */
export const BATCH_ROWS = 2048;

type Row = Record<string, unknown>;

/**
 * Batches of row objects from `cursor`, at most `cap` rows in all (the query asked for one more, so
 * reading it means the answer was cut: `truncated`). Leaving the loop early closes the cursor.
 */
export class RowBatches implements AsyncIterable<Row[]> {
  readonly #cursor: Cursor<Row>;
  readonly #cap: RowCap;

  constructor(cursor: Cursor<Row>, cap: number | undefined) {
    this.#cursor = cursor;
    this.#cap = new RowCap(cap);
  }

  get columns(): readonly ColumnInfo[] {
    return this.#cursor.columns;
  }

  /** Rows handed out so far. */
  get delivered(): number {
    return this.#cap.delivered;
  }

  /** True once a row beyond the cap was seen. */
  get truncated(): boolean {
    return this.#cap.truncated;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Row[], void, undefined> {
    try {
      for (;;) {
        const rows = await this.#cursor.fetchMany(BATCH_ROWS);
        if (rows.length === 0) return;
        const taken = this.#cap.take(rows.length);
        if (taken > 0) yield taken === rows.length ? rows : rows.slice(0, taken);
        if (this.#cap.truncated) return;
      }
    } finally {
      await this.#cursor.close();
    }
  }
}

/** Every row of `batches` in one array (a JSON page, bounded by its cap). */
export async function collectRows(batches: RowBatches): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const batch of batches) for (const row of batch) rows.push(row);
  return rows;
}
