/** The semantic_view() argument parser and the rewriter's splicing, on real DuckDB. */
import { expect } from "chai";
import { significant, tokenize } from "../../runtime/semantic/sql/lexer.js";
import { clearSemanticQueryCache, semanticQueryCacheStats } from "../../runtime/semantic/call/typed-query.js";
import { parseSemanticViewArguments } from "../../runtime/semantic/call/call-arguments.js";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { defineView, fixedCatalog } from "./support/definitions.js";
import { TestSession } from "./support/session.js";

const parse = (args: string) => parseSemanticViewArguments(significant(tokenize(args)));
const parseError = (args: string): string => {
  try {
    parse(args);
  } catch (error) {
    expect(error).to.be.instanceOf(SemanticViewError);
    return (error as Error).message;
  }
  return expect.fail("expected a parse error");
};

describe("semantic_view() arguments", () => {
  it("parses names, lists, escapes and where_clause", () => {
    expect(
      parse(`'sales', dimensions := ['country', 'it''s'], metrics := [], where_clause := 'a = ''x'''`),
    ).to.deep.equal({
      view: "sales",
      request: { dimensions: ["country", "it's"], metrics: [], facts: [], whereClause: "a = 'x'" },
    });
    expect(parse(`'s', FACTS => ['f',], where_clause := $$b = 'y'$$`).request).to.deep.equal({
      dimensions: [],
      metrics: [],
      facts: ["f"],
      whereClause: "b = 'y'",
    });
  });

  it("rejects bad shapes with helpful messages", () => {
    expect(parseError(`dimensions := ['a']`)).to.contain("first argument must be the semantic view name");
    expect(parseError(`NULL`)).to.contain("must not be NULL");
    expect(parseError(`'s', ['a']`)).to.contain("only the first argument may be positional");
    expect(parseError(`'s', dimensions := 'a'`)).to.contain("must be a list of strings");
    expect(parseError(`'s', dimensions := [a]`)).to.contain("must be a string literal");
    expect(parseError(`'s', where := 'x'`)).to.contain("named where_clause");
    expect(parseError(`'s', dims := ['a']`)).to.contain(
      "unknown parameter 'dims'. Available: [dimensions, metrics, facts, where_clause].",
    );
    expect(parseError(`'s', metrics := ['a'], metrics := ['b']`)).to.contain("given twice");
  });
});

describe("rewriteSemanticViewCalls", () => {
  const view = defineView({
    name: "t",
    tables: [{ alias: "t", table: "nums" }],
    dimensions: { "t.k": "t.k" },
    metrics: { "t.total": "SUM(t.v)" },
  });
  const catalog = fixedCatalog(view);
  let session: TestSession;

  before(async () => {
    clearSemanticQueryCache();
    session = await TestSession.open();
    await session.query("CREATE TABLE nums AS SELECT i % 3 AS k, i::INTEGER AS v FROM range(10) r(i)");
  });
  after(() => session.close());

  it("adds an alias only when the user wrote none", async () => {
    const plain = await rewriteSemanticViewCalls(
      session,
      "SELECT * FROM semantic_view('t', metrics := ['total']) WHERE total > 0",
      catalog,
    );
    expect(plain).to.match(/\) AS semantic_view WHERE total > 0$/);
    const aliased = await rewriteSemanticViewCalls(
      session,
      "SELECT x.* FROM semantic_view('t', metrics := ['total']) x",
      catalog,
    );
    expect(aliased).to.match(/\) x$/);
    expect(aliased).not.to.contain("AS semantic_view");
    const wrapped = (await rewriteSemanticViewCalls(
      session,
      "SELECT * FROM (semantic_view('t', metrics := ['total']))",
      catalog,
    ))!;
    expect(wrapped).not.to.contain("AS semantic_view");
    expect((await session.query(wrapped)).rows).to.deep.equal([[45n]]);
  });

  it("rewrites several calls and leaves the rest of the statement byte for byte", async () => {
    const sql = `/* keep */ SELECT a.k, a.total, b.total AS again -- semantic_view('no')
      FROM semantic_view('t', dimensions := ['k'], metrics := ['total']) a
      JOIN SEMANTIC_VIEW('T', dimensions := ['k'], metrics := ['total']) AS b USING (k) WHERE a.k = $1 ORDER BY a.k`;
    const rewritten = (await rewriteSemanticViewCalls(session, sql, catalog))!;
    expect(rewritten.startsWith("/* keep */ SELECT a.k, a.total, b.total AS again -- semantic_view('no')\n")).to.equal(
      true,
    );
    expect(rewritten.endsWith(" AS b USING (k) WHERE a.k = $1 ORDER BY a.k")).to.equal(true);
    const result = await session.query(rewritten, [1]);
    expect(result.rows).to.deep.equal([[1n, 12n, 12n]]);
  });

  it("caches the type probe per definition and request", async () => {
    clearSemanticQueryCache();
    const sql = "SELECT * FROM semantic_view('t', dimensions := ['k'])";
    await rewriteSemanticViewCalls(session, sql, catalog);
    await rewriteSemanticViewCalls(session, sql, catalog);
    const stats = semanticQueryCacheStats();
    expect(stats).to.deep.equal({ size: 1, hits: 1, misses: 1 });
  });

  it("wraps a failing probe as an execution error naming the view", async () => {
    const broken = defineView({
      name: "broken",
      tables: [{ alias: "t", table: "missing_table" }],
      dimensions: { "t.k": "t.k" },
    });
    try {
      await rewriteSemanticViewCalls(
        session,
        "SELECT * FROM semantic_view('broken', dimensions := ['k'])",
        fixedCatalog(broken),
      );
      expect.fail("expected an error");
    } catch (error) {
      expect((error as SemanticViewError).kind).to.equal("execution");
      expect((error as Error).message).to.contain(
        "semantic_view: type inference failed for query on semantic view 'broken'",
      );
    }
  });
});

describe("typed probe cache", () => {
  const view = defineView({
    name: "t",
    tables: [{ alias: "t", table: "nums" }],
    dimensions: { "t.k": "t.k" },
    metrics: { "t.total": "SUM(t.v)" },
  });

  it("keeps two databases with the same definition but different column types apart", async () => {
    clearSemanticQueryCache();
    await using ints = await TestSession.open();
    await using decimals = await TestSession.open();
    await ints.query("CREATE TABLE nums AS SELECT 1 AS k, 2::INTEGER AS v");
    await decimals.query("CREATE TABLE nums AS SELECT 1 AS k, 2.25::DECIMAL(10,2) AS v");
    const sql = "SELECT total FROM semantic_view('t', metrics := ['total'])";
    const first = await ints.query((await rewriteSemanticViewCalls(ints, sql, fixedCatalog(view)))!);
    const second = await decimals.query((await rewriteSemanticViewCalls(decimals, sql, fixedCatalog(view)))!);
    expect(first.columns[0]!.type).to.equal("BIGINT");
    expect(second.columns[0]!.type).to.equal("DECIMAL(38,2)");
    expect(semanticQueryCacheStats()).to.deep.equal({ size: 2, hits: 0, misses: 2 });
  });
});
