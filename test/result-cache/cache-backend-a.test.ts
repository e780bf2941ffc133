/**
 * The result cache on backend A, through the real snowflake-sdk and the Snowflake stand-in: what the
 * warehouse receives (one statement for N identical concurrent requests, none for a hit), keys per
 * bound value and scope, and no checkout for a hit. Remote warehouses have no change feed: entries
 * end by TTL (or `engine.resultCache.invalidate()`).
 */
import { expect } from "chai";
import { type Engine, type LogEvent } from "lib";
import { withQueryScope } from "lib/cache";
import { SALES_BY_COUNTRY, Sales } from "../support/sales-fixture.js";
import { standInConfig, startStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import { createEngine } from "lib";

describe("result cache: backend A through the stand-in", function () {
  this.timeout(20_000);
  let standIn: SnowflakeStandIn;
  let engine: Engine;
  const events: LogEvent[] = [];
  const byCountry = Sales.query().dimensions(Sales.country).metrics(Sales.revenue).orderBy(Sales.country);
  const semanticStatements = () => standIn.queries.filter((q) => q.sqlText.includes("SEMANTIC_VIEW(")).length;

  before(async () => {
    standIn = await startStandIn();
    engine = createEngine(standInConfig(standIn, { poolSize: 2, cache: { ttl: 60 } }), {
      log: (event) => events.push(event),
    });
  });
  after(async () => {
    await engine.dispose();
    await standIn.close();
  });
  beforeEach(() => {
    engine.resultCache!.invalidate();
    events.length = 0;
  });

  it("sends one statement for 8 identical concurrent requests; a later hit checks out no connection", async () => {
    const before = semanticStatements();
    const read = async () => {
      await using cursor = await byCountry.using(engine).execute();
      return { rows: await cursor.fetchAllRows(), servedFrom: cursor.servedFrom };
    };
    const results = await Promise.all(Array.from({ length: 8 }, read));
    expect(semanticStatements() - before).to.equal(1);
    expect(results.map((r) => r.servedFrom).sort()).to.deep.equal([...Array(7).fill("cache"), "warehouse"]);
    const expected = [...SALES_BY_COUNTRY]
      .sort((a, b) => (a.country < b.country ? -1 : 1))
      .map(({ country, revenue }) => ({ country, revenue }));
    for (const { rows } of results) expect(rows).to.deep.equal(expected);

    const checkouts = events.filter((e) => e.type === "pool-wait").length;
    const hit = await read();
    expect(hit.servedFrom).to.equal("cache");
    expect(hit.rows).to.deep.equal(expected);
    expect(events.filter((e) => e.type === "pool-wait").length).to.equal(checkouts);
    expect(semanticStatements() - before).to.equal(1);
  });

  it("keys on bound values and scope: each distinct value and tenant is its own statement", async () => {
    const before = semanticStatements();
    const run = async (country: string) => {
      await using cursor = await byCountry.where(Sales.country.eq(country)).using(engine).execute();
      return await cursor.fetchAllRows();
    };
    expect(await run("US")).to.have.length(1);
    expect(await run("DE")).to.have.length(1);
    expect(await run("US")).to.have.length(1);
    expect(semanticStatements() - before).to.equal(2);
    await withQueryScope({ tenant: "acme" }, () => run("US"));
    await withQueryScope({ tenant: "globex" }, () => run("US"));
    await withQueryScope({ tenant: "acme" }, () => run("US"));
    expect(semanticStatements() - before).to.equal(4);
  });

  it("cache: false always reaches the warehouse; invalidate() drops every entry", async () => {
    const before = semanticStatements();
    for (let i = 0; i < 2; i++) {
      await using cursor = await byCountry.using(engine).execute({ cache: false });
      expect(cursor.servedFrom).to.equal("warehouse");
    }
    expect(semanticStatements() - before).to.equal(2);
    for (let i = 0; i < 2; i++) await (await byCountry.using(engine).execute()).close();
    expect(semanticStatements() - before).to.equal(3);
    engine.resultCache!.invalidate();
    await (await byCountry.using(engine).execute()).close();
    expect(semanticStatements() - before).to.equal(4);
  });
});
