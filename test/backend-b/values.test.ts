/**
 * Backend B values, through the real driver and the stand-in's Arrow results: every column type
 * arrives as API.md says (BIGINT beyond 2^53 exact, DECIMAL exact, DECIMAL(p,0) as bigint, DATE at
 * UTC midnight), column metadata carries the warehouse type text, parameters of every type bind.
 */
import { expect } from "chai";
import { DataError, Decimal } from "lib";
import { DatabricksDriver } from "../../runtime/dialects/databricks/databricks-driver.js";
import { STAND_IN_OPTIONS, driverSettings, standInEngine, useStandIn } from "./databricks-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";

const EVERY_TYPE = `SELECT
  CAST(9007199254740993 AS BIGINT) AS big_pos,
  CAST(-9223372036854775808 AS BIGINT) AS big_min,
  CAST(7 AS TINYINT) AS tiny, CAST(-300 AS SMALLINT) AS small, CAST(2147483647 AS INTEGER) AS i,
  CAST('123456789012345678901234567890123456.78' AS DECIMAL(38,2)) AS money,
  CAST(-0.05 AS DECIMAL(5,2)) AS cents,
  CAST('-123456789012345678901234567890123456.78' AS DECIMAL(38,2)) AS debt,
  CAST('12345678901234567890123456789012345678' AS DECIMAL(38,0)) AS whole,
  CAST(0.1 AS DOUBLE) AS dbl, CAST(1.5 AS FLOAT) AS flt,
  'naïve ✓' AS txt, TRUE AS flag,
  DATE '1969-07-20' AS d, TIMESTAMP '2024-02-29 23:59:58.123' AS ts,
  CAST(NULL AS BIGINT) AS nothing`;

describe("backend B: values", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it("every column type arrives as API.md says, exactly", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const [row] = await conn.all(EVERY_TYPE);
    expect(row).to.deep.include({
      big_pos: 9007199254740993n,
      big_min: -9223372036854775808n,
      tiny: 7,
      small: -300,
      i: 2147483647,
      whole: 12345678901234567890123456789012345678n,
      dbl: 0.1,
      flt: 1.5,
      txt: "naïve ✓",
      flag: true,
      nothing: null,
    });
    expect((row!["money"] as Decimal).toString()).to.equal("123456789012345678901234567890123456.78");
    expect((row!["cents"] as Decimal).toString()).to.equal("-0.05");
    // Negative beyond 2^53 unscaled: exact only thanks to databricks-decimal-patch.ts.
    expect((row!["debt"] as Decimal).toString()).to.equal("-123456789012345678901234567890123456.78");
    expect(Decimal.isDecimal(row!["money"])).to.equal(true);
    expect((row!["d"] as Date).toISOString()).to.equal("1969-07-20T00:00:00.000Z");
    expect((row!["ts"] as Date).toISOString()).to.equal("2024-02-29T23:59:58.123Z");
  });

  it("column metadata: the warehouse type text and the value kind", async () => {
    const driver = new DatabricksDriver(driverSettings(fixture.standIn));
    const connection = await driver.openConnection();
    try {
      const result = await connection.execute(EVERY_TYPE);
      expect(result.columns.map((c) => `${c.name}:${c.type}:${c.kind}`)).to.deep.equal([
        "big_pos:BIGINT:bigint",
        "big_min:BIGINT:bigint",
        "tiny:TINYINT:integer",
        "small:SMALLINT:integer",
        "i:INT:integer",
        "money:DECIMAL(38,2):decimal",
        "cents:DECIMAL(5,2):decimal",
        "debt:DECIMAL(38,2):decimal",
        "whole:DECIMAL(38,0):bigint",
        "dbl:DOUBLE:float",
        "flt:FLOAT:float",
        "txt:STRING:string",
        "flag:BOOLEAN:boolean",
        "d:DATE:date",
        "ts:TIMESTAMP:timestamp",
        "nothing:BIGINT:bigint",
      ]);
    } finally {
      await connection.close();
      await driver.destroy();
    }
  });

  it("parameters of every type bind as typed ordinal parameters and round-trip", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const before = fixture.standIn.statements.length;
    const params = [
      "it's",
      42,
      9007199254740993n,
      2.5,
      true,
      Decimal.parse("-12345678901234567890.125"),
      new Date("2024-02-29T23:59:58.123Z"),
      null,
    ];
    const [row] = await conn.all("SELECT ? AS s, ? AS i, ? AS b, ? AS f, ? AS t, ? AS m, ? AS ts, ? AS n", params);
    expect(row).to.deep.include({ s: "it's", b: 9007199254740993n, f: 2.5, t: true, n: null });
    expect(Number(row!["i"])).to.equal(42);
    expect(String(row!["m"])).to.equal("-12345678901234567890.125");
    expect((row!["ts"] as Date).toISOString()).to.equal("2024-02-29T23:59:58.123Z");
    const received = fixture.standIn.statements[before]!;
    expect(received.parameters.map((p) => p.type ?? "NULL")).to.deep.equal([
      "STRING",
      "INTEGER",
      "BIGINT",
      "DOUBLE",
      "BOOLEAN",
      "DECIMAL(23,3)",
      "TIMESTAMP",
      "NULL",
    ]);
    expect(received.parameters[5]!.value).to.equal("-12345678901234567890.125");
  });

  it("a Decimal filter value is compared exactly (CAST(? AS DECIMAL(p,s)) from the compiler, bound as text)", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const rows = await conn.all("SELECT status FROM orders_data WHERE price = CAST(? AS DECIMAL(18,2))", [
      "99999999999999.99",
    ]);
    expect(rows).to.deep.equal([{ status: "shipped" }]);
  });

  it("stream() reads in chunks of the requested size and stops early on close()", async () => {
    const driver = new DatabricksDriver(driverSettings(fixture.standIn));
    const connection = await driver.openConnection();
    try {
      const stream = await connection.stream("SELECT CAST(range AS BIGINT) AS n FROM range(0, 25)", undefined, {
        chunkRows: 10,
      });
      expect(stream.columns).to.deep.equal([{ name: "n", type: "BIGINT", kind: "bigint" }]);
      const sizes: number[] = [];
      const values: unknown[] = [];
      for await (const chunk of stream) {
        sizes.push(chunk.length);
        values.push(...chunk.map((r) => r[0]));
      }
      expect(sizes).to.deep.equal([10, 10, 5]);
      expect(values).to.deep.equal(Array.from({ length: 25 }, (_, i) => BigInt(i)));

      const early = await connection.stream("SELECT range AS n FROM range(0, 100)", undefined, { chunkRows: 10 });
      for await (const chunk of early) {
        expect(chunk).to.have.length(10);
        break;
      }
      await early.close();
      await early.close();
      // The connection is still usable afterwards.
      expect((await connection.execute("SELECT 1 AS one")).rows).to.deep.equal([[1]]);
    } finally {
      await connection.close();
      await driver.destroy();
    }
  });
});

