/**
 * What a new backend C connection pays for its first semantic query (issue 25, a burst through
 * pool_size + max_overflow: every overflow connection is opened, used once and closed). The rewrite,
 * the type probe and the session context are per database and engine state: the engine's
 * connections in its own session state share them (duckdb-shared-session.ts), so a fresh connection
 * only prepares its statement. Never across engines or files, never for a connection that changed its
 * own session, never stale after DDL through the library; and a closed connection leaves nothing behind.
 */
import { expect } from "chai";
import type { Engine } from "lib";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import { rewriteCount } from "../../runtime/semantic/builtin-layer.js";
import { semanticQueryCacheStats } from "../../runtime/semantic/call/typed-query.js";
import {
  preparedStatementBytes,
  statementCachePrepares,
} from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { cSettings } from "../support/engines.js";
import { useTempDir } from "../support/temp-dir.js";
import { byCountry, Orders } from "../result-cache/support/cached-engine.js";

const ORDERS_VIEW = (metric: string) => `CREATE OR REPLACE SEMANTIC VIEW orders_v AS
  TABLES (orders)
  DIMENSIONS (orders.country AS country)
  METRICS (orders.revenue AS ${metric}, orders.boom AS MAX(error('boom')))`;

const inGermany = byCountry.where(Orders.country.eq("DE"));

/** A file-backed engine (pool 1 + overflow 2) whose `orders` table holds `rows` and `orders_v` is committed. */
async function ordersEngine(path: string, rows: string): Promise<Engine> {
  const engine = engineFromSettings(cSettings({ database: path, createIfMissing: true, poolSize: 1, maxOverflow: 2 }));
  await using conn = await engine.connect();
  await conn.run("CREATE TABLE orders (country VARCHAR, amount INTEGER)");
  await conn.run(`INSERT INTO orders VALUES ${rows}`);
  await conn.run(ORDERS_VIEW("SUM(amount)"));
  await conn.commit();
  return engine;
}

async function rowsOf(engine: Engine, query = byCountry): Promise<unknown[]> {
  await using cursor = await query.using(engine).execute();
  return await cursor.fetchAllRows();
}

/** Runs `queries` while every connection the pool holds is checked out: each opens a new connection. */
async function onNewConnections<T>(engine: Engine, queries: () => Promise<T>): Promise<T> {
  const pool = engine._pool;
  const held = await Promise.all(Array.from({ length: pool.size }, () => engine.connect()));
  const opened = pool.opened;
  try {
    return await queries();
  } finally {
    expect(pool.opened, "the queries ran on new connections").to.be.greaterThan(opened);
    for (const conn of held) await conn.release();
  }
}

