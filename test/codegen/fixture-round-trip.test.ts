/**
 * The promise of `--fixture`, end to end per backend: a model with DECIMAL money, a BIGINT beyond
 * 2^53, a DATE, a two-level join, a semi-additive and a derived metric is created on the warehouse
 * (the backend A and B stand-ins through their real drivers, a DuckDB file for backend C);
 * `lib codegen --fixture --sample all --record --verify` exits 0 with every recorded query
 * identical; the generated view class answers the same rows online and offline (lib/testing's
 * fixture engine). With the DECIMAL precision read broken, --verify exits 1 and the rows differ.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { BackendCConfig, createEngine, type Engine } from "lib";
import { createFixtureEngine, type FixtureModule } from "lib/testing";
import { runCli } from "../../codegen/cli.js";
import { DIALECTS } from "../../runtime/dialects/dialects.js";
import type { FixtureModel } from "../../runtime/dialects/fixture/fixture-model.js";
import { describeValue } from "../../runtime/testing/tagged-values.js";
import type { BackendType } from "../../runtime/dialects/dialects.js";
import { REPO_ROOT } from "./support/run-cli.js";
import { createDatabase } from "./support/databases.js";
import {
  DATABRICKS_YAML,
  EXPECTED_BY_NATION,
  SNOWFLAKE_GET_DDL,
  engineDdl,
  tableSql,
} from "./support/round-trip-model.js";
import { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import {
  PASSWORD,
  USER,
  standInEngine as snowflakeEngine,
  standInTomlLines,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import {
  TOKEN,
  standInEngine as databricksEngine,
  standInTomlLines as databricksTomlLines,
  withStandIn as withDatabricksStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated classes are imported at run time */
type ViewClass = any;

const OUT = join(REPO_ROOT, "test-output", `fixture-round-trip-${process.pid}`);

