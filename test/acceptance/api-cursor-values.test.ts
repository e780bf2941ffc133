/** API.md acceptance: cursors and typed reads, how values arrive, Decimal and lossless JSON. */
import { expect } from "chai";
import type { AddressInfo } from "node:net";
import express from "express";
import { Type } from "typebox";
import {
  and,
  BackendCConfig,
  createEngine,
  Decimal,
  DecimalType,
  Dimension,
  getEngine,
  jsonReplacer,
  LibSchemaMismatchError,
  LibType,
  Metric,
  not,
  or,
  register,
  SemanticView,
  toJson,
  BigIntType,
} from "lib";
import { Cursor } from "lib";
import type { Engine } from "lib";
import { jsonReplacerWritesNumbers, jsonResponse, sendJson } from "lib/express";
import { failureOf } from "../support/failures.js";
import { createSalesEngine } from "../support/sales-engine.js";
import { type Equals, assertType, Sales, RevenueByCountry, BY_COUNTRY } from "./support/api.js";

describe("API.md contract (acceptance, backend C): Cursor and values", function () {
  this.timeout(60_000);

  afterEach(() => {
    // No engine may leak into the next test under "default".
    expect(() => getEngine("default")).to.throw();
  });

  describe("Cursor", () => {
    const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

    it("the API.md sample: fetchAllRows, into (default strict), iterInto; released at scope exit", async () => {
      await using engine = createSalesEngine();
      {
        await using cursor = await q.execute(); // the pooled connection is released at scope exit
        const rows = await cursor.fetchAllRows(); // plain objects keyed by field name
        expect(rows).to.deep.equal(BY_COUNTRY);
        for (const row of rows) {
          expect(Object.getPrototypeOf(row)).to.equal(Object.prototype);
          expect(Object.keys(row)).to.deep.equal(["country", "revenue"]);
        }
        expect(engine._pool.borrowed).to.equal(0); // exhausted: already back
      }
      {
        await using cursor = await q.execute();
        const typed = await cursor.into(RevenueByCountry); // default validate: "strict"
        // Type.Integer() is `number`: the 64-bit SUM arrives as a number within ±(2^53−1).
        expect(typed.map((r) => [r.country, r.revenue])).to.deep.equal(
          BY_COUNTRY.map((r) => [r.country, Number(r.revenue)]),
        );
      }
      {
        await using cursor = await q.execute();
        const seen: unknown[] = [];
        for await (const r of cursor.iterInto(RevenueByCountry)) seen.push(r.country); // streaming, bounded memory
        expect(seen).to.deep.equal(["US", "DE", "JP", "FR"]);
      }
      {
        const cursor = await q.execute();
        {
          await using scoped = cursor;
          expect(engine._pool.borrowed).to.equal(1);
          void scoped;
        }
        expect(engine._pool.borrowed).to.equal(0);
      }
    });

    it("into(): one instance per row, keys in the model's declaration order, columns matched by name", async () => {
      await using _engine = createSalesEngine();
      const Reordered = Type.Object({ revenue: Type.Integer(), country: Type.String() }, { title: "Reordered" });
      await using cursor = await q.execute();
      const rows = await cursor.into(Reordered);
      expect(rows).to.have.length(4);
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(["revenue", "country"]);
      expect(rows[0]).to.deep.include({ country: "US" });
      expect(BigInt(rows[0]!.revenue as number | bigint)).to.equal(425n);
    });

    it('validate "strict": a disagreeing model throws LibSchemaMismatchError naming field, model type and column type', async () => {
      await using _engine = createSalesEngine();
      const Wrong = Type.Object({ country: Type.String(), revenue: Type.String() }, { title: "Wrong" });
      for (const options of [undefined, { validate: "strict" as const }]) {
        await using cursor = await q.execute();
        const error = (await failureOf(cursor.into(Wrong, options))) as LibSchemaMismatchError;
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        // SUM(INTEGER) arrives as BIGINT (the semantic layer casts HUGEINT down, as the extension does).
        expect(error.message).to.contain("revenue").and.to.contain("string").and.to.contain("BIGINT");
      }
      // A 64-bit column agrees with `number` value by value: these sums are within ±(2^53−1).
      await using cursor = await q.execute();
      const AsNumber = Type.Object({ country: Type.String(), revenue: Type.Number() });
      expect((await cursor.into(AsNumber)).map((r) => typeof r.revenue)).to.deep.equal(BY_COUNTRY.map(() => "number"));
    });

    it('validate "coerce" converts exactly or throws; "none" does not check', async () => {
      await using engine = createSalesEngine();
      const AsNumber = Type.Object({ country: Type.String(), revenue: Type.Number() });
      {
        await using cursor = await q.execute();
        const rows = await cursor.into(AsNumber, { validate: "coerce" });
        expect(rows[0]).to.deep.equal({ country: "US", revenue: 425 });
        expect(typeof rows[0]!.revenue).to.equal("number");
      }
      {
        await using conn = await engine.connect();
        await conn.run("ALTER TABLE sales_data ALTER revenue TYPE BIGINT");
        await conn.run("INSERT INTO sales_data VALUES (9007199254740993, 0, 'XL', 'Big')"); // 2^53 + 1
        await conn.commit();
      }
      {
        await using cursor = await q.execute();
        const error = await failureOf(cursor.into(AsNumber, { validate: "coerce" }));
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        expect((error as Error).message).to.contain("revenue");
      }
      {
        const Wrong = Type.Object({ country: Type.String(), revenue: Type.String() });
        await using cursor = await q.execute();
        const rows = await cursor.into(Wrong, { validate: "none" });
        expect(rows[0]).to.deep.equal({ country: "XL", revenue: 9007199254740993n });
      }
      {
        await using cursor = await q.execute();
        const rows: unknown[] = [];
        for await (const r of cursor.iterInto(AsNumber, { validate: "none" })) rows.push(r);
        expect(rows).to.have.length(5);
      }
    });
  });

  describe("How values arrive", () => {
    class Typed extends SemanticView("typed", {
      tiny: Dimension<number>(),
      small: Dimension<number>(),
      int: Dimension<number>(),
      uint: Dimension<number>(),
      big: Dimension<bigint>(),
      huge: Dimension<bigint>(),
      ubig: Dimension<bigint>(),
      money: Dimension<Decimal>(),
      real: Dimension<number>(),
      dbl: Dimension<number>(),
      txt: Dimension<string>(),
      flag: Dimension<boolean>(),
      day: Dimension<Date>(),
      ts: Dimension<Date>(),
      total_money: Metric<Decimal>(),
      total_big: Metric<bigint>(),
      avg_int: Metric<number>(),
    }) {}
    const selectValues = (
      huge: string,
    ) => `SELECT 1::TINYINT AS tiny, 2::SMALLINT AS small, 3::INTEGER AS int, 4::UINTEGER AS uint,
      9007199254740993::BIGINT AS big, ${huge}::HUGEINT AS huge, 18446744073709551615::UBIGINT AS ubig,
      12345678901234.56::DECIMAL(18,2) AS money, 1.5::FLOAT AS real, 2.25::DOUBLE AS dbl, 'text' AS txt, true AS flag,
      DATE '2024-02-29' AS day, TIMESTAMP '2024-02-29 12:34:56' AS ts`;

    function typedEngine(): Engine {
      const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
      engine._pool.on("connect", async (conn) => {
        await conn.run(`CREATE TABLE typed_data AS ${selectValues(VIEW_HUGE)}`);
        await conn.run(`CREATE SEMANTIC VIEW typed AS TABLES (t AS typed_data)
          DIMENSIONS (${["tiny", "small", "int", "uint", "big", "huge", "ubig", "money", "real", "dbl", "txt", "flag", "day", "ts"].map((c) => `t.${c} AS ${c}`).join(", ")})
          METRICS (t.total_money AS SUM(money), t.total_big AS SUM(big), t.avg_int AS AVG(int))`);
        await conn.commit();
      });
      return engine;
    }

    /** Semantic views hand HUGEINT out as BIGINT (as the extension does), so the view's value fits 64 bits. */
    const VIEW_HUGE = "9223372036854775807";
    const RAW_HUGE = "170141183460469231731687303715884105727";

    function checkValues(row: Record<string, unknown>, huge: string): void {
      for (const key of ["tiny", "small", "int", "uint"]) expect(row[key], key).to.be.a("number");
      expect([row["tiny"], row["small"], row["int"], row["uint"]]).to.deep.equal([1, 2, 3, 4]);
      expect(row["big"]).to.equal(9007199254740993n);
      expect(row["huge"]).to.equal(BigInt(huge));
      expect(row["ubig"]).to.equal(18446744073709551615n);
      expect(row["money"]).to.be.instanceOf(Decimal);
      expect((row["money"] as Decimal).toString()).to.equal("12345678901234.56");
      expect(row["real"]).to.equal(1.5);
      expect(row["dbl"]).to.equal(2.25);
      expect(row["txt"]).to.equal("text");
      expect(row["flag"]).to.equal(true);
      expect(row["day"]).to.be.instanceOf(Date);
      expect((row["day"] as Date).toISOString()).to.equal("2024-02-29T00:00:00.000Z");
      expect(row["ts"]).to.be.instanceOf(Date);
      expect((row["ts"] as Date).toISOString()).to.equal("2024-02-29T12:34:56.000Z");
    }

    it("through a cursor: number, bigint, Decimal, number, string, boolean, Date", async () => {
      await using _engine = typedEngine();
      const q = Typed.query()
        .dimensions(Typed.tiny, Typed.small, Typed.int, Typed.uint, Typed.big, Typed.huge, Typed.ubig, Typed.money)
        .dimensions(Typed.real, Typed.dbl, Typed.txt, Typed.flag, Typed.day, Typed.ts)
        .metrics(Typed.total_money, Typed.total_big, Typed.avg_int);
      await using cursor = await q.execute();
      const rows = await cursor.fetchAllRows();
      expect(rows).to.have.length(1);
      const row = rows[0]!;
      checkValues(row, VIEW_HUGE);
      expect(row.total_money).to.be.instanceOf(Decimal);
      expect(row.total_money.toString()).to.equal("12345678901234.56");
      expect(row.total_big).to.equal(9007199254740993n);
      expect(row.avg_int).to.equal(3);
      assertType<Equals<typeof row.total_money, Decimal>>();
    });

    it("through conn.all(): the same normalization", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      await using conn = await engine.connect();
      const [row] = await conn.all(selectValues(RAW_HUGE));
      checkValues(row!, RAW_HUGE);
    });

    it("model types agree: integer with number-integers, BigIntType with bigint, number with number, Decimal helper with Decimal, string with text", async () => {
      await using _engine = typedEngine();
      const Model = Type.Object({
        int: Type.Integer(),
        big: BigIntType(),
        dbl: Type.Number(),
        money: DecimalType(), // API.md: the schema helper of `Decimal` columns
        total_money: DecimalType(),
        txt: Type.String(),
        flag: Type.Boolean(),
      });
      const q = Typed.query()
        .dimensions(Typed.int, Typed.big, Typed.dbl, Typed.money, Typed.txt, Typed.flag)
        .metrics(Typed.total_money);
      await using cursor = await q.execute();
      const [row] = await cursor.into(Model);
      expect(row!.int).to.equal(3);
      expect(row!.big).to.equal(9007199254740993n);
      {
        // Type.Integer() (`number`) over the same 64-bit value: an error naming field, value and row.
        await using again = await Typed.query().dimensions(Typed.big).execute();
        const error = (await failureOf(again.into(Type.Object({ big: Type.Integer() })))) as LibSchemaMismatchError;
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        expect(error.message).to.contain("big").and.contain("9007199254740993n").and.contain("row 0");
      }
      expect(row!.dbl).to.equal(2.25);
      expect(row!.money).to.be.instanceOf(Decimal);
      expect(row!.total_money.toString()).to.equal("12345678901234.56");
      assertType<Equals<NonNullable<typeof row>["money"], Decimal>>();
      expect(row!.txt).to.equal("text");
      {
        await using again = await Typed.query().dimensions(Typed.money).execute();
        const [viaLibType] = await again.into(Type.Object({ money: LibType.Decimal() }));
        expect(viaLibType!.money.toString()).to.equal("12345678901234.56");
      }
      const Mismatch = Type.Object({ money: Type.Number() });
      await using again = await Typed.query().dimensions(Typed.money).execute();
      expect(await failureOf(again.into(Mismatch))).to.be.instanceOf(LibSchemaMismatchError);
    });
  });

  describe("Decimal and lossless JSON", () => {
    it("Decimal is an exact plain class: toString(), toJSON(); not callable (DecimalType() is the schema helper)", () => {
      const built = new Decimal(1250n, 2);
      expect(built).to.be.instanceOf(Decimal);
      expect(built.toString()).to.equal("12.50");
      expect(Decimal.isDecimal(built)).to.equal(true);
      expect(() => (Decimal as unknown as (options: object) => unknown)({ title: "Revenue" })).to.throw(TypeError);
      expect(DecimalType({ title: "Revenue" })).to.deep.include({ title: "Revenue" });
      const d = Decimal.parse("12345678901234567890.123456789");
      expect(d.toString()).to.equal("12345678901234567890.123456789");
      expect(d.toJSON()).to.equal("12345678901234567890.123456789");
      expect(Decimal.parse("1.50").toString()).to.equal("1.50");
      expect(Decimal.parse("-0.05").toString()).to.equal("-0.05");
    });

    it("toJson writes bigint and Decimal as exact JSON numbers, no TypeError", () => {
      const body = {
        big: 9223372036854775807n,
        money: Decimal.parse("12345678901234567890.123456789"),
        list: [1n, "x", null],
        day: new Date(0),
      };
      expect(() => JSON.stringify(body)).to.throw(TypeError);
      expect(toJson(body)).to.equal(
        '{"big":9223372036854775807,"money":12345678901234567890.123456789,"list":[1,"x",null],"day":"1970-01-01T00:00:00.000Z"}',
      );
    });

    it("jsonReplacer makes JSON.stringify lossless (exact numbers when JSON.rawJSON exists)", () => {
      const text = JSON.stringify({ big: 9223372036854775807n, money: Decimal.parse("0.10") }, jsonReplacer);
      expect(text).to.equal(
        jsonReplacerWritesNumbers
          ? '{"big":9223372036854775807,"money":0.10}'
          : '{"big":"9223372036854775807","money":"0.10"}',
      );
    });

    it("the Express response helpers write exact numbers", async () => {
      const app = express();
      app.get("/helper", (_req, res) => sendJson(res, [{ country: "US", revenue: 9007199254740993n }]));
      app.use(jsonResponse());
      app.get("/middleware", (_req, res) => {
        res.status(200).json({ money: Decimal.parse("12345678901234567890.12") });
      });
      const server = app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server.once("listening", () => resolve()));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const helper = await fetch(`${base}/helper`);
        expect(helper.headers.get("content-type")).to.contain("application/json");
        expect(await helper.text()).to.equal('[{"country":"US","revenue":9007199254740993}]');
        expect(await (await fetch(`${base}/middleware`)).text()).to.equal('{"money":12345678901234567890.12}');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });
});
