import { expect } from "chai";
import { Decimal } from "lib";
import type { ColumnInfo } from "lib";
import { plainEngine } from "../support/engines.js";

/** One SELECT expression, its expected DuckDB type text, kind and normalized value. */
const CASES: ReadonlyArray<readonly [expression: string, type: string, kind: ColumnInfo["kind"], value: unknown]> = [
  ["-5::TINYINT", "TINYINT", "integer", -5],
  ["300::SMALLINT", "SMALLINT", "integer", 300],
  ["2147483647::INTEGER", "INTEGER", "integer", 2147483647],
  ["255::UTINYINT", "UTINYINT", "integer", 255],
  ["65535::USMALLINT", "USMALLINT", "integer", 65535],
  ["4294967295::UINTEGER", "UINTEGER", "integer", 4294967295],
  ["9007199254740993::BIGINT", "BIGINT", "bigint", 9007199254740993n],
  ["18446744073709551615::UBIGINT", "UBIGINT", "bigint", 18446744073709551615n],
  ["170141183460469231731687303715884105727::HUGEINT", "HUGEINT", "bigint", 170141183460469231731687303715884105727n],
  ["340282366920938463463374607431768211455::UHUGEINT", "UHUGEINT", "bigint", 340282366920938463463374607431768211455n],
  ["SUM(x) FROM (VALUES (1), (2)) v(x)", "HUGEINT", "bigint", 3n],
  ["12345678901234567::DECIMAL(18,0)", "DECIMAL(18,0)", "bigint", 12345678901234567n],
  [
    "'123456789012345678901234567890123.45'::DECIMAL(38,2)",
    "DECIMAL(38,2)",
    "decimal",
    Decimal.parse("123456789012345678901234567890123.45"),
  ],
  ["'-0.001'::DECIMAL(4,3)", "DECIMAL(4,3)", "decimal", Decimal.parse("-0.001")],
  ["1.5::FLOAT", "FLOAT", "float", 1.5],
  ["0.1::DOUBLE", "DOUBLE", "float", 0.1],
  ["'héllo'::VARCHAR", "VARCHAR", "string", "héllo"],
  ["true", "BOOLEAN", "boolean", true],
  ["DATE '2024-02-29'", "DATE", "date", new Date("2024-02-29T00:00:00Z")],
  ["DATE '1969-12-31'", "DATE", "date", new Date("1969-12-31T00:00:00Z")],
  ["TIMESTAMP '2024-01-02 03:04:05.678'", "TIMESTAMP", "timestamp", new Date("2024-01-02T03:04:05.678Z")],
  ["TIMESTAMP '1969-12-31 23:59:59.9995'", "TIMESTAMP", "timestamp", new Date("1969-12-31T23:59:59.999Z")],
  ["'2024-01-02 03:04:05'::TIMESTAMP_S", "TIMESTAMP_S", "timestamp", new Date("2024-01-02T03:04:05Z")],
  ["'2024-01-02 03:04:05.678'::TIMESTAMP_MS", "TIMESTAMP_MS", "timestamp", new Date("2024-01-02T03:04:05.678Z")],
  ["'2024-01-02 03:04:05.678901234'::TIMESTAMP_NS", "TIMESTAMP_NS", "timestamp", new Date("2024-01-02T03:04:05.678Z")],
  [
    "'2024-01-02 03:04:05.678+00'::TIMESTAMPTZ",
    "TIMESTAMP WITH TIME ZONE",
    "timestamp",
    new Date("2024-01-02T03:04:05.678Z"),
  ],
  ["[1, 2, 3]", "INTEGER[]", "other", [1, 2, 3]],
];

