/**
 * Issue 22 item 8, the engine's parts: NUL in names and comments refused at CREATE (one such view
 * broke the listing of every view), FROM YAML FILE refusing non-regular files before reading (a FIFO
 * hung the statement), and a wide CREATE keeping each member's YAML output_type; definitions stored
 * with NUL by older versions (before the refusal) listed without breaking any listing.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { loadDefinition } from "../../runtime/semantic/catalog.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { tempDir } from "../support/temp-dir.js";
import { TestSession } from "./support/session.js";

const layer = createBuiltinSemanticLayer();

describe("semantic DDL hardening (issue 22 item 8)", () => {
  let session: TestSession;
  beforeEach(async () => {
    session = await TestSession.open();
    await session.query("CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER)");
  });
  afterEach(() => session.close());

  async function failure(sql: string): Promise<SemanticViewError> {
    try {
      await layer.handle(session, sql);
    } catch (error) {
      expect(error).to.be.instanceOf(SemanticViewError);
      return error as SemanticViewError;
    }
    throw new Error(`expected failure: ${sql}`);
  }

  const listedViews = async (): Promise<unknown[][]> => {
    const handled = await layer.handle(session, "SELECT name FROM list_semantic_views() ORDER BY 1");
    expect(handled.kind).to.equal("rewritten");
    return (await session.query((handled as { sql: string }).sql)).rows;
  };

  it("refuses NUL in a view name, a member name, a comment or a synonym, naming the field", async () => {
    await layer.handle(
      session,
      "CREATE SEMANTIC VIEW good AS TABLES (o AS orders PRIMARY KEY (id)) METRICS (o.n AS COUNT(*))",
    );
    const cases: [string, RegExp][] = [
      [
        `CREATE SEMANTIC VIEW "bad\u0000view" AS TABLES (o AS orders PRIMARY KEY (id)) METRICS (o.n AS COUNT(*))`,
        /: name contains a NUL character/,
      ],
      [
        `CREATE SEMANTIC VIEW v1 AS TABLES (o AS orders PRIMARY KEY (id)) METRICS (o."n\u0000x" AS COUNT(*))`,
        /metrics\[0\]\.name contains a NUL/,
      ],
      [
        `CREATE SEMANTIC VIEW v2 COMMENT = 'a\u0000b' AS TABLES (o AS orders PRIMARY KEY (id)) METRICS (o.n AS COUNT(*))`,
        /comment contains a NUL/,
      ],
      [
        `CREATE SEMANTIC VIEW v3 AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.d AS o.id COMMENT = 'x\u0000') METRICS (o.n AS COUNT(*))`,
        /dimensions\[0\]\.comment contains a NUL/,
      ],
      [
        `CREATE SEMANTIC VIEW v4 AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.d AS o.id WITH SYNONYMS = ('s\u0000')) METRICS (o.n AS COUNT(*))`,
        /dimensions\[0\]\.synonyms\[0\] contains a NUL/,
      ],
      [`ALTER SEMANTIC VIEW good SET COMMENT = 'late\u0000comment'`, /semantic view 'good': comment contains a NUL/],
    ];
    for (const [sql, message] of cases) expect((await failure(sql)).message, sql).to.match(message);
    // Nothing was stored: the listing of every view still works.
    expect(await listedViews()).to.deep.equal([["good"]]);
  });

  it("definitions stored with NUL by older versions never break a listing: every listing shows them exactly", async () => {
    await layer.handle(
      session,
      "CREATE SEMANTIC VIEW good AS TABLES (o AS orders PRIMARY KEY (id)) METRICS (o.n AS COUNT(*))",
    );
    await layer.handle(
      session,
      "CREATE SEMANTIC VIEW old COMMENT = 'view~' AS TABLES (o AS orders PRIMARY KEY (id)) " +
        "DIMENSIONS (o.d AS o.id COMMENT = 'day~one' WITH SYNONYMS = ('s~')) METRICS (o.n AS COUNT(*) COMMENT = '~')",
    );
    // What an older version wrote: the same definition with NUL where "~" is (JSON's \u0000 escape).
    await session.query(
      "UPDATE semantic_layer._definitions SET definition = replace(definition, '~', '\\u0000') WHERE name = 'old'",
    );
    const run = async (sql: string): Promise<unknown[][]> => {
      const handled = await layer.handle(session, sql);
      if (handled.kind === "result") return handled.rows;
      expect(handled.kind, sql).to.equal("rewritten");
      return (await session.query((handled as { sql: string }).sql)).rows;
    };
    expect(await listedViews()).to.deep.equal([["good"], ["old"]]);
    const listings: [string, (rows: unknown[][]) => void][] = [
      [
        "SELECT name, comment FROM list_semantic_views() ORDER BY 1",
        (r) => expect(r[1]).to.deep.equal(["old", "view\u0000"]),
      ],
      ["SHOW SEMANTIC VIEWS", (r) => expect(r).to.have.length(2)],
      ["SHOW TERSE SEMANTIC VIEWS", (r) => expect(r).to.have.length(2)],
      ["SHOW SEMANTIC DIMENSIONS", (r) => expect(r.flat()).to.include("day\u0000one")],
      [
        "SELECT name, comment FROM show_semantic_dimensions('old')",
        (r) => expect(r).to.deep.equal([["d", "day\u0000one"]]),
      ],
      ["SELECT * FROM show_semantic_dimensions_all()", (r) => expect(r.flat()).to.include("day\u0000one")],
      [
        "SELECT name, comment FROM show_semantic_metrics() ORDER BY all",
        (r) => expect(r).to.deep.include(["n", "\u0000"]),
      ],
      ["DESCRIBE SEMANTIC VIEW old", (r) => expect(r.flat()).to.include("day\u0000one")],
      ["SELECT * FROM describe_semantic_view('old')", (r) => expect(r.flat()).to.include("day\u0000one")],
      [
        "SELECT get_ddl('SEMANTIC_VIEW', 'old')",
        (r) => expect(String(r[0]![0])).to.contain("COMMENT = 'day\u0000one'"),
      ],
      [
        "SELECT name, get_ddl('SEMANTIC_VIEW', name) FROM list_semantic_views() ORDER BY 1",
        (r) => expect(String(r[1]![1])).to.contain("WITH SYNONYMS = ('s\u0000')"),
      ],
    ];
    for (const [sql, check] of listings) check(await run(sql));
  });

  it("FROM YAML FILE refuses a FIFO and a directory before reading them", async function () {
    await using dir = await tempDir();
    const fifo = join(dir.path, "definition.yaml");
    try {
      execFileSync("mkfifo", [fifo]);
    } catch {
      this.skip(); // no mkfifo on this machine
    }
    {
      const error = await failure(`CREATE SEMANTIC VIEW v FROM YAML FILE '${fifo}'`);
      expect(error.message).to.equal(`FROM YAML FILE '${fifo}': cannot read the file: not a regular file (a FIFO)`);
      const sub = join(dir.path, "sub");
      await mkdir(sub);
      expect((await failure(`CREATE SEMANTIC VIEW v FROM YAML FILE '${sub}'`)).message).to.contain(
        "not a regular file (a directory)",
      );
      // A regular file still works.
      const file = join(dir.path, "ok.yaml");
      await writeFile(
        file,
        "tables:\n  - alias: o\n    table: orders\n    pk_columns: [id]\ndimensions: []\nmetrics:\n  - name: n\n    source_table: o\n    expr: COUNT(*)\n",
      );
      await layer.handle(session, `CREATE SEMANTIC VIEW v FROM YAML FILE '${file}'`);
      expect(await listedViews()).to.deep.equal([["v"]]);
    }
  });

  it("a view with 1,000 dimensions keeps each one's YAML output_type", async () => {
    const n = 1000;
    const dims = Array.from(
      { length: n },
      (_, i) =>
        `  - name: d${i}\n    source_table: o\n    expr: o.amount + ${i}\n${i % 2 === 0 ? "    output_type: BIGINT\n" : ""}`,
    );
    const yaml = `tables:\n  - alias: o\n    table: orders\n    pk_columns: [id]\ndimensions:\n${dims.join("")}metrics: []\n`;
    await layer.handle(session, `CREATE SEMANTIC VIEW wide FROM YAML $$${yaml}$$`);
    const def = await loadDefinition(session, "wide");
    expect(def!.dimensions).to.have.length(n);
    expect(def!.dimensions.map((d) => d.outputType)).to.deep.equal(
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "BIGINT" : undefined)),
    );
  });
});
