/**
 * The main path streams a cached prepared statement straight through `@duckdb/node-bindings`
 * (runtime/dialects/duckdb/duckdb-native-stream.ts), reading the native handles node-api keeps in its
 * own fields. If a node-api release moves them, the code falls back to node-api's methods: correct,
 * but the fast path is silently gone. This pins both: the installed node-api still has the handles
 * where the fast path reads them, and what it answers equals node-api's own `stream()`/`fetchChunk()`.
 */
import { expect } from "chai";
import type { DuckDBDataChunk, DuckDBResult } from "@duckdb/node-api";
import { fetchChunk, streamPrepared } from "../../runtime/dialects/duckdb/duckdb-native-stream.js";
import { withMemoryDuckDB } from "../support/memory-duckdb.js";

async function allRows(result: DuckDBResult, read: (r: DuckDBResult) => Promise<DuckDBDataChunk | null>) {
  const rows: unknown[][] = [];
  // The end is a null or an empty chunk, as node-api's own fetchAllChunks() reads it.
  for (let chunk = await read(result); chunk !== null && chunk.rowCount > 0; chunk = await read(result))
    rows.push(...chunk.getRows());
  return rows;
}

describe("duckdb: streamed execution straight from the bindings", () => {
  it("finds node-api's native handles and answers what node-api's own methods answer", async () => {
    await withMemoryDuckDB(async (connection) => {
      const prepared = await connection.prepare("SELECT i, i::VARCHAR AS s FROM range(5000) t(i) WHERE i >= $1");
      prepared.bindBigInt(1, 10n);
      expect(Object.keys(prepared), "node-api's prepared statement keeps its native handle").to.include(
        "prepared_statement",
      );
      const fast = await streamPrepared(prepared);
      expect(Object.keys(fast), "node-api's result keeps its native handle").to.include("result");
      const fastRows = await allRows(fast, fetchChunk);
      const ownRows = await allRows(await prepared.stream(), (r) => r.fetchChunk());
      expect(fastRows).to.have.length(4990);
      expect(fastRows).to.deep.equal(ownRows);
      expect(fast.columnNames()).to.deep.equal(["i", "s"]);
    });
  });
});
