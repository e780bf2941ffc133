/**
 * The behaviour every backend shares, written once (in the spirit of Drizzle's shared dialect
 * tests) and run by each backend through its real driver: `snowflake-behaviour.test.ts`,
 * `databricks-behaviour.test.ts`, `duckdb-behaviour.test.ts`. The data and the expected answers are
 * the one sales fixture's (`test/support/sales-fixture.ts`); a backend that answers differently fails.
 */
import { expect } from "chai";
import { Type } from "typebox";
import {
  BigIntType,
  DateType,
  Decimal,
  DecimalType,
  InternalError,
  LibError,
  LibSchemaMismatchError,
  Metric,
  ProgrammingError,
  SemanticView,
  ValidationError,
  WarehouseError,
  and,
  not,
  or,
  type Engine,
  type RowCondition,
  type SemanticQuery,
} from "lib";
import { failureOf } from "../../support/failures.js";
import {
  ORDERS_BY_STATUS,
  Orders,
  REGIONS_ASC,
  SALES_BY_COUNTRY,
  SALES_TOTALS,
  Sales,
} from "../../support/sales-fixture.js";
import type { BackendHarness } from "./backend-harness.js";

class Missing extends SemanticView("no_such_view", { revenue: Metric<bigint>() }) {}

type SalesQuery = SemanticQuery<"sales">;
type SalesCondition = RowCondition<"sales">;
type OrdersCondition = RowCondition<"orders">;

const revenueByCountry = (): SalesQuery =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());
const REVENUE_BY_COUNTRY = SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue }));
const ALL_COUNTRIES = ["DE", "FR", "JP", "US"];

/** Each condition and the countries (ascending) whose rows it keeps. */
const CONDITIONS: readonly (readonly [string, SalesCondition, readonly string[]])[] = [
  ["eq", Sales.country.eq("US"), ["US"]],
  ["ne", Sales.country.ne("US"), ["DE", "FR", "JP"]],
  ["gt", Sales.country.gt("FR"), ["JP", "US"]],
  ["gte", Sales.country.gte("FR"), ["FR", "JP", "US"]],
  ["lt", Sales.country.lt("FR"), ["DE"]],
  ["lte", Sales.country.lte("FR"), ["DE", "FR"]],
  ["in", Sales.country.in(["US", "JP", "XX"]), ["JP", "US"]],
  ["in([])", Sales.country.in([]), []],
  ["notIn", Sales.country.notIn(["US", "JP"]), ["DE", "FR"]],
  ["notIn([])", Sales.country.notIn([]), ALL_COUNTRIES],
  ["in with null", Sales.region.in(["West", null]), ["JP", "US"]],
  ["notIn with null", Sales.region.notIn(["West", null]), ["DE", "FR", "JP", "US"]],
  ["between", Sales.country.between("DE", "FR"), ["DE", "FR"]],
  ["like", Sales.country.like("_R"), ["FR"]],
  // One escape on every backend (Snowflake has no default, Databricks a backslash): `\S` is a literal S.
  ["like with a backslash escape", Sales.country.like("U\\S"), ["US"]],
  ["like with an escaped wildcard", Sales.country.like("%\\_"), []],
  ["startsWith", Sales.country.startsWith("U"), ["US"]],
  ["endsWith", Sales.country.endsWith("E"), ["DE"]],
  ["contains", Sales.country.contains("P"), ["JP"]],
  ["isNull", Sales.region.isNull(), ["JP"]],
  ["eq(null)", Sales.region.eq(null), ["JP"]],
  ["isNotNull", Sales.region.isNotNull(), ALL_COUNTRIES],
  ["ne(null)", Sales.region.ne(null), ALL_COUNTRIES],
  ["and", and(Sales.country.in(["US", "DE"]), Sales.region.ne("West")), ["DE", "US"]],
  ["or", or(Sales.country.eq("JP"), Sales.region.eq("Paris")), ["FR", "JP"]],
  ["not", not(Sales.country.in(["US", "DE"])), ["FR", "JP"]],
  ["nested", or(and(Sales.country.eq("DE"), not(Sales.region.eq("Berlin"))), Sales.region.isNull()), ["DE", "JP"]],
  ["and()", and(), ALL_COUNTRIES],
  ["or()", or(), []],
];

