import { expect } from "chai";
import { mayHandle, splitStatements } from "../../runtime/semantic/sql/split.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";

describe("semantic statement splitting", () => {
  it("splits on top-level semicolons and trims", () => {
    expect(splitStatements("SELECT 1;  SELECT 2 ;\nSELECT 3")).to.deep.equal(["SELECT 1", "SELECT 2", "SELECT 3"]);
  });

  it("drops empty statements and comment-only statements", () => {
    expect(splitStatements(";; SELECT 1;;\n-- only a comment\n; /* x */ ;")).to.deep.equal(["SELECT 1"]);
    expect(splitStatements("")).to.deep.equal([]);
    expect(splitStatements("   ")).to.deep.equal([]);
  });

  it("keeps semicolons inside strings, quoted identifiers and comments", () => {
    expect(splitStatements(`SELECT 'a;b', "c;d" -- e;f\n; SELECT /* g; h */ 2`)).to.deep.equal([
      `SELECT 'a;b', "c;d" -- e;f`,
      "SELECT /* g; h */ 2",
    ]);
  });

  it("keeps escaped quotes inside strings", () => {
    expect(splitStatements("SELECT 'it''s;'; SELECT 1")).to.deep.equal(["SELECT 'it''s;'", "SELECT 1"]);
  });

  it("keeps semicolons inside dollar quotes, tagged or not", () => {
    expect(splitStatements("SELECT $$a;b$$; SELECT $tag$ c; $$ ; $tag$; SELECT 3")).to.deep.equal([
      "SELECT $$a;b$$",
      "SELECT $tag$ c; $$ ; $tag$",
      "SELECT 3",
    ]);
  });

  it("keeps semicolons inside parentheses", () => {
    expect(splitStatements("CREATE MACRO m() AS (SELECT 1; ); SELECT 2")).to.deep.equal([
      "CREATE MACRO m() AS (SELECT 1; )",
      "SELECT 2",
    ]);
  });

  it("keeps nested block comments whole", () => {
    expect(splitStatements("SELECT /* a /* b; */ c; */ 1; SELECT 2")).to.deep.equal([
      "SELECT /* a /* b; */ c; */ 1",
      "SELECT 2",
    ]);
  });

  it("splits semantic DDL from ordinary SQL", () => {
    const sql = `INSTALL semantic_views; LOAD semantic_views;
      CREATE TABLE t (a INT);
      CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a);`;
    expect(splitStatements(sql)).to.deep.equal([
      "INSTALL semantic_views",
      "LOAD semantic_views",
      "CREATE TABLE t (a INT)",
      "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a)",
    ]);
  });

  it("reports an unterminated string as a parse error", () => {
    expect(() => splitStatements("SELECT 'abc; SELECT 2")).to.throw(SemanticViewError, "unterminated quoted string");
  });

  it("mayHandle has no false negatives for semantic statements", () => {
    for (const sql of [
      "CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a)",
      "create or replace semantic view v as tables (t) dimensions (t.a as a)",
      "DROP SEMANTIC VIEW v",
      "SHOW SEMANTIC VIEWS",
      "DESCRIBE SEMANTIC VIEW v",
      "SELECT * FROM semantic_view('v', metrics := ['m'])",
      "SELECT * FROM list_semantic_views()",
      "SELECT GET_DDL('SEMANTIC_VIEW', 'v')",
      "INSTALL semantic_views",
      "LOAD semantic_views",
    ]) {
      expect(mayHandle(sql), sql).to.equal(true);
    }
    expect(mayHandle("SELECT 1")).to.equal(false);
    expect(mayHandle("CREATE TABLE t (a INT)")).to.equal(false);
  });
});
