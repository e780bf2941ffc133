/**
 * The raw side of the concurrent benchmarks: a fixed set of `@duckdb/node-api` connections on the
 * fixture's instance, handed out by generic-pool (what a hand-written service would use), running
 * in DuckDB's autocommit. No semantic layer, no value normalization beyond the driver's own.
 */
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import genericPool from "generic-pool";

export interface RawPool {
  /** Runs `fn` on a free connection (waiting for one if all are busy). */
  use<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openRawPool(instance: DuckDBInstance, size: number): Promise<RawPool> {
  const pool = genericPool.createPool<DuckDBConnection>(
    { create: () => instance.connect(), destroy: async (connection) => connection.closeSync() },
    { min: size, max: size },
  );
  await pool.ready();
  return {
    use: (fn) => pool.use(fn),
    close: async () => {
      await pool.drain();
      await pool.clear();
    },
  };
}