export function behaviourSuite(harness: BackendHarness): void {
  describe(`shared behaviour: ${harness.title}`, function () {
    this.timeout(60_000);
    let engine: Engine;

    before(async () => {
      engine = await harness.start();
    });
    after(async () => {
      await harness.stop();
    });
    afterEach(() => {
      // Every read below returns its connection, also when it fails.
      expect(engine._pool.borrowed, "connections still borrowed").to.equal(0);
    });

    async function rowsOf(query: { using(e: Engine): { execute(): ReturnType<SalesQuery["execute"]> } }) {
      await using cursor = await query.using(engine).execute();
      return (await cursor.fetchAllRows()) as Record<string, unknown>[];
    }

    describe("the SPEC example", () => {
      it("sums the rows of each country into one row, ordered by revenue descending, revenue a bigint", async () => {
        const rows = await rowsOf(revenueByCountry());
        expect(rows).to.deep.equal(REVENUE_BY_COUNTRY);
        expect(Object.keys(rows[0]!)).to.deep.equal(["country", "revenue"]);
      });

      it("filtering by an existing country returns only its row, an unknown country none", async () => {
        expect(await rowsOf(revenueByCountry().where(Sales.country.eq("DE")))).to.deep.equal([
          { country: "DE", revenue: 420n },
        ]);
        expect(await rowsOf(revenueByCountry().where(Sales.country.eq("Atlantis")))).to.deep.equal([]);
      });
    });

    describe("conditions", () => {
      it("every operator, and/or/not, keeps exactly the expected rows", async () => {
        for (const [name, condition, expected] of CONDITIONS) {
          const rows = await rowsOf(
            Sales.query()
              .metrics(Sales.revenue)
              .dimensions(Sales.country)
              .where(condition)
              .orderBy(Sales.country.asc()),
          );
          expect(
            rows.map((r) => r["country"]),
            name,
          ).to.deep.equal(expected);
        }
      });

      it("filters apply before aggregation, and repeated where() calls are ANDed", async () => {
        expect(await rowsOf(revenueByCountry().where(Sales.region.eq("West")))).to.deep.equal([
          { country: "US", revenue: 175n },
        ]);
        const repeated = revenueByCountry()
          .where(Sales.country.in(["US", "DE"]))
          .where(null)
          .where(Sales.region.ne("West"));
        expect(await rowsOf(repeated)).to.deep.equal([
          { country: "DE", revenue: 420n },
          { country: "US", revenue: 250n },
        ]);
      });
    });

    describe("selection shapes, ordering and paging", () => {
      it("metrics only: one grand-total row", async () => {
        expect(await rowsOf(Sales.query().metrics(Sales.revenue, Sales.cost))).to.deep.equal([SALES_TOTALS]);
      });

      it("dimensions only: the distinct values", async () => {
        const rows = await rowsOf(
          Sales.query()
            .dimensions(Sales.region)
            .orderBy(Sales.region.asc({ nulls: "first" })),
        );
        expect(rows.map((r) => r["region"])).to.deep.equal([null, ...REGIONS_ASC.slice(0, -1)]);
      });

      it("orderBy puts NULLs last by default and first on request, in both directions", async () => {
        const q = Sales.query().dimensions(Sales.region).metrics(Sales.cost);
        const regions = async (query: SalesQuery) => (await rowsOf(query)).map((r) => r["region"]);
        const descending = [...REGIONS_ASC.slice(0, -1)].reverse();
        expect(await regions(q.orderBy(Sales.region.asc())), "asc").to.deep.equal(REGIONS_ASC);
        expect(await regions(q.orderBy(Sales.region.desc())), "desc").to.deep.equal([...descending, null]);
        expect(await regions(q.orderBy(Sales.region.desc({ nulls: "first" }))), "desc first").to.deep.equal([
          null,
          ...descending,
        ]);
        expect(await regions(q.orderBy(Sales.region.asc({ nulls: "last" }))), "asc last").to.deep.equal(REGIONS_ASC);
      });

      it("columns are dimensions then metrics, whatever the call order; two of each", async () => {
        const rows = await rowsOf(
          Sales.query()
            .metrics(Sales.cost, Sales.revenue)
            .dimensions(Sales.region, Sales.country)
            .where(Sales.country.eq("DE"))
            .orderBy(Sales.region.asc()),
        );
        expect(rows).to.deep.equal([
          { region: "Bavaria", country: "DE", cost: 50n, revenue: 120n },
          { region: "Berlin", country: "DE", cost: 120n, revenue: 300n },
        ]);
        expect(Object.keys(rows[0]!)).to.deep.equal(["region", "country", "cost", "revenue"]);
      });

      it("limit and offset page through the ordered result", async () => {
        expect(await rowsOf(revenueByCountry().limit(2))).to.deep.equal(REVENUE_BY_COUNTRY.slice(0, 2));
        expect(await rowsOf(revenueByCountry().limit(2).offset(1))).to.deep.equal(REVENUE_BY_COUNTRY.slice(1, 3));
        expect(await rowsOf(revenueByCountry().offset(3))).to.deep.equal(REVENUE_BY_COUNTRY.slice(3));
      });

      it("limit(0) returns no rows, just the columns", async () => {
        await using cursor = await revenueByCountry().limit(0).using(engine).execute();
        expect(await cursor.fetchAllRows()).to.deep.equal([]);
        expect(cursor.columns.map((c) => c.name)).to.deep.equal(["country", "revenue"]);
      });
    });

    describe("values arrive as API.md's table says", () => {
      it("a money metric as an exact Decimal (17 digits, beyond a double), a count as bigint, text as string", async () => {
        await using cursor = await Orders.query()
          .metrics(Orders.total, Orders.orderCount)
          .dimensions(Orders.status)
          .orderBy(Orders.status.asc())
          .using(engine)
          .execute();
        expect(cursor.columns.map((c) => [c.name, c.kind])).to.deep.equal([
          ["status", "string"],
          ["total", "decimal"],
          ["orderCount", "bigint"],
        ]);
        const rows = (await cursor.fetchAllRows()) as { status: string; total: Decimal; orderCount: bigint }[];
        expect(rows.every((r) => Decimal.isDecimal(r.total))).to.equal(true);
        expect(rows.map((r) => ({ ...r, total: r.total.toString() }))).to.deep.equal(ORDERS_BY_STATUS);
      });

      it("DATE as a Date at UTC midnight, TIMESTAMP as a Date to the millisecond, BOOLEAN as boolean", async () => {
        const rows = await rowsOf(
          Orders.query()
            .metrics(Orders.orderCount)
            .dimensions(Orders.orderedOn, Orders.orderedAt, Orders.isRush)
            .orderBy(Orders.orderedAt.asc()),
        );
        expect(
          rows.map((r) => [
            (r["orderedOn"] as Date).toISOString(),
            (r["orderedAt"] as Date).toISOString(),
            r["isRush"],
            r["orderCount"],
          ]),
        ).to.deep.equal([
          ["1969-12-31T00:00:00.000Z", "1969-12-31T23:59:59.500Z", false, 1n],
          ["2024-02-29T00:00:00.000Z", "2024-02-29T12:34:56.789Z", true, 1n],
          ["2024-03-01T00:00:00.000Z", "2024-03-01T00:00:00.000Z", false, 1n],
        ]);
      });

      it("Date, DATE and boolean filter values select the right rows", async () => {
        const statuses = async (condition: OrdersCondition) =>
          (
            await rowsOf(
              Orders.query()
                .dimensions(Orders.status)
                .metrics(Orders.orderCount)
                .where(condition)
                .orderBy(Orders.status.asc()),
            )
          ).map((r) => [r["status"], r["orderCount"]]);
        expect(await statuses(Orders.orderedAt.gte(new Date("2024-02-29T12:34:56.789Z"))), "Date gte").to.deep.equal([
          ["open", 2n],
        ]);
        expect(await statuses(Orders.orderedAt.eq(new Date("1969-12-31T23:59:59.500Z"))), "Date eq").to.deep.equal([
          ["shipped", 1n],
        ]);
        expect(await statuses(Orders.orderedOn.lt(new Date("2024-03-01T00:00:00Z"))), "DATE lt").to.deep.equal([
          ["open", 1n],
          ["shipped", 1n],
        ]);
        expect(await statuses(Orders.isRush.eq(false)), "boolean").to.deep.equal([
          ["open", 1n],
          ["shipped", 1n],
        ]);
      });

      const factsAlone = () => Orders.query().facts(Orders.statusCode).orderBy(Orders.statusCode.asc());
      const factsWithDimensions = () =>
        Orders.query().dimensions(Orders.status).facts(Orders.quantity).orderBy(Orders.quantity.asc());

      if (harness.facts.alone === "rows") {
        it("facts alone: one row per source row, duplicates kept; number, bigint, float and Decimal filter values", async () => {
          expect(await rowsOf(factsAlone())).to.deep.equal([
            { statusCode: "open" },
            { statusCode: "open" },
            { statusCode: "shipped" },
          ]);
          const facts = async (condition: OrdersCondition) =>
            (
              await rowsOf(
                Orders.query().facts(Orders.quantity, Orders.price).where(condition).orderBy(Orders.quantity.asc()),
              )
            ).map((r) => [r["quantity"], (r["price"] as Decimal).toString()]);
          expect(await facts(Orders.price.gte(Decimal.parse("99999999999999.99"))), "Decimal").to.deep.equal([
            [2, "99999999999999.99"],
          ]);
          expect(await facts(Orders.quantity.gte(3)), "number").to.deep.equal([[3, "19.99"]]);
          expect(await facts(Orders.quantity.lt(2n)), "bigint").to.deep.equal([[1, "0.01"]]);
          expect(await facts(Orders.price.lt(0.5)), "float").to.deep.equal([[1, "0.01"]]);
        });
      } else {
        it("facts alone: refused with a ValidationError before anything is sent", async () => {
          const error = await failureOf(factsAlone().using(engine).execute());
          expect(error).to.be.instanceOf(ValidationError);
          expect(error.message).to.match(/statusCode/);
        });
      }

      if (harness.facts.withDimensions === "rows") {
        it("facts with dimensions: one row per source row, not grouped", async () => {
          expect(await rowsOf(factsWithDimensions())).to.deep.equal([
            { status: "open", quantity: 1 },
            { status: "shipped", quantity: 2 },
            { status: "open", quantity: 3 },
          ]);
        });
      } else {
        it("facts with dimensions: refused with a ValidationError that says why", async () => {
          const error = await failureOf(factsWithDimensions().using(engine).execute());
          expect(error).to.be.instanceOf(ValidationError);
          expect(error.message).to.match(/facts/);
        });
      }
    });

    describe("typed reads", () => {
      it("into() a TypeBox model, strict: BigIntType keeps the bigint; a disagreeing type names the field", async () => {
        const Model = Type.Object({ country: Type.String(), revenue: BigIntType() }, { title: "RevenueByCountry" });
        await using cursor = await revenueByCountry().limit(2).using(engine).execute();
        const models = await cursor.into(Model);
        expect(models.map((m) => ({ ...m }))).to.deep.equal(REVENUE_BY_COUNTRY.slice(0, 2));

        await using wrong = await Orders.query().metrics(Orders.total).using(engine).execute();
        const error = await failureOf(wrong.into(Type.Object({ total: Type.Number() })));
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        expect(error.message).to.contain("total");
      });

      it("into() coerce converts exactly and refuses a conversion that would lose digits", async () => {
        const Model = Type.Object({ status: Type.String(), total: Type.Number() });
        const byStatus = Orders.query().metrics(Orders.total).dimensions(Orders.status).orderBy(Orders.status.asc());
        await using exact = await byStatus.where(Orders.status.eq("open")).using(engine).execute();
        expect((await exact.into(Model, { validate: "coerce" })).map((m) => ({ ...m }))).to.deep.equal([
          { status: "open", total: 59.98 },
        ]);
        await using lossy = await byStatus.using(engine).execute();
        const error = await failureOf(lossy.into(Model, { validate: "coerce" }));
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        expect(error.message).to.contain("total");
      });

      it("iterInto() streams model instances (Decimal and Date fields)", async () => {
        const Model = Type.Object({ orderedAt: DateType(), total: DecimalType() });
        await using cursor = await Orders.query()
          .metrics(Orders.total)
          .dimensions(Orders.orderedAt)
          .orderBy(Orders.orderedAt.asc())
          .using(engine)
          .execute();
        const seen: string[] = [];
        for await (const row of cursor.iterInto(Model)) seen.push(`${row.orderedAt.toISOString()}=${row.total}`);
        expect(seen).to.deep.equal([
          "1969-12-31T23:59:59.500Z=199999999999999.98",
          "2024-02-29T12:34:56.789Z=59.97",
          "2024-03-01T00:00:00.000Z=0.01",
        ]);
      });

      it("fetchArrow() builds an Arrow table with the result's columns and rows", async () => {
        await using cursor = await revenueByCountry().using(engine).execute();
        const table = await cursor.fetchArrow();
        expect(table.numRows).to.equal(SALES_BY_COUNTRY.length);
        expect(table.schema.fields.map((f) => f.name)).to.deep.equal(["country", "revenue"]);
        expect([...table.getChild("country")!.toArray()]).to.deep.equal(REVENUE_BY_COUNTRY.map((r) => r.country));
        expect(BigInt(table.getChild("revenue")!.get(0) as bigint)).to.equal(REVENUE_BY_COUNTRY[0]!.revenue);
      });
    });

    describe("cursors", () => {
      it("close() releases the connection early; closing twice is harmless; reads after close fail", async () => {
        const cursor = await revenueByCountry().using(engine).execute();
        expect(engine._pool.borrowed).to.equal(1);
        expect(await cursor.fetchOne()).to.deep.equal(REVENUE_BY_COUNTRY[0]);
        await cursor.close();
        await cursor.close();
        expect(cursor.closed).to.equal(true);
        expect(engine._pool.borrowed).to.equal(0);
        expect(await failureOf(cursor.fetchOne())).to.be.instanceOf(LibError);
      });

      it("one read mode per result: into() after fetchAllRows() is a clear error", async () => {
        await using cursor = await revenueByCountry().using(engine).execute();
        await cursor.fetchAllRows();
        const error = await failureOf(cursor.into(Type.Object({ country: Type.String() })));
        expect(error).to.be.instanceOf(LibError);
        expect(error.message).to.match(/one read mode/);
      });
    });

    describe("errors", () => {
      it("a missing semantic view is an InternalError (a WarehouseError); the connection goes back", async () => {
        const error = await failureOf(Missing.query().metrics(Missing.revenue).using(engine).execute());
        expect(error).to.be.instanceOf(InternalError);
        expect(error).to.be.instanceOf(WarehouseError);
        expect(error.message).to.match(/no_such_view/i);
        expect(engine._pool.borrowed).to.equal(0);
        expect(await rowsOf(revenueByCountry().limit(1))).to.deep.equal(REVENUE_BY_COUNTRY.slice(0, 1));
      });

      it("a syntax error is a ProgrammingError and the connection stays usable", async () => {
        await using conn = await engine.connect();
        expect(await failureOf(conn.all("SELEC 1"))).to.be.instanceOf(ProgrammingError);
        expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      });
    });

    describe("values are data, never SQL", () => {
      const hostile = `US' OR '1'='1"); DROP TABLE sales_data; --`;

      it("a hostile value matches nothing and leaves the data intact", async () => {
        expect(await rowsOf(revenueByCountry().where(Sales.country.eq(hostile)))).to.deep.equal([]);
        expect(await rowsOf(revenueByCountry().where(Sales.country.in([hostile, "FR"])))).to.deep.equal([
          { country: "FR", revenue: 90n },
        ]);
        expect(await rowsOf(revenueByCountry())).to.deep.equal(REVENUE_BY_COUNTRY);
      });

      it("the value reaches the warehouse as data: a bound parameter (A, B) or a doubly escaped literal (C)", async () => {
        const query = revenueByCountry().where(Sales.country.eq(hostile));
        if (harness.lastStatement === undefined) {
          // where_clause is a string literal holding SQL: the value's quotes are doubled at both levels.
          const escaped = hostile.replaceAll("'", "''''");
          expect(query.using(engine).toSql()).to.contain(`where_clause := '"country" = ''${escaped}'''`);
          return;
        }
        await rowsOf(query);
        const received = harness.lastStatement();
        expect(received.sql).not.to.contain("DROP TABLE");
        expect(received.parameters).to.deep.equal([hostile]);
      });
    });
  });
}
