/**
 * Lifted where_clause values bind with node-api's typed binders (one native call per value) in the
 * types DuckDB resolved: the same values DuckDB sees through `bind(values, types)`, for every type
 * `bindLifted` produces and at each type's edges; types without a typed binder (aliased, enum,
 * TIMESTAMPTZ) still bind through `bindValue` with their own type.
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
import { bindersOf, parameterTypesOf } from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { bindTyped } from "../../runtime/dialects/duckdb/duckdb-typed-binders.js";

/** Column type → values at its edges (what boundValuesOf hands over for it). */
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
});
