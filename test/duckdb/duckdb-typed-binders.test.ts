/**
 * Lifted where_clause values bind with node-api's typed binders (one native call per value) in the
 * types DuckDB resolved: the same values DuckDB sees through `bind(values, types)`, for every type
 * `bindLifted` produces and at each type's edges; types without a typed binder (aliased, enum,
 * TIMESTAMPTZ) still bind through `bindValue` with their own type. The layer's lifted parameters bind
 * from their own fields (no list of driver values first) with the same result, and a value count
 * that differs from the statement's parameter count is a LibError naming both.
 */
import { expect } from "chai";
import {
  DuckDBInstance,
  decimalValue,
  dateValue,
  timestampValue,
  timestampTZValue,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from "@duckdb/node-api";
import { LibError } from "lib";
import { bindersOf, parameterTypesOf } from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { bindLiftedTyped, bindTyped } from "../../runtime/dialects/duckdb/duckdb-typed-binders.js";
import type { BoundParameter } from "../../runtime/semantic/semantic-layer.js";

/** Column type → values at its edges (what the lifted parameters stand for). */
const CASES: readonly (readonly [string, readonly DuckDBValue[]])[] = [
  ["BOOLEAN", [true, false]],
  ["TINYINT", [-128, 127, 0]],
  ["SMALLINT", [-32768, 32767]],
  ["INTEGER", [-2147483648, 2147483647]],
  ["BIGINT", [-(2n ** 63n), 2n ** 63n - 1n, 0n]],
  ["HUGEINT", [-(2n ** 127n), 2n ** 127n - 1n, -1n]],
  ["UTINYINT", [0, 255]],
  ["USMALLINT", [65535]],
  ["UINTEGER", [4294967295]],
  ["UBIGINT", [2n ** 64n - 1n]],
  ["UHUGEINT", [2n ** 128n - 1n]],
  ["DOUBLE", [0.1, -1e300, 5e-324]],
  ["DECIMAL(10,2)", [decimalValue(-99999999n, 10, 2), decimalValue(1250n, 10, 2)]],
  ["DECIMAL(38,5)", [decimalValue(10n ** 37n + 1n, 38, 5)]],
  ["VARCHAR", ["", "it's", "a\0b", "Zürich 日本 😀", "x".repeat(5_000)]],
  ["DATE", [dateValue(-719528), dateValue(19000), dateValue(2932896)]],
  ["TIMESTAMP", [timestampValue(1_700_000_000_123_456n), timestampValue(-62135596800000000n)]],
  ["TIMESTAMPTZ", [timestampTZValue(1_700_000_000_123_456n)]],
  ["mood", ["b"]],
  ["JSON", ['{"a": 1}']],
];

describe("backend C: lifted values bind with typed binders", () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;

  before(async () => {
    instance = await DuckDBInstance.create(":memory:");
    conn = await instance.connect();
    await conn.run("CREATE TYPE mood AS ENUM ('a', 'b')");
  });
  after(() => {
    conn.closeSync();
    instance.closeSync();
  });

  /** A statement whose parameter DuckDB types as `type` (compared with a column of it), answering the bound value. */
  const prepare = async (type: string): Promise<DuckDBPreparedStatement> => {
    await conn.run(`CREATE OR REPLACE TABLE t (c ${type})`);
    await conn.run("INSERT INTO t VALUES (NULL)");
    return conn.prepare("SELECT $1 AS v, typeof($1) AS t FROM t WHERE c IS DISTINCT FROM $1");
  };
  const read = async (statement: DuckDBPreparedStatement) =>
    (await statement.runAndReadAll()).getRowObjectsJson().map((row) => JSON.stringify(row));

  for (const [type, values] of CASES) {
    it(`${type}: the same values and type as bind(values, types)`, async () => {
      const statement = await prepare(type);
      try {
        const types = parameterTypesOf(statement);
        const binders = bindersOf(statement);
        for (const value of [...values, null]) {
          bindTyped(statement, binders, [value]);
          const typed = await read(statement);
          statement.bind([value], types);
          expect(typed, `${type} ${String(value)}`).to.deep.equal(await read(statement));
        }
      } finally {
        statement.destroySync();
      }
    });
  }

  it("uses a typed binder, not bindValue, for the types bindLifted produces; bindValue for the others", async () => {
    const typedTypes = [
      "BOOLEAN",
      "INTEGER",
      "BIGINT",
      "HUGEINT",
      "DOUBLE",
      "DECIMAL(10,2)",
      "VARCHAR",
      "DATE",
      "TIMESTAMP",
    ];
    for (const [type, values] of CASES) {
      const statement = await prepare(type);
      let generic = 0;
      const bindValue = statement.bindValue.bind(statement);
      statement.bindValue = (index, value, valueType) => {
        generic++;
        bindValue(index, value, valueType);
      };
      try {
        bindTyped(statement, bindersOf(statement), [values[0]!]);
        if (typedTypes.includes(type)) expect(generic, type).to.equal(0);
        if (["TIMESTAMPTZ", "mood", "JSON"].includes(type)) expect(generic, type).to.equal(1);
      } finally {
        statement.destroySync();
      }
    }
  });

  /** Parameter type → lifted parameters of every kind bindLifted makes, with the driver value each stands for. */
  const LIFTED: readonly (readonly [string, BoundParameter, DuckDBValue])[] = [
    ["BOOLEAN", { kind: "boolean", value: true }, true],
    ["INTEGER", { kind: "number", value: -2147483648 }, -2147483648],
    ["UTINYINT", { kind: "number", value: 255 }, 255],
    ["DOUBLE", { kind: "number", value: 0.1 }, 0.1],
    ["BIGINT", { kind: "bigint", value: 2n ** 63n - 1n }, 2n ** 63n - 1n],
    ["UHUGEINT", { kind: "bigint", value: 2n ** 128n - 1n }, 2n ** 128n - 1n],
    ["VARCHAR", { kind: "varchar", value: "it's a\0b 😀" }, "it's a\0b 😀"],
    ["DECIMAL(10,2)", { kind: "decimal", unscaled: -99999999n, width: 10, scale: 2 }, decimalValue(-99999999n, 10, 2)],
    [
      "DECIMAL(38,5)",
      { kind: "decimal", unscaled: 10n ** 37n + 1n, width: 38, scale: 5 },
      decimalValue(10n ** 37n + 1n, 38, 5),
    ],
    ["DATE", { kind: "date", days: -719528 }, dateValue(-719528)],
    ["TIMESTAMP", { kind: "timestamp", micros: -62135596800000000n }, timestampValue(-62135596800000000n)],
    ["TIMESTAMPTZ", { kind: "timestamptz", micros: 1_700_000_000_123_456n }, timestampTZValue(1_700_000_000_123_456n)],
  ];

  it("binds the layer's lifted parameters from their fields: the same values and types as bind(values, types)", async () => {
    for (const [type, parameter, value] of LIFTED) {
      const statement = await prepare(type);
      try {
        bindLiftedTyped(statement, bindersOf(statement), [parameter]);
        const lifted = await read(statement);
        statement.bind([value], parameterTypesOf(statement));
        expect(lifted, `${type} ${parameter.kind}`).to.deep.equal(await read(statement));
      } finally {
        statement.destroySync();
      }
    }
  });

  it("a value count other than the statement's parameter count is a LibError naming both", async () => {
    const statement = await conn.prepare("SELECT $1::INTEGER + $2::INTEGER AS v");
    try {
      const binders = bindersOf(statement);
      expect(() => bindTyped(statement, binders, [1])).to.throw(
        LibError,
        /Cannot bind 1 value to a prepared statement with 2 parameters/,
      );
      expect(() => bindTyped(statement, binders, [1, 2, 3])).to.throw(LibError, /3 values .* 2 parameters/);
      const one: BoundParameter = { kind: "number", value: 1 };
      expect(() => bindLiftedTyped(statement, binders, [])).to.throw(LibError, /0 values .* 2 parameters/);
      expect(() => bindLiftedTyped(statement, binders, [one, one, one])).to.throw(LibError, /3 values .* 2 parameters/);
      bindLiftedTyped(statement, binders, [one, { kind: "number", value: 2 }]);
      expect((await statement.runAndReadAll()).getRowObjectsJson()).to.deep.equal([{ v: 3 }]);
    } finally {
      statement.destroySync();
    }
  });
});
