/**
 * A minimal SqlSession over a real in-process DuckDB connection, for the semantic-layer tests.
 * Rows come back as JS values (BIGINT/HUGEINT as bigint, VARCHAR as string).
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import type { RawColumn, SqlSession } from "../../../runtime/semantic/semantic-layer.js";

export class TestSession implements SqlSession, AsyncDisposable {
  private constructor(
    readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  /** Opens `path` (default in-memory) and connects once; `options` are DuckDB settings (`access_mode`, ...). */
  static async open(path = ":memory:", options?: Record<string, string>): Promise<TestSession> {
    const instance = await DuckDBInstance.create(path, options);
    const connection = await instance.connect();
    return new TestSession(instance, connection);
  }

  async query(sql: string, parameters: readonly unknown[] = []): Promise<{ columns: RawColumn[]; rows: unknown[][] }> {
    const reader = await this.connection.runAndReadAll(sql, parameters.length > 0 ? (parameters as never) : undefined);
    const names = reader.columnNames();
    const types = reader.columnTypes();
    const columns = names.map((name, i) => ({ name, type: String(types[i]) }));
    return { columns, rows: reader.getRowsJS() as unknown[][] };
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.close();
  }
}
