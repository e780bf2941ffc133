/**
 * docs/how-to/yaml-definitions.rst: inline YAML
 * ($$ and $tag$), OR REPLACE / IF NOT EXISTS, FROM YAML FILE, the export and the documented
 * COPY ... TO file -> FROM YAML FILE round trip, and the documented errors.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { errorOf, runStatement } from "../support/statement-rows.js";
import { DocsRunner } from "../support/docs-runner.js";
import { useTempDir } from "../../support/temp-dir.js";

const BODY = `
tables:
  - alias: o
    table: orders
    pk_columns:
      - id
dimensions:
  - name: region
    expr: o.region
    source_table: o
metrics:
  - name: revenue
    expr: SUM(o.amount)
    source_table: o
`;

const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

describe("docs/how-to/yaml-definitions", () => {
  let runner: DocsRunner;
  const tmp = useTempDir("all");

  before(async () => {
    runner = await DocsRunner.open();
    await runner.run("CREATE TABLE orders (id INTEGER, region VARCHAR, amount INTEGER)");
    await runner.run("INSERT INTO orders VALUES (1, 'east', 10), (2, 'west', 5), (3, 'east', 1)");
  });
  after(async () => {
    runner.close();
  });

  const revenue = async (view: string): Promise<unknown[][]> =>
    (
      await runStatement(
        runner,
        `SELECT * FROM semantic_view('${view}', dimensions := ['region'], metrics := ['revenue']) ORDER BY ALL`,
      )
    ).rows;

  it("imports inline YAML with $$ or a tagged dollar quote, with OR REPLACE and IF NOT EXISTS", async () => {
    await runStatement(runner, `CREATE SEMANTIC VIEW order_metrics FROM YAML $$${BODY}$$`);
    expect(await revenue("order_metrics")).to.deep.equal([
      ["east", 11n],
      ["west", 5n],
    ]);
    await runStatement(
      runner,
      `CREATE OR REPLACE SEMANTIC VIEW order_metrics FROM YAML $yaml$${BODY.replace("SUM(o.amount)", "MAX(o.amount)")}$yaml$`,
    );
    expect(await revenue("order_metrics")).to.deep.equal([
      ["east", 10],
      ["west", 5],
    ]);
    const kept = await runStatement(runner, `CREATE SEMANTIC VIEW IF NOT EXISTS order_metrics FROM YAML $$${BODY}$$`);
    expect(kept.rows).to.deep.equal([["order_metrics"]]);
    expect(await revenue("order_metrics")).to.deep.equal([
      ["east", 10],
      ["west", 5],
    ]);
  });

  it("imports a YAML file", async () => {
    const path = join(tmp.path, "order_metrics.yaml");
    await writeFile(path, BODY);
    await runStatement(runner, `CREATE OR REPLACE SEMANTIC VIEW from_file FROM YAML FILE ${literal(path)}`);
    expect(await revenue("from_file")).to.deep.equal([
      ["east", 11n],
      ["west", 5n],
    ]);
  });

  it("round-trips: COPY the export to a file, import it, compare GET_DDL", async () => {
    await runStatement(
      runner,
      `CREATE OR REPLACE SEMANTIC VIEW analytics COMMENT = 'team view' AS
        TABLES (o AS orders PRIMARY KEY (id) WITH SYNONYMS ('sales'))
        FACTS (PRIVATE o.amt AS o.amount)
        DIMENSIONS (o.region AS o.region COMMENT = 'territory')
        METRICS (o.revenue AS SUM(o.amt), o.n AS COUNT(*), per_order AS revenue / n)
        MATERIALIZATIONS (by_region AS (TABLE region_totals, DIMENSIONS (region), METRICS (revenue)))`,
    );
    const path = join(tmp.path, "analytics.yaml");
    await runStatement(
      runner,
      `COPY (SELECT READ_YAML_FROM_SEMANTIC_VIEW('analytics')) TO ${literal(path)} (FORMAT CSV, HEADER FALSE, QUOTE '')`,
    );
    await runStatement(runner, `CREATE SEMANTIC VIEW analytics_copy FROM YAML FILE ${literal(path)}`);
    const ddl = async (v: string) =>
      String((await runStatement(runner, `SELECT GET_DDL('SEMANTIC_VIEW', '${v}')`)).rows[0]![0]);
    expect((await ddl("analytics_copy")).replace("analytics_copy", "analytics")).to.equal(await ddl("analytics"));
  });

  describe("errors", () => {
    it("an empty path, a missing file, a directory", async () => {
      expect(await errorOf(runner, "CREATE SEMANTIC VIEW v FROM YAML FILE ''")).to.include(
        "File path cannot be empty.",
      );
      expect(await errorOf(runner, "CREATE SEMANTIC VIEW v FROM YAML FILE /x.yaml")).to.include(
        "Expected single-quoted file path after FILE keyword",
      );
      const missing = join(tmp.path, "missing.yaml");
      expect(await errorOf(runner, `CREATE SEMANTIC VIEW v FROM YAML FILE ${literal(missing)}`)).to.equal(
        `FROM YAML FILE '${missing}': cannot read the file: not found, or not a regular file`,
      );
      expect(await errorOf(runner, `CREATE SEMANTIC VIEW v FROM YAML FILE ${literal(tmp.path)}`)).to.include(
        "cannot read the file",
      );
    });

    it("a file DuckDB may not read (external access disabled) is unreadable", async () => {
      const locked = await DocsRunner.open();
      const path = join(tmp.path, "order_metrics.yaml");
      await writeFile(path, BODY);
      let message: string;
      try {
        await locked.run("SET enable_external_access = false");
        message = await errorOf(locked, `CREATE SEMANTIC VIEW v FROM YAML FILE ${literal(path)}`);
      } finally {
        locked.close();
      }
      expect(message).to.include(`FROM YAML FILE '${path}': cannot read the file:`);
    });

    it("a file path with wildcards, and a file that is not a YAML definition", async () => {
      expect(
        await errorOf(runner, `CREATE SEMANTIC VIEW v FROM YAML FILE ${literal(join(tmp.path, "*.yaml"))}`),
      ).to.include("no wildcards");
      const bad = join(tmp.path, "bad.yaml");
      await writeFile(bad, "- just\n- a list\n");
      expect(await errorOf(runner, `CREATE SEMANTIC VIEW v FROM YAML FILE ${literal(bad)}`)).to.include(
        "invalid YAML definition for semantic view 'v': the document must be a mapping",
      );
    });

    it("dollar-quote errors", async () => {
      expect(await errorOf(runner, "CREATE SEMANTIC VIEW v FROM YAML tables")).to.include(
        "Expected '$' to begin dollar-quoted string",
      );
      expect(await errorOf(runner, `CREATE SEMANTIC VIEW v FROM YAML $$${BODY}$$ extra`)).to.include(
        "Unexpected content after closing dollar-quote: 'extra'",
      );
      expect(await errorOf(runner, `CREATE SEMANTIC VIEW v FROM YAML $$${BODY}`)).to.include(
        "unterminated dollar-quoted string",
      );
    });
  });
});
