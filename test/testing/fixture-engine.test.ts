/**
 * lib/testing's fixture engine (the SPEC's test-support engine for any fixture): in-memory backend
 * C, the fixture recreated on every new connection, registered as "default" for one test and
 * unregistered and disposed afterwards — through mocha's hooks here, through node:test's in a child
 * process (no framework is imported by the library), and around one body with withFixtureEngine().
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { Dimension, EngineNotFoundError, Metric, SemanticView, getEngine, type Engine } from "lib";
import { createFixtureEngine, useFixtureEngine, withFixtureEngine, type FixtureModule } from "lib/testing";
import { REPO_ROOT } from "../codegen/support/run-cli.js";
import { plainJs, transpileBeside } from "../support/plain-js.js";
import { writeSmallFixture } from "./support/small-fixture.js";

// The fixture module a suite imports at its top, as an application's test suite would.
const DIR = join(REPO_ROOT, "test-output", `lib-testing-${process.pid}`);
mkdirSync(DIR, { recursive: true });
writeSmallFixture(join(DIR, "fixture.ts"));
const fixture = (await import(pathToFileURL(join(DIR, "fixture.ts")).href)) as FixtureModule;

class Sales extends SemanticView("sales_v", { country: Dimension<string>(), revenue: Metric() }) {}

const salesRows = async (engine?: Engine) => {
  const query = Sales.query().dimensions(Sales.country).metrics(Sales.revenue).orderBy(Sales.country.asc());
  await using cursor = await (engine === undefined ? query : query.using(engine)).execute();
  return (await cursor.fetchAllRows()).map((r) => [r.country, String(r.revenue)]);
};

describe("lib/testing: the fixture engine", function () {
  this.timeout(60_000);
  after(() => rmSync(DIR, { recursive: true, force: true }));

  describe("useFixtureEngine() with mocha's hooks", () => {
    const warehouse = useFixtureEngine(fixture, { beforeEach, afterEach }, { semanticViews: "builtin" });

    it("registers the engine as default for the test: queries without .using() run on the fixture", async () => {
      expect(getEngine("default")).to.equal(warehouse.engine);
      expect(await salesRows()).to.deep.equal([
        ["DE", "5.50"],
        ["US", "20.00"],
      ]);
      await using conn = await warehouse.engine.connect();
      await conn.run("INSERT INTO sales VALUES ('FR', 1.00)");
      await conn.commit();
    });

    it("gives every test a fresh engine (the previous test's row is gone)", async () => {
      expect(await salesRows()).to.deep.equal([
        ["DE", "5.50"],
        ["US", "20.00"],
      ]);
    });
  });

  describe("after the hooked tests", () => {
    it("the engine was unregistered and disposed: no default engine is left", () => {
      expect(() => getEngine("default")).to.throw(EngineNotFoundError);
    });
  });

  it("withFixtureEngine() unregisters and disposes also when the body fails; createFixtureEngine() takes plain statements", async () => {
    let inside: Engine | undefined;
    const failure = await withFixtureEngine(fixture, async (engine) => {
      inside = engine;
      expect(getEngine("default")).to.equal(engine);
      throw new Error("boom");
    }).catch((e: unknown) => e);
    expect(String(failure)).to.contain("boom");
    expect(() => getEngine("default")).to.throw(EngineNotFoundError);
    expect(inside!.toString()).to.equal("Engine(backend_c)");
    await using engine = createFixtureEngine(["CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (7)"], {
      register: false,
    });
    await using conn = await engine.connect();
    expect(await conn.all("SELECT x FROM t")).to.deep.equal([{ x: 7 }]);
    expect(() => createFixtureEngine({} as FixtureModule)).to.throw(TypeError, "FIXTURE_STATEMENTS");
  });

  it("runs under node:test with its own hooks (a separate process, no mocha)", async () => {
    // Plain JavaScript (test/support/plain-js.ts), as an application's compiled test suite runs.
    const suite = "test/testing/support/node-test-suite.ts";
    const result = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--test", plainJs([suite]).path(suite)],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, FIXTURE_PATH: transpileBeside(join(DIR, "fixture.ts")) },
          timeout: 60_000,
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
      );
    });
    expect(result.code, result.out).to.equal(0);
    expect(result.out).to.match(/# pass 2/);
  });
});