describe("engine: DuckDB value normalization", () => {
  for (const [expression, type, kind, expected] of CASES) {
    it(`${type}: ${expression}`, async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const result = await conn.execute(
        `SELECT ${expression.includes(" FROM ") ? expression.replace(" FROM ", " AS v FROM ") : `${expression} AS v`}`,
      );
      expect(result.columns).to.deep.equal([{ name: "v", type, kind }]);
      const value = result.rows[0]![0];
      if (Decimal.isDecimal(expected)) {
        expect(Decimal.isDecimal(value), `${String(value)} is a Decimal`).to.equal(true);
        expect((value as Decimal).toString()).to.equal(expected.toString());
        expect((value as Decimal).equals(expected)).to.equal(true);
      } else {
        expect(value).to.deep.equal(expected);
      }
    });
  }

  it("keeps NULL as null for every kind", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const result = await conn.execute(
      "SELECT NULL::INTEGER a, NULL::BIGINT b, NULL::DECIMAL(10,2) c, NULL::DOUBLE d, NULL::VARCHAR e, NULL::DATE f, NULL::TIMESTAMP g, NULL::INTEGER[] h",
    );
    expect(result.rows).to.deep.equal([[null, null, null, null, null, null, null, null]]);
  });

  it("values inside lists, structs and maps follow the same rules (a nested DECIMAL stays exact)", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const sql = `SELECT ['12345678901234567.89', NULL]::DECIMAL(20,2)[] AS amounts,
      {'total': '-0.001'::DECIMAL(4,3), 'id': 9007199254740993::BIGINT, 'at': TIMESTAMP '1969-12-31 23:59:59.9995'} AS detail,
      MAP {'k': 2.50::DECIMAL(5,2)} AS by_key, [[1, 2], [3]]::DECIMAL(18,0)[][] AS whole`;
    const check = (row: Record<string, unknown>) => {
      const [amount, missing] = row.amounts as unknown[];
      expect(Decimal.isDecimal(amount) && amount.toString()).to.equal("12345678901234567.89");
      expect(missing).to.equal(null);
      const detail = row.detail as { total: unknown; id: unknown; at: unknown };
      expect(Decimal.isDecimal(detail.total) && detail.total.toString()).to.equal("-0.001");
      expect(detail.id).to.equal(9007199254740993n);
      expect(detail.at).to.deep.equal(new Date("1969-12-31T23:59:59.999Z")); // floored, as at the top level
      const [entry] = row.by_key as { key: unknown; value: unknown }[];
      expect(entry!.key).to.equal("k");
      expect(Decimal.isDecimal(entry!.value) && entry!.value.toString()).to.equal("2.50");
      expect(row.whole).to.deep.equal([[1n, 2n], [3n]]);
    };
    check((await conn.all(sql))[0]!);
    const stream = await conn.stream(sql);
    const names = stream.columns.map((c) => c.name);
    for await (const chunk of stream)
      for (const row of chunk) check(Object.fromEntries(names.map((n, i) => [n, row[i]])));
  });

  it("rows from all() are objects keyed by column name", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const rows = await conn.all("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y' ORDER BY a");
    expect(rows).to.deep.equal([
      { a: 1, b: "x" },
      { a: 2, b: "y" },
    ]);
  });

  describe("parameters", () => {
    it("binds numbers, strings, booleans, null and bigints beyond 2^53", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const rows = await conn.all("SELECT ? AS n, ? AS s, ? AS b, ? AS z, ? AS big", [
        42,
        "it's",
        true,
        null,
        2n ** 70n + 1n,
      ]);
      expect(rows).to.deep.equal([{ n: 42, s: "it's", b: true, z: null, big: 2n ** 70n + 1n }]);
    });

    it("binds $1-style positional parameters", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      expect(await conn.all("SELECT $2 AS b, $1 AS a", ["first", "second"])).to.deep.equal([
        { b: "second", a: "first" },
      ]);
    });

    it("binds a Decimal exactly as a DuckDB DECIMAL", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const result = await conn.execute("SELECT ? AS d, ? + 0.01 AS e", [
        Decimal.parse("12345678901234567890.12"),
        Decimal.parse("0.10"),
      ]);
      expect(result.columns[0]!.kind).to.equal("decimal");
      expect(String(result.rows[0]![0])).to.equal("12345678901234567890.12");
      expect(String(result.rows[0]![1])).to.equal("0.11");
    });

    it("binds a Decimal wider than 38 digits as its exact string", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const wide = "1234567890123456789012345678901234567890.5";
      expect(await conn.all("SELECT ?::VARCHAR AS s", [Decimal.parse(wide)])).to.deep.equal([{ s: wide }]);
    });

    it("binds a Date as a UTC timestamp, comparable with DATE columns", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      const at = new Date("2024-03-04T05:06:07.089Z");
      const rows = await conn.all("SELECT ? AS ts, DATE '2024-03-04' < ? AS later", [at, at]);
      expect(rows).to.deep.equal([{ ts: at, later: true }]);
    });

    it("refuses values it cannot bind, naming the parameter", async () => {
      await using engine = plainEngine();
      await using conn = await engine.connect();
      let caught: unknown;
      try {
        await conn.all("SELECT ? AS a, ? AS b", [1, { not: "bindable" }]);
      } catch (error) {
        caught = error;
      }
      expect((caught as Error).message).to.match(/Parameter 2/);
    });
  });
});
