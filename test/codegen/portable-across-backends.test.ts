/**
 * One semantic model on every backend: the same `sales` model defined on the backend A stand-in
 * (Snowflake's folded upper-case names), the backend B stand-in (a metric view) and a backend C
 * DuckDB file generates byte-identical TypeScript (and model record), with one `.lib.toml` DTO
 * declaration for all; the generated form (a `{ name }` member included) then returns the same rows on
 * all three. A second model with a fan trap, which backends A and C both refuse the same way (B's
 * metric views cannot express one), generates the same `groupableBy` rules on A and C.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Engine } from "lib";
import { runCodegen } from "../../codegen/codegen.js";
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
  useStandIn,
  standInTomlLines as databricksTomlLines,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { createDatabase } from "./support/databases.js";
import { tempDir } from "../support/temp-dir.js";

const ROWS = "(100, 60, 'US', 'NA'), (80, 50, 'DE', 'EU'), (30, 10, 'US', 'SA')";
const TABLE = [
  `CREATE TABLE sales_data (revenue BIGINT, cost BIGINT, country VARCHAR, region VARCHAR)`,
  `INSERT INTO sales_data VALUES ${ROWS}`,
];
const COMMENT = "Sales by country";
const DTO_CONFIG = [
  "[codegen.dtos.RevenueByCountry]",
  'view = "sales"',
  'fields = ["country", "revenue", "netRevenue"]',
  "",
].join("\n");

/** The fan-trap model of the extension's docs (how-to/fan-traps): order_count cannot be grouped by status. */
const FAN_TABLES = [
  "CREATE TABLE orders (id INTEGER, region VARCHAR)",
  "CREATE TABLE line_items (id INTEGER, order_id INTEGER, extended_price DOUBLE, status VARCHAR)",
];
const FAN_DDL = [
  ...FAN_TABLES,
  `CREATE SEMANTIC VIEW fan AS
    TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
    RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
    DIMENSIONS (o.region AS o.region, li.status AS li.status)
    METRICS (li.revenue AS SUM(li.extended_price), o.order_count AS COUNT(*))`,
];

const DUCKDB_DDL = [
  ...TABLE,
  ...FAN_DDL,
  `CREATE SEMANTIC VIEW sales COMMENT = '${COMMENT}' AS
    TABLES (s AS sales_data)
    DIMENSIONS (s.country AS s.country, s.region AS s.region)
    METRICS (s.revenue AS SUM(s.revenue), s.cost AS SUM(s.cost), s."Net Revenue" AS SUM(s.revenue - s.cost))`,
];

/** What codegen emits for the model (asserted below), declared here to query every backend. */
class Sales extends SemanticView("sales", {
  country: Dimension<string>(),
  region: Dimension<string>(),
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  netRevenue: Metric<bigint>({ name: "Net Revenue" }),
}) {}

async function generated(
  dir: string,
  backend: "backend_a" | "backend_b" | "backend_c",
  lines: string[],
  database?: string,
): Promise<Map<string, string>> {
  await writeFile(join(dir, ".lib.toml"), [...lines, "", DTO_CONFIG].join("\n"));
  const err: string[] = [];
  const exit = await runCodegen(
    { backend, database },
    { cwd: dir, env: { BACKEND_A_PASSWORD: PASSWORD }, stdout: () => {}, stderr: (l) => err.push(l) },
  );
  expect(err.join("\n"), backend).to.equal("");
  expect(exit, backend).to.equal(0);
  const out = join(dir, "generated");
  const files = new Map<string, string>();
  for (const name of (await readdir(out)).sort()) files.set(name, await readFile(join(out, name), "utf8"));
  return files;
}

async function rowsOf(engine: Engine): Promise<unknown[]> {
  await using cursor = await Sales.query()
    .dimensions(Sales.country)
    .metrics(Sales.revenue, Sales.netRevenue)
    .where(Sales.region.ne("EU"))
    .orderBy(Sales.country.asc())
    .using(engine)
    .execute();
  return await cursor.fetchAllRows();
}

