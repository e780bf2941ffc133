/**
 * Issue 25 item 1, "How to know it works": the engine's result cache through real DuckDB. Counts
 * come from the engine's log events (statements vs cache serves, pool checkouts); no timing.
 */
import { expect } from "chai";
import { QueryCancelledError, ValidationError, WarehouseError } from "lib";
import { withQueryScope } from "lib/cache";
import { Type } from "typebox";
import { failureOf } from "../support/failures.js";
import { byCountry, cachedEngine, Orders, Slow, type CachedEngine } from "./support/cached-engine.js";

const EXPECTED = [
  { country: "DE", revenue: 150n },
  { country: "US", revenue: 80n },
];

describe("result cache: the engine's cache through real DuckDB", function () {
  let db: CachedEngine;
  afterEach(async () => {
    await db?.engine.dispose();
  });

  it("coalesces N identical concurrent requests into one statement; one says warehouse, the rest cache", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = byCountry.using(db.engine);
    const cursors = await Promise.all(Array.from({ length: 20 }, () => q.execute()));
    const rows = await Promise.all(cursors.map((c) => c.fetchAllRows()));
    for (const r of rows) expect(r).to.deep.equal(EXPECTED);
    expect(db.statements()).to.equal(1);
    expect(cursors.map((c) => c.servedFrom).sort()).to.deep.equal(
      ["cache", ...Array(19).fill("warehouse")].sort().reverse().sort() && [...Array(19).fill("cache"), "warehouse"],
    );
    expect(db.served()).to.equal(19);
    expect(db.engine.resultCache!.stats()).to.include({ entries: 1, coalesced: 19 });
  });

  it("logs every statement exactly once: 10 distinct queries × 8 concurrent requests, twice, in three read modes", async () => {
    // The dashboard bench once counted 9 statements for 10 panels; that was its load generator (each
    // connection restarted the panel list per run, so at low throughput the last panel was never asked
    // for), not a lost event: here every panel is asked for, in every read mode, and each is counted.
    db = await cachedEngine({ ttl: 60 });
    const panels = Array.from({ length: 10 }, (_, i) =>
      byCountry.where(Orders.country.in(["DE", `X${i}`])).using(db.engine),
    );
    const Model = Type.Object({ country: Type.String(), revenue: Type.BigInt() });
    const read = async (k: number) => {
      await using cursor = await panels[k % 10]!.execute();
      if (k % 3 === 0) return await cursor.into(Model);
      if (k % 3 === 1) return await cursor.fetchAllRows();
      return [await cursor.fetchOne()]; // closed after the first row
    };
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(Array.from({ length: 80 }, (_, k) => read(k)));
      for (const rows of answers) expect(rows[0]).to.deep.equal(EXPECTED[0]);
    }
    expect(db.statements()).to.equal(10);
    expect(db.served()).to.equal(160 - 10);
    const stats = db.engine.resultCache!.stats();
    expect(stats.hits + stats.coalesced).to.equal(150);
    expect(stats.entries).to.equal(10);
  });

  it("a hit never checks out a connection and reads the same as a miss in every read mode", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = byCountry.using(db.engine);
    const Model = Type.Object({ country: Type.String(), revenue: Type.BigInt() });
    const read = async () => {
      const out: Record<string, unknown> = {};
      const modes: [string, (c: Awaited<ReturnType<typeof q.execute>>) => Promise<unknown>][] = [
        ["fetchAllRows", (c) => c.fetchAllRows()],
        ["fetchOne", async (c) => [await c.fetchOne(), await c.fetchMany(5)]],
        ["into", (c) => c.into(Model)],
        [
          "iterInto",
          async (c) => {
            const rows = [];
            for await (const r of c.iterInto(Model)) rows.push(r);
            return rows;
          },
        ],
        ["fetchArrow", async (c) => (await c.fetchArrow()).toArray().map((r) => ({ ...r }))],
        [
          "stream",
          async (c) => {
            const rows = [];
            for await (const r of c.stream()) rows.push(r);
            return rows;
          },
        ],
        [
          "streamBatches",
          async (c) => {
            const rows = [];
            for await (const b of c.streamBatches()) rows.push(b);
            return rows;
          },
        ],
        [
          "streamArrow",
          async (c) => {
            const n = [];
            for await (const b of c.streamArrow())
              n.push(
                b.numRows,
                b.schema.fields.map((f) => String(f.type)),
              );
            return n;
          },
        ],
      ];
      const servedFrom: string[] = [];
      for (const [name, mode] of modes) {
        await using cursor = await q.execute();
        servedFrom.push(cursor.servedFrom);
        out[name] = await mode(cursor);
        expect(cursor.closed, name).to.equal(true);
      }
      return { out, servedFrom };
    };
    const miss = await (async () => {
      await using cursor = await q.execute({ cache: false });
      expect(cursor.servedFrom).to.equal("warehouse");
      return await cursor.fetchAllRows();
    })();
    expect(miss).to.deep.equal(EXPECTED);
    const first = await read(); // the first execute stores, every other one hits
    expect(first.servedFrom).to.deep.equal(["warehouse", ...Array(7).fill("cache")]);
    const checkoutsBefore = db.checkouts();
    const second = await read();
    expect(second.servedFrom).to.deep.equal(Array(8).fill("cache"));
    expect(db.checkouts(), "no checkout for a hit").to.equal(checkoutsBefore);
    expect(second.out).to.deep.equal(first.out);
    expect(first.out["fetchAllRows"]).to.deep.equal(EXPECTED);
  });

  it("a commit through the library invalidates; the next execute reads the new rows from the warehouse", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = byCountry.using(db.engine);
    const rows = async () => {
      await using cursor = await q.execute();
      return { servedFrom: cursor.servedFrom, rows: await cursor.fetchAllRows() };
    };
    expect((await rows()).servedFrom).to.equal("warehouse");
    expect((await rows()).servedFrom).to.equal("cache");
    {
      await using conn = await db.engine.connect();
      await conn.run("INSERT INTO orders VALUES ('FR', 5)");
      expect((await rows()).servedFrom, "not committed yet: the cache stays").to.equal("cache");
      await conn.commit();
    }
    const after = await rows();
    expect(after.servedFrom).to.equal("warehouse");
    expect(after.rows.map((r) => r.country)).to.deep.equal(["DE", "FR", "US"]);
    expect(db.engine.resultCache!.stats().invalidations).to.be.greaterThan(0);
  });

  it("DDL committed through the library invalidates too (a semantic view replaced)", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = Orders.query().metrics(Orders.revenue).using(db.engine);
    const read = async () => {
      await using cursor = await q.execute();
      return { servedFrom: cursor.servedFrom, rows: await cursor.fetchAllRows() };
    };
    expect(await read()).to.deep.equal({ servedFrom: "warehouse", rows: [{ revenue: 230n }] });
    {
      await using conn = await db.engine.connect();
      await conn.run(`CREATE OR REPLACE SEMANTIC VIEW orders_v AS TABLES (orders)
        DIMENSIONS (orders.country AS country) METRICS (orders.revenue AS SUM(amount * 2))`);
      await conn.commit();
    }
    expect(await read()).to.deep.equal({ servedFrom: "warehouse", rows: [{ revenue: 460n }] });
  });

  it("entries expire by TTL (the engine's, or the query's own)", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = byCountry.using(db.engine);
    const servedFrom = async (ttl: number) => {
      await using cursor = await q.execute({ cache: { ttl } });
      await cursor.fetchAllRows();
      return cursor.servedFrom;
    };
    expect(await servedFrom(0.05)).to.equal("warehouse");
    expect(await servedFrom(0.05)).to.equal("cache");
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await servedFrom(0.05)).to.equal("warehouse");
    expect(db.statements()).to.equal(2);
  });

  it("ttl = 0 caches only the queries that ask with a ttl; cache: false bypasses", async () => {
    db = await cachedEngine({ ttl: 0 });
    const q = byCountry.using(db.engine);
    const servedFrom = async (options: Parameters<typeof q.execute>[0]) => {
      await using cursor = await q.execute(options);
      await cursor.fetchAllRows();
      return cursor.servedFrom;
    };
    expect([await servedFrom({}), await servedFrom({})]).to.deep.equal(["warehouse", "warehouse"]);
    expect([await servedFrom({ cache: { ttl: 60 } }), await servedFrom({ cache: { ttl: 60 } })]).to.deep.equal([
      "warehouse",
      "cache",
    ]);
    expect(await servedFrom({ cache: false })).to.equal("warehouse");
  });

  it("two scopes never share an entry (execute({ scope }) and withQueryScope)", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = byCountry.using(db.engine);
    const servedFrom = async (scope?: Record<string, string | number>) => {
      await using cursor = await q.execute(scope === undefined ? {} : { scope });
      await cursor.fetchAllRows();
      return cursor.servedFrom;
    };
    expect(await servedFrom({ tenant: "a" })).to.equal("warehouse");
    expect(await servedFrom({ tenant: "b" })).to.equal("warehouse");
    expect(await servedFrom({ tenant: 1 })).to.equal("warehouse"); // 1 is not "1"
    expect(await servedFrom()).to.equal("warehouse");
    expect(await servedFrom({ tenant: "a" })).to.equal("cache");
    expect(await withQueryScope({ tenant: "b" }, () => servedFrom())).to.equal("cache");
    expect(await withQueryScope({ tenant: "c" }, () => servedFrom())).to.equal("warehouse");
    expect(await withQueryScope({ tenant: "c" }, () => servedFrom({ tenant: "a" })), "execute's scope wins").to.equal(
      "cache",
    );
    expect(db.statements()).to.equal(5);
  });

  it("a failing statement is not cached: every request after it runs again; concurrent ones share the error", async () => {
    db = await cachedEngine({ ttl: 60 });
    const q = Orders.query().metrics(Orders.boom).using(db.engine);
    const fail = async () => {
      await using cursor = await q.execute();
      await cursor.fetchAllRows();
    };
    const concurrent = await Promise.all([failureOf(fail()), failureOf(fail()), failureOf(fail())]);
    for (const error of concurrent)
      expect(error).to.be.instanceOf(WarehouseError).and.have.property("message").that.includes("boom");
    expect(db.statements()).to.equal(1);
    expect(await failureOf(fail())).to.be.instanceOf(WarehouseError);
    expect(db.statements()).to.equal(2);
    expect(db.engine.resultCache!.stats().entries).to.equal(0);
  });

  it("a cancelled waiter does not cancel the others; when every waiter leaves, the statement is interrupted", async function () {
    db = await cachedEngine({ ttl: 60 });
    const q = Slow.query().metrics(Slow.slow).using(db.engine);
    const stop = new AbortController();
    const leaving = failureOf(q.execute({ signal: stop.signal }));
    const staying = q.execute();
    const withDeadline = failureOf(q.execute({ timeoutMs: 5 }));
    setTimeout(() => stop.abort(), 10);
    expect(await leaving)
      .to.be.instanceOf(QueryCancelledError)
      .and.include({ reason: "aborted" });
    expect(await withDeadline)
      .to.be.instanceOf(QueryCancelledError)
      .and.include({ reason: "timeout" });
    {
      await using cursor = await staying;
      const rows = await cursor.fetchAllRows();
      expect(rows).to.have.length(1);
      expect(typeof rows[0]!.slow).to.equal("bigint");
      expect(cursor.servedFrom).to.equal("cache");
    }
    expect(db.statements()).to.equal(1);

    // Every waiter leaves: the run is interrupted, nothing is stored, and the connection goes back healthy.
    db.engine.resultCache!.invalidate();
    const alone = new AbortController();
    const only = failureOf(q.execute({ signal: alone.signal }));
    setTimeout(() => alone.abort(), 10);
    expect(await only).to.be.instanceOf(QueryCancelledError);
    expect(db.engine.resultCache!.stats().entries).to.equal(0);
    await using cursor = await byCountry.using(db.engine).execute({ cache: false });
    expect(await cursor.fetchAllRows()).to.deep.equal(EXPECTED);
  });

  it("a result larger than the cache streams to the request that started it; the requests that joined run their own", async () => {
    db = await cachedEngine({ ttl: 60, maxBytes: 50 });
    const q = byCountry.using(db.engine);
    // One pooled connection: each cursor is read and closed before the next request can run.
    for (const pending of [q.execute(), q.execute(), q.execute()]) {
      await using cursor = await pending;
      expect(cursor.servedFrom).to.equal("warehouse");
      expect(await cursor.fetchAllRows()).to.deep.equal(EXPECTED);
    }
    expect(db.statements()).to.equal(3);
    expect(db.engine.resultCache!.stats().entries).to.equal(0);
  });

  it("execute({ cache }) on an engine without a cache, a bad ttl and a bad scope are ValidationErrors naming the field", async () => {
    db = await cachedEngine(null);
    expect(db.engine.resultCache).to.equal(undefined);
    const q = byCountry.using(db.engine);
    const noCache = await failureOf(q.execute({ cache: { ttl: 5 } }));
    expect(noCache).to.be.instanceOf(ValidationError).and.include({ field: "cache" });
    expect(noCache.message).to.include("[connections.<name>.cache]");
    await (await q.execute({ cache: false })).close();
    const withCache = await cachedEngine({});
    try {
      const cq = byCountry.using(withCache.engine);
      expect(await failureOf(cq.execute({ cache: { ttl: -1 } }))).to.include({ field: "cache.ttl" });
      expect(await failureOf(cq.execute({ scope: { tenant: {} as never } }))).to.include({ field: "scope.tenant" });
    } finally {
      await withCache.engine.dispose();
    }
  });
});
