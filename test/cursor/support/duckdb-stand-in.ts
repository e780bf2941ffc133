/**
 * TEMPORARY stand-in until the engine helper's DuckDB driver and pool land: a one-connection "pool"
 * over a real @duckdb/node-api connection, with just enough value normalization (API.md "How values
 * arrive") to exercise the cursor. It counts borrowed connections and chunk pulls for the tests.
 */
import { DuckDBInstance, DuckDBTypeId, type DuckDBConnection, type DuckDBType } from "@duckdb/node-api";
import type { ColumnInfo, QueryResult, ResultStream, ValueKind } from "../../../runtime/driver/database-connection.js";
import type { PooledConnection, Row } from "../../../runtime/engine/pooled-connection.js";
import { Decimal } from "../../../runtime/values/decimal.js";
import { ProgrammingError, OperationalError, type WarehouseError } from "../../../runtime/errors.js";

function kindOf(type: DuckDBType): ValueKind {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return "boolean";
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
      return "integer";
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return "bigint";
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return "float";
    case DuckDBTypeId.VARCHAR:
      return "string";
    case DuckDBTypeId.DECIMAL:
      return (type as unknown as { scale: number }).scale > 0 ? "decimal" : "bigint";
    case DuckDBTypeId.DATE:
      return "date";
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return "timestamp";
    default:
      return "other";
  }
}

function normalize(value: unknown, kind: ValueKind): unknown {
  if (value === null) return null;
  const v = value as { value?: bigint; scale?: number; days?: number; micros?: bigint };
  switch (kind) {
    case "decimal":
      return new Decimal(v.value!, v.scale!);
    case "bigint":
      return typeof value === "bigint" ? value : v.value!;
    case "date":
      return new Date(v.days! * 86_400_000);
    case "timestamp":
      return new Date(Number(v.micros! / 1000n));
    default:
      return value;
  }
}

function mapError(error: unknown): WarehouseError {
  const message = error instanceof Error ? error.message : String(error);
  return /INTERRUPT/i.test(message) ? new OperationalError(message, { cause: error }) : new ProgrammingError(message, { cause: error });
}

export class StandInPool {
  borrowed = 0;
  pulls = 0;
  interrupts = 0;
  #instance: DuckDBInstance | undefined;
  #connection: DuckDBConnection | undefined;

  async #conn(): Promise<DuckDBConnection> {
    this.#instance ??= await DuckDBInstance.create(":memory:");
    this.#connection ??= await this.#instance.connect();
    return this.#connection;
  }

  async connect(): Promise<PooledConnection> {
    const conn = await this.#conn();
    this.borrowed++;
    const pool = this;
    let released = false;
    const stream = async (sql: string, parameters: readonly unknown[] = []): Promise<ResultStream> => {
      let result;
      try {
        result = await conn.stream(sql, parameters.length ? (parameters as never) : undefined);
      } catch (error) {
        throw mapError(error);
      }
      const columns: ColumnInfo[] = result.columnNames().map((name, i) => {
        const type = result.columnType(i);
        return { name, type: type.toString(), kind: kindOf(type) };
      });
      let closed = false;
      return {
        columns,
        async close() {
          closed = true;
        },
        async *[Symbol.asyncIterator]() {
          while (!closed) {
            pool.pulls++;
            let chunk;
            try {
              chunk = await result.fetchChunk();
            } catch (error) {
              throw mapError(error);
            }
            if (chunk === null || chunk.rowCount === 0) return;
            yield chunk.getRows().map((row) => row.map((v, i) => normalize(v, columns[i]!.kind)));
          }
        },
      };
    };
    const execute = async (sql: string, parameters: readonly unknown[] = []): Promise<QueryResult> => {
      const s = await stream(sql, parameters);
      const rows: unknown[][] = [];
      for await (const chunk of s) rows.push(...chunk);
      return { columns: s.columns, rows };
    };
    const pooled: PooledConnection = {
      run: async (sql, parameters) => {
        await execute(sql, parameters);
      },
      all: async (sql, parameters) => {
        const r = await execute(sql, parameters);
        return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i]])) as Row);
      },
      execute,
      stream,
      interrupt: () => {
        pool.interrupts++;
        conn.interrupt();
      },
      commit: async () => undefined,
      rollback: async () => undefined,
      release: async () => {
        if (released) return;
        released = true;
        pool.borrowed--;
      },
      get released() {
        return released;
      },
      [Symbol.asyncDispose]: () => pooled.release(),
    };
    return pooled;
  }

  async dispose(): Promise<void> {
    this.#connection?.closeSync();
    this.#instance?.closeSync();
  }
}