describe("codegen: one model, byte-identical code from backends A, B and C", function () {
  this.timeout(60_000);
  const databricks = useStandIn({
    token: TOKEN,
    setupSql: TABLE,
    metricViews: [
      {
        name: "sales",
        source: "sales_data",
        comment: COMMENT,
        dimensions: { country: "country", region: "region" },
        measures: { revenue: "SUM(revenue)", cost: "SUM(cost)", "Net Revenue": "SUM(revenue - cost)" },
      },
    ],
  });
  let snowflake: SnowflakeStandIn;
  let dirs: AsyncDisposable & { path: string };

  before(async () => {
    snowflake = await SnowflakeStandIn.start({
      users: { [USER]: PASSWORD },
      seedSql: [...TABLE, ...FAN_TABLES],
      semanticViews: [
        {
          name: "FAN",
          table: "(SELECT * FROM line_items li JOIN orders o ON li.order_id = o.id)",
          dimensions: { "ORDERS.REGION": "region", "LINE_ITEMS.STATUS": "status" },
          metrics: { "LINE_ITEMS.REVENUE": "SUM(extended_price)", "ORDERS.ORDER_COUNT": "COUNT(*)" },
          dataTypes: { "LINE_ITEMS.REVENUE": "FLOAT", "ORDERS.ORDER_COUNT": "NUMBER(18,0)" },
          relationships: [["LINE_ITEMS", "ORDERS"]],
        },
        {
          name: "SALES",
          table: "sales_data",
          comment: COMMENT,
          dimensions: { COUNTRY: "country", REGION: "region" },
          metrics: { REVENUE: "SUM(revenue)", COST: "SUM(cost)", "Net Revenue": "SUM(revenue - cost)" },
        },
      ],
    });
    dirs = await tempDir();
  });
  after(async () => {
    await snowflake?.close();
    await dirs?.[Symbol.asyncDispose]();
  });

  it("generates the same bytes on every backend, and that code returns the same rows on every backend", async () => {
    const a = await generated(
      await subdir(dirs.path, "a"),
      "backend_a",
      standInTomlLines(snowflake.port, ['database = "ANALYTICS"', 'schema = "PUBLIC"']),
    );
    const b = await generated(await subdir(dirs.path, "b"), "backend_b", databricksTomlLines(databricks.standIn));
    const cDir = await subdir(dirs.path, "c");
    const database = await createDatabase(cDir, "sales.duckdb", DUCKDB_DDL);
    const c = await generated(cDir, "backend_c", [], database);

    expect([...a.keys()]).to.deep.equal([
      "fan.dto.ts",
      "fan.ts",
      "index.ts",
      "lib-model.json",
      "sales.dto.ts",
      "sales.ts",
    ]);
    for (const [path, text] of a) {
      expect(c.get(path), `${path}: backend C differs from backend A`).to.equal(text);
      if (path === "sales.ts" || path === "sales.dto.ts") {
        expect(b.get(path), `${path}: backend B differs from backend A`).to.equal(text);
      }
    }
    const view = a.get("sales.ts")!;
    expect(view).to.contain(
      `/**\n * ${COMMENT}\n *\n * Semantic view \`sales\`.\n *\n * Every metric can be grouped by every dimension.\n */\n` +
        `export class Sales extends SemanticView("sales", {`,
    );
    expect(a.get("fan.ts")).to.contain('}, {\n  groupableBy: {\n    order_count: ["region"],\n  },\n}) {}\n');
    const recordB = JSON.parse(b.get("lib-model.json")!) as { views: Record<string, unknown> };
    const recordA = JSON.parse(a.get("lib-model.json")!) as { views: Record<string, unknown> };
    expect(recordB.views["sales"], "the model record of sales").to.deep.equal(recordA.views["sales"]);
    for (const line of [
      "country: Dimension<string>(),",
      "region: Dimension<string>(),",
      "revenue: Metric<bigint>(),",
      "cost: Metric<bigint>(),",
      'netRevenue: Metric<bigint>({ name: "Net Revenue" }),',
    ]) {
      expect(view).to.contain(`  ${line}\n`);
    }
    expect(a.get("sales.dto.ts")).to.contain("export const RevenueByCountry = Type.Object(");

    const expected = [{ country: "US", revenue: 130n, netRevenue: 60n }];
    await using onA = snowflakeEngine(snowflake);
    await using onB = databricksEngine(databricks.standIn);
    await using onC = createEngine(new BackendCConfig({ database, readOnly: true }));
    expect(await rowsOf(onA), "backend A").to.deep.equal(expected);
    expect(await rowsOf(onB), "backend B").to.deep.equal(expected);
    expect(await rowsOf(onC), "backend C").to.deep.equal(expected);
  });
});

async function subdir(parent: string, name: string): Promise<string> {
  const path = join(parent, name);
  await mkdir(path);
  return path;
}
