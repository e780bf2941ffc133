import { expect } from "chai";
import { Type, type Static } from "typebox";
import { Compile } from "typebox/compile";
import { LibError, LibSchemaMismatchError } from "../../runtime/errors.js";
import { Decimal } from "../../runtime/values/decimal.js";
import { BigIntType, DateType, DecimalType, LibType } from "../../runtime/mapping/schema-types.js";
import { compileRowMapper } from "../../runtime/mapping/model-plan.js";
import { cheapCheck, checkImplied } from "../../runtime/mapping/implied-check.js";
import type { ColumnInfo } from "../../runtime/driver/query-result.js";
import { useHarness } from "../cursor/support/cursor-harness.js";
import { failureOf } from "../support/failures.js";

const TYPED = `SELECT 7::INTEGER AS i32, 9007199254740993::BIGINT AS i64, 12.50::DECIMAL(10,2) AS money,
  1.25::DOUBLE AS f, 'text' AS s, true AS flag, DATE '2024-01-02' AS day, TIMESTAMP '2024-01-02 03:04:05.123' AS ts`;

async function mismatch(promise: Promise<unknown>): Promise<LibSchemaMismatchError> {
  const error = await failureOf(promise);
  expect(error, "expected LibSchemaMismatchError").to.be.instanceOf(LibSchemaMismatchError);
  return error as LibSchemaMismatchError;
}

