/** What the cursor tests need from an engine: connections, a borrowed count, and chunk-pull counting. */
import type { PooledConnection } from "../../../runtime/engine/pooled-connection.js";
import { openCursor, type OpenCursorOptions } from "../../../runtime/cursor/open-cursor.js";
import type { Cursor } from "../../../runtime/cursor/cursor.js";
import { StandInPool } from "./duckdb-stand-in.js";

export interface Harness {
  connect(): Promise<PooledConnection>;
  borrowed(): number;
  pulls(): number;
  cursor<Row = Record<string, unknown>>(sql: string, parameters?: readonly unknown[], options?: OpenCursorOptions): Promise<Cursor<Row>>;
  dispose(): Promise<void>;
}

export async function openHarness(): Promise<Harness> {
  const pool = new StandInPool();
  const harness: Harness = {
    connect: () => pool.connect(),
    borrowed: () => pool.borrowed,
    pulls: () => pool.pulls,
    cursor: async (sql, parameters = [], options) => openCursor(await pool.connect(), { sql, parameters }, options),
    dispose: () => pool.dispose(),
  };
  return harness;
}
