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
import { existsSync } from "node:fs";
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
import { databricksFixture } from "../../runtime/dialects/databricks/databricks-fixture.js";
import {
  CATALOG,
  SCHEMA,
  STAND_IN_HTTP_PATH,
  TOKEN,
  standInEngine,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { createDatabase } from "./support/databases.js";
import { RecordedSource } from "./support/recorded-source.js";
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

const LIST_SQL =
  "SELECT table_name, comment FROM information_schema.tables WHERE table_catalog = current_catalog() AND table_schema = current_schema() " +
  "AND table_type IN ('METRIC_VIEW', 'VIEW') ORDER BY table_name";

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
      sample: args.sample,
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
    expect(await readFile(empty.path, "utf8")).to.contain("// Rows: no rows (run with --sample <n> to copy some).");
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
      "--sample needs a non-negative integer, got many",
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
      await writeFile(
        join(dir.path, ".lib.toml"),
        [
          "[connections.backend_b]",
          'type = "backend_b"',
          'host = "127.0.0.1"',
          `port = ${fixture.standIn.port}`,
          `http_path = "${STAND_IN_HTTP_PATH}"`,
          `token = "${TOKEN}"`,
          `catalog = "${CATALOG}"`,
          `schema = "${SCHEMA}"`,
          "",
        ].join("\n"),
      );
      const { exit, err, path } = await codegenFixture(dir.path, "backend_b", { sample: 10 });
      expect(err.join("\n")).to.equal("");
      expect(exit).to.equal(0);
      await using source = standInEngine(fixture.standIn);
      await using replay = await fixtureEngine(path);
      expect(await salesRows(replay)).to.deep.equal(await salesRows(source));
    });
  });

  it("backend B: a filter and a non-equality join are listed as not translated; the CLI exits 2 unless --allow-partial", async () => {
    const yaml = [
      "version: 0.1",
      "source: main.retail.orders",
      "filter: status = 'done'",
      "joins:",
      "  - name: customer",
      "    source: main.retail.customers",
      "    on: source.customer_id = customer.id",
      "  - name: region",
      "    source: main.retail.regions",
      "    on: source.zip BETWEEN region.lo AND region.hi",
      "dimensions:",
      "  - name: Customer Name",
      "    expr: customer.name",
      "measures:",
      "  - name: total",
      "    expr: SUM(amount)",
    ].join("\n");
    const columns = (names: string) => ({
      columns: ["column_name", "data_type"],
      rows: names.split(",").map((n) => [n, n === "amount" ? "DECIMAL(10,2)" : "STRING"]),
    });
    const source = new RecordedSource({
      [LIST_SQL]: { columns: ["table_name", "comment"], rows: [["orders_mv", null]] },
      "DESCRIBE TABLE EXTENDED `orders_mv` AS JSON": {
        columns: ["json"],
        rows: [
          [
            JSON.stringify({
              type: "METRIC_VIEW",
              view_text: yaml,
              columns: [
                { name: "Customer Name", type: "string" },
                { name: "total", type: "bigint" },
              ],
            }),
          ],
        ],
      },
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'orders' AND table_schema = 'retail' ORDER BY ordinal_position":
        columns("customer_id,amount,status"),
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'customers' AND table_schema = 'retail' ORDER BY ordinal_position":
        columns("id,name"),
    });
    const model = await databricksFixture(source, ["orders_mv"], undefined);
    expect(model.untranslated).to.deep.equal([
      `view "orders_mv": join region on "source.zip BETWEEN region.lo AND region.hi" (only source.col = region.col is translated)`,
      `view "orders_mv": filter "status = 'done'" (semantic_views has no view filter)`,
    ]);
    expect(model.views[0]).to.equal(
      [
        "CREATE OR REPLACE SEMANTIC VIEW orders_mv AS",
        "TABLES (source AS orders, customer AS customers PRIMARY KEY (id))",
        "RELATIONSHIPS (source_customer AS source(customer_id) REFERENCES customer)",
        'DIMENSIONS (customer."Customer Name" AS customer.name)',
        "METRICS (source.total AS SUM(amount))",
      ].join("\n"),
    );
    expect(model.tables.map((t) => [t.name, t.columns.map((c) => `${c.name} ${c.type}`).join(", ")])).to.deep.equal([
      ["orders", "customer_id VARCHAR, amount DECIMAL(10,2), status VARCHAR"],
      ["customers", "id VARCHAR, name VARCHAR"],
    ]);

    await using dir = await tempDir({
      ".lib.toml":
        '[connections.backend_b]\ntype = "backend_b"\nhost = "127.0.0.1"\nhttp_path = "/sql/x"\ntoken = "dapi-x"\n',
    });
    const cli = async (...extra: string[]) => {
      const err: string[] = [];
      const args = ["codegen", "--backend", "backend_b", "--fixture", "fx.ts", ...extra];
      const code = await runCli(args, {
        cwd: dir.path,
        env: {},
        stdout: () => {},
        stderr: (l) => err.push(l),
        connector: async () => ({ source, close: async () => undefined }),
      });
      return { code, err: err.join("\n") };
    };
    const refused = await cli();
    expect(refused.code).to.equal(2);
    expect(refused.err).to.contain('not translated: view "orders_mv": filter');
    expect(refused.err).to.contain("pass --allow-partial");
    expect(existsSync(join(dir.path, "fx.ts"))).to.equal(false);
    const partial = await cli("--allow-partial");
    expect(partial.code, partial.err).to.equal(0);
    expect(await readFile(join(dir.path, "fx.ts"), "utf8")).to.contain(
      '// Not translated:\n//   - view "orders_mv": join region',
    );
  });
});

