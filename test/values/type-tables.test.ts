/**
 * Every type of each dialect's type table through its three consumers: the driver's column
 * classification and value normalisation, codegen's mapping (kind → TypeBox schema) and `into()`
 * strict agreement. Backend C with real DuckDB values (a table with one column per type, read by
 * `execute()`, a cursor and a semantic query); A and B through their drivers' column classification
 * for every type, and with real values through their stand-ins for the kinds those serve.
 * Changing one consumer without the others makes a case here fail.
 */
import { expect } from "chai";
import { createRequire } from "node:module";
import { Type, type TObject, type TSchema } from "typebox";
import { BackendCConfig, BigIntType, createEngine, DateType, Decimal, DecimalType, Dimension, SemanticView } from "lib";
import type { DimensionField } from "../../runtime/view/field.js";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import { columnsOfSchema } from "../../runtime/dialects/databricks/databricks-values.js";
import { DATABRICKS_TYPES } from "../../runtime/dialects/databricks/databricks-types.js";
import { DUCKDB_TYPES } from "../../runtime/dialects/duckdb/duckdb-types.js";
import { snowflakeColumn } from "../../runtime/dialects/snowflake/snowflake-values.js";
import { SNOWFLAKE_TYPES } from "../../runtime/dialects/snowflake/snowflake-types.js";
import { BACKENDS, DIALECTS, type BackendType } from "../../runtime/dialects/dialects.js";
import type { TypeTable } from "../../runtime/dialects/type-table.js";
import { KIND_TYPINGS } from "../../runtime/mapping/kind-typings.js";
import type { ColumnInfo, ValueKind } from "../../runtime/driver/query-result.js";
import { agreesStrictly } from "../../runtime/mapping/coerce.js";
import { describeProperty, type ModelType } from "../../runtime/mapping/model-type.js";
import { schemaOf } from "../../codegen/emit/schema-helpers.js";
import { tsTypeOf, valueKindOf } from "../../codegen/type-mapping.js";
import { plainEngine } from "../support/engines.js";
import {
  standInEngine as backendAEngine,
  withSnowflakeStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import {
  standInEngine as backendBEngine,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";

/** The schema each call codegen can emit stands for (a call missing here fails the test). */
const SCHEMA_CALLS: Readonly<Record<string, () => TSchema>> = {
  "Type.Integer": () => Type.Integer(),
  "Type.Number": () => Type.Number(),
  "Type.String": () => Type.String(),
  "Type.Boolean": () => Type.Boolean(),
  "Type.Unknown": () => Type.Unknown(),
  BigIntType: () => BigIntType(),
  DecimalType: () => DecimalType(),
  DateType: () => DateType(),
};

/** The DTO property codegen writes for a column of this type text. */
function codegenSchema(backend: BackendType, typeText: string): TSchema {
  const { call } = schemaOf(valueKindOf(backend, typeText));
  const make = SCHEMA_CALLS[call];
  if (make === undefined) throw new Error(`codegen emits ${call}, which this test does not know`);
  return make();
}

/** The generated-style DTO for a result: one codegen property per column, from the column's type text. */
function codegenModel(backend: BackendType, columns: readonly ColumnInfo[]): TObject {
  return Type.Object(Object.fromEntries(columns.map((c) => [c.name, codegenSchema(backend, c.type)])));
}

/** Whether a normalized value is what its kind promises (README "How values arrive"). */
function hasKind(value: unknown, kind: ValueKind): boolean {
  switch (kind) {
    case "integer":
      return Number.isInteger(value);
    case "float":
      return typeof value === "number";
    case "bigint":
      return typeof value === "bigint";
    case "decimal":
      return Decimal.isDecimal(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return value instanceof Date && value.getTime() % 86_400_000 === 0;
    case "timestamp":
      return value instanceof Date && !Number.isNaN(value.getTime());
    case "other":
      return value !== null && value !== undefined;
  }
}

/** Codegen gives every column the kind the driver reported, and each value is of that kind. */
function expectAgreement(backend: BackendType, columns: readonly ColumnInfo[], row: readonly unknown[]): void {
  columns.forEach((column, i) => {
    const what = `${column.name} ${column.type}`;
    expect(valueKindOf(backend, column.type), `${what}: codegen's kind`).to.equal(column.kind);
    expect(hasKind(row[i], column.kind), `${what}: ${String(row[i])} is a ${column.kind} value`).to.equal(true);
  });
}

/** One column per DuckDB type: the table's name it covers (none for arrays), its declaration, a value. */
interface DuckDBSample {
  readonly name: string | undefined;
  readonly declared: string;
  readonly literal: string;
}

const sample = (name: string | undefined, declared: string, literal: string): DuckDBSample => ({
  name,
  declared,
  literal,
});
const named = (names: readonly string[], literal: string): DuckDBSample[] =>
  names.map((name) => sample(name, name, literal));

const DUCKDB_SAMPLES: readonly DuckDBSample[] = [
  ...named(["TINYINT", "INT1", "SMALLINT", "INT2", "SHORT", "INTEGER", "INT", "INT4", "SIGNED"], "-7"),
  ...named(["UTINYINT", "USMALLINT", "UINTEGER"], "7"),
  ...named(["BIGINT", "INT8", "LONG", "HUGEINT", "INT128"], "-9007199254740993"),
  ...named(["UBIGINT", "UHUGEINT"], "9007199254740993"),
  sample("DECIMAL", "DECIMAL(38,2)", "'-123456789012345678901234567890123.45'"),
  sample("DECIMAL", "DECIMAL(4,0)", "12"),
  sample("DECIMAL", "DECIMAL", "'1.5'"),
  sample("NUMERIC", "NUMERIC(18,0)", "12345678901234567"),
  sample("NUMERIC", "NUMERIC(9,3)", "'-0.001'"),
  ...named(["FLOAT", "FLOAT4", "REAL", "DOUBLE", "FLOAT8"], "0.5"),
  ...named(["VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR"], "'naïve ✓'"),
  sample("VARCHAR", "VARCHAR(3)", "'abc'"),
  sample("UUID", "UUID", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'"),
  sample("JSON", "JSON", `'{"a": [1, 2]}'`),
  ...named(["BOOLEAN", "BOOL", "LOGICAL"], "true"),
  sample("DATE", "DATE", "'1969-07-20'"),
  ...named(
    ["TIMESTAMP", "DATETIME", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMP_US"],
    "'1969-12-31 23:59:59'",
  ),
  ...named(["TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE"], "'2024-02-29 12:34:56.789+00'"),
  sample("TIME", "TIME", "'12:34:56'"),
  sample("TIME WITH TIME ZONE", "TIME WITH TIME ZONE", "'12:34:56+01'"),
  sample("INTERVAL", "INTERVAL", "INTERVAL 1 DAY"),
  sample("BLOB", "BLOB", "'\\x01\\xFF'"),
  sample("BIT", "BIT", "'101'"),
  sample("ENUM", "ENUM('a', 'b')", "'b'"),
  sample("STRUCT", "STRUCT(a INTEGER, b VARCHAR)", "{'a': 1, 'b': 'x'}"),
  sample("MAP", "MAP(VARCHAR, INTEGER)", "MAP {'k': 1}"),
  sample("UNION", "UNION(n INTEGER, s VARCHAR)", "union_value(s := 'x')"),
  sample(undefined, "INTEGER[]", "[1, 2]"),
  sample(undefined, "DECIMAL(4,1)[2]", "[1.5, 2.5]"),
];

/** Creates `every_type` (column `c<i>` per sample) with one row. */
async function createEveryType(conn: { run(sql: string): Promise<void>; commit(): Promise<void> }): Promise<void> {
  await conn.run(`CREATE TABLE every_type (${DUCKDB_SAMPLES.map((s, i) => `c${i} ${s.declared}`).join(", ")})`);
  const values = DUCKDB_SAMPLES.map((s) => `CAST(${s.literal} AS ${s.declared})`).join(", ");
  await conn.run(`INSERT INTO every_type VALUES (${values})`);
  await conn.commit();
}

/**
 * One sdk rowtype per Snowflake type name: what the warehouse reports for a column declared so
 * (integer synonyms are NUMBER(38,0); TIMESTAMP and DATETIME are TIMESTAMP_NTZ by default).
 */
const SNOWFLAKE_ROWTYPES: Readonly<
  Record<string, readonly (readonly [type: string, precision: number, scale: number])[]>
> = {
  NUMBER: [
    ["fixed", 38, 0],
    ["fixed", 9, 0],
    ["fixed", 10, 0],
    ["fixed", 38, 2],
  ],
  DECIMAL: [["fixed", 12, 2]],
  NUMERIC: [["fixed", 5, 0]],
  FIXED: [["fixed", 18, 0]],
  ...Object.fromEntries(
    ["INT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "BYTEINT"].map((n) => [n, [["fixed", 38, 0]]]),
  ),
  ...Object.fromEntries(
    ["FLOAT", "FLOAT4", "FLOAT8", "DOUBLE", "DOUBLE PRECISION", "REAL"].map((n) => [n, [["real", 0, 0]]]),
  ),
  ...Object.fromEntries(
    ["VARCHAR", "TEXT", "STRING", "CHAR", "CHARACTER", "NCHAR", "NVARCHAR"].map((n) => [n, [["text", 0, 0]]]),
  ),
  BOOLEAN: [["boolean", 0, 0]],
  DATE: [["date", 0, 0]],
  DATETIME: [["timestamp_ntz", 0, 9]],
  TIMESTAMP: [["timestamp_ntz", 0, 9]],
  TIMESTAMP_NTZ: [["timestamp_ntz", 0, 9]],
  TIMESTAMP_LTZ: [["timestamp_ltz", 0, 3]],
  TIMESTAMP_TZ: [["timestamp_tz", 0, 9]],
  TIME: [["time", 0, 9]],
  VARIANT: [["variant", 0, 0]],
  OBJECT: [["object", 0, 0]],
  ARRAY: [["array", 0, 0]],
  BINARY: [["binary", 0, 0]],
};

const require = createRequire(import.meta.url);
const { TTypeId } = (
  require("@databricks/sql") as { thrift: { TCLIService_types: { TTypeId: Record<string, number> } } }
).thrift.TCLIService_types;

/** The Thrift result type per Databricks type name (with DECIMAL's precision and scale qualifiers). */
const DATABRICKS_THRIFT: Readonly<
  Record<string, readonly (readonly [type: string, precision?: number, scale?: number])[]>
> = {
  TINYINT: [["TINYINT_TYPE"]],
  BYTE: [["TINYINT_TYPE"]],
  SMALLINT: [["SMALLINT_TYPE"]],
  SHORT: [["SMALLINT_TYPE"]],
  INT: [["INT_TYPE"]],
  INTEGER: [["INT_TYPE"]],
  BIGINT: [["BIGINT_TYPE"]],
  LONG: [["BIGINT_TYPE"]],
  DECIMAL: [
    ["DECIMAL_TYPE", 38, 2],
    ["DECIMAL_TYPE", 38, 0],
    ["DECIMAL_TYPE", 5, 0],
  ],
  DEC: [["DECIMAL_TYPE", 10, 0]],
  NUMERIC: [["DECIMAL_TYPE", 9, 3]],
  FLOAT: [["FLOAT_TYPE"]],
  REAL: [["FLOAT_TYPE"]],
  DOUBLE: [["DOUBLE_TYPE"]],
  STRING: [["STRING_TYPE"]],
  VARCHAR: [["VARCHAR_TYPE"]],
  CHAR: [["CHAR_TYPE"]],
  BOOLEAN: [["BOOLEAN_TYPE"]],
  DATE: [["DATE_TYPE"]],
  TIMESTAMP: [["TIMESTAMP_TYPE"]],
  TIMESTAMP_NTZ: [["TIMESTAMP_TYPE"]],
  TIMESTAMP_LTZ: [["TIMESTAMP_TYPE"]],
  BINARY: [["BINARY_TYPE"]],
  ARRAY: [["ARRAY_TYPE"]],
  MAP: [["MAP_TYPE"]],
  STRUCT: [["STRUCT_TYPE"]],
  "INTERVAL YEAR TO MONTH": [["INTERVAL_YEAR_MONTH_TYPE"]],
  "INTERVAL DAY TO SECOND": [["INTERVAL_DAY_TIME_TYPE"]],
  VOID: [["NULL_TYPE"]],
};

function thriftColumn(name: string, [type, precision, scale]: readonly [string, number?, number?]): object {
  const typeQualifiers =
    precision === undefined
      ? undefined
      : { qualifiers: { precision: { i32Value: precision }, scale: { i32Value: scale ?? 0 } } };
  return {
    columnName: name,
    position: 1,
    typeDesc: { types: [{ primitiveEntry: { type: TTypeId[type], typeQualifiers } }] },
  };
}

/** Scalar values of every kind but `other`, as the stand-ins (DuckDB behind the wire) run them. */
const STAND_IN_SELECT = `SELECT CAST(7 AS INTEGER) AS i, CAST(-7 AS DECIMAL(9,0)) AS n9, CAST(-9007199254740993 AS BIGINT) AS b,
  CAST('-12345678901234567890.25' AS DECIMAL(38,2)) AS d, CAST(12345678901 AS DECIMAL(18,0)) AS d0,
  CAST(0.5 AS DOUBLE) AS f, 'naïve ✓' AS s, true AS t, DATE '1969-07-20' AS dt,
  TIMESTAMP '2024-02-29 12:34:56.789' AS ts`;

/** The stand-in's row through the engine: kinds, values and the codegen DTO under strict into(). */
async function expectStandInAgreement(
  backend: BackendType,
  table: { kindOf(text: string): ValueKind },
  engine: {
    connect(): ReturnType<ReturnType<typeof createEngine>["connect"]>;
  },
): Promise<void> {
  const result = await (async () => {
    await using conn = await engine.connect();
    return conn.execute(STAND_IN_SELECT);
  })();
  for (const column of result.columns) expect(column.kind, column.type).to.equal(table.kindOf(column.type));
  const kinds = new Set(result.columns.map((c) => c.kind));
  expect([...kinds].sort()).to.deep.equal(
    Object.keys(KIND_TYPINGS)
      .filter((k) => k !== "other")
      .sort(),
  );
  expectAgreement(backend, result.columns, result.rows[0]!);
  await using cursor = await openCursor(await engine.connect(), { sql: STAND_IN_SELECT, parameters: [] });
  const [typed] = await cursor.into(codegenModel(backend, result.columns));
  expect(Object.values(typed as object)).to.deep.equal(result.rows[0]);
}

describe("type tables: every type through the driver, codegen and into()", () => {
  describe("each value kind's typing", () => {
    for (const kind of Object.keys(KIND_TYPINGS) as ValueKind[]) {
      it(`${kind}: codegen's schema is the model type into() agrees with`, () => {
        const typing = KIND_TYPINGS[kind];
        expect(schemaOf(kind).call).to.equal(typing.schema);
        expect(tsTypeOf(kind)).to.equal(typing.tsType);
        const make = SCHEMA_CALLS[typing.schema];
        expect(make, typing.schema).to.not.equal(undefined);
        const property = describeProperty("v", make!(), true);
        expect(property.type).to.equal(typing.model);
        expect(agreesStrictly(property.type, kind)).to.equal(true);
      });
    }
  });

  it("into() strict agrees exactly as README documents (a kind's own schema, and number/integer with wider integers)", () => {
    const kinds = Object.keys(KIND_TYPINGS) as ValueKind[];
    const documented: Record<ModelType, readonly ValueKind[]> = {
      integer: ["integer", "bigint"],
      number: ["integer", "float", "bigint"],
      bigint: ["bigint"],
      decimal: ["decimal"],
      string: ["string"],
      boolean: ["boolean"],
      date: ["date", "timestamp"],
      unknown: kinds,
      other: ["other"],
    };
    for (const [model, agreeing] of Object.entries(documented) as [ModelType, readonly ValueKind[]][]) {
      expect(
        kinds.filter((kind) => agreesStrictly(model, kind)),
        model,
      ).to.deep.equal(kinds.filter((kind) => agreeing.includes(kind)));
    }
  });

  it("walks every dialect's type table (a new dialect needs its samples here)", () => {
    const walked = new Map<BackendType, TypeTable>([
      ["backend_a", SNOWFLAKE_TYPES],
      ["backend_b", DATABRICKS_TYPES],
      ["backend_c", DUCKDB_TYPES],
    ]);
    expect(BACKENDS.map((backend) => DIALECTS[backend].types)).to.deep.equal(BACKENDS.map((b) => walked.get(b)));
  });

  describe("backend C (real DuckDB)", () => {
    it("has a sample column for every type in the table", () => {
      const covered = new Set(DUCKDB_SAMPLES.flatMap((s) => (s.name === undefined ? [] : [s.name])));
      expect([...covered].sort()).to.deep.equal(Object.keys(DUCKDB_TYPES.types).sort());
    });

    it("execute() and a cursor's into() agree with the table for every type", async () => {
      await using engine = plainEngine();
      const result = await (async () => {
        await using conn = await engine.connect();
        await createEveryType(conn);
        return conn.execute("SELECT * FROM every_type");
      })();
      DUCKDB_SAMPLES.forEach((s, i) => {
        expect(result.columns[i]!.kind, `${s.declared}: the driver's kind`).to.equal(DUCKDB_TYPES.kindOf(s.declared));
      });
      expectAgreement("backend_c", result.columns, result.rows[0]!);
      await using cursor = await openCursor(await engine.connect(), {
        sql: "SELECT * FROM every_type",
        parameters: [],
      });
      const [typed] = await cursor.into(codegenModel("backend_c", result.columns));
      expect(Object.values(typed as object)).to.deep.equal(result.rows[0]);
    });

    it("a semantic query's results agree with the table for every scalar type", async () => {
      // The built-in layer reports ENUM, STRUCT, MAP and UNION dimensions as VARCHAR, so only scalars here.
      const scalars = DUCKDB_SAMPLES.map((s, i) => ({ ...s, column: `c${i}` })).filter(
        (s) => DUCKDB_TYPES.kindOf(s.declared) !== "other",
      );
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      {
        await using conn = await engine.connect();
        await conn.run("INSTALL semantic_views; LOAD semantic_views");
        await createEveryType(conn);
        const dimensions = scalars.map((s) => `every_type.${s.column} AS ${s.column}`).join(", ");
        await conn.run(`CREATE SEMANTIC VIEW every_type_view AS TABLES (every_type) DIMENSIONS (${dimensions})`);
        await conn.commit();
      }
      const View = SemanticView("every_type_view", Object.fromEntries(scalars.map((s) => [s.column, Dimension()])));
      const field = (name: string) => (View as unknown as Record<string, DimensionField<"every_type_view">>)[name]!;
      await using cursor = await View.query()
        .dimensions(...scalars.map((s) => field(s.column)))
        .using(engine)
        .execute();
      scalars.forEach((s, i) => {
        const kind = cursor.columns[i]!.kind;
        expect(kind, `${s.declared}: the semantic layer's kind`).to.equal(DUCKDB_TYPES.kindOf(s.declared));
      });
      const [typed] = await cursor.into(codegenModel("backend_c", cursor.columns));
      expectAgreement("backend_c", cursor.columns, Object.values(typed as object));
    });
  });

  describe("backend A (Snowflake)", () => {
    it("has a reported rowtype for every type in the table", () => {
      expect(Object.keys(SNOWFLAKE_ROWTYPES).sort()).to.deep.equal(Object.keys(SNOWFLAKE_TYPES.types).sort());
    });

    for (const [name, rowtypes] of Object.entries(SNOWFLAKE_ROWTYPES)) {
      it(`${name}: the driver's column kind is the table's, and codegen's schema agrees with it`, () => {
        for (const [type, precision, scale] of rowtypes) {
          const parameterized = typeof SNOWFLAKE_TYPES.types[name] === "object";
          const declared = parameterized ? `${name}(${precision},${scale})` : name;
          const { info } = snowflakeColumn({
            getName: () => "v",
            getType: () => type,
            getPrecision: () => precision,
            getScale: () => scale,
          });
          expect(info.kind, `${declared} reported as ${info.type}`).to.equal(SNOWFLAKE_TYPES.kindOf(declared));
          expect(valueKindOf("backend_a", declared), declared).to.equal(info.kind);
          expect(
            agreesStrictly(describeProperty("v", codegenSchema("backend_a", declared), true).type, info.kind),
          ).to.equal(true);
        }
      });
    }

    it("values through snowflake-sdk and the stand-in: kinds, values and the codegen DTO under strict into()", async function () {
      this.timeout(30_000);
      await withSnowflakeStandIn({}, async (standIn) => {
        await using engine = backendAEngine(standIn);
        await expectStandInAgreement("backend_a", SNOWFLAKE_TYPES, engine);
      });
    });
  });

  describe("backend B (Databricks)", () => {
    const fixture = useStandIn();

    it("has a Thrift result type for every type in the table", () => {
      expect(Object.keys(DATABRICKS_THRIFT).sort()).to.deep.equal(Object.keys(DATABRICKS_TYPES.types).sort());
    });

    for (const [name, thriftTypes] of Object.entries(DATABRICKS_THRIFT)) {
      it(`${name}: the driver's column kind is the table's, and codegen's schema agrees with it`, () => {
        for (const thrift of thriftTypes) {
          const declared = thrift[1] === undefined ? name : `${name}(${thrift[1]},${thrift[2]})`;
          const [info] = columnsOfSchema({ columns: [thriftColumn("v", thrift)] } as unknown as Parameters<
            typeof columnsOfSchema
          >[0]);
          expect(info!.kind, `${declared} reported as ${info!.type}`).to.equal(DATABRICKS_TYPES.kindOf(declared));
          expect(valueKindOf("backend_b", declared), declared).to.equal(info!.kind);
          expect(valueKindOf("backend_b", `${declared} measure`), `${declared} measure`).to.equal(info!.kind);
          expect(
            agreesStrictly(describeProperty("v", codegenSchema("backend_b", declared), true).type, info!.kind),
          ).to.equal(true);
        }
      });
    }

    it("values through @databricks/sql and the stand-in: kinds, values and the codegen DTO under strict into()", async function () {
      this.timeout(30_000);
      await using engine = backendBEngine(fixture.standIn);
      await expectStandInAgreement("backend_b", DATABRICKS_TYPES, engine);
    });
  });
});