describe("engine: backend C's new connections share what the engine learned about its semantic queries", () => {
  const tmp = useTempDir();
  let engine: Engine;
  beforeEach(async () => {
    engine = await ordersEngine(tmp.file(), "('DE', 120), ('US', 80), ('DE', 30)");
  });
  afterEach(() => engine.dispose());

  it("a fresh connection answers the same rows with one prepare: no rewrite, type probe or context read of its own", async () => {
    const all = await rowsOf(engine);
    const de = await rowsOf(engine, inGermany);
    expect(all).to.deep.equal([
      { country: "DE", revenue: 150n },
      { country: "US", revenue: 80n },
    ]);
    expect(de).to.deep.equal([{ country: "DE", revenue: 150n }]);
    const [rewrites, probes, prepares] = [rewriteCount(), semanticQueryCacheStats().misses, statementCachePrepares()];
    const again = await onNewConnections(engine, async () => [await rowsOf(engine), await rowsOf(engine, inGermany)]);
    expect(again).to.deep.equal([all, de]);
    expect(rewriteCount() - rewrites, "rewrites").to.equal(0);
    expect(semanticQueryCacheStats().misses - probes, "type probes").to.equal(0);
    // The context read and the parameter-type prepare would be prepared statements too.
    expect(statementCachePrepares() - prepares, "prepares: each query's own statement").to.equal(2);
  });

  it("a burst through the overflow leaves nothing behind once its connections are closed", async () => {
    await rowsOf(engine, inGermany);
    const [bytes, probes] = [preparedStatementBytes(), semanticQueryCacheStats().size];
    const burst = await Promise.all(Array.from({ length: 3 }, () => rowsOf(engine, inGermany)));
    expect(burst).to.deep.equal(Array.from({ length: 3 }, () => [{ country: "DE", revenue: 150n }]));
    const pool = engine._pool;
    await pool.settled();
    expect([pool.size, pool.closed], "two overflow connections closed on return").to.deep.equal([1, 2]);
    expect(preparedStatementBytes(), "their prepared statements were destroyed").to.equal(bytes);
    expect(semanticQueryCacheStats().size, "no type probes of their own").to.equal(probes);
  });

  it("a view replaced through the library answers on a new connection, rewritten once for all", async () => {
    expect(await rowsOf(engine, inGermany)).to.deep.equal([{ country: "DE", revenue: 150n }]);
    {
      await using conn = await engine.connect();
      await conn.run(ORDERS_VIEW("SUM(amount) * 2"));
      await conn.commit();
    }
    const rewrites = rewriteCount();
    const rows = await onNewConnections(engine, () => rowsOf(engine, inGermany));
    expect(rows).to.deep.equal([{ country: "DE", revenue: 300n }]);
    expect(await onNewConnections(engine, () => rowsOf(engine, inGermany))).to.deep.equal(rows);
    expect(rewriteCount() - rewrites, "the replacement rewritten once, then shared").to.equal(1);
  });

  it("is per engine and file: an engine on another file rewrites its own view and answers its own rows and types", async () => {
    await using other = await ordersEngine(tmp.file("other.duckdb"), "('DE', 7)");
    {
      await using conn = await other.connect();
      await conn.run(ORDERS_VIEW("SUM(amount)::DECIMAL(10, 2)"));
      await conn.commit();
    }
    expect(await rowsOf(engine, inGermany)).to.deep.equal([{ country: "DE", revenue: 150n }]);
    const rewrites = rewriteCount();
    const theirs = await rowsOf(other, inGermany);
    expect(String((theirs[0] as { revenue: unknown }).revenue)).to.equal("7.00");
    expect(rewriteCount() - rewrites, "the other engine's own rewrite").to.equal(1);
    expect(await onNewConnections(engine, () => rowsOf(engine, inGermany))).to.deep.equal([
      { country: "DE", revenue: 150n },
    ]);
  });

  it("a connection that changed its session resolves on its own; the others keep the engine's state", async () => {
    {
      await using conn = await engine.connect();
      await conn.run("CREATE SCHEMA s2; CREATE TABLE s2.orders (country VARCHAR, amount INTEGER)");
      await conn.run("INSERT INTO s2.orders VALUES ('DE', 1)");
      await conn.run(ORDERS_VIEW("SUM(amount)").replace("orders_v", "s2.orders_v").replace("(orders)", "(s2.orders)"));
      await conn.commit();
    }
    expect(await rowsOf(engine, inGermany)).to.deep.equal([{ country: "DE", revenue: 150n }]);
    const { sql, parameters } = inGermany.using(engine).compile();
    await using mine = await engine.connect();
    await mine.run("SET schema = 's2'");
    await mine.commit(); // outside a transaction, where the engine's shared state would serve it
    expect(await mine.all(sql, parameters), "its own schema's view").to.deep.equal([{ country: "DE", revenue: 1n }]);
    expect(await rowsOf(engine, inGermany), "a new connection: the engine's schema").to.deep.equal([
      { country: "DE", revenue: 150n },
    ]);
    expect(await mine.all(sql, parameters)).to.deep.equal([{ country: "DE", revenue: 1n }]);
  });
});