describe("backend A fixture: GET_DDL translation", () => {
  it("multi-table DDL: qualified tables, synonyms, unique, relationships, private facts, member comments", async () => {
    const { snowflakeFixture } = await import("../../runtime/dialects/snowflake/snowflake-fixture.js");
    const ddl = [
      "create or replace semantic view ORDERS_SV",
      "\ttables (O as DB.SHOP.ORDERS primary key (ID) unique (REF) with synonyms=('orders','sales') comment='lines', C as DB.SHOP.CUSTOMERS primary key (ID))",
      "\trelationships (O_C as O(CUSTOMER_ID) references C(ID))",
      "\tfacts (private O.NET as O.AMOUNT - O.DISCOUNT)",
      "\tdimensions (C.NAME as C.NAME with synonyms=('client') comment='Customer, name')",
      "\tmetrics (O.TOTAL as SUM(O.NET), O.orderCount as COUNT(*))",
      "\tcomment='Orders, by customer';",
    ].join("\n");
    const columns = (names: string) => ({
      columns: ["column_name", "data_type", "numeric_precision", "numeric_scale"],
      rows: names
        .split(",")
        .map((n) => [n, n === "NAME" ? "TEXT" : "NUMBER", n === "NAME" ? null : 38, n === "AMOUNT" ? 2 : 0]),
    });
    const source = new RecordedSource({
      "SELECT GET_DDL('SEMANTIC_VIEW', '\"ORDERS_SV\"')": { columns: ["GET_DDL"], rows: [[ddl]] },
      "SELECT column_name, data_type, numeric_precision, numeric_scale FROM information_schema.columns WHERE upper(table_name) = upper('ORDERS') AND upper(table_schema) = upper('SHOP') ORDER BY ordinal_position":
        columns("ID,REF,CUSTOMER_ID,AMOUNT,DISCOUNT"),
      "SELECT column_name, data_type, numeric_precision, numeric_scale FROM information_schema.columns WHERE upper(table_name) = upper('CUSTOMERS') AND upper(table_schema) = upper('SHOP') ORDER BY ordinal_position":
        columns("ID,NAME"),
    });
    const model = await snowflakeFixture(source, ["ORDERS_SV"], undefined);
    expect(model.untranslated).to.deep.equal([]);
    expect(model.views[0]).to.equal(
      [
        "CREATE OR REPLACE SEMANTIC VIEW orders_sv COMMENT = 'Orders, by customer' AS",
        "TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))",
        "RELATIONSHIPS (O_C as O(CUSTOMER_ID) references C(ID))",
        "FACTS (PRIVATE o.net AS O.AMOUNT - O.DISCOUNT)",
        "DIMENSIONS (c.name AS C.NAME COMMENT = 'Customer, name')",
        "METRICS (o.total AS SUM(O.NET), o.orderCount AS COUNT(*))",
      ].join("\n"),
    );
    expect(
      model.tables.map((t) => `${t.name}: ${t.columns.map((c) => `${c.name} ${c.type}`).join(", ")}`),
    ).to.deep.equal([
      "orders: ID DECIMAL(38,0), REF DECIMAL(38,0), CUSTOMER_ID DECIMAL(38,0), AMOUNT DECIMAL(38,2), DISCOUNT DECIMAL(38,0)",
      "customers: ID DECIMAL(38,0), NAME VARCHAR",
    ]);
    // The translated statements are valid semantic_views DDL: replayed and queried on backend C.
    const { fixtureStatements } = await import("../../codegen/fixture/render-fixture.js");
    await using engine = createEngine(new BackendCConfig({ semanticViews: "builtin" }));
    await using conn = await engine.connect();
    for (const sql of fixtureStatements(model)) await conn.run(sql);
    await conn.run("INSERT INTO orders VALUES (1, 1, 7, 10.50, 0.50); INSERT INTO customers VALUES (7, 'Ann')");
    const rows = await conn.all(
      "SELECT * FROM semantic_view('orders_sv', dimensions := ['name'], metrics := ['total', 'orderCount'])",
    );
    // DISCOUNT is NUMBER(38,0) there, so 0.50 is stored as 1: 10.50 - 1.
    expect(rows.map((r) => [r["name"], String(r["total"]), r["orderCount"]])).to.deep.equal([["Ann", "9.50", 1n]]);
  });
});
