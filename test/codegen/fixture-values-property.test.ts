/**
 * Property: random DECIMAL(p,s), BIGINT, HUGEINT (backend C; DECIMAL(38,0) stands for it on A and
 * B), narrow NUMBER(p,0) (backend A) and DATE columns, extremes included, survive warehouse →
 * fixture → offline query exactly: the fixture's copied rows equal the generated values, and a
 * query selecting every column answers the same rows and value kinds offline as on the warehouse
 * (recorded, then verified). Seeded (scripts/prng.ts): a failure names the seed.
 */
import { expect } from "chai";
import { BackendCConfig, createEngine, Decimal, type Engine } from "lib";
import { verifyFixture } from "lib/testing";
import { mulberry32 } from "../../scripts/prng.js";
import { fixtureStatements } from "../../codegen/fixture/render-fixture.js";
import { recordQueries } from "../../codegen/fixture/record-queries.js";
import type { BackendType } from "../../runtime/dialects/dialects.js";
import { dialectOf } from "../../runtime/dialects/dialects.js";
import type { IntrospectionSource } from "../../runtime/dialects/introspect/metadata.js";
import { describeValue, decodeValue } from "../../runtime/testing/tagged-values.js";
import { pick } from "../semantic/support/random-choice.js";
import { createDatabase } from "./support/databases.js";
import { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import {
  PASSWORD,
  USER,
  standInEngine as snowflakeEngine,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import {
  TOKEN,
  standInEngine as databricksEngine,
  withStandIn as withDatabricksStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { useTempDir } from "../support/temp-dir.js";

interface RandomColumn {
  readonly name: string;
  readonly type: string;
  readonly values: readonly unknown[];
}

interface RandomTable {
  readonly name: string;
  readonly columns: readonly RandomColumn[];
}

const ROWS = 7;
const TABLES = 3;

function digits(random: () => number, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += String(Math.floor(random() * 10));
  return out;
}

/** A value of `type`: an extreme, zero, NULL or a random one. */
function randomValue(random: () => number, type: string): unknown {
  const roll = random();
  if (roll < 0.08) return null;
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
  if (decimal) {
    const [p, s] = [Number(decimal[1]), Number(decimal[2])];
    const whole = roll < 0.25 ? "9".repeat(p) : roll < 0.3 ? "0" : digits(random, 1 + Math.floor(random() * p));
    const padded = whole.padStart(s + 1, "0");
    const text = s === 0 ? padded : `${padded.slice(0, -s)}.${padded.slice(-s)}`;
    const signed = random() < 0.4 ? `-${text}` : text;
    return s === 0 ? BigInt(signed) : Decimal.parse(signed);
  }
  if (type === "DATE") {
    const day = roll < 0.2 ? pick(random, [-719162, 2932896, 0]) : Math.floor(random() * 2932896) - 719162;
    return new Date(day * 86_400_000);
  }
  // HUGEINT within BIGINT's range: semantic_views hands HUGEINT results out as BIGINT (as the extension does).
  const bits = type === "HUGEINT" || type === "BIGINT" ? 63n : type === "HUGEINT_WIDE" ? 127n : 31n;
  const max = (1n << bits) - 1n;
  if (roll < 0.3) return random() < 0.5 ? max : -max;
  const magnitude = BigInt(digits(random, 1 + Math.floor(random() * Number(bits / 4n))) || "0") % max;
  const value = random() < 0.5 ? -magnitude : magnitude;
  return type === "INTEGER" ? Number(value) : value;
}

function randomTables(seed: number, types: readonly string[]): RandomTable[] {
  const random = mulberry32(seed);
  return Array.from({ length: TABLES }, (_t, t) => {
    const columns: RandomColumn[] = Array.from({ length: 5 }, (_c, c) => {
      let type = pick(random, types);
      if (type === "DECIMAL") {
        const p = 1 + Math.floor(random() * 38);
        type = `DECIMAL(${p},${Math.floor(random() * (p + 1))})`;
      }
      return { name: `c${c}`, type, values: Array.from({ length: ROWS }, () => randomValue(random, type)) };
    });
    return {
      name: `prop_${t}`,
      columns: [{ name: "id", type: "INTEGER", values: Array.from({ length: ROWS }, (_r, r) => r) }, ...columns],
    };
  });
}

const literal = (v: unknown) =>
  v === null
    ? "NULL"
    : v instanceof Date
      ? `DATE '${v.toISOString().slice(0, 10)}'`
      : typeof v === "bigint" || typeof v === "number"
        ? String(v)
        : String(v);

function tableSql(table: RandomTable, integerType = "INTEGER"): string[] {
  const columns = table.columns.map((c) => `${c.name} ${c.name === "id" ? integerType : c.type}`).join(", ");
  const rows = Array.from(
    { length: ROWS },
    (_r, r) => `(${table.columns.map((c) => literal(c.values[r])).join(", ")})`,
  );
  return [`CREATE TABLE ${table.name} (${columns})`, `INSERT INTO ${table.name} VALUES ${rows.join(", ")}`];
}

/** Reads the fixture, checks the copied rows, records a query of every column and verifies it offline. */
async function check(
  backend: BackendType,
  engine: Engine,
  tables: readonly RandomTable[],
  views: readonly string[],
  seed: number,
) {
  await using conn = await engine.connect();
  const source: IntrospectionSource = conn;
  const model = await dialectOf(backend).codegen.readFixture(source, views, { sample: { kind: "all", maxRows: 100 } });
  expect(model.untranslated, `seed ${seed}`).to.deep.equal([]);
  for (const table of tables) {
    const copied = model.tables.find((t) => t.name.toLowerCase() === table.name)!;
    const byId = [...copied.rows].sort((a, b) => Number(a[0]) - Number(b[0]));
    const id = (v: unknown) => (typeof v === "bigint" ? Number(v) : v);
    expect(
      byId.map((row) => row.map((v, i) => (i === 0 ? id(v) : describeValue(v)))),
      `seed ${seed}: ${table.name} copied`,
    ).to.deep.equal(
      Array.from({ length: ROWS }, (_r, r) => table.columns.map((c, i) => (i === 0 ? r : describeValue(c.values[r])))),
    );
  }
  const introspector = dialectOf(backend).codegen.createIntrospector(source);
  const listed = await introspector.listViews();
  const described = [];
  for (const view of listed.filter((v) => views.includes(v.name)))
    described.push(await introspector.describeView(view));
  const everyColumn = described.map((v) => ({
    view: dialectOf(backend).codegen.portableName(v.name),
    dimensions: v.members
      .filter((m) => m.kind === "dimension")
      .map((m) => dialectOf(backend).codegen.portableName(m.name)),
  }));
  const { recorded } = await recordQueries(source, described, { backend, limit: 200, queries: everyColumn });
  for (const [i, table] of tables.entries()) {
    const answer = recorded[i]!;
    const byId = [...answer.rows].map((row) => row.map(decodeValue)).sort((a, b) => Number(a[0]) - Number(b[0]));
    const columns = answer.columns.map((c) => c.toLowerCase());
    const generated = Array.from({ length: ROWS }, (_r, r) =>
      columns.map((c) => table.columns.find((col) => col.name === c)!.values[r]),
    );
    const kinds = (rows: unknown[][]) => rows.map((row) => row.slice(1).map(describeValue));
    expect(kinds(byId), `seed ${seed}: ${table.name} on the warehouse`).to.deep.equal(kinds(generated));
  }
  const report = await verifyFixture(
    { FIXTURE_STATEMENTS: fixtureStatements(model), RECORDED_QUERIES: recorded, UNTRANSLATED: [] },
    { semanticViews: "builtin" },
  );
  const differences = report.results.filter((r) => r.status !== "identical");
  expect(differences, `seed ${seed}`).to.deep.equal([]);
}

describe("property: exact values survive warehouse → fixture → offline query", function () {
  this.timeout(120_000);
  const dir = useTempDir("all");

  it("backend C: DECIMAL(p,s), BIGINT, HUGEINT, DATE", async () => {
    const seed = 19_001;
    const tables = randomTables(seed, ["DECIMAL", "BIGINT", "HUGEINT", "DATE"]);
    // HUGEINT beyond BIGINT's range is copied exactly too (a column no member reads, so no query narrows it).
    const random = mulberry32(seed);
    const wide = Array.from({ length: ROWS }, () => randomValue(random, "HUGEINT_WIDE"));
    const statements = [
      "CREATE TABLE wide (id INTEGER, h HUGEINT)",
      `INSERT INTO wide VALUES ${wide.map((v, r) => `(${r}, ${literal(v)})`).join(", ")}`,
      "CREATE SEMANTIC VIEW wide_v AS TABLES (w AS wide PRIMARY KEY (id)) DIMENSIONS (w.id AS w.id) METRICS (w.n AS COUNT(*))",
      ...tables.flatMap((t) => [
        ...tableSql(t),
        `CREATE SEMANTIC VIEW ${t.name}_v AS TABLES (t AS ${t.name} PRIMARY KEY (id)) ` +
          `DIMENSIONS (${t.columns.map((c) => `t.${c.name} AS t.${c.name}`).join(", ")}) METRICS (t.n AS COUNT(*))`,
      ]),
    ];
    const database = await createDatabase(dir.path, "prop.duckdb", statements);
    await using engine = createEngine(new BackendCConfig({ database, readOnly: true, semanticViews: "builtin" }));
    {
      await using conn = await engine.connect();
      const model = await dialectOf("backend_c").codegen.readFixture(conn, ["wide_v"], {
        sample: { kind: "all", maxRows: 100 },
      });
      const rows = [...model.tables[0]!.rows].sort((x, y) => Number(x[0]) - Number(y[0]));
      expect(
        rows.map((r) => describeValue(r[1])),
        `seed ${seed}: wide`,
      ).to.deep.equal(wide.map(describeValue));
    }
    await check(
      "backend_c",
      engine,
      tables,
      tables.map((t) => `${t.name}_v`),
      seed,
    );
  });

  it("backend A: NUMBER(p,s) (narrow integers included), NUMBER(38,0), DATE through snowflake-sdk", async () => {
    const seed = 19_002;
    const tables = randomTables(seed, ["DECIMAL", "DECIMAL(38,0)", "DECIMAL(9,0)", "DECIMAL(4,0)", "DATE"]);
    const standIn = await SnowflakeStandIn.start({
      users: { [USER]: PASSWORD },
      seedSql: tables.flatMap((t) => tableSql(t, "DECIMAL(38,0)")),
      semanticViews: tables.map((t) => ({
        name: `${t.name.toUpperCase()}_V`,
        table: t.name,
        dimensions: Object.fromEntries(t.columns.map((c) => [c.name.toUpperCase(), c.name])),
        metrics: { N: "COUNT(*)" },
      })),
    });
    try {
      await using engine = snowflakeEngine(standIn);
      // Backend A hands NUMBER(p,0) out as a number up to 9 digits, as a bigint above (its type table).
      const narrow = (type: string) => /^DECIMAL\([1-9],0\)$/.test(type);
      const withIds = tables.map((t) => ({
        ...t,
        columns: t.columns.map((c) =>
          c.name === "id"
            ? { ...c, values: c.values.map((v) => BigInt(v as number)) }
            : narrow(c.type)
              ? { ...c, values: c.values.map((v) => (v === null ? null : Number(v))) }
              : c,
        ),
      }));
      await check(
        "backend_a",
        engine,
        withIds,
        tables.map((t) => `${t.name.toUpperCase()}_V`),
        seed,
      );
    } finally {
      await standIn.close();
    }
  });

  it("backend B: DECIMAL(p,s), BIGINT, DECIMAL(38,0), DATE through @databricks/sql", async () => {
    const seed = 19_003;
    const tables = randomTables(seed, ["DECIMAL", "BIGINT", "DECIMAL(38,0)", "DATE"]);
    await withDatabricksStandIn(
      {
        token: TOKEN,
        setupSql: tables.flatMap((t) => tableSql(t)),
        metricViews: tables.map((t) => ({
          name: `${t.name}_v`,
          source: t.name,
          dimensions: Object.fromEntries(t.columns.map((c) => [c.name, c.name])),
          measures: { n: "COUNT(*)" },
        })),
      },
      async (standIn) => {
        await using engine = databricksEngine(standIn);
        await check(
          "backend_b",
          engine,
          tables,
          tables.map((t) => `${t.name}_v`),
          seed,
        );
      },
    );
  });
});
