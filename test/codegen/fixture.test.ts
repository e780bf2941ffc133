/**
 * `lib codegen --fixture`: from a DuckDB file and from the backend B stand-in, the generated
 * fixture recreates tables, sample rows and semantic views in an in-memory backend C engine, and
 * the same `Sales` queries return the same rows there as on the source.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Engine } from "lib";
import { runCli } from "../../codegen/cli.js";
import { runCodegen } from "../../codegen/codegen.js";
import type { BackendType } from "../../runtime/dialects/dialects.js";
import { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import {
  PASSWORD,
  USER,
  standInEngine as snowflakeEngine,
  standInTomlLines,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import {
  TOKEN,
  standInEngine,
  useStandIn,
  standInTomlLines as databricksTomlLines,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { createDatabase } from "./support/databases.js";
import { tempDir } from "../support/temp-dir.js";

class Sales extends SemanticView("sales", {
  country: Dimension<string>(),
  region: Dimension<string>(),
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
}) {}

const TABLE = [
  "CREATE TABLE sales_data (revenue BIGINT, cost BIGINT, country VARCHAR, region VARCHAR)",
  "INSERT INTO sales_data VALUES (100, 60, 'US', 'NA'), (80, 50, 'DE', 'EU'), (30, 10, 'US', 'SA'), (5, 1, 'O''Hare', NULL)",
];

interface FixtureModule {
  fixture(conn: { run(sql: string): Promise<unknown>; commit(): Promise<unknown> }): Promise<void>;
}

async function codegenFixture(
  dir: string,
  backend: BackendType,
  args: { database?: string; sample?: number; allowPartial?: boolean },
) {
  const err: string[] = [];
  const exit = await runCodegen(
    {
      backend,
      database: args.database,
      fixture: "test-fixture/sales-fixture.ts",
      sample: args.sample === undefined ? undefined : { kind: "rows", rows: args.sample },
      allowPartial: args.allowPartial,
    },
    { cwd: dir, env: { BACKEND_A_PASSWORD: PASSWORD }, stdout: () => {}, stderr: (l) => err.push(l) },
  );
  return { exit, err, path: join(dir, "test-fixture", "sales-fixture.ts") };
}

/** An in-memory backend C engine whose every connection runs the fixture first. */
async function fixtureEngine(path: string): Promise<Engine> {
  const module = (await import(pathToFileURL(path).href)) as FixtureModule;
  const engine = createEngine(new BackendCConfig({ semanticViews: "builtin" }));
  engine._pool.on("connect", (conn) => module.fixture(conn));
  return engine;
}

async function salesRows(engine: Engine): Promise<unknown[]> {
  const queries = [
    Sales.query().dimensions(Sales.country).metrics(Sales.revenue, Sales.cost).orderBy(Sales.country.asc()),
    Sales.query()
      .dimensions(Sales.region)
      .metrics(Sales.revenue)
      .where(Sales.country.eq("US"))
      .orderBy(Sales.region.asc()),
    Sales.query().metrics(Sales.revenue),
  ];
  const results: unknown[] = [];
  for (const query of queries) {
    await using cursor = await query.using(engine).execute();
    results.push(await cursor.fetchAllRows());
  }
  return results;
}