describe("backend B: values of a warehouse answering without Arrow (column-based results)", function () {
  this.timeout(20_000);
  const fixture = useStandIn({ ...STAND_IN_OPTIONS, resultFormat: "columns", sessionTimeZone: "America/New_York" });

  it("a DECIMAL the driver turned into a JS number raises DataError when digits may be lost, like BIGINT", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const [small] = await conn.all(
      "SELECT CAST(-1.5 AS DECIMAL(5,2)) AS cents, CAST(42 AS BIGINT) AS n, CAST(NULL AS DECIMAL(38,2)) AS nothing",
    );
    expect(String(small!["cents"])).to.equal("-1.50");
    expect(Decimal.isDecimal(small!["cents"])).to.equal(true);
    expect(small).to.deep.include({ n: 42n, nothing: null });
    // TIMESTAMP text comes in the session's zone without an offset: right only because sessions run in UTC.
    const [times] = await conn.all(
      "SELECT TIMESTAMPTZ '2024-03-10 12:00:00.25+00' AS zoned, TIMESTAMP '2024-03-10 12:00:00.25' AS wall",
    );
    expect([(times!["zoned"] as Date).toISOString(), (times!["wall"] as Date).toISOString()]).to.deep.equal([
      "2024-03-10T12:00:00.250Z",
      "2024-03-10T12:00:00.250Z",
    ]);
    for (const sql of [
      "SELECT CAST('12345678901234567.89' AS DECIMAL(38,2)) AS money",
      "SELECT CAST(0.1 AS DECIMAL(38,2)) AS money",
      "SELECT CAST(9007199254740993 AS BIGINT) AS big",
    ]) {
      const error = await failureOf(conn.all(sql));
      expect(error, sql).to.be.instanceOf(DataError);
      expect((error as Error).message, sql).to.match(/money|big/);
    }
  });
});
