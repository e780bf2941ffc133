/**
 * Backend C never creates a missing database file unless asked (`create_if_missing`): a mistyped
 * path fails the first checkout naming the path and the field, and nothing is written. An engine
 * that was asked, and found no file, says so when a view or table is not found.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  BackendCConfig,
  Dimension,
  InternalError,
  LibConnectionError,
  Metric,
  ProgrammingError,
  SemanticView,
  ValidationError,
  createEngine,
} from "lib";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

class Sales extends SemanticView("sales", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

describe("backend C: a missing database file is created only with create_if_missing", () => {
  const tmp = useTempDir();

  const tomlEngine = async (database: string, extra = "") => {
    const config = join(tmp.path, ".lib.toml");
    await writeFile(
      config,
      `[connections.default]\ntype = "backend_c"\ndatabase = ${JSON.stringify(database)}\n${extra}`,
    );
    return createEngine("default", { configPath: config });
  };

  it("a path from a TOML section fails the checkout with LibConnectionError naming the path and the field; nothing is created", async () => {
    const path = join(tmp.path, "tpyo.duckdb");
    await using engine = await tomlEngine(path);
    expect(engine.settings.type === "backend_c" && engine.settings.createIfMissing).to.equal(false);
    const error = await failureOf(engine.connect());
    expect(error).to.be.instanceOf(LibConnectionError);
    expect(error.message)
      .to.contain(`the database file ${path} does not exist`)
      .and.contain("create_if_missing = true")
      .and.contain("createIfMissing: true");
    const query = await failureOf(Sales.query().metrics(Sales.revenue).using(engine).execute());
    expect(query).to.be.instanceOf(LibConnectionError);
    expect(existsSync(path)).to.equal(false);

    await using asked = await tomlEngine(path, "create_if_missing = true\n");
    await using conn = await asked.connect();
    await conn.all("SELECT 1");
    expect(existsSync(path)).to.equal(true);
  });

  it("a path from BACKEND_C_DATABASE is refused too; a config object naming its database in code creates it unless createIfMissing: false", async () => {
    const path = join(tmp.path, "env.duckdb");
    const fromEnv = new BackendCConfig({}, { env: { BACKEND_C_DATABASE: path } });
    expect(fromEnv.settings.createIfMissing).to.equal(false);
    await using envEngine = createEngine(fromEnv);
    expect((await failureOf(envEngine.connect())).message).to.contain(`${path} does not exist`);
    expect(existsSync(path)).to.equal(false);

    const refusing = new BackendCConfig({ database: path, createIfMissing: false }, { env: {} });
    await using refused = createEngine(refusing);
    expect((await failureOf(refused.connect())).message).to.contain(`${path} does not exist`);

    const inCode = new BackendCConfig({ database: path }, { env: {} });
    expect(inCode.settings.createIfMissing).to.equal(true);
    await using engine = createEngine(inCode);
    await using conn = await engine.connect();
    await conn.all("SELECT 1");
    expect(existsSync(path)).to.equal(true);
  });

  it("a read-only open of a missing file says it needs an existing file; create_if_missing with read_only is refused", async () => {
    const path = join(tmp.path, "absent.duckdb");
    const readOnly = new BackendCConfig({ database: path, readOnly: true }, { env: {} });
    expect(readOnly.settings.createIfMissing).to.equal(false);
    await using engine = createEngine(readOnly);
    const error = await failureOf(engine.connect());
    expect(error.message).to.contain(`${path} does not exist; a read-only open needs an existing file`);
    expect(error.message).not.to.contain("create_if_missing");

    const refused = await failureOf(
      () => new BackendCConfig({ database: path, readOnly: true, createIfMissing: true }, { env: {} }),
    );
    expect(refused).to.be.instanceOf(ValidationError);
    expect((refused as ValidationError).field).to.equal("createIfMissing");
    expect(refused.message).to.contain("read-only open never creates the database file");
  });

  it("in-memory databases are unaffected", async () => {
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }, { env: {} }));
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
  });

  it("with createIfMissing, names the path in 'semantic view not found' and 'table does not exist' when the file was created empty", async () => {
    const path = join(tmp.path, "tpyo.duckdb");
    await using engine = createEngine(new BackendCConfig({ database: path, poolSize: 1, createIfMissing: true }));
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
      await using creator = createEngine(new BackendCConfig({ database: path, poolSize: 1, createIfMissing: true }));
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
