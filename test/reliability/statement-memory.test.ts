/**
 * Issue 22 item 4: the DuckDB prepared-statement cache was bounded by count (32 per connection) but
 * not by bytes. A prepared statement holds its text several times over in native memory, so 1 MB
 * filter values through 8 connections held +1.1 GB RSS until dispose(). Now a statement carrying a
 * long literal is never kept, and the statements an engine keeps stay within its byte budget over
 * all its connections. Checked by the caches' own byte counts (native memory is not observable
 * exactly; the closing note of the issue gives the RSS figures).
 */
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Engine } from "lib";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  ENGINE_STATEMENT_BYTES,
  MAX_LITERAL_BYTES,
  StatementCache,
  carriesLongLiteral,
  preparedStatementBytes,
} from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { SALES_VIEW_DDL, salesTableSql } from "../support/sales-fixture.js";
import { useTempDir } from "../support/temp-dir.js";

class Sales extends SemanticView("sales", { country: Dimension<string>(), revenue: Metric<bigint>() }) {}

const CONNECTIONS = 8;

async function fileEngine(path: string): Promise<Engine> {
  const engine = createEngine(new BackendCConfig({ database: path, poolSize: CONNECTIONS, maxOverflow: 0 }));
  await using conn = await engine.connect();
  for (const statement of salesTableSql()) await conn.run(statement);
  await conn.run(SALES_VIEW_DDL);
  await conn.commit();
  return engine;
}

/** Runs `work(i)` on each of the engine's connections at once (all checked out together). */
async function onEveryConnection(engine: Engine, work: (i: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => work(i)));
}

describe("reliability: memory of the prepared-statement cache", function () {
  this.timeout(120_000);
  const tmp = useTempDir();

  it("finds a long literal, with doubled quotes inside, and nothing in short ones", () => {
    const long = "x".repeat(MAX_LITERAL_BYTES + 1);
    expect(carriesLongLiteral(`SELECT '${long}'`, MAX_LITERAL_BYTES)).to.equal(true);
    expect(carriesLongLiteral(`SELECT 'it''s ${long}'`, MAX_LITERAL_BYTES)).to.equal(true);
    expect(carriesLongLiteral(`SELECT ${"'ab', ".repeat(2000)}1`, MAX_LITERAL_BYTES)).to.equal(false);
    expect(carriesLongLiteral(`SELECT "${long}"`, MAX_LITERAL_BYTES)).to.equal(false);
  });

  it("a cache keeps its byte budget and never a statement carrying a long literal", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      const cache = new StatementCache(connection, { maxBytes: 1000 });
      const held = preparedStatementBytes();
      expect(await cache.bound(`SELECT '${"v".repeat(MAX_LITERAL_BYTES + 1)}' AS v`, undefined)).to.equal(undefined);
      expect(cache.size).to.equal(0);
      for (let i = 0; i < 10; i++) await cache.bound(`SELECT ${i} AS v, '${"w".repeat(300)}' AS pad`, undefined);
      expect(cache.bytes).to.be.at.most(1000);
      expect(cache.size).to.equal(3);
      expect(preparedStatementBytes() - held).to.equal(cache.bytes);
      cache.clear();
      expect(preparedStatementBytes()).to.equal(held);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it(`1 MB filter values through ${CONNECTIONS} connections: no statement kept for them`, async () => {
    const engine = await fileEngine(tmp.file());
    try {
      const query = () => Sales.query().dimensions(Sales.country).metrics(Sales.revenue);
      const held = preparedStatementBytes();
      await onEveryConnection(engine, async (c) => {
        for (let i = 0; i < 2; i++) {
          const value = `${c}-${i}-`.padEnd(1_000_000, "abc"[i]!);
          await using cursor = await query().where(Sales.country.eq(value)).using(engine).execute();
          expect(await cursor.fetchAllRows()).to.deep.equal([]);
        }
      });
      // Was 16 statements of > 1 MB each, and as many probes: ~4 MB of native memory per MB of value.
      const kept = preparedStatementBytes() - held;
      expect(kept, `bytes of statements kept: ${kept}`).to.be.below(64 * 1024);
    } finally {
      await engine.dispose();
    }
  });

  it(`statements the engine keeps over ${CONNECTIONS} connections stay within its budget`, async () => {
    const held = preparedStatementBytes();
    const engine = await fileEngine(tmp.file());
    try {
      // 48 KB texts (a long comment: nothing to parse, no literal): each may be kept, not 32 per connection.
      const padding = `/* ${"x".repeat(48 * 1024)} */`;
      await onEveryConnection(engine, async (c) => {
        await using conn = await engine.connect();
        for (let i = 0; i < 32; i++) await conn.all(`SELECT ${c * 100 + i} AS n ${padding}`);
      });
      const kept = preparedStatementBytes() - held;
      expect(kept, `bytes kept: ${kept}`).to.be.at.most(ENGINE_STATEMENT_BYTES); // was 32 x 8 x 48 KB = 12 MB
      expect(kept).to.be.above(0);
    } finally {
      await engine.dispose();
    }
    expect(preparedStatementBytes(), "dispose() frees every statement").to.equal(held);
  });
});