describe("into(): strict (default)", () => {
  const h = useHarness();

  it("maps every value kind to agreeing model types, keys in the model's declaration order", async () => {
    const Model = Type.Object(
      {
        ts: DateType(),
        day: LibType.Date(),
        flag: Type.Boolean(),
        s: Type.String(),
        f: Type.Number(),
        money: DecimalType(),
        i64: Type.BigInt(),
        i32: Type.Integer(),
      },
      { title: "Typed" },
    );
    await using cursor = await h.cursor(TYPED);
    const rows = await cursor.into(Model);
    expect(rows).to.have.length(1);
    const row = rows[0]!;
    expect(Object.keys(row)).to.deep.equal(["ts", "day", "flag", "s", "f", "money", "i64", "i32"]);
    expect(row.money.equals("12.5")).to.equal(true);
    expect(row.money.toString()).to.equal("12.50");
    expect(row.i64).to.equal(9007199254740993n);
    expect(row.day.toISOString()).to.equal("2024-01-02T00:00:00.000Z");
    expect(row.ts.toISOString()).to.equal("2024-01-02T03:04:05.123Z");
    expect(row).to.include({ flag: true, s: "text", f: 1.25, i32: 7 });
    // Static types follow the helpers.
    const typed: { money: Decimal; i64: bigint; day: Date; i32: number } = row;
    void typed;
  });

  it("Type.Integer/Type.Number over 64-bit columns get numbers within ±(2^53−1); BigIntType keeps bigints", async () => {
    const Model = Type.Object({ i64: Type.Integer(), n64: Type.Number(), i32: Type.Number(), big: BigIntType() });
    await using cursor = await h.cursor(
      "SELECT * FROM (VALUES (9007199254740991::BIGINT, (-9007199254740991)::HUGEINT, 3::SMALLINT, 9007199254740993::HUGEINT)) t(i64, n64, i32, big)",
    );
    const rows = await cursor.into(Model);
    expect(rows).to.deep.equal([{ i64: 9007199254740991, n64: -9007199254740991, i32: 3, big: 9007199254740993n }]);
    expect(typeof rows[0]!.i64).to.equal("number");
  });

  for (const [property, schema] of [
    ["Type.Integer()", Type.Integer()],
    ["Type.Number()", Type.Number()],
  ] as const) {
    it(`${property} over a 64-bit column fails beyond ±(2^53−1), naming field, value and row`, async () => {
      const Model = Type.Object({ n: schema }, { title: "Counts" });
      await using cursor = await h.cursor(
        "SELECT * FROM (VALUES (1::BIGINT, 0), (-9007199254740992::BIGINT, 1)) t(n, k) ORDER BY k",
      );
      const error = await mismatch(cursor.into(Model));
      expect(error.message)
        .to.contain("Counts")
        .and.contain("n:")
        .and.contain("row 1")
        .and.contain("-9007199254740992n");
      expect(error.message).to.contain("outside the safe-integer range");
    });
  }

  it("ignores extra columns and matches by name, not position", async () => {
    const Model = Type.Object({ name: Type.String(), id: Type.Integer() });
    await using cursor = await h.cursor("SELECT 1 AS id, 'x' AS extra, 'n' AS name");
    expect(await cursor.into(Model)).to.deep.equal([{ name: "n", id: 1 }]);
  });

  it("lists every mismatched field (model type vs column type) before converting any row", async () => {
    const Model = Type.Object(
      {
        i32: Type.String(),
        i64: Type.Boolean(),
        money: Type.Integer(),
        f: DecimalType(),
        s: Type.Integer(),
        flag: Type.Integer(),
        day: Type.String(),
        ts: Type.Boolean(),
        absent: Type.String(),
        ok: Type.String(),
      },
      { title: "Wrong" },
    );
    const cursor = await h.cursor(TYPED.replace("AS ts", "AS ts, 'fine' AS ok"));
    const pulls = h.pulls();
    const error = await mismatch(cursor.into(Model));
    expect(h.pulls(), "no chunk was read").to.equal(pulls);
    expect(error.mismatches.map((m) => [m.field, m.modelType, m.columnType])).to.deep.equal([
      ["i32", "string", "INTEGER (integer)"],
      ["i64", "boolean", "BIGINT (bigint)"],
      ["money", "integer", "DECIMAL(10,2) (decimal)"],
      ["f", "Decimal", "DOUBLE (float)"],
      ["s", "integer", "VARCHAR (string)"],
      ["flag", "integer", "BOOLEAN (boolean)"],
      ["day", "string", "DATE (date)"],
      ["ts", "boolean", "TIMESTAMP (timestamp)"],
      ["absent", "string", "(missing)"],
    ]);
    expect(error.message).to.match(
      /^Model Wrong does not match the result: i32: model string vs column INTEGER \(integer\); i64: model boolean vs column BIGINT/,
    );
    expect(error.message).to.contain("absent: model string vs column (missing) (no column of that name in the result)");
  });

  it("bigint model rejects a 32-bit integer column in strict mode (the value arrives as number)", async () => {
    await using cursor = await h.cursor("SELECT 1::INTEGER AS n");
    const error = await mismatch(cursor.into(Type.Object({ n: Type.BigInt() })));
    expect(error.mismatches).to.deep.equal([{ field: "n", modelType: "bigint", columnType: "INTEGER (integer)" }]);
  });

  it("null: nullable unions get null, optional properties are omitted, required ones fail naming row and field", async () => {
    const sql = "SELECT * FROM (VALUES (1, 'a'), (2, NULL)) t(id, name) ORDER BY id";
    {
      await using cursor = await h.cursor(sql);
      expect(
        await cursor.into(Type.Object({ id: Type.Integer(), name: Type.Union([Type.String(), Type.Null()]) })),
      ).to.deep.equal([
        { id: 1, name: "a" },
        { id: 2, name: null },
      ]);
    }
    {
      await using cursor = await h.cursor(sql);
      const rows = await cursor.into(Type.Object({ id: Type.Integer(), name: Type.Optional(Type.String()) }));
      expect(rows).to.deep.equal([{ id: 1, name: "a" }, { id: 2 }]);
      expect("name" in rows[1]!).to.equal(false);
    }
    {
      const cursor = await h.cursor(sql);
      const error = await mismatch(
        cursor.into(Type.Object({ id: Type.Integer(), name: Type.String() }), { validate: "coerce" }),
      );
      expect(error.mismatches[0]).to.include({ field: "name", modelType: "string", columnType: "VARCHAR (string)" });
      expect(error.mismatches[0]!.reason).to.equal("row 1: value null is null but the property is not nullable");
    }
  });

  it("an optional property without a column is omitted; strict still checks present ones", async () => {
    await using cursor = await h.cursor("SELECT 1 AS id");
    expect(await cursor.into(Type.Object({ id: Type.Integer(), note: Type.Optional(Type.String()) }))).to.deep.equal([
      { id: 1 },
    ]);
  });

  it("TypeBox constraints of the model are enforced per value (compiled validator)", async () => {
    const Model = Type.Object(
      { n: Type.Integer({ minimum: 0 }), code: Type.String({ maxLength: 2 }) },
      { title: "Constrained" },
    );
    const cursor = await h.cursor("SELECT * FROM (VALUES (1, 'ab'), (-4, 'cd')) t(n, code) ORDER BY code");
    const error = await mismatch(cursor.into(Model));
    expect(error.message).to.contain(
      "n: model integer vs column INTEGER (integer) (row 1: value -4 fails the model: must be >= 0)",
    );
  });

  it("a bare type the column always satisfies skips the per-value check; constraints keep it, DOUBLE checks finiteness", async () => {
    for (const [schema, type, kind, implied] of [
      [Type.Integer(), "integer", "integer", true],
      [Type.Integer({ title: "id", description: "row id" }), "integer", "bigint", true],
      [Type.Union([Type.Integer(), Type.Null()]), "integer", "integer", true],
      [Type.Number(), "number", "bigint", true],
      [Type.String(), "string", "string", true],
      [DecimalType(), "decimal", "decimal", true],
      [BigIntType(), "bigint", "bigint", true],
      [Type.Number(), "number", "float", false],
      [Type.Integer({ minimum: 0 }), "integer", "integer", false],
      [Type.String({ maxLength: 2 }), "string", "string", false],
      [Type.Union([Type.Integer({ maximum: 3 }), Type.Null()]), "integer", "integer", false],
      [DateType(), "date", "date", false],
      [Type.Integer(), "integer", "decimal", false],
    ] as const) {
      expect(checkImplied(schema, type, kind), `${JSON.stringify(schema)} over ${kind}`).to.equal(implied);
    }
    expect(cheapCheck(Type.Number(), "number", "float")!(1.5)).to.equal(true);
    expect(cheapCheck(Type.Number({ minimum: 0 }), "number", "float")).to.equal(undefined);
    // NaN and ±Infinity in a DOUBLE column still fail Type.Number(), explained as TypeBox explains them.
    for (const special of ["nan", "inf", "-inf"]) {
      const cursor = await h.cursor(`SELECT 1.5::DOUBLE AS f UNION ALL SELECT '${special}'::DOUBLE`);
      const error = await mismatch(cursor.into(Type.Object({ f: Type.Number() }, { title: "Float" })));
      expect(error.message).to.match(/row [01]: value (NaN|-?Infinity) fails the model: \S/);
    }
  });

  it("string literal unions and enums count as string", async () => {
    const Model = Type.Object({
      region: Type.Union([Type.Literal("EU"), Type.Literal("US")]),
      tier: Type.Enum(["gold", "silver"]),
    });
    await using cursor = await h.cursor("SELECT 'EU' AS region, 'gold' AS tier");
    expect(await cursor.into(Model)).to.deep.equal([{ region: "EU", tier: "gold" }]);
    const bad = await h.cursor("SELECT 'APAC' AS region, 'gold' AS tier");
    const error = await mismatch(bad.into(Model));
    expect(error.mismatches[0]!.field).to.equal("region");
    expect(error.mismatches[0]!.reason).to.match(/row 0: value "APAC" fails the model/);
  });

  it("Type.Unknown takes any column", async () => {
    await using cursor = await h.cursor("SELECT [1, 2] AS xs, NULL AS nothing");
    const [row] = await cursor.into(Type.Object({ xs: Type.Unknown(), nothing: Type.Unknown() }));
    expect(Object.keys(row!)).to.deep.equal(["xs", "nothing"]);
    expect(row!.xs).to.not.equal(null);
    expect(row!.nothing).to.equal(null);
  });

  it("other schemas (arrays, objects) agree with other columns and are checked per value by TypeBox", async () => {
    {
      await using cursor = await h.cursor("SELECT [1, 2] AS xs, {'a': 1} AS st");
      expect(
        await cursor.into(Type.Object({ xs: Type.Array(Type.Integer()), st: Type.Object({ a: Type.Integer() }) })),
      ).to.deep.equal([{ xs: [1, 2], st: { a: 1 } }]);
    }
    const bad = await h.cursor("SELECT [1, 2] AS xs");
    const error = await mismatch(bad.into(Type.Object({ xs: Type.Array(Type.String()) })));
    expect(error.mismatches[0]!.reason).to.match(/^row 0: value \[1,2\] fails the model/);
    const scalar = await h.cursor("SELECT [1, 2] AS xs");
    const e2 = await mismatch(scalar.into(Type.Object({ xs: Type.String() })));
    expect(e2.mismatches[0]).to.deep.equal({ field: "xs", modelType: "string", columnType: "INTEGER[] (other)" });
  });

  it("iterInto checks the model before yielding any row", async () => {
    const cursor = await h.cursor("SELECT i FROM range(10) t(i)");
    const iterator = cursor.iterInto(Type.Object({ i: Type.String() }));
    await mismatch(iterator.next());
    expect(cursor.closed).to.equal(true);
  });

  it("rejects an unknown validate mode and a non-object model", async () => {
    const c1 = await h.cursor("SELECT 1 AS id");
    const e1 = await failureOf(c1.into(Type.Object({ id: Type.Integer() }), { validate: "loose" as "none" }));
    expect(e1)
      .to.be.instanceOf(LibError)
      .with.property("message")
      .that.contains('validate must be one of "strict", "coerce", "none"');
    const c2 = await h.cursor("SELECT 1 AS id");
    const e2 = await failureOf(c2.into(Type.Integer() as never));
    expect(e2).to.be.instanceOf(TypeError).with.property("message").that.contains("TypeBox object schema");
  });
});

