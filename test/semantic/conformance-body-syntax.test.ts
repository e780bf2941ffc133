/**
 * Body syntax the extension's parser accepts (`src/body_parser/`, `src/util.rs`): empty clause lists
 * (`DIMENSIONS ()` — the "at least one of DIMENSIONS or METRICS" rule is about the clauses being
 * present), one trailing comma, SQL comments anywhere (blanked before parsing, so their text never
 * reaches a stored expression and `)`, `,` or `AS` inside one are inert), and typed literals such as
 * `DATE '2020-01-01'` inside member expressions and filters (the type word is never a member name).
 */
import { expect } from "chai";
import { DocsRunner } from "./support/docs-runner.js";
import { errorOf } from "./support/statement-rows.js";

describe("conformance: body syntax (empty lists, comments, typed literals)", () => {
  let db: DocsRunner;

  before(async () => {
    db = await DocsRunner.open();
    await db.run(`
      CREATE TABLE orders (id INTEGER, amount INTEGER, status VARCHAR, date DATE, placed TIMESTAMP);
      INSERT INTO orders VALUES
        (1, 10, 'a', DATE '2020-01-01', TIMESTAMP '2020-01-01 08:00:00'),
        (2, 20, 'b', DATE '2021-01-01', TIMESTAMP '2021-01-01 09:30:00'),
        (3, 5, 'a', DATE '2021-06-01', TIMESTAMP '2021-06-01 10:00:00');`);
  });
  after(() => db.close());

  const text = (sql: string): Promise<unknown[][]> => db.text(sql);

  it("DIMENSIONS () with metrics: the grand total, also with dimensions := []", async () => {
    await db.run(
      "CREATE SEMANTIC VIEW empty_dims AS TABLES (o AS orders PRIMARY KEY (id)) RELATIONSHIPS () FACTS () DIMENSIONS () METRICS (o.total AS SUM(o.amount), ) MATERIALIZATIONS ()",
    );
    expect(await text("SELECT * FROM semantic_view('empty_dims', metrics := ['total'])")).to.deep.equal([["35"]]);
    expect(
      await text("SELECT * FROM semantic_view('empty_dims', dimensions := [], metrics := ['total'])"),
    ).to.deep.equal([["35"]]);
    expect(await text("SELECT name FROM show_semantic_dimensions('empty_dims')")).to.deep.equal([]);
  });

  it("METRICS () alone satisfies the clause rule; no DIMENSIONS or METRICS clause at all does not", async () => {
    await db.run(
      "CREATE SEMANTIC VIEW dims_only AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.status AS o.status) METRICS ()",
    );
    expect(await text("SELECT * FROM semantic_view('dims_only', dimensions := ['status']) ORDER BY 1")).to.deep.equal([
      ["a"],
      ["b"],
    ]);
    expect(await errorOf(db, "CREATE SEMANTIC VIEW none AS TABLES (o AS orders PRIMARY KEY (id)) FACTS ()")).to.contain(
      "At least one of 'DIMENSIONS' or 'METRICS' is required.",
    );
  });

  it("comments anywhere in a body, holding ')', ',' and AS, never reach a stored expression", async () => {
    await db.run(`
      CREATE SEMANTIC VIEW commented AS -- a comment ) , AS
      TABLES ( -- after the paren )
        o /* alias ) */ AS /* , */ orders PRIMARY KEY (id /* pk ) */)
      ) -- between clauses
      /* a block between clauses, AS ) /* nested */ still a comment */
      DIMENSIONS (
        o.status AS o.status -- trailing ) , AS
        , o.late /* AS */ AS o.date > DATE '2020-06-01' /* x */
      )
      METRICS (o.total AS SUM(o.amount /* inner , ) */) COMMENT = 'c' -- the end
      );`);
    expect(
      await text(
        "SELECT * FROM semantic_view('commented', dimensions := ['status', 'late'], metrics := ['total']) ORDER BY ALL",
      ),
    ).to.deep.equal([
      ["a", "false", "10"],
      ["a", "true", "5"],
      ["b", "true", "20"],
    ]);
    // Blanked byte for byte, as the extension's front door does: inner comments become spaces.
    expect(
      await text(
        "SELECT object_name, property_value FROM describe_semantic_view('commented') WHERE property = 'EXPRESSION'",
      ),
    ).to.deep.equal([
      ["status", "o.status"],
      ["late", "o.date > DATE '2020-06-01'"],
      ["total", `SUM(o.amount${" ".repeat(16)})`],
    ]);
  });

  it("annotations in any order, each at most once per entry", async () => {
    await db.run(
      "CREATE SEMANTIC VIEW annotated AS TABLES (o AS orders PRIMARY KEY (id) WITH SYNONYMS ('sales') COMMENT = 't') DIMENSIONS (o.status AS o.status WITH SYNONYMS = ('state') COMMENT = 'c' LABELS = (FILTER)) METRICS (o.total AS SUM(o.amount))",
    );
    expect(await text("SELECT name, synonyms, comment FROM show_semantic_dimensions('annotated')")).to.deep.equal([
      ["status", '["state"]', "c"],
    ]);
    const body = (entry: string, table = "o AS orders PRIMARY KEY (id)"): string =>
      `CREATE SEMANTIC VIEW twice AS TABLES (${table}) DIMENSIONS (${entry}) METRICS (o.total AS SUM(o.amount))`;
    expect(await errorOf(db, body("o.status AS o.status COMMENT = 'a' COMMENT = 'b'"))).to.contain(
      "COMMENT given twice on dimension 'status'",
    );
    expect(await errorOf(db, body("o.status AS o.status WITH SYNONYMS ('a') WITH SYNONYMS ('b')"))).to.contain(
      "WITH SYNONYMS given twice on dimension 'status'",
    );
    expect(await errorOf(db, body("o.status AS o.status", "o AS orders COMMENT = 'x' COMMENT = 'y'"))).to.contain(
      "COMMENT given twice on table 'o'",
    );
    expect(await errorOf(db, body("o.status AS o.status COMMENT = 'a' banana"))).to.contain("'banana'");
    // COMMENT needs its `=` (WITH SYNONYMS and LABELS do not), on entries, views and ALTER.
    expect(await errorOf(db, body("o.status AS o.status COMMENT 'a'"))).to.contain(
      "Expected '=' after COMMENT keyword.",
    );
    expect(await errorOf(db, "ALTER SEMANTIC VIEW annotated SET COMMENT 'x'")).to.contain(
      "Expected '=' after COMMENT keyword.",
    );
  });

  it("typed literals inside member expressions, even beside a member named like the type", async () => {
    await db.run(`
      CREATE SEMANTIC VIEW typed AS
      TABLES (o AS orders PRIMARY KEY (id))
      FACTS (o.recent AS o.date >= DATE '2021-01-01')
      DIMENSIONS (o.date AS o.date, o.is_new AS date > DATE '2020-06-01')
      METRICS (
        o.total AS SUM(o.amount),
        o.recent_total AS SUM(CASE WHEN o.date > DATE '2020-06-01' THEN o.amount END),
        o.span AS MAX(o.placed) - TIMESTAMP '2020-01-01 00:00:00',
        o.early AS COUNT(*) FILTER (WHERE o.date < DATE '2020-06-01'),
        o.after_window AS SUM(o.amount) FILTER (WHERE o.placed > TIMESTAMP '2021-01-01' + INTERVAL '1 day')
      );`);
    expect(
      await text(
        "SELECT * FROM semantic_view('typed', dimensions := ['is_new'], metrics := ['total', 'recent_total', 'span', 'early', 'after_window']) ORDER BY 1",
      ),
    ).to.deep.equal([
      ["false", "10", null, "08:00:00", "1", null],
      ["true", "25", "25", "517 days 10:00:00", "0", "5"],
    ]);
    // In where_clause, `date` is the dimension and `DATE` types the literal.
    expect(
      await text(
        "SELECT * FROM semantic_view('typed', metrics := ['total'], where_clause := 'date > DATE ''2020-06-01''')",
      ),
    ).to.deep.equal([["25"]]);
    expect(
      await text(
        "SELECT * FROM semantic_view('typed', facts := ['recent'], dimensions := ['date'], where_clause := 'recent AND date < DATE ''2021-03-01''')",
      ),
    ).to.deep.equal([["2021-01-01", "true"]]);
  });
});
