/**
 * Issue 22 item 1: a raw `where_clause` that hid a `;` from the guard (a character the guard read as
 * whitespace and DuckDB as part of an identifier) made DuckDB run and commit a second statement,
 * through `explain_semantic_view` and through the type probe (`BEGIN; <probe>` in one call). Both
 * walls are checked: the lexer now sees the `;`, and SQL built from a statement's text never reaches
 * DuckDB's multi-statement call even when a (stand-in) layer hands over two statements.
 */
import { expect } from "chai";
import { ProgrammingError, type Engine, type PooledConnection } from "lib";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import { splitSqlStatements } from "../../runtime/dialects/duckdb/duckdb-statements.js";
import type { SemanticLayer } from "../../runtime/semantic/semantic-layer.js";
import { cSettings } from "../support/engines.js";
import { failureOf } from "../support/failures.js";
import { withSalesEngine } from "../support/sales-engine.js";

/** U+2028: whitespace to the old guard, an identifier character to DuckDB. */
const LS = "\u2028";
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function tablesNamed(conn: PooledConnection, like: string): Promise<string[]> {
  const rows = await conn.all("SELECT table_name FROM duckdb_tables() WHERE table_name LIKE ? ORDER BY 1", [like]);
  return rows.map((r) => r["table_name"] as string);
}

describe("reliability: one statement per semantic_view() call", () => {
  describe("the issue's payloads (the built-in layer over the sales fixture)", () => {
    // The guard read `<LS>$h$ ... <LS>$h$` as whitespace and a dollar-quoted string; DuckDB reads two
    // identifiers and, between them, a COMMIT and a CREATE shaped to close the SQL around the predicate.
    const PAYLOADS: readonly [string, string][] = [
      [
        "explain_semantic_view (its EXPLAIN ran as `BEGIN; EXPLAIN ...`)",
        `explain_semantic_view('sales', dimensions := ['country'], metrics := ['revenue'], where_clause := ${quoted(
          `(SELECT true ${LS}$h$)) GROUP BY 1; COMMIT; CREATE TABLE pwned_explain AS SELECT 42 AS x; SELECT ((SELECT true ${LS}$h$)`,
        )})`,
      ],
      [
        "semantic_view (its type probe ran as `BEGIN; SELECT * FROM (...) LIMIT 0`)",
        `semantic_view('sales', dimensions := ['country'], metrics := ['revenue'], where_clause := ${quoted(
          `(SELECT true ${LS}$h$)) GROUP BY 1) AS q; COMMIT; CREATE TABLE pwned_probe AS SELECT 42 AS x; SELECT * FROM (SELECT ((SELECT true ${LS}$h$)`,
        )})`,
      ],
    ];
    for (const [name, call] of PAYLOADS) {
      it(`${name}: refused, nothing created or committed`, async () => {
        await withSalesEngine(async (engine) => {
          await using conn = await engine.connect();
          const error = await failureOf(conn.all(`SELECT * FROM ${call}`));
          expect(error).to.be.instanceOf(ProgrammingError);
          expect(error.message).to.match(/where_clause has an unbalanced '\)'/);
          await conn.rollback();
          expect(await tablesNamed(conn, "pwned%")).to.deep.equal([]);
        });
      });
    }

    it("PIVOT over semantic_view() (DuckDB expands it into two statements itself) still runs", async () => {
      await withSalesEngine(async (engine) => {
        await using conn = await engine.connect();
        const rows = await conn.all(
          "PIVOT (SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'])) ON country USING sum(revenue)",
        );
        expect(rows).to.have.length(1);
        expect(Object.keys(rows[0]!).length).to.be.greaterThan(1);
      });
    });
  });

  describe("the driver's wall: a layer that hands over two statements", () => {
    const SECOND = "CREATE TABLE pwned AS SELECT 42 AS x";
    /** Rewrites `two` into two statements, and runs two statements through its session for `probe`. */
    const twoStatementLayer: SemanticLayer = {
      splitStatements: splitSqlStatements,
      mayHandle: (sql) => /\b(two|probe)\b/i.test(sql),
      async handle(session, statement) {
        if (/\bprobe\b/i.test(statement)) {
          await session.query(`SELECT 1 AS probe; ${SECOND}`);
          return { kind: "passthrough" };
        }
        return { kind: "rewritten", sql: `SELECT 1 AS two; ${SECOND}` };
      },
    };
    let engine: Engine;
    beforeEach(() => {
      engine = engineFromSettings(cSettings({ semanticViews: "builtin" }), {
        driverOptions: { semanticLayer: twoStatementLayer },
      });
    });
    afterEach(() => engine.dispose());

    const cases: readonly [string, (conn: PooledConnection) => Promise<unknown>][] = [
      ["a rewritten statement, outside a transaction", (conn) => conn.all("SELECT 'two'")],
      [
        "a rewritten statement, inside a transaction",
        async (conn) => {
          await conn.run("CREATE TABLE opened (x INTEGER)");
          return conn.all("SELECT 'two'");
        },
      ],
      ["a rewritten statement, streamed", (conn) => conn.stream("SELECT 'two'")],
      ["the layer's own SQL, outside a transaction", (conn) => conn.all("SELECT 'probe'")],
      [
        "the layer's own SQL, inside a transaction",
        async (conn) => {
          await conn.run("CREATE TABLE opened (x INTEGER)");
          return conn.all("SELECT 'probe'");
        },
      ],
    ];
    for (const [name, run] of cases) {
      it(`${name}: refused, the second statement never runs`, async () => {
        await using conn = await engine.connect();
        const error = await failureOf(run(conn));
        expect(error).to.be.instanceOf(ProgrammingError);
        expect(error.message).to.match(/more than one statement/);
        await conn.commit();
        expect(await tablesNamed(conn, "pwned")).to.deep.equal([]);
      });
    }
  });
});
