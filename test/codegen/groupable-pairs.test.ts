/**
 * Issue 24: on the extension docs' fan-trap, FOR-METRIC and role-playing models (backend C, built-in
 * engine), every metric–dimension pair is enumerated and compile-time acceptance of the generated
 * declaration is compared with the engine's own answer to that pair (a `semantic_view()` query): zero
 * disagreements. Every accepted pair also runs through the builder, whose run-time rule agrees.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import {
  BackendCConfig,
  Dimension,
  Metric,
  SemanticView,
  ValidationError,
  createEngine,
  type AnyField,
  type FieldSpec,
} from "lib";
import { runCodegen } from "../../codegen/codegen.js";
import type { ModelRecord } from "../../codegen/drift/model-record.js";
import { REPO_ROOT } from "./support/run-cli.js";
import { createDatabase } from "./support/databases.js";
import { tempDir } from "../support/temp-dir.js";
import { diagnosticsOf } from "../support/type-diagnostics.js";

/** docs/how-to/fan-traps.rst, docs/reference/show-semantic-dimensions-for-metric.rst, docs/how-to/role-playing-dimensions.rst. */
const DOCS_MODELS = [
  "CREATE TABLE orders (id INTEGER, region VARCHAR, customer_id INTEGER, total INTEGER)",
  "INSERT INTO orders VALUES (1, 'East', 1, 10), (2, 'West', 2, 20)",
  "CREATE TABLE line_items (id INTEGER, order_id INTEGER, extended_price DOUBLE, status VARCHAR, qty INTEGER, price INTEGER)",
  "INSERT INTO line_items VALUES (1, 1, 100.0, 'shipped', 1, 100), (2, 1, 200.0, 'pending', 2, 100), (3, 2, 150.0, 'shipped', 1, 150)",
  "CREATE TABLE customers (id INTEGER, name VARCHAR, country VARCHAR)",
  "INSERT INTO customers VALUES (1, 'Ann', 'DE'), (2, 'Bo', 'US')",
  `CREATE SEMANTIC VIEW sales AS
    TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
    RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
    DIMENSIONS (o.region AS o.region, li.status AS li.status)
    METRICS (li.revenue AS SUM(li.extended_price), o.order_count AS COUNT(*))`,
  `CREATE SEMANTIC VIEW star_sv AS
    TABLES (c AS customers PRIMARY KEY (id), o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
    RELATIONSHIPS (order_customer AS o(customer_id) REFERENCES c, item_order AS li(order_id) REFERENCES o)
    DIMENSIONS (c.customer_name AS c.name, c.customer_country AS c.country, li.item_qty AS li.qty)
    METRICS (o.order_total AS SUM(o.total), li.line_item_sum AS SUM(li.price * li.qty))`,
  "CREATE TABLE airports (airport_code VARCHAR, city VARCHAR, country VARCHAR)",
  "INSERT INTO airports VALUES ('BER', 'Berlin', 'DE'), ('JFK', 'New York', 'US')",
  "CREATE TABLE flights (flight_id INTEGER, departure_code VARCHAR, arrival_code VARCHAR, carrier VARCHAR)",
  "INSERT INTO flights VALUES (1, 'BER', 'JFK', 'LH'), (2, 'JFK', 'BER', 'UA'), (3, 'BER', 'JFK', 'UA')",
  `CREATE SEMANTIC VIEW flight_analytics AS
    TABLES (f AS flights PRIMARY KEY (flight_id), a AS airports PRIMARY KEY (airport_code))
    RELATIONSHIPS (dep_airport AS f(departure_code) REFERENCES a, arr_airport AS f(arrival_code) REFERENCES a)
    DIMENSIONS (a.city AS a.city, a.country AS a.country, f.carrier AS f.carrier)
    METRICS (
      f.departure_count USING (dep_airport) AS COUNT(*),
      f.arrival_count USING (arr_airport) AS COUNT(*),
      total_flights AS departure_count + arrival_count
    )`,
];

interface Pair {
  readonly view: string;
  readonly className: string;
  readonly metric: string;
  readonly dimension: string;
}

