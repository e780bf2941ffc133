/**
 * The builder's queries executed for real on backend C (built-in semantic engine over in-process
 * DuckDB), with exact rows: the SPEC example, every operator, paging, value types, engine
 * resolution, cancellation and connection return.
 */
import { expect } from "chai";
import { Type } from "typebox";
import {
  EngineNotFoundError,
  LibConnectionError,
  Metric,
  QueryCancelledError,
  SemanticView,
  WarehouseError,
  and,
  not,
  or,
  type RowOf,
} from "lib";
import { HOSTILE_VALUES } from "./hostile-values.js";
import { Decimal, Orders, Sales } from "./fixtures.js";
import { salesEngine, type SalesRow } from "./duckdb-engine.js";

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

  describe("the SPEC example", () => {
    it("sums the rows of one country into one row, ordered by revenue descending", async () => {
      await using _engine = salesEngine();
      await using cursor = await revenueByCountry().execute();
      const rows: RowOf<ReturnType<typeof revenueByCountry>>[] = await cursor.fetchAllRows();
      expect(rows).to.deep.equal([
        { country: "US", revenue: 150n },
        { country: "DE", revenue: 100n },
        { country: "FR", revenue: 40n },
        { country: "JP", revenue: 5n },
      ]);
      expect(Object.keys(rows[0]!)).to.deep.equal(["country", "revenue"]);
    });

    it("filtering by an existing country returns only that country's row", async () => {
      await using _engine = salesEngine();
      expect(await rowsOf(revenueByCountry().where(Sales.country.eq("DE")))).to.deep.equal([
        { country: "DE", revenue: 100n },
      ]);
    });

    it("filtering by an unknown country returns an empty list", async () => {
      await using _engine = salesEngine();
      expect(await rowsOf(revenueByCountry().where(Sales.country.eq("Atlantis")))).to.deep.equal([]);
    });

    it("into() a TypeBox model", async () => {
      await using _engine = salesEngine();
      const RevenueByCountry = Type.Object(
        { country: Type.String(), revenue: Type.Integer() },
        { title: "RevenueByCountry" },
      );
      await using cursor = await revenueByCountry().limit(2).execute();
      const models = await cursor.into(RevenueByCountry);
      expect(models.map((m) => ({ ...m }))).to.deep.equal([
        { country: "US", revenue: 150 },
        { country: "DE", revenue: 100 },
      ]);
    });
  });

  describe("operators, with exact rows", () => {
    const countries = (q: ReturnType<typeof Sales.query>) =>
      q.metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.country.asc());
    const cases: [string, Parameters<ReturnType<typeof Sales.query>["where"]>[0], string[]][] = [
      ["eq", Sales.country.eq("US"), ["US"]],
      ["ne", Sales.country.ne("US"), ["DE", "FR", "JP"]],
      ["gt", Sales.country.gt("FR"), ["JP", "US"]],
      ["gte", Sales.country.gte("FR"), ["FR", "JP", "US"]],
      ["lt", Sales.country.lt("FR"), ["DE"]],
      ["lte", Sales.country.lte("FR"), ["DE", "FR"]],
      ["in", Sales.country.in(["US", "JP", "XX"]), ["JP", "US"]],
      ["in([])", Sales.country.in([]), []],
      ["notIn", Sales.country.notIn(["US", "JP"]), ["DE", "FR"]],
      ["notIn([])", Sales.country.notIn([]), ["DE", "FR", "JP", "US"]],
      ["in with null", Sales.region.in(["West", null]), ["JP", "US"]],
      ["notIn with null", Sales.region.notIn(["West", null]), ["DE", "FR", "US"]],
      ["between", Sales.country.between("DE", "FR"), ["DE", "FR"]],
      ["like", Sales.country.like("_R"), ["FR"]],
      ["startsWith", Sales.country.startsWith("U"), ["US"]],
      ["endsWith", Sales.country.endsWith("E"), ["DE"]],
      ["contains", Sales.country.contains("P"), ["JP"]],
      ["isNull", Sales.region.isNull(), ["JP"]],
      ["eq(null)", Sales.region.eq(null), ["JP"]],
      ["isNotNull", Sales.region.isNotNull(), ["DE", "FR", "US"]],
      ["ne(null)", Sales.region.ne(null), ["DE", "FR", "US"]],
      ["and", and(Sales.region.eq("EU"), Sales.country.ne("DE")), ["FR"]],
      ["or", or(Sales.country.eq("JP"), Sales.region.eq("West")), ["JP", "US"]],
      ["not", not(Sales.region.eq("EU")), ["US"]],
      ["nested", or(and(Sales.region.eq("EU"), not(Sales.country.eq("DE"))), Sales.region.isNull()), ["FR", "JP"]],
      ["and()", and(), ["DE", "FR", "JP", "US"]],
      ["or()", or(), []],
    ];

    it("all operators on one engine", async () => {
      await using _engine = salesEngine();
      for (const [name, condition, expected] of cases) {
        const rows = (await rowsOf(countries(Sales.query()).where(condition))) as { country: string }[];
        expect(
          rows.map((r) => r.country),
          name,
        ).to.deep.equal(expected);
      }
    });

    it("region 'East' is filtered before aggregation (US sums only its West row)", async () => {
      await using _engine = salesEngine();
      expect(await rowsOf(revenueByCountry().where(Sales.region.eq("West")))).to.deep.equal([
        { country: "US", revenue: 100n },
      ]);
    });

    it("repeated where() calls are ANDed", async () => {
      await using _engine = salesEngine();
      const q = revenueByCountry().where(Sales.region.eq("EU")).where(null).where(Sales.country.ne("FR"));
      expect(await rowsOf(q)).to.deep.equal([{ country: "DE", revenue: 100n }]);
    });
  });

  describe("selection shapes, ordering and paging", () => {
    it("metrics only: one grand-total row", async () => {
      await using _engine = salesEngine();
      expect(await rowsOf(Sales.query().metrics(Sales.revenue, Sales.cost))).to.deep.equal([
        { revenue: 295n, cost: 30n },
      ]);
    });

    it("dimensions only: distinct values", async () => {
      await using _engine = salesEngine();
      const q = Sales.query()
        .dimensions(Sales.region)
        .orderBy(Sales.region.asc({ nulls: "first" }));
      expect(await rowsOf(q)).to.deep.equal([
        { region: null },
        { region: "EU" },
        { region: "East" },
        { region: "West" },
      ]);
    });

    it("nulls placement: last by default, first on request", async () => {
      await using _engine = salesEngine();
      const q = Sales.query().dimensions(Sales.region).metrics(Sales.cost);
      const last = (await rowsOf(q.orderBy(Sales.region.desc({ nulls: "last" })))) as { region: string | null }[];
      expect(last.map((r) => r.region)).to.deep.equal(["West", "East", "EU", null]);
      const byDefault = (await rowsOf(q.orderBy(Sales.region.asc()))) as { region: string | null }[];
      expect(
        byDefault.map((r) => r.region),
        "default: NULLS LAST",
      ).to.deep.equal(["EU", "East", "West", null]);
      const first = (await rowsOf(q.orderBy(Sales.region.desc({ nulls: "first" })))) as { region: string | null }[];
      expect(first.map((r) => r.region)).to.deep.equal([null, "West", "East", "EU"]);
    });

    it("columns are dimensions then metrics, whatever the call order", async () => {
      await using _engine = salesEngine();
      const rows = await rowsOf(
        Sales.query().metrics(Sales.cost, Sales.revenue).dimensions(Sales.region, Sales.country).limit(1),
      );
      expect(Object.keys(rows[0] as object)).to.deep.equal(["region", "country", "cost", "revenue"]);
    });

    it("limit and offset page through the ordered result", async () => {
      await using _engine = salesEngine();
      expect(await rowsOf(revenueByCountry().limit(2))).to.deep.equal([
        { country: "US", revenue: 150n },
        { country: "DE", revenue: 100n },
      ]);
      expect(await rowsOf(revenueByCountry().limit(2).offset(2))).to.deep.equal([
        { country: "FR", revenue: 40n },
        { country: "JP", revenue: 5n },
      ]);
      expect(await rowsOf(revenueByCountry().offset(3))).to.deep.equal([{ country: "JP", revenue: 5n }]);
    });
  });

  describe("value types in filters", () => {
    const totalsByStatus = () =>
      Orders.query().dimensions(Orders.status).metrics(Orders.orderCount).orderBy(Orders.status.asc());

    it("Date, boolean, Decimal, number and bigint filter values", async () => {
      await using _engine = salesEngine();
      const cases: [string, Parameters<ReturnType<typeof Orders.query>["where"]>[0], object[]][] = [
        [
          "Date gte",
          Orders.orderedAt.gte(new Date(Date.UTC(2024, 0, 2))),
          [
            { status: "open", orderCount: 1n },
            { status: "shipped", orderCount: 1n },
          ],
        ],
        [
          "Date with ms",
          Orders.orderedAt.eq(new Date(Date.UTC(2023, 11, 31, 23, 59, 59, 999))),
          [{ status: "closed", orderCount: 1n }],
        ],
        [
          "boolean",
          Orders.isRush.eq(true),
          [
            { status: "closed", orderCount: 1n },
            { status: "open", orderCount: 1n },
          ],
        ],
        ["Decimal", Orders.price.eq(Decimal.parse("5.01")), [{ status: "open", orderCount: 1n }]],
        [
          "number",
          Orders.quantity.gte(3),
          [
            { status: "closed", orderCount: 1n },
            { status: "shipped", orderCount: 1n },
          ],
        ],
        ["bigint", Orders.quantity.lt(2n), [{ status: "open", orderCount: 1n }]],
        ["float", Orders.price.lt(0.5), [{ status: "closed", orderCount: 1n }]],
      ];
      for (const [name, condition, expected] of cases) {
        expect(await rowsOf(totalsByStatus().where(condition)), name).to.deep.equal(expected);
      }
    });

    it("a Decimal metric arrives exact", async () => {
      await using _engine = salesEngine();
      const rows = (await rowsOf(Orders.query().metrics(Orders.total))) as { total: Decimal }[];
      expect(rows).to.have.length(1);
      expect(Decimal.isDecimal(rows[0]!.total)).to.equal(true);
      expect(rows[0]!.total.toString()).to.equal("125.10");
    });

    it("facts: one row per source row", async () => {
      await using _engine = salesEngine();
      const q = Orders.query()
        .dimensions(Orders.status)
        .facts(Orders.quantity)
        .where(Orders.status.eq("open"))
        .orderBy(Orders.quantity.asc());
      expect(await rowsOf(q)).to.deep.equal([
        { status: "open", quantity: 1 },
        { status: "open", quantity: 2 },
      ]);
    });
  });

  describe("hostile values round-trip through the escaped where_clause", () => {
    it("each value selects exactly its own row", async () => {
      const rows: SalesRow[] = HOSTILE_VALUES.map((country, i) => [1000 + i, i, country, null]);
      await using _engine = salesEngine([...rows, [1, 1, "US", null]]);
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
        await using _engine = salesEngine([[1, 1, "AA", null]]);
        expect(await rowsOf(q)).to.deep.equal([{ country: "AA", revenue: 1n }]);
      }
      {
        await using _engine = salesEngine([[2, 1, "BB", null]]);
        expect(await rowsOf(q)).to.deep.equal([{ country: "BB", revenue: 2n }]);
      }
    });

    it("using(name) and using(engine) pick that engine; toSql() uses its dialect", async () => {
      await using _default = salesEngine([[1, 1, "DEFAULT", null]]);
      await using named = salesEngine([[2, 1, "NAMED", null]], "analytics");
      await using loose = salesEngine([[3, 1, "LOOSE", null]], "");
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
      const engine = salesEngine(undefined, "");
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
      await using engine = salesEngine();
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
      await using engine = salesEngine();
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
      expect(await rowsOf(revenueByCountry().limit(1))).to.deep.equal([{ country: "US", revenue: 150n }]);
    });
  });
});
