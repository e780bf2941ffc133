/**
 * Backend C specifics of executing the builder's queries (built-in semantic engine over in-process
 * DuckDB): hostile values round-trip through the escaped where_clause, engine resolution at execution
 * time, cancellation before checkout and connection return. The query shapes, operators and value
 * types every backend shares are in `test/shared/support/behaviour-suite.ts`.
 */
import { expect } from "chai";
import {
  EngineNotFoundError,
  LibConnectionError,
  Metric,
  QueryCancelledError,
  SemanticView,
  WarehouseError,
} from "lib";
import { HOSTILE_VALUES } from "../support/hostile-values.js";
import { createSalesEngine } from "../support/sales-engine.js";
import { Sales, type SalesRow } from "../support/sales-fixture.js";

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

async function rowsOf<Q extends { execute(): Promise<{ fetchAllRows(): Promise<unknown[]> } & AsyncDisposable> }>(
  q: Q,
) {
  await using cursor = await q.execute();
  return await cursor.fetchAllRows(); // await before the cursor is disposed at scope exit
}

describe("queries executed on backend C", function () {
  this.timeout(60_000);

  describe("hostile values round-trip through the escaped where_clause", () => {
    it("each value selects exactly its own row", async () => {
      const rows: SalesRow[] = HOSTILE_VALUES.map((country, i) => ({
        revenue: 1000 + i,
        cost: i,
        country,
        region: null,
      }));
      await using _engine = createSalesEngine({
        rows: [...rows, { revenue: 1, cost: 1, country: "US", region: null }],
      });
      for (const [i, country] of HOSTILE_VALUES.entries()) {
        const found = await rowsOf(revenueByCountry().where(Sales.country.eq(country)));
        expect(found, JSON.stringify(country)).to.deep.equal([{ country, revenue: BigInt(1000 + i) }]);
      }
      const literal = await rowsOf(revenueByCountry().where(Sales.country.contains("%_!")));
      expect(literal).to.deep.equal([{ country: "%_!", revenue: BigInt(1000 + HOSTILE_VALUES.indexOf("%_!")) }]);
    });
  });

  describe("engine resolution and execution", () => {
    it("uses the engine registered as default at execution time, not at build time", async () => {
      const q = revenueByCountry().limit(1);
      {
        await using _engine = createSalesEngine({ rows: [{ revenue: 1, cost: 1, country: "AA", region: null }] });
        expect(await rowsOf(q)).to.deep.equal([{ country: "AA", revenue: 1n }]);
      }
      {
        await using _engine = createSalesEngine({ rows: [{ revenue: 2, cost: 1, country: "BB", region: null }] });
        expect(await rowsOf(q)).to.deep.equal([{ country: "BB", revenue: 2n }]);
      }
    });

    it("using(name) and using(engine) pick that engine; toSql() uses its dialect", async () => {
      await using _default = createSalesEngine({ rows: [{ revenue: 1, cost: 1, country: "DEFAULT", region: null }] });
      await using named = createSalesEngine({
        rows: [{ revenue: 2, cost: 1, country: "NAMED", region: null }],
        name: "analytics",
      });
      await using loose = createSalesEngine({
        rows: [{ revenue: 3, cost: 1, country: "LOOSE", region: null }],
        name: "",
      });
      expect(revenueByCountry().toSql()).to.match(
        /^SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view\('sales'/,
      ); // "default" is backend C
      expect(await rowsOf(revenueByCountry().using("analytics"))).to.deep.equal([{ country: "NAMED", revenue: 2n }]);
      expect(await rowsOf(revenueByCountry().using(loose))).to.deep.equal([{ country: "LOOSE", revenue: 3n }]);
      expect(revenueByCountry().using(named).toSql()).to.equal(
        `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) ORDER BY "revenue" DESC NULLS LAST`,
      );
    });

    it("no registered engine: a clear error naming it, also from toSql()", async () => {
      let error: unknown;
      try {
        await revenueByCountry().using("nowhere").execute();
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(EngineNotFoundError);
      expect((error as Error).message).to.include('"nowhere"');
      expect(() => revenueByCountry().using("nowhere").toSql()).to.throw(EngineNotFoundError);
    });

    it("a disposed engine raises LibConnectionError", async () => {
      const engine = createSalesEngine({ name: "" });
      await engine.dispose();
      let error: unknown;
      try {
        await revenueByCountry().using(engine).execute();
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(LibConnectionError);
    });

    it("an already-aborted signal rejects before a connection is taken", async () => {
      await using engine = createSalesEngine();
      const controller = new AbortController();
      controller.abort();
      let error: unknown;
      try {
        await revenueByCountry().execute({ signal: controller.signal });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(QueryCancelledError);
      expect(engine._pool.borrowed).to.equal(0);
    });

    it("returns the single pooled connection after each query, also after a warehouse error", async () => {
      await using engine = createSalesEngine();
      for (let i = 0; i < 3; i++) expect(await rowsOf(revenueByCountry().limit(1))).to.have.length(1);
      class Missing extends SemanticView("no_such_view", { m: Metric() }) {}
      let error: unknown;
      try {
        await rowsOf(Missing.query().metrics(Missing.m));
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(WarehouseError);
      expect(engine._pool.borrowed).to.equal(0);
      expect(await rowsOf(revenueByCountry().limit(1))).to.deep.equal([{ country: "US", revenue: 425n }]);
    });
  });
});
