/**
 * The SQL toolkit (runtime/semantic/sql/) is the only place that knows which calls aggregate and
 * which run over a window: CREATE validation (ddl/expression-refs.ts), window-metric parsing and
 * expansion's phantom-row guard (expand/expression.ts) must classify every function the same way.
 */
import { expect } from "chai";
import { analyzeExpression } from "../../runtime/semantic/ddl/expression-refs.js";
import { parseWindowExpression } from "../../runtime/semantic/ddl/parse-metric-modes.js";
import { guardAggregates } from "../../runtime/semantic/expand/guard-aggregates.js";
import { AGGREGATE_FUNCTIONS } from "../../runtime/semantic/sql/function-classes.js";
import { DocsRunner } from "./support/docs-runner.js";

/** Does expansion guard the call (it rewrites the aggregate's argument)? */
const guarded = (expr: string): boolean => guardAggregates(expr, "k.id") !== expr;

describe("semantic SQL toolkit: one classification for CREATE and expansion", () => {
  it("every aggregate is an aggregate to CREATE validation and to the phantom-row guard, in any case", () => {
    expect(AGGREGATE_FUNCTIONS.size).to.be.greaterThan(50);
    for (const name of AGGREGATE_FUNCTIONS) {
      for (const written of [name, name.toUpperCase()]) {
        const expr = `${written}(t.x)`;
        expect(analyzeExpression(expr).aggregates, expr).to.deep.equal([name]);
        expect(guarded(expr), expr).to.equal(true);
      }
    }
  });

  it("scalar functions, qualified (user) functions and quoted names are not aggregates to either", () => {
    for (const expr of ["abs(t.x)", "coalesce(t.x, 0)", "my_schema.sum(t.x)", '"sum"(t.x)', "sum_of(t.x)"]) {
      expect(analyzeExpression(expr).aggregates, expr).to.deep.equal([]);
      expect(guarded(expr), expr).to.equal(false);
    }
  });

  it("the phantom-row guard wraps a whole struct literal argument: brackets nest as in every other reader", () => {
    expect(guardAggregates("max({'a': t.x, 'b': 1})", "k.id")).to.equal(
      "max(CASE WHEN k.id IS NOT NULL THEN {'a': t.x, 'b': 1} END)",
    );
    expect(guardAggregates("string_agg(t.x, ',' ORDER BY t.y)", "k.id")).to.equal(
      "string_agg(CASE WHEN k.id IS NOT NULL THEN t.x END, ',' ORDER BY t.y)",
    );
  });

  it("OVER ( marks a window function for CREATE validation and for window-metric parsing alike", () => {
    const windowed = "lag(revenue, 1) OVER (ORDER BY month)";
    expect(analyzeExpression(windowed).hasWindow).to.equal(true);
    expect(parseWindowExpression(windowed, "prev")?.innerMetric).to.equal("revenue");
    for (const plain of ["SUM(t.over)", "t.over", "SUM(t.x)"]) {
      expect(analyzeExpression(plain).hasWindow, plain).to.equal(false);
      expect(parseWindowExpression(plain, "m"), plain).to.equal(undefined);
    }
  });

  describe("COUNT_IF metric on the built-in layer (real DuckDB)", () => {
    let db: DocsRunner;
    before(async () => {
      db = await DocsRunner.open();
      await db.run(`
        CREATE TABLE tickets (id INTEGER, team VARCHAR, priority INTEGER, closed BOOLEAN);
        INSERT INTO tickets VALUES (1, 'core', 1, true), (2, 'core', 3, false), (3, 'core', 2, false),
          (4, 'web', 1, true), (5, 'web', 1, false), (6, 'ops', 3, true);
        CREATE SEMANTIC VIEW support AS
          TABLES (t AS tickets PRIMARY KEY (id))
          DIMENSIONS (t.team AS t.team)
          METRICS (t.open_urgent AS COUNT_IF(NOT t.closed AND t.priority = 1), t.closed_tickets AS count_if(t.closed))`);
    });
    after(() => db.close());

    it("is accepted at CREATE and answers like the hand-written GROUP BY", async () => {
      const semantic = await db.rows(
        "SELECT * FROM semantic_view('support', dimensions := ['team'], metrics := ['open_urgent', 'closed_tickets'])",
      );
      const handWritten = await db.rows(
        "SELECT team, COUNT_IF(NOT closed AND priority = 1), count_if(closed) FROM tickets GROUP BY team",
      );
      expect(semantic).to.deep.equal(handWritten);
      expect(semantic).to.deep.equal([
        ["core", 0n, 1n],
        ["ops", 0n, 1n],
        ["web", 1n, 1n],
      ]);
    });
  });
});