describe("into(): coerce", () => {
  const h = useHarness();

  const coerce = { validate: "coerce" } as const;

  it("converts exactly: bigint → number, Decimal → integer/bigint/number, number → Decimal, integer → bigint, scalars → string, ISO text → Date", async () => {
    const Model = Type.Object({
      a: Type.Integer(),
      b: Type.Number(),
      c: Type.Integer(),
      d: BigIntType(),
      e: DecimalType(),
      f: DecimalType(),
      g: Type.String(),
      h: Type.String(),
      i: DateType(),
      j: Type.BigInt(),
      k: Type.Number(),
    });
    await using cursor =
      await h.cursor(`SELECT 9007199254740991::BIGINT AS a, 12.50::DECIMAL(10,2) AS b, 3.00::DECIMAL(5,2) AS c,
      4.000::DECIMAL(20,3) AS d, 0.1::DOUBLE AS e, 42::INTEGER AS f, 12345678901234567890.123456789::DECIMAL(38,9) AS g,
      DATE '2024-03-04' AS h, '2024-01-02T03:04:05.5Z' AS i, 17::INTEGER AS j, '2.75' AS k`);
    const [row] = await cursor.into(Model, coerce);
    expect(row).to.deep.equal({
      a: 9007199254740991,
      b: 12.5,
      c: 3,
      d: 4n,
      e: Decimal.parse("0.1"),
      f: new Decimal(42n, 0),
      g: "12345678901234567890.123456789",
      h: "2024-03-04", // a DATE's text is its calendar day, as every JSON writer prints it
      i: new Date("2024-01-02T03:04:05.500Z"),
      j: 17n,
      k: 2.75,
    });
    expect(row!.e.toString()).to.equal("0.1");
  });

  const losses: Array<[string, string, string, RegExp]> = [
    [
      "bigint beyond the safe range → integer",
      "SELECT 9007199254740993::BIGINT AS v",
      "integer",
      /row 0: value 9007199254740993n cannot be converted exactly: outside the safe-integer range/,
    ],
    [
      "Decimal with a fraction → integer",
      "SELECT 2.50::DECIMAL(5,2) AS v",
      "integer",
      /value Decimal\(2\.50\) cannot be converted exactly: has a fraction/,
    ],
    [
      "Decimal with more digits than a double → number",
      "SELECT 12345678901234567.89::DECIMAL(38,2) AS v",
      "number",
      /Decimal\(12345678901234567\.89\) cannot be converted exactly: has no exact number/,
    ],
    [
      "float with a fraction → bigint",
      "SELECT 1.5::DOUBLE AS v",
      "bigint",
      /value 1\.5 cannot be converted exactly: has a fraction/,
    ],
    [
      "text that is no number → Decimal",
      "SELECT 'abc' AS v",
      "decimal",
      /value "abc" cannot be converted exactly: not a decimal number/,
    ],
    [
      "date-time text without a zone → Date",
      "SELECT '2024-01-02 03:04:05' AS v",
      "date",
      /not an ISO date or date-time with a zone/,
    ],
    [
      "a day the calendar does not have → Date (never rolled over to March 1)",
      "SELECT '2023-02-29' AS v",
      "date",
      /value "2023-02-29" cannot be converted exactly: not an ISO date/,
    ],
    [
      'a date-time with a time of day → DateType({ format: "date" })',
      "SELECT '2024-01-02T03:04:05Z' AS v",
      "calendar date",
      /value "2024-01-02T03:04:05Z" cannot be converted exactly: has a time of day, but the model's format is "date"/,
    ],
    [
      'midnight at an offset (another UTC day and time) → DateType({ format: "date" })',
      "SELECT '2024-01-02T00:00:00+02:00' AS v",
      "calendar date",
      /has a time of day, but the model's format is "date"/,
    ],
  ];
  const schemaOf = (t: string) =>
    t === "integer"
      ? Type.Integer()
      : t === "number"
        ? Type.Number()
        : t === "bigint"
          ? Type.BigInt()
          : t === "decimal"
            ? DecimalType()
            : t === "calendar date"
              ? DateType({ format: "date" })
              : DateType();
  for (const [title, sql, type, pattern] of losses) {
    it(`fails instead of losing information: ${title}`, async () => {
      const cursor = await h.cursor(sql);
      const error = await mismatch(cursor.into(Type.Object({ v: schemaOf(type) }, { title: "Lossy" }), coerce));
      expect(error.mismatches).to.have.length(1);
      expect(error.mismatches[0]!.field).to.equal("v");
      expect(error.message).to.match(pattern);
    });
  }

  it('respects a DateType({ format: "date" }) model: calendar-day text and UTC midnight become the day, nullable too', async () => {
    const Model = Type.Object({
      day: DateType({ format: "date" }),
      midnight: DateType({ format: "date" }),
      maybe: Type.Union([DateType({ format: "date" }), Type.Null()]),
      instant: DateType(),
    });
    await using cursor = await h.cursor(
      "SELECT '2024-02-29' AS day, '2024-03-01T00:00:00.000Z' AS midnight, '2024-03-02' AS maybe, '2024-03-03' AS instant",
    );
    expect(await cursor.into(Model, coerce)).to.deep.equal([
      {
        day: new Date("2024-02-29T00:00:00Z"),
        midnight: new Date("2024-03-01T00:00:00Z"),
        maybe: new Date("2024-03-02T00:00:00Z"),
        instant: new Date("2024-03-03T00:00:00Z"),
      },
    ]);
    const late = await h.cursor("SELECT '2024-03-02T12:00:00Z' AS maybe");
    const error = await mismatch(
      late.into(Type.Object({ maybe: Type.Union([DateType({ format: "date" }), Type.Null()]) }), coerce),
    );
    expect(error.message).to.contain('has a time of day, but the model\'s format is "date"');
  });

  it("pairs with no exact conversion at all fail up front, listing every field", async () => {
    const cursor = await h.cursor("SELECT 1 AS n, 'x' AS s, true AS b");
    const error = await mismatch(
      cursor.into(Type.Object({ n: Type.Boolean(), s: Type.Boolean(), b: Type.Integer() }), coerce),
    );
    expect(error.mismatches.map((m) => `${m.field}:${m.modelType}:${m.columnType}:${m.reason}`)).to.deep.equal([
      "n:boolean:INTEGER (integer):no exact conversion",
      "s:boolean:VARCHAR (string):no exact conversion",
      "b:integer:BOOLEAN (boolean):no exact conversion",
    ]);
  });
});