describe("lib codegen --fixture", function () {
  this.timeout(60_000);

  it("backend C: a database file replayed in memory gives the same rows (and without --sample, no rows)", async () => {
    await using dir = await tempDir();
    const database = await createDatabase(dir.path, "shop.duckdb", [
      ...TABLE,
      `CREATE SEMANTIC VIEW sales COMMENT = 'Sales by country' AS TABLES (s AS sales_data)
         DIMENSIONS (s.country AS s.country, s.region AS s.region) METRICS (s.revenue AS SUM(s.revenue), s.cost AS SUM(s.cost))`,
    ]);
    const { exit, err, path } = await codegenFixture(dir.path, "backend_c", { database, sample: 100 });
    expect(err.join("\n")).to.equal("");
    expect(exit).to.equal(0);
    const text = await readFile(path, "utf8");
    expect(text).not.to.match(/^import /m);
    expect(text).to.contain("// Rows: at most 100 rows per table, copied from");
    await using source = createEngine(new BackendCConfig({ database, readOnly: true }));
    await using replay = await fixtureEngine(path);
    const expected = await salesRows(source);
    expect(expected[0]).to.have.length(3);
    expect(await salesRows(replay)).to.deep.equal(expected);

    const empty = await codegenFixture(dir.path, "backend_c", { database });
    expect(empty.exit).to.equal(0);
    expect(await readFile(empty.path, "utf8")).to.contain(
      "// Rows: no rows (run with --sample <n> or --sample all to copy them).",
    );
  });

  it("usage: --sample and --allow-partial need --fixture; --sample needs a non-negative integer", async () => {
    await using dir = await tempDir({ ".lib.toml": "" });
    const cli = async (...args: string[]) => {
      const err: string[] = [];
      const code = await runCli(["codegen", ...args], {
        cwd: dir.path,
        env: {},
        stdout: () => {},
        stderr: (l) => err.push(l),
      });
      return { code, err: err.join("\n") };
    };
    expect(await cli("--backend", "backend_c", "--sample", "3")).to.deep.include({ code: 2 });
    expect((await cli("--backend", "backend_c", "--allow-partial")).err).to.contain("need --fixture");
    expect((await cli("--backend", "backend_c", "--fixture", "f.ts", "--sample", "many")).err).to.contain(
      '--sample needs a non-negative integer or "all", got many',
    );
  });

  it("backend A: GET_DDL translated, replayed on backend C, gives the same rows as the stand-in", async () => {
    const standIn = await SnowflakeStandIn.start({
      users: { [USER]: PASSWORD },
      seedSql: TABLE,
      semanticViews: [
        {
          name: "SALES",
          table: "sales_data",
          comment: "Sales by country",
          dimensions: { COUNTRY: "country", REGION: "region" },
          metrics: { REVENUE: "SUM(revenue)", COST: "SUM(cost)" },
        },
      ],
    });
    try {
      await using dir = await tempDir();
      await writeFile(join(dir.path, ".lib.toml"), [...standInTomlLines(standIn.port), ""].join("\n"));
      const { exit, err, path } = await codegenFixture(dir.path, "backend_a", { sample: 10 });
      expect(err.join("\n")).to.equal("");
      expect(exit).to.equal(0);
      const text = await readFile(path, "utf8");
      expect(text).to.contain("CREATE OR REPLACE SEMANTIC VIEW sales COMMENT = 'Sales by country' AS");
      await using source = snowflakeEngine(standIn);
      await using replay = await fixtureEngine(path);
      expect(await salesRows(replay)).to.deep.equal(await salesRows(source));
    } finally {
      await standIn.close();
    }
  });

  describe("backend B", () => {
    const fixture = useStandIn({
      token: TOKEN,
      setupSql: TABLE,
      metricViews: [
        {
          name: "sales",
          source: "sales_data",
          comment: "Sales by country",
          dimensions: { country: "country", region: "region" },
          measures: { revenue: "SUM(revenue)", cost: "SUM(cost)" },
        },
      ],
    });

    it("the metric view replayed on backend C gives the same rows as the stand-in", async () => {
      await using dir = await tempDir();
      await writeFile(join(dir.path, ".lib.toml"), [...databricksTomlLines(fixture.standIn), ""].join("\n"));
      const { exit, err, path } = await codegenFixture(dir.path, "backend_b", { sample: 10 });
      expect(err.join("\n")).to.equal("");
      expect(exit).to.equal(0);
      await using source = standInEngine(fixture.standIn);
      await using replay = await fixtureEngine(path);
      expect(await salesRows(replay)).to.deep.equal(await salesRows(source));
    });
  });
});