async function codegen(backend: BackendType, cwd: string, fixture: string, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ["codegen", "--backend", backend, "--out", "gen", "--fixture", fixture, "--sample", "all", "--record", "--verify"],
    { cwd, env, stdout: (l) => out.push(l), stderr: (l) => err.push(l) },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The app's queries: by nation, the additive and derived metrics, then the semi-additive one. */
async function appRows(engine: Engine, View: ViewClass, fields: { nation: string }): Promise<string[][]> {
  const nation = View[fields.nation];
  const run = async (query: any) => {
    await using cursor = await query.using(engine).execute();
    return (await cursor.fetchAllRows()) as Record<string, unknown>[];
  };
  const main = await run(
    View.query().dimensions(nation).metrics(View.revenue, View.cost, View.units, View.profit).orderBy(nation.asc()),
  );
  const latest = await run(View.query().dimensions(nation).metrics(View.latest_revenue).orderBy(nation.asc()));
  return main.map((row, i) => [...Object.values(row), ...Object.values(latest[i]!).slice(1)].map(describeValue));
}

const EXPECTED = EXPECTED_BY_NATION.map(([nation, revenue, cost, units, profit, latest]) => [
  `string "${nation}"`,
  `Decimal ${revenue}`,
  `Decimal ${cost}`,
  `bigint ${units}`,
  `Decimal ${profit}`,
  `Decimal ${latest}`,
]);

/** Runs `fn` with the backend's fixture reader typing money columns DECIMAL(10,0), as a precision read that only looks at data_type would. */
async function withBrokenPrecisionRead<T>(backend: BackendType, fn: () => Promise<T>): Promise<T> {
  const dialect = DIALECTS[backend].codegen as { readFixture: (...args: any[]) => Promise<FixtureModel> };
  const original = dialect.readFixture;
  dialect.readFixture = async (...args: any[]) => {
    const model = await original(...args);
    const tables = model.tables.map((t) => ({
      ...t,
      columns: t.columns.map((c) => ({ ...c, type: /^DECIMAL\(\d+,[1-9]/.test(c.type) ? "DECIMAL(10,0)" : c.type })),
    }));
    return { ...model, tables };
  };
  try {
    return await fn();
  } finally {
    dialect.readFixture = original;
  }
}

async function roundTrip(
  backend: BackendType,
  dir: string,
  online: () => Engine,
  fields: { view: string; nation: string },
  env: Record<string, string> = {},
) {
  const result = await codegen(backend, dir, "fixture.ts", env);
  expect(result.code, `${result.err}\n${result.out}`).to.equal(0);
  expect(result.err).to.equal("");
  // 5 metrics alone, then each by the 3 dimensions.
  expect(result.out).to.contain(
    "lib codegen --verify: 20 recorded queries: 20 identical, 0 different, 0 not replayable",
  );
  const views = await import(pathToFileURL(join(dir, "gen", "index.ts")).href);
  const fixture = (await import(pathToFileURL(join(dir, "fixture.ts")).href)) as FixtureModule;
  const View = views[fields.view];
  await using warehouse = online();
  await using offline = createFixtureEngine(fixture, { register: false, semanticViews: "builtin" });
  expect(await appRows(warehouse, View, fields)).to.deep.equal(EXPECTED);
  expect(await appRows(offline, View, fields)).to.deep.equal(EXPECTED);
  await withBrokenPrecisionRead(backend, async () => {
    const broken = await codegen(backend, dir, "broken.ts", env);
    expect(broken.code, broken.err).to.equal(1);
    expect(broken.out).to.match(
      /different {7}sales_model: revenue by nation(?:_name)?: row 1, revenue: warehouse Decimal 127\.00, fixture bigint 127\n/,
    );
    const brokenFixture = (await import(pathToFileURL(join(dir, "broken.ts")).href)) as FixtureModule;
    await using brokenEngine = createFixtureEngine(brokenFixture, { register: false, semanticViews: "builtin" });
    expect(await appRows(brokenEngine, View, fields)).not.to.deep.equal(EXPECTED);
  });
}

describe("--fixture round trips: offline answers equal the warehouse's", function () {
  this.timeout(180_000);
  before(() => mkdirSync(OUT, { recursive: true }));
  after(() => rmSync(OUT, { recursive: true, force: true }));

  it("backend C: a DuckDB file", async () => {
    const dir = join(OUT, "c");
    mkdirSync(dir, { recursive: true });
    const database = await createDatabase(dir, "shop.duckdb", [
      ...tableSql({ int: "BIGINT" }, { orders: "orders", customers: "customers", nations: "nations" }),
      engineDdl("sales_model", { customer: "customer", nation: "nation" }),
    ]);
    writeFileSync(join(dir, ".lib.toml"), "");
    await roundTrip(
      "backend_c",
      dir,
      () => createEngine(new BackendCConfig({ database, readOnly: true, semanticViews: "builtin" })),
      { view: "SalesModel", nation: "nation" },
      { BACKEND_C_DATABASE: database },
    );
  });

  it("backend A: the Snowflake stand-in (GET_DDL with DB.SCHEMA.TABLE, member forms, a table in another database)", async () => {
    const standIn = await SnowflakeStandIn.start({
      users: { [USER]: PASSWORD },
      seedSql: [
        "ATTACH ':memory:' AS ref_db",
        "CREATE SCHEMA ref_db.geo",
        ...tableSql(
          { int: "DECIMAL(38,0)" },
          { orders: "orders", customers: "customers", nations: "ref_db.geo.nations" },
        ),
        // The stand-in's engine reads the nations through a local view; GET_DDL names REF_DB.GEO.NATIONS.
        "CREATE VIEW nations AS SELECT * FROM ref_db.geo.nations",
      ],
      modelViews: [
        {
          name: "SALES_MODEL",
          getDdl: SNOWFLAKE_GET_DDL,
          engineDdl: engineDdl("sales_model", { customer: "customer", nation: "nation" }),
          comment: "Sales with customers and nations",
        },
      ],
    });
    try {
      const dir = join(OUT, "a");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, ".lib.toml"), [...standInTomlLines(standIn.port), ""].join("\n"));
      await roundTrip(
        "backend_a",
        dir,
        () => snowflakeEngine(standIn),
        { view: "SalesModel", nation: "nation" },
        { BACKEND_A_PASSWORD: PASSWORD },
      );
    } finally {
      await standIn.close();
    }
  });

  it("backend B: the Databricks stand-in (fields:, a nested join into another catalog, MEASURE() composition, a semi-additive window)", async () => {
    await withDatabricksStandIn(
      {
        token: TOKEN,
        setupSql: [
          "ATTACH ':memory:' AS lakehouse",
          "CREATE SCHEMA lakehouse.shop",
          "ATTACH ':memory:' AS geodata",
          "CREATE SCHEMA geodata.geo",
          ...tableSql(
            { int: "BIGINT" },
            { orders: "lakehouse.shop.orders", customers: "lakehouse.shop.customers", nations: "geodata.geo.nations" },
          ),
          "CREATE VIEW orders AS SELECT * FROM lakehouse.shop.orders",
          "CREATE VIEW customers AS SELECT * FROM lakehouse.shop.customers",
          "CREATE VIEW nations AS SELECT * FROM geodata.geo.nations",
        ],
        modelViews: [
          {
            name: "sales_model",
            yaml: DATABRICKS_YAML,
            engineDdl: engineDdl("sales_model", { customer: "customer_name", nation: "nation_name" }),
            comment: "Sales with customers and nations",
          },
        ],
      },
      async (standIn) => {
        const dir = join(OUT, "b");
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, ".lib.toml"), [...databricksTomlLines(standIn), ""].join("\n"));
        await roundTrip(
          "backend_b",
          dir,
          () => databricksEngine(standIn),
          { view: "SalesModel", nation: "nation_name" },
          {
            BACKEND_B_CA_CERT: standIn.certPath,
          },
        );
      },
    );
  });
});
