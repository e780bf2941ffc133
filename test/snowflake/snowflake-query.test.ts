/**
 * Backend A specifics, through the real snowflake-sdk and the loopback stand-in: the SEMANTIC_VIEW
 * statements and binds Snowflake receives, Snowflake's result types, date and time handling on
 * accounts with other formats and zones, and Snowflake error codes. What every backend shares (rows,
 * operators, value types, into/iterInto, cursors) is in `test/shared/support/behaviour-suite.ts`.
 */
import { expect } from "chai";
import {
  DataError,
  Decimal,
  InternalError,
  Metric,
  ProgrammingError,
  SemanticView,
  ValidationError,
  WarehouseError,
  type Engine,
} from "lib";
import { Orders, SALES_BY_COUNTRY, Sales } from "../support/sales-fixture.js";
import {
  standInEngine,
  startStandIn,
  useStandInEngine,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";
import { SESSION_SETUP } from "../../runtime/dialects/snowflake/snowflake-driver.js";

class Missing extends SemanticView("no_such_view", { revenue: Metric<bigint>() }) {}

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

describe("backend A queries through snowflake-sdk and the stand-in", function () {
  this.timeout(20_000);
  const fixture = useStandInEngine();

  async function rows<
    Q extends { using(e: Engine): { execute(): Promise<{ fetchAllRows(): Promise<unknown[]> } & AsyncDisposable> } },
  >(q: Q) {
    await using cursor = await q.using(fixture.engine).execute();
    return await cursor.fetchAllRows();
  }

  describe("the SPEC example", () => {
    it("sums revenue per country, ordered by revenue descending, as bigint (NUMBER(38,0))", async () => {
      await using cursor = await revenueByCountry().using(fixture.engine).execute();
      expect(cursor.columns.map((c) => [c.name, c.type, c.kind])).to.deep.equal([
        ["country", "VARCHAR", "string"],
        ["revenue", "NUMBER(38,0)", "bigint"],
      ]);
      const result = await cursor.fetchAllRows();
      expect(result).to.deep.equal(SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue })));
      expect(fixture.standIn.queries.at(-1)!.sqlText).to.equal(
        'SELECT * FROM SEMANTIC_VIEW("SALES" DIMENSIONS "COUNTRY" AS "country" METRICS "REVENUE" AS "revenue") ORDER BY "revenue" DESC NULLS LAST',
      );
    });

    it("filters by a country sent as a bind parameter, never as SQL text", async () => {
      const result = await rows(revenueByCountry().where(Sales.country.eq("US")));
      expect(result).to.deep.equal([
        { country: "US", revenue: SALES_BY_COUNTRY.find((r) => r.country === "US")!.revenue },
      ]);
      const seen = fixture.standIn.queries.at(-1)!;
      expect(seen.sqlText).to.contain('WHERE "COUNTRY" = ?');
      expect(seen.sqlText).not.to.contain("US");
      expect(seen.bindings).to.deep.equal({ "1": { type: "TEXT", value: "US" } });
    });
  });

  describe("value types", () => {
    it("facts: NUMBER(9,0) as number, NUMBER(18,2) as Decimal; Decimal parameters bound as exact text", async () => {
      await using cursor = await Orders.query()
        .facts(Orders.quantity, Orders.price)
        .where(Orders.price.gte(Decimal.parse("99999999999999.99")))
        .using(fixture.engine)
        .execute();
      expect(cursor.columns.map((c) => c.kind)).to.deep.equal(["integer", "decimal"]);
      const result = (await cursor.fetchAllRows()) as { quantity: number; price: Decimal }[];
      expect(result.map((r) => [r.quantity, r.price.toString()])).to.deep.equal([[2, "99999999999999.99"]]);
      expect(fixture.standIn.queries.at(-1)!.sqlText).to.contain("CAST(? AS NUMBER(16,2))");
      expect(fixture.standIn.queries.at(-1)!.sqlText).to.match(
        /^SELECT \* FROM SEMANTIC_VIEW\("ORDERS" FACTS "QUANTITY", "PRICE" WHERE/,
      );
      expect(fixture.standIn.queries.at(-1)!.bindings).to.deep.equal({
        "1": { type: "TEXT", value: "99999999999999.99" },
      });
    });

    it("raw SQL: bigint beyond 2^53 round-trips exactly as a bind and a result; floats, text and NULLs", async () => {
      await using conn = await fixture.engine.connect();
      const big = 2n ** 53n + 1n;
      const result = await conn.all(
        "SELECT CAST(? AS NUMBER(38,0)) + 1 AS next, CAST(? AS NUMBER(38,10)) AS precise, 1.5::DOUBLE AS f, CAST(NULL AS INTEGER) AS n, ? AS t, CAST(7 AS NUMBER(9,0)) AS small",
        [big, Decimal.parse("-12345678901234567890.0123456789"), "café"],
      );
      expect(result).to.have.length(1);
      const row = result[0]!;
      expect(row.next).to.equal(big + 1n);
      expect(String(row.precise)).to.equal("-12345678901234567890.0123456789");
      expect(row.f).to.equal(1.5);
      expect(row.n).to.equal(null);
      expect(row.t).to.equal("café");
      expect(row.small).to.equal(7);
      expect(fixture.standIn.queries.at(-1)!.bindings).to.deep.include({
        "1": { type: "TEXT", value: "9007199254740993" },
      });
    });

    it("integers never go through the sdk's Number(): the session asks for JS_TREAT_INTEGER_AS_BIGINT, so no precision-loss event", async () => {
      await using conn = await fixture.engine.connect();
      const huge = 10n ** 30n + 7n;
      expect(
        await conn.all("SELECT CAST(? AS NUMBER(38,0)) AS huge, -CAST(? AS NUMBER(38,0)) AS neg", [huge, huge]),
      ).to.deep.equal([{ huge, neg: -huge }]);
      const { queryId } = fixture.standIn.queries.at(-1)!;
      // The sdk reports a lossy conversion to /telemetry/send; a statement after it has surely sent it.
      await conn.all("SELECT 1 AS one");
      expect(
        fixture.standIn.telemetry.filter((body) => body.includes("precision_loss") && body.includes(queryId)),
      ).to.deep.equal([]);
      expect(fixture.standIn.logins.at(-1)!.data).to.have.nested.property(
        "SESSION_PARAMETERS.JS_TREAT_INTEGER_AS_BIGINT",
        true,
      );
    });
  });

  describe("dates and timestamps on an account with non-AUTO input formats", () => {
    it("Date filter values are typed in the SQL (TO_TIMESTAMP_NTZ of epoch ms), never parsed as text", async () => {
      const byTime = (await rows(
        Orders.query()
          .metrics(Orders.orderCount)
          .dimensions(Orders.orderedAt)
          .where(Orders.orderedAt.gte(new Date("2024-02-29T12:34:56.789Z")))
          .orderBy(Orders.orderedAt.asc()),
      )) as { orderedAt: Date }[];
      expect(byTime.map((r) => r.orderedAt.toISOString())).to.deep.equal([
        "2024-02-29T12:34:56.789Z",
        "2024-03-01T00:00:00.000Z",
      ]);
      const seen = fixture.standIn.queries.at(-1)!;
      expect(seen.sqlText).to.contain('"orderedAt" >= TO_TIMESTAMP_NTZ(?, 3)');
      expect(seen.bindings).to.deep.equal({
        "1": { type: "FIXED", value: String(Date.UTC(2024, 1, 29, 12, 34, 56, 789)) },
      });

      const byDate = (await rows(
        Orders.query()
          .metrics(Orders.orderCount)
          .dimensions(Orders.orderedOn)
          .where(Orders.orderedOn.eq(new Date("1969-12-31T00:00:00Z"))),
      )) as {
        orderedOn: Date;
      }[];
      expect(byDate.map((r) => r.orderedOn.toISOString())).to.deep.equal(["1969-12-31T00:00:00.000Z"]);
    });

    it("sessions run in UTC: a Date means the same instant on TIMESTAMP_NTZ and TIMESTAMP_LTZ columns of an account in America/New_York", async () => {
      const zoned = await startStandIn({
        timeZone: "America/New_York",
        seedSql: [
          "CREATE TABLE events (id INTEGER, wall TIMESTAMP, zoned TIMESTAMPTZ)",
          "INSERT INTO events VALUES (1, TIMESTAMP '2024-03-10 12:00:00.250', TIMESTAMPTZ '2024-03-10 12:00:00.250+00'), (2, TIMESTAMP '2024-07-01 23:30:00', TIMESTAMPTZ '2024-07-01 23:30:00+00')",
        ],
      });
      try {
        await using zonedEngine = standInEngine(zoned);
        await using conn = await zonedEngine.connect();
        const all = await conn.all("SELECT id, wall, zoned FROM events ORDER BY id");
        expect(
          all.map((r) => [r["id"], (r["wall"] as Date).toISOString(), (r["zoned"] as Date).toISOString()]),
        ).to.deep.equal([
          [1, "2024-03-10T12:00:00.250Z", "2024-03-10T12:00:00.250Z"],
          [2, "2024-07-01T23:30:00.000Z", "2024-07-01T23:30:00.000Z"],
        ]);
        for (const r of all) {
          const at = (r["wall"] as Date).getTime();
          expect(await conn.all("SELECT id FROM events WHERE wall = TO_TIMESTAMP_NTZ(?, 3)", [at])).to.deep.equal([
            { id: r["id"] },
          ]);
          expect(await conn.all("SELECT id FROM events WHERE zoned = TO_TIMESTAMP_NTZ(?, 3)", [at])).to.deep.equal([
            { id: r["id"] },
          ]);
        }
        expect(zoned.queries[0]!.sqlText).to.equal(SESSION_SETUP);
      } finally {
        await zoned.close();
      }
    });

    it("the stand-in refuses ISO text where a DATE or TIMESTAMP is expected, as Snowflake does with a non-AUTO format", async () => {
      await using conn = await fixture.engine.connect();
      const error = await failureOf(
        conn.all("SELECT COUNT(*) AS n FROM orders_data WHERE ordered_at >= ?", ["2024-02-29T12:34:56.789Z"]),
      );
      expect(error).to.be.instanceOf(DataError);
      expect((error as Error).message).to.match(/Timestamp '2024-02-29T12:34:56.789Z' is not recognized/);
      expect(
        await conn.all("SELECT COUNT(*) AS n FROM orders_data WHERE ordered_on = ?", ["29.02.2024"]),
      ).to.deep.equal([{ n: 1n }]);
    });
  });

  describe("result types as Snowflake reports them", () => {
    it("literals by their digits, COUNT NUMBER(18,0), SUM over NUMBER(38,0) NUMBER(38,0), integer casts NUMBER(38,0)", async () => {
      await using conn = await fixture.engine.connect();
      const result = await conn.execute(
        "SELECT 1 AS one, 123 AS n, COUNT(*) AS c, SUM(revenue) AS s, CAST(5 AS INTEGER) AS i FROM sales_data",
      );
      expect(result.columns.map((c) => [c.name, c.type, c.kind])).to.deep.equal([
        ["one", "NUMBER(1,0)", "integer"],
        ["n", "NUMBER(3,0)", "integer"],
        ["c", "NUMBER(18,0)", "bigint"],
        ["s", "NUMBER(38,0)", "bigint"],
        ["i", "NUMBER(38,0)", "bigint"],
      ]);
      expect(result.rows[0]!.slice(0, 3)).to.deep.equal([1, 123, 8n]);
      expect(result.rows[0]![4]).to.equal(5n);
    });
  });

  describe("Snowflake's SEMANTIC_VIEW grammar", () => {
    it("the stand-in refuses an alias on a FACTS item, as Snowflake does (001003)", async () => {
      await using conn = await fixture.engine.connect();
      const error = await failureOf(conn.all('SELECT * FROM SEMANTIC_VIEW("ORDERS" FACTS "QUANTITY" AS "q")'));
      expect(error).to.be.instanceOf(ProgrammingError);
      expect((error as { code?: string }).code).to.equal("001003");
      expect(
        await conn.all('SELECT "QUANTITY" AS "q" FROM SEMANTIC_VIEW("ORDERS" FACTS "QUANTITY") ORDER BY "q"'),
      ).to.deep.equal([{ q: 1 }, { q: 2 }, { q: 3 }]);
    });

    it("facts alone are not grouped: rows with the same fact values all come back, named by position", async () => {
      const result = (await rows(Orders.query().facts(Orders.statusCode).orderBy(Orders.statusCode.asc()))) as Record<
        string,
        unknown
      >[];
      expect(result).to.deep.equal([{ statusCode: "open" }, { statusCode: "open" }, { statusCode: "shipped" }]);
      expect(fixture.standIn.queries.at(-1)!.sqlText).to.equal(
        'SELECT * FROM SEMANTIC_VIEW("ORDERS" FACTS "statusCode") ORDER BY 1 ASC NULLS LAST',
      );
    });

    it("facts with dimensions are refused before anything is sent; the stand-in refuses them as the 2026_07 bundle does", async () => {
      const sent = fixture.standIn.queries.length;
      const refused = await failureOf(
        rows(Orders.query().facts(Orders.quantity).dimensions(Orders.status).orderBy(Orders.quantity.asc())),
      );
      expect(refused).to.be.instanceOf(ValidationError);
      expect(refused.message).to.match(/groups by the dimensions and returns an arbitrary fact value per group/);
      expect(fixture.standIn.queries.length).to.equal(sent);
      await using conn = await fixture.engine.connect();
      const error = await failureOf(
        conn.all('SELECT * FROM SEMANTIC_VIEW("ORDERS" DIMENSIONS "STATUS" AS "status" FACTS "QUANTITY")'),
      );
      expect(error).to.be.instanceOf(ProgrammingError);
      expect(error.message).to.match(/Querying FACTS with DIMENSIONS in a semantic view is not supported/);
    });

    it("an account without the 2026_07 bundle groups facts with dimensions, one arbitrary fact value per group", async () => {
      const grouping = await startStandIn({ factsWithDimensions: "group" });
      try {
        await using engine = standInEngine(grouping);
        await using conn = await engine.connect();
        const result = await conn.all(
          'SELECT * FROM SEMANTIC_VIEW("ORDERS" DIMENSIONS "STATUS" AS "status" FACTS "QUANTITY") ORDER BY 1',
        );
        expect(result.map((r) => r["status"])).to.deep.equal(["open", "shipped"]);
      } finally {
        await grouping.close();
      }
    });
  });

  describe("errors", () => {
    it("a missing semantic view arrives as InternalError (code 002003)", async () => {
      const error = await failureOf(Missing.query().metrics(Missing.revenue).using(fixture.engine).execute());
      expect(error).to.be.instanceOf(InternalError);
      expect(error).to.be.instanceOf(WarehouseError);
      expect((error as { code?: string }).code).to.equal("002003");
      expect((error as Error).message).to.match(/NO_SUCH_VIEW.*does not exist/);
    });

    it("a syntax error is a ProgrammingError; a bad cast a DataError; the connection stays usable", async () => {
      await using conn = await fixture.engine.connect();
      const syntax = await failureOf(conn.all("SELEC 1"));
      expect(syntax).to.be.instanceOf(ProgrammingError);
      expect((syntax as { code?: string }).code).to.equal("001003");
      const data = await failureOf(conn.all("SELECT CAST('abc' AS INTEGER) AS x"));
      expect(data).to.be.instanceOf(DataError);
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });
  });
});
