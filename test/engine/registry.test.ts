import { expect } from "chai";
import { writeFileSync } from "node:fs";
import {
  BackendAConfig,
  BackendCConfig,
  Engine,
  EngineNotFoundError,
  LibConnectionError,
  LibError,
  ValidationError,
  createAsyncEngine,
  createEngine,
  getEngine,
  register,
  unregister,
} from "lib";
import { isRegisteredForTest, plainEngine } from "../support/engines.js";
import { useTempDir } from "../support/temp-dir.js";

function tomlFile(path: string, body: string): string {
  writeFileSync(path, body);
  return path;
}

describe("engine: createEngine, registry and scopes", () => {
  const tmp = useTempDir();
  afterEach(() => {
    // No engine may leak into the next test.
    for (const name of ["default", "analytics", "other", "x"])
      expect(isRegisteredForTest(name), `"${name}" still registered`).to.equal(false);
  });

  it("createEngine(config, { register: true }) registers as default; await using unregisters then disposes", async () => {
    let engine: Engine | undefined;
    {
      await using scoped = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }, { env: {} }), {
        register: true,
      });
      engine = scoped;
      expect(scoped.backend).to.equal("backend_c");
      expect(scoped.name).to.equal("default");
      expect(getEngine("default")).to.equal(scoped);
      await using conn = await scoped.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    }
    expect(isRegisteredForTest("default")).to.equal(false);
    expect(engine.disposed).to.equal(true);
    expect(engine.name).to.equal(undefined);
    expect(engine._pool.closed).to.equal(engine._pool.opened);
  });

  it("scope exit unregisters before disposing, also when the scope throws", async () => {
    const order: string[] = [];
    let engine: Engine | undefined;
    try {
      await using scoped = createEngine(new BackendCConfig({}, { env: {} }), { register: true });
      engine = scoped;
      const dispose = scoped._pool.dispose.bind(scoped._pool);
      scoped._pool.dispose = async () => {
        order.push(`pool.dispose (default registered: ${isRegisteredForTest("default")})`);
        await dispose();
      };
      throw new Error("scope body failed");
    } catch (error) {
      expect((error as Error).message).to.equal("scope body failed");
    }
    expect(order).to.deep.equal(["pool.dispose (default registered: false)"]);
    expect(engine?.disposed).to.equal(true);
  });

  it("createEngine(name) reads the TOML section and registers under the connection name", async () => {
    const db = tmp.file("analytics.duckdb");
    const configPath = tomlFile(
      tmp.file("lib.toml"),
      `[connections.analytics]\ntype = "backend_c"\ndatabase = ${JSON.stringify(db)}\ncreate_if_missing = true\npool_size = 3\nmax_overflow = 0\n`,
    );
    const engine = createEngine("analytics", { configPath, register: true });
    expect(engine.name).to.equal("analytics");
    expect(getEngine("analytics")).to.equal(engine);
    expect(engine.settings.poolSize).to.equal(3);
    expect(engine._pool.max).to.equal(3);
    expect(engine._pool.opened).to.equal(0); // lazy
    await (await engine.connect()).release();
    await engine.dispose(); // manual teardown: unregister, then dispose
    expect(isRegisteredForTest("analytics")).to.equal(false);
    await engine.dispose();
  });

  it("createEngine validates eagerly and synchronously", () => {
    const configPath = tomlFile(tmp.file("lib.toml"), `[connections.default]\ntype = "backend_c"\npool_size = 2\n`);
    expect(() => createEngine("default", { configPath })).to.throw(ValidationError);
    expect(() => createEngine("missing", { configPath })).to.throw(ValidationError);
  });

  it("register / unregister / getEngine", async () => {
    await using a = plainEngine();
    await using b = plainEngine();
    expect(register("x", a)).to.equal(a);
    expect(a.name).to.equal("x");
    expect(() => register("x", b)).to.throw(LibError, /already registered as "x"/);
    unregister("nobody"); // no-op
    let caught: unknown;
    try {
      getEngine("nobody");
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(EngineNotFoundError);
    expect(caught).to.be.instanceOf(LibError);
    expect((caught as Error).message)
      .to.contain('"nobody"')
      .and.contain('"x"');
    unregister("x");
    expect(a.name).to.equal(undefined);
    expect(() => getEngine("x")).to.throw(EngineNotFoundError, /no engines are registered|registered:/);
  });

  it("createEngine with register: true refuses a taken name", async () => {
    await using first = createEngine(new BackendCConfig({}, { env: {} }), { register: true });
    expect(() => createEngine(new BackendCConfig({}, { env: {} }), { register: true })).to.throw(
      LibError,
      /already registered/,
    );
    expect(getEngine("default")).to.equal(first);
  });

  it("createAsyncEngine resolves after one checkout, or rejects with LibConnectionError and cleans up", async () => {
    const engine = await createAsyncEngine(new BackendCConfig({ database: tmp.file() }, { env: {} }), {
      register: true,
    });
    expect(engine._pool.opened).to.equal(1);
    expect(engine._pool.available).to.equal(1);
    await engine.dispose();

    const bad = new BackendCConfig({ database: tmp.file("no/such/dir/x.duckdb") }, { env: {} });
    let caught: unknown;
    try {
      await createAsyncEngine(bad, { register: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(LibConnectionError);
    expect((caught as Error).cause).to.be.instanceOf(Error);
    expect(isRegisteredForTest("default")).to.equal(false);
  });

  it("a backend A engine whose warehouse is unreachable fails to connect with LibConnectionError", async () => {
    // A closed loopback port: tests never reach past 127.0.0.1.
    const config = new BackendAConfig(
      { account: "acme", host: "127.0.0.1", port: 9, protocol: "http", loginTimeout: "2s", user: "u", password: "p" },
      { env: {} },
    );
    await using engine = createEngine(config);
    expect(engine.backend).to.equal("backend_a");
    const caught = await engine.connect().catch((error: unknown) => error);
    expect(caught).to.be.instanceOf(LibConnectionError);
    expect(String((caught as Error).message)).not.to.contain('"p"');
    expect(String(engine)).to.equal("Engine(backend_a)");
    expect(JSON.stringify(engine.settings)).not.to.contain('"p"');
  });
});
