/**
 * An engine whose DuckDB file did not exist (a mistyped path: DuckDB creates it empty) says so when
 * a view or table is not found; an engine on an existing file does not.
 */
import { expect } from "chai";
import { join } from "node:path";
import { BackendCConfig, Dimension, InternalError, Metric, ProgrammingError, SemanticView, createEngine } from "lib";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

class Sales extends SemanticView("sales", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

describe("backend C: a database file the engine created says so in not-found errors", () => {
  const tmp = useTempDir();

  it("names the path in 'semantic view not found' and 'table does not exist' when the file was created empty", async () => {
    const path = join(tmp.path, "tpyo.duckdb");
    await using engine = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
    const view = await failureOf(Sales.query().metrics(Sales.revenue).using(engine).execute());
    expect(view).to.be.instanceOf(InternalError);
    expect(view.message)
      .to.contain("not found")
      .and.contain(`the database file ${path} did not exist and was created empty: check the path`);
    await using conn = await engine.connect();
    const table = await failureOf(conn.all("SELECT * FROM sales_data"));
    expect(table).to.be.instanceOf(ProgrammingError);
    expect(table.message).to.contain(`${path} did not exist and was created empty`);
  });

  it("says nothing of the kind for a file that existed", async () => {
    const path = join(tmp.path, "existing.duckdb");
    {
      await using creator = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
      await using conn = await creator.connect();
      await conn.run("CREATE TABLE t (x INTEGER)");
      await conn.commit();
    }
    await using engine = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
    const view = await failureOf(Sales.query().metrics(Sales.revenue).using(engine).execute());
    expect(view).to.be.instanceOf(InternalError);
    expect(view.message).to.contain("not found").and.not.contain("was created empty");
  });
});
