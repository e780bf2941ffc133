/**
 * The layer behind the real backend C connection (autocommit off, DuckDB values normalized by the
 * driver): the SPEC fixture statements, introspection and transaction control end to end.
 */
import { expect } from "chai";
import { DuckDBInstance } from "@duckdb/node-api";
import { DuckDBDatabaseConnection } from "../../runtime/dialects/duckdb/duckdb-connection.js";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";

describe("built-in semantic layer on the backend C connection", () => {
  let instance: DuckDBInstance;
  let connection: DuckDBDatabaseConnection;

  beforeEach(async () => {
    instance = await DuckDBInstance.create(":memory:");
    connection = new DuckDBDatabaseConnection(await instance.connect(), {
      semanticLayer: createBuiltinSemanticLayer(),
    });
  });
  afterEach(async () => {
    await connection.close();
    instance.closeSync();
  });

  it("runs the SPEC fixture, then queries and introspects the view", async () => {
    await connection.execute("INSTALL semantic_views");
    await connection.execute("LOAD semantic_views");
    await connection.execute(
      "CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)",
    );
    await connection.execute(
      "INSERT INTO sales_data VALUES (10, 4, 'DE', 'EU'), (5, 1, 'DE', 'EU'), (7, 3, 'US', 'NA')",
    );
    const created = await connection.execute(
      "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country, sales_data.region AS region) METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))",
    );
    expect(created.columns.map((c) => c.name)).to.deep.equal(["view_name"]);
    expect(created.rows).to.deep.equal([["sales"]]);
    await connection.commit();

    const rows = await connection.execute(
      "SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']) WHERE country = $1",
      ["DE"],
    );
    expect(rows.rows.length).to.equal(1);
    expect(rows.rows[0]![0]).to.equal("DE");

    const views = await connection.execute("SHOW SEMANTIC VIEWS");
    expect(views.columns.map((c) => c.name)).to.deep.equal([
      "created_on",
      "name",
      "kind",
      "database_name",
      "schema_name",
      "comment",
    ]);
    expect(views.rows.map((r) => r.slice(1))).to.deep.equal([["sales", "SEMANTIC_VIEW", "memory", "main", ""]]);

    const columns = await connection.execute("SELECT column_name, kind FROM show_columns_in_semantic_view('sales')");
    expect(columns.rows).to.deep.equal([
      ["country", "DIMENSION"],
      ["region", "DIMENSION"],
      ["cost", "METRIC"],
      ["revenue", "METRIC"],
    ]);
    const ddl = await connection.execute("SELECT get_ddl('SEMANTIC_VIEW', 'sales')");
    expect(String(ddl.rows[0]![0])).to.match(/^CREATE OR REPLACE SEMANTIC VIEW sales AS\nTABLES \(/);
  });

  it("rollback() undoes an uncommitted CREATE", async () => {
    await connection.execute("CREATE TABLE t (a INTEGER)");
    await connection.commit();
    await connection.execute("CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a)");
    expect((await connection.execute("SELECT name FROM list_semantic_views()")).rows).to.deep.equal([["v"]]);
    await connection.rollback();
    expect((await connection.execute("SELECT name FROM list_semantic_views()")).rows).to.deep.equal([]);
  });

  it("executes a multi-statement script with semantic DDL in it", async () => {
    const result = await connection.execute(
      "CREATE TABLE t (a INTEGER, b INTEGER); INSERT INTO t VALUES (1, 2), (1, 3); CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (t.a AS a) METRICS (t.total AS SUM(b)); SELECT * FROM semantic_view('v', dimensions := ['a'], metrics := ['total'])",
    );
    expect(result.columns.map((c) => c.name)).to.deep.equal(["a", "total"]);
    expect(result.rows.length).to.equal(1);
  });

  it("surfaces semantic errors as the library's warehouse errors", async () => {
    try {
      await connection.execute("DROP SEMANTIC VIEW nope");
      expect.fail("expected an error");
    } catch (e) {
      expect((e as Error).name).to.equal("InternalError");
      expect((e as Error).message).to.include("semantic view 'nope' does not exist");
    }
    try {
      await connection.execute("CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONZ (t.a AS a)");
      expect.fail("expected an error");
    } catch (e) {
      expect((e as Error).name).to.equal("ProgrammingError");
      expect((e as Error).message).to.include("did you mean 'DIMENSIONS'?");
    }
    try {
      // No "semantic" in the text: the layer must still see it to suggest the statement.
      await connection.execute("DROP SEMANTC VIEW v");
      expect.fail("expected an error");
    } catch (e) {
      expect((e as Error).name).to.equal("ProgrammingError");
      expect((e as Error).message).to.include("Did you mean 'DROP SEMANTIC VIEW'?");
    }
  });
});