describe("codegen: metric-dimension pairs of the docs' models, compile time vs the engine (backend C)", function () {
  this.timeout(300_000);

  it("accepts at compile time exactly the pairs the engine answers, and each of them runs", async () => {
    await using dir = await tempDir();
    const database = await createDatabase(dir.path, "docs.duckdb", DOCS_MODELS);
    const errors: string[] = [];
    const exit = await runCodegen(
      { backend: "backend_c", database },
      { cwd: dir.path, env: {}, stdout: () => {}, stderr: (l) => errors.push(l) },
    );
    expect(exit, errors.join("\n")).to.equal(0);
    const out = join(dir.path, "generated");
    const record = JSON.parse(await readFile(join(out, "lib-model.json"), "utf8")) as ModelRecord;
    await using engine = createEngine(new BackendCConfig({ database, readOnly: true, semanticViews: "builtin" }));

    const pairs: Pair[] = [];
    for (const [view, recorded] of Object.entries(record.views)) {
      const of = (kind: string) =>
        Object.entries(recorded.members)
          .filter(([, m]) => m.kind === kind)
          .map(([field]) => field);
      for (const metric of of("metric")) {
        for (const dimension of of("dimension")) pairs.push({ view, className: recorded.class, metric, dimension });
      }
    }

    // The engine's answer: does the pair's semantic_view() query run?
    const answered = new Set<Pair>();
    {
      await using conn = await engine.connect();
      for (const pair of pairs) {
        const sql = `SELECT * FROM semantic_view('${pair.view}', dimensions := ['${pair.dimension}'], metrics := ['${pair.metric}']) LIMIT 0`;
        if (
          await conn.all(sql).then(
            () => true,
            () => false,
          )
        )
          answered.add(pair);
      }
    }

    // Compile-time acceptance: one line per pair and order against the generated modules (virtual files
    // under the repository, so "typebox" resolves from its node_modules).
    const virtual = join(REPO_ROOT, "test-output", `pairs-${process.pid}`);
    const modules = Object.keys(record.views).flatMap((view) => {
      const stem = view.replaceAll("_", "-");
      return [`${stem}.ts`, `${stem}.dto.ts`];
    });
    const files = [
      ...(await Promise.all(
        ["index.ts", ...modules].map(async (name) => ({
          fileName: join(virtual, name),
          text: await readFile(join(out, name), "utf8"),
        })),
      )),
    ];
    const classes = [...new Set(pairs.map((p) => p.className))];
    const usage = [
      `import { ${classes.join(", ")} } from "./index.js";`,
      ...pairs.flatMap((p) => [
        `void ${p.className}.query().metrics(${p.className}.${p.metric}).dimensions(${p.className}.${p.dimension});`,
        `void ${p.className}.query().dimensions(${p.className}.${p.dimension}).metrics(${p.className}.${p.metric});`,
      ]),
    ];
    const usageFile = join(virtual, "usage.ts");
    const diagnostics = diagnosticsOf([...files, { fileName: usageFile, text: usage.join("\n") }]);
    expect(diagnostics.filter((d) => d.fileName !== usageFile).map((d) => d.message)).to.deep.equal([]);
    const refusedLines = new Set(diagnostics.map((d) => d.line));

    const disagreements: string[] = [];
    pairs.forEach((pair, i) => {
      const label = `${pair.view}: ${pair.metric} × ${pair.dimension}`;
      const engineSays = answered.has(pair);
      for (const line of [2 + 2 * i, 3 + 2 * i]) {
        const typeSays = !refusedLines.has(line);
        if (typeSays !== engineSays)
          disagreements.push(`${label}: engine ${engineSays}, types ${typeSays} (line ${line})`);
      }
    });
    expect(disagreements).to.deep.equal([]);
    expect(pairs).to.have.length(19);
    expect(answered.size, "pairs the engine answers").to.equal(15);
    // A refused pair reads as the rule: the offending metric and dimension named, and what is allowed.
    const rule = "metric 'order_count' cannot be grouped by dimension 'status' (it can be grouped by: region)";
    expect(
      diagnostics.filter((d) => d.message.includes(rule)).map((d) => d.line),
      "lines with the order_count × status rule",
    ).to.have.length(2);
    expect(diagnostics.find((d) => d.message.includes(rule))!.message).to.contain(`QueryTypeError<"${rule}">`);

    // Each accepted pair runs through the builder with the same declaration; each refused one fails there.
    for (const [view, recorded] of Object.entries(record.views)) {
      const specs: Record<string, FieldSpec> = {};
      for (const [field, m] of Object.entries(recorded.members)) {
        specs[field] = m.kind === "metric" ? Metric() : Dimension();
      }
      const View = SemanticView(view, specs, { groupableBy: recorded.groupableBy }) as unknown as Record<
        string,
        AnyField
      > & { query(): { metrics(...f: AnyField[]): { dimensions(...f: AnyField[]): RunnableQuery } } };
      for (const pair of pairs.filter((p) => p.view === view)) {
        const build = () => View.query().metrics(View[pair.metric]!).dimensions(View[pair.dimension]!);
        if (!answered.has(pair)) {
          expect(build, `${view}: ${pair.metric} × ${pair.dimension}`).to.throw(
            ValidationError,
            "cannot be grouped by",
          );
          continue;
        }
        await using cursor = await build().using(engine).execute();
        expect((await cursor.fetchAllRows()).length, `${view}: ${pair.metric} × ${pair.dimension}`).to.be.above(0);
      }
    }
  });
});

interface RunnableQuery {
  using(engine: unknown): { execute(): Promise<AsyncDisposable & { fetchAllRows(): Promise<unknown[]> }> };
}
