/**
 * A semantic query streamed again on the same connection reuses what it was rewritten to (and
 * whether a materialization answers it): the layer's one per-text cache carries both. That memo must never
 * answer stale: not after the view was replaced and committed (by this engine or another on the
 * file), not inside a transaction holding uncommitted DDL, and not for a new materialization.
 */
import { expect } from "chai";
import type { Engine } from "lib";
import { rewriteCount } from "../../runtime/semantic/builtin-layer.js";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import { cSettings } from "../support/engines.js";
import { byCountry, Orders, ORDERS_DDL } from "../result-cache/support/cached-engine.js";
import { DuckDBInstance } from "@duckdb/node-api";
import { DuckDBDatabaseConnection } from "../../runtime/dialects/duckdb/duckdb-connection.js";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import type { SemanticLayer } from "../../runtime/semantic/semantic-layer.js";

const view = (metric: string, materializations = "") => `CREATE OR REPLACE SEMANTIC VIEW orders_v AS
  TABLES (orders)
  DIMENSIONS (orders.country AS country)
  METRICS (orders.revenue AS ${metric}, orders.boom AS MAX(error('boom')))${materializations}`;

describe("engine: backend C reuses a streamed semantic query's rewrite per connection", () => {
  let engine: Engine;

  beforeEach(async () => {
    engine = engineFromSettings(cSettings({ database: ":memory:", poolSize: 1 }));
    await using conn = await engine.connect();
    for (const statement of ORDERS_DDL) await conn.run(statement);
    await conn.commit();
  });
  afterEach(() => engine.dispose());

  const run = async () => {
    await using cursor = await byCountry.using(engine).execute();
    return { rows: await cursor.fetchAllRows(), servedFrom: cursor.servedFrom };
  };

  it("runs the layer once for a query run again, and again after the view was replaced", async () => {
    const before = rewriteCount();
    const first = await run();
    expect(first.rows).to.deep.equal([
      { country: "DE", revenue: 150n },
      { country: "US", revenue: 80n },
    ]);
    expect((await run()).rows).to.deep.equal(first.rows);
    expect(await run()).to.deep.equal(first);
    expect(rewriteCount() - before, "rewritten once, then remembered").to.equal(1);

    {
      await using conn = await engine.connect();
      await conn.run(view("SUM(amount) * 2"));
      await conn.commit();
    }
    expect((await run()).rows, "the committed replacement answers").to.deep.equal([
      { country: "DE", revenue: 300n },
      { country: "US", revenue: 160n },
    ]);
  });

  it("inside a transaction the uncommitted view answers; after the rollback the committed one again", async () => {
    expect((await run()).rows[0]).to.deep.equal({ country: "DE", revenue: 150n });
    const sql = byCountry.using(engine).compile().sql;
    {
      await using conn = await engine.connect();
      await conn.run(view("SUM(amount) + 1"));
      const rows: unknown[][] = [];
      for await (const chunk of await conn.stream(sql)) rows.push(...chunk);
      expect(rows[0]).to.deep.equal(["DE", 151n]);
      await conn.rollback();
    }
    expect((await run()).rows[0]).to.deep.equal({ country: "DE", revenue: 150n });
  });

  it("a filtered query run again reuses its bound statement, and a replaced view binds its values anew", async () => {
    const inGermany = byCountry.where(Orders.country.eq("DE"));
    const read = async () => {
      await using cursor = await inGermany.using(engine).execute();
      return await cursor.fetchAllRows();
    };
    expect(await read()).to.deep.equal([{ country: "DE", revenue: 150n }]);
    expect(await read(), "the same query node again").to.deep.equal([{ country: "DE", revenue: 150n }]);
    {
      await using conn = await engine.connect();
      await conn.run(`CREATE OR REPLACE SEMANTIC VIEW orders_v AS
        TABLES (orders)
        DIMENSIONS (orders.country AS lower(country))
        METRICS (orders.revenue AS SUM(amount), orders.boom AS MAX(error('boom')))`);
      await conn.commit();
    }
    expect(await read(), "bound into the replaced view's statement: no country is 'DE' now").to.deep.equal([]);
  });

  it("a materialization declared later is used by the query remembered before", async () => {
    expect((await run()).servedFrom).to.equal("warehouse");
    {
      await using conn = await engine.connect();
      await conn.run(
        "CREATE TABLE revenue_by_country AS SELECT country, SUM(amount)::BIGINT AS revenue FROM orders GROUP BY country",
      );
      await conn.run(
        view(
          "SUM(amount)",
          "\n  MATERIALIZATIONS (by_country AS (TABLE revenue_by_country, DIMENSIONS (country), METRICS (revenue)))",
        ),
      );
      await conn.commit();
    }
    const routed = await run();
    expect(routed.servedFrom).to.equal("materialization");
    expect(routed.rows[0]).to.deep.equal({ country: "DE", revenue: 150n });
  });

  it("a new filter value of a shape seen before is bound without asking the layer again (no wait)", async () => {
    const layer = createBuiltinSemanticLayer();
    let asked = 0;
    const counting: SemanticLayer = {
      ...layer,
      handleSingle: (...args) => {
        asked++;
        return layer.handleSingle!(...args);
      },
    };
    const instance = await DuckDBInstance.create(":memory:");
    const connection = new DuckDBDatabaseConnection(await instance.connect(), { semanticLayer: counting });
    try {
      for (const statement of ORDERS_DDL.slice(0, 2)) await connection.execute(statement);
      await connection.execute(ORDERS_DDL[3]!);
      await connection.commit();
      const stream = async (country: string) => {
        const compiled = byCountry.where(Orders.country.in([country, "FR"])).compile({ dialect: "backend_c" });
        const opened = connection.stream(compiled.sql, [], { compiled });
        const rows: unknown[][] = [];
        for await (const chunk of await opened) rows.push(...chunk);
        return rows;
      };
      expect(await stream("DE")).to.deep.equal([["DE", 150n]]);
      expect(asked, "the first value of the shape is rewritten (and the shape remembered)").to.equal(1);
      expect(await stream("US")).to.deep.equal([["US", 80n]]);
      expect(await stream("it's")).to.deep.equal([]);
      expect(asked, "new values bound into the remembered shape").to.equal(1);
    } finally {
      await connection.close();
      instance.closeSync();
    }
  });

  it("a statement that only mentions semantic_view passes through once, then runs as plain SQL (execute and stream)", async () => {
    // The expanded SQL of a semantic query run by hand: aliased `semantic_view`, no call in it.
    const sql = `SELECT country, SUM(amount)::BIGINT AS revenue FROM (SELECT * FROM orders WHERE amount >= $1) AS semantic_view GROUP BY country ORDER BY country`;
    await using conn = await engine.connect();
    const before = rewriteCount();
    expect(await conn.all(sql, [0])).to.deep.equal([
      { country: "DE", revenue: 150n },
      { country: "US", revenue: 80n },
    ]);
    expect(rewriteCount() - before, "looked at once").to.equal(1);
    expect(await conn.all(sql, [100])).to.deep.equal([{ country: "DE", revenue: 120n }]);
    const streamed: unknown[][] = [];
    for await (const chunk of await conn.stream(sql, [0])) streamed.push(...chunk);
    expect(streamed).to.deep.equal([
      ["DE", 150n],
      ["US", 80n],
    ]);
    expect(rewriteCount() - before, "then plain SQL: not split, parsed or scanned again").to.equal(1);
    // A call in another text is still rewritten.
    expect(await conn.all(`SELECT * FROM semantic_view('orders_v', metrics := ['revenue'])`)).to.deep.equal([
      { revenue: 230n },
    ]);
    expect(rewriteCount() - before).to.equal(2);
  });
});