describe("into(): none", () => {
  const h = useHarness();

  it("passes values as they arrive, without checks, keys in model order, missing columns omitted", async () => {
    await using cursor = await h.cursor(
      "SELECT 9007199254740993::BIGINT AS big, NULL::VARCHAR AS s, 1.50::DECIMAL(4,2) AS d",
    );
    const rows = await cursor.into(
      Type.Object({ d: Type.String(), s: Type.Integer(), big: Type.Boolean(), gone: Type.String() }),
      { validate: "none" },
    );
    expect(rows).to.deep.equal([{ d: new Decimal(150n, 2), s: null, big: 9007199254740993n }]);
    expect(Object.keys(rows[0]!)).to.deep.equal(["d", "s", "big"]);
  });
});

describe("model plans", () => {
  const columns: ColumnInfo[] = [
    { name: "id", type: "INTEGER", kind: "integer" },
    { name: "total", type: "DECIMAL(10,2)", kind: "decimal" },
  ];
  const Model = Type.Object({ total: DecimalType(), id: Type.Integer() });

  it("are compiled once per (model, columns, mode) and reused", () => {
    const a = compileRowMapper(Model, columns, "strict");
    expect(compileRowMapper(Model, [...columns.map((c) => ({ ...c }))], "strict")).to.equal(a);
    expect(compileRowMapper(Model, columns, "coerce")).to.not.equal(a);
    expect(compileRowMapper(Model, [columns[0]!, { ...columns[1]!, type: "DECIMAL(12,2)" }], "strict")).to.not.equal(a);
    expect(a([1, Decimal.parse("2.50")], 0)).to.deep.equal({ total: Decimal.parse("2.50"), id: 1 });
  });

  it("lib schema helpers validate with TypeBox's compiled checker and keep JSON-schema annotations", async () => {
    const check = Compile(Model);
    expect(check.Check({ total: Decimal.parse("1.00"), id: 1 })).to.equal(true);
    expect(check.Check({ total: "1.00", id: 1 })).to.equal(false);
    expect(JSON.parse(JSON.stringify(DecimalType({ title: "Total" })))).to.deep.equal({
      title: "Total",
      "x-lib-type": "decimal",
    });
    type M = Static<typeof Model>;
    const m: M = { total: Decimal.parse("1"), id: 1 };
    void m;
  });
});
