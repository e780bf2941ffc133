/** A raw node-api connection to a fresh in-memory DuckDB, closed (with its instance) after `use`. */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

export async function withMemoryDuckDB<T>(use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
