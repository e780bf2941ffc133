/** API.md acceptance: engines, pools and the registry. */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  and,
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  createAsyncEngine,
  createEngine,
  getEngine,
  LibConnectionError,
  not,
  or,
  PoolTimeoutError,
  register,
  unregister,
  ValidationError,
  WarehouseError,
} from "lib";
import type { Engine } from "lib";
import { failureOf, thrownBy } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";
import { sleep, Sales } from "./support/api.js";

describe("API.md contract (acceptance, backend C): Engines, pools and the registry", function () {
  this.timeout(60_000);

  afterEach(() => {
    // No engine may leak into the next test under "default".
    expect(() => getEngine("default")).to.throw();
  });

  describe("Engines, pools and the registry", () => {
    const tmp = useTempDir();

    it('`await using engine = createEngine(new BackendCConfig(...), { register: true })`: "default"; scope exit unregisters, then disposes', async () => {
      let seen: Engine | undefined;
      {
        await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
          register: true,
        });
        seen = engine;
        expect(getEngine("default")).to.equal(engine);
        await using conn = await engine.connect();
        expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      }
      expect(() => getEngine("default")).to.throw();
      expect(seen.disposed).to.equal(true);
      expect(await failureOf(seen.connect())).to.be.instanceOf(LibConnectionError);
    });

    it('createEngine("analytics", { configPath, register: true }); e2.dispose() unregisters, then disposes', async () => {
      const configPath = join(tmp.path, ".lib.toml");
      const database = join(tmp.path, "analytics.duckdb");
      await writeFile(
        configPath,
        // A path from a configuration file must exist unless create_if_missing asks to create it.
        `[connections.analytics]\ntype = "backend_c"\ndatabase = ${JSON.stringify(database)}\npool_size = 2\ncreate_if_missing = true\n`,
      );
      const e2 = createEngine("analytics", { configPath, register: true }); // registered as "analytics"
      expect(getEngine("analytics")).to.equal(e2);
      expect(e2._pool.opened).to.equal(0); // connections open lazily
      {
        await using conn = await e2.connect();
        await conn.run("CREATE TABLE t (a INTEGER)");
        await conn.commit();
      }
      await e2.dispose(); // manual teardown: unregister(name) first, then dispose
      expect(() => getEngine("analytics")).to.throw();
      expect(e2.disposed).to.equal(true);
      expect(existsSync(database)).to.equal(true);
      // Unregistering explicitly first (the manual order) is fine too.
      const again = createEngine("analytics", { configPath, register: true });
      unregister("analytics");
      await again.dispose();
    });

    it('createAsyncEngine("default") reads .lib.toml from the cwd (or configPath) and resolves after one checkout', async () => {
      await writeFile(
        join(tmp.path, ".lib.toml"),
        '[connections.default]\ntype = "backend_c"\ndatabase = ":memory:"\n',
      );
      const cwd = process.cwd();
      process.chdir(tmp.path);
      let e3: Engine;
      try {
        e3 = await createAsyncEngine("default"); // resolves once one connection has been checked out and returned
      } finally {
        process.chdir(cwd);
      }
      try {
        expect(e3._pool.opened).to.equal(1);
        expect(e3._pool.borrowed).to.equal(0);
        expect(e3._pool.available).to.equal(1);
        expect(() => getEngine("default")).to.throw(); // register defaults to false
      } finally {
        await e3.dispose();
      }
      const e4 = await createAsyncEngine("default", { configPath: join(tmp.path, ".lib.toml"), register: true });
      try {
        expect(getEngine("default")).to.equal(e4);
      } finally {
        await e4.dispose();
      }
      await writeFile(
        join(tmp.path, "bad.toml"),
        `[connections.default]\ntype = "backend_c"\ndatabase = ${JSON.stringify(join(tmp.path, "missing-dir", "x.duckdb"))}\n`,
      );
      const failure = await failureOf(
        createAsyncEngine("default", { configPath: join(tmp.path, "bad.toml"), register: true }),
      );
      expect(failure).to.be.instanceOf(LibConnectionError);
      expect(() => getEngine("default")).to.throw();
    });

    it('createEngine is synchronous and validates eagerly (ValidationError); defaults: "default" and .lib.toml', async () => {
      const configPath = join(tmp.path, "conf.toml");
      await writeFile(
        configPath,
        '[connections.default]\ntype = "backend_c"\n\n[connections.mem]\ntype = "backend_c"\ndatabase = ":memory:"\npool_size = 2\n',
      );
      const error = thrownBy(() => createEngine("mem", { configPath })) as ValidationError;
      expect(error).to.be.instanceOf(ValidationError);
      expect(error.message).to.contain(configPath).and.to.contain("connections.mem").and.to.contain("pool_size");
      expect(thrownBy(() => new BackendCConfig({ database: ":memory:", poolSize: 2 }))).to.be.instanceOf(
        ValidationError,
      );
      const engine = createEngine(undefined, { configPath });
      expect(engine).not.to.be.instanceOf(Promise);
      expect(engine._pool.opened).to.equal(0);
      await engine.dispose();
      const cwd = process.cwd();
      process.chdir(tmp.path);
      try {
        await writeFile(join(tmp.path, ".lib.toml"), '[connections.default]\ntype = "backend_c"\n');
        const byDefault = createEngine();
        expect(byDefault.settings.type).to.equal("backend_c");
        await byDefault.dispose();
      } finally {
        process.chdir(cwd);
      }
    });

    it("register(name, engine), unregister(name), getEngine(name)", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      expect(() => getEngine("reporting")).to.throw(/reporting/);
      register("reporting", engine);
      expect(getEngine("reporting")).to.equal(engine);
      unregister("reporting");
      expect(() => getEngine("reporting")).to.throw();
      expect(engine.disposed).to.equal(false); // unregistering does not dispose
    });

    it("engine.connect(): run/all with params, commit, rollback, release; back to the pool at scope exit", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      {
        await using conn = await engine.connect();
        expect(engine._pool.borrowed).to.equal(1);
        await conn.run("CREATE TABLE t (a INTEGER, b VARCHAR)");
        await conn.run("INSERT INTO t VALUES (?, ?), (?, ?)", [1, "x", 2, "y"]);
        await conn.commit();
        await conn.run("INSERT INTO t VALUES (?, ?)", [3, "z"]);
        expect(await conn.all("SELECT count(*)::INTEGER AS n FROM t")).to.deep.equal([{ n: 3 }]);
        await conn.rollback();
        expect(await conn.all("SELECT a, b FROM t WHERE a > ? ORDER BY a", [0])).to.deep.equal([
          { a: 1, b: "x" },
          { a: 2, b: "y" },
        ]);
        await conn.run("INSERT INTO t VALUES (4, 'w')"); // not committed: rolled back when returned
      }
      expect(engine._pool.borrowed).to.equal(0);
      const conn = await engine.connect();
      expect(await conn.all("SELECT max(a) AS m FROM t")).to.deep.equal([{ m: 2 }]);
      await conn.release();
      expect(engine._pool.borrowed).to.equal(0);
      await conn.release(); // harmless
    });

    it('engine._pool.on("connect", async (conn) => ...) runs, awaited, on every new connection before it is handed out', async () => {
      const database = join(tmp.path, "listener.duckdb");
      await using engine = createEngine(new BackendCConfig({ database, poolSize: 2, maxOverflow: 0 }));
      const events: string[] = [];
      engine._pool.on("connect", async (conn) => {
        events.push("start");
        await sleep(5);
        await conn.run("CREATE TEMP TABLE IF NOT EXISTS hello AS SELECT ?::VARCHAR AS greeting", ["hi"]);
        expect(await conn.all("SELECT greeting FROM hello")).to.deep.equal([{ greeting: "hi" }]);
        events.push("done");
      });
      const a = await engine.connect();
      expect(events).to.deep.equal(["start", "done"]);
      expect(await a.all("SELECT greeting FROM hello")).to.deep.equal([{ greeting: "hi" }]);
      const b = await engine.connect(); // a second physical connection: the listener runs again
      expect(events).to.deep.equal(["start", "done", "start", "done"]);
      expect(await b.all("SELECT greeting FROM hello")).to.deep.equal([{ greeting: "hi" }]);
      await a.release();
      await b.release();
      await using c = await engine.connect(); // reused: no new connection
      expect(events).to.have.length(4);
      void c;
    });

    it("pool_size kept, max_overflow more under load (closed when returned), timeout → PoolTimeoutError (generic-pool's)", async () => {
      const database = join(tmp.path, "pool.duckdb");
      await using engine = createEngine(new BackendCConfig({ database, poolSize: 1, maxOverflow: 1, timeout: 1 }));
      const a = await engine.connect();
      const b = await engine.connect(); // overflow
      expect(engine._pool.size).to.equal(2);
      const error = await failureOf(engine.connect());
      expect(error).to.be.instanceOf(PoolTimeoutError);
      const genericPoolErrors = createRequire(import.meta.url)("generic-pool/lib/errors") as { TimeoutError: unknown };
      expect(PoolTimeoutError).to.equal(genericPoolErrors.TimeoutError);
      expect((error as Error).name).to.equal("TimeoutError");
      expect(error).not.to.be.instanceOf(LibConnectionError);
      // The same class when a query's execute() waits too long for a connection.
      const query = Sales.query().metrics(Sales.revenue).using(engine);
      expect(await failureOf(query.execute())).to.be.instanceOf(PoolTimeoutError);
      await a.release();
      await b.release(); // overflow connection: closed on return
      expect(engine._pool.size).to.equal(1);
      expect(engine._pool.available).to.equal(1);
      expect(engine._pool.closed).to.equal(1);
    });

    it("recycle: connections older than recycle s are replaced at checkout", async () => {
      const database = join(tmp.path, "recycle.duckdb");
      await using engine = createEngine(new BackendCConfig({ database, poolSize: 1, recycle: 0 }));
      {
        await using _conn = await engine.connect();
      }
      expect(engine._pool.opened).to.equal(1);
      await sleep(10);
      await using conn = await engine.connect();
      expect(engine._pool.opened).to.equal(2);
      expect(engine._pool.closed).to.equal(1);
      expect(await conn.all("SELECT 1 AS ok")).to.deep.equal([{ ok: 1 }]);
    });

    it("pre_ping: a dead connection is replaced before it is handed out", async () => {
      const database = join(tmp.path, "ping.duckdb");
      /** Kills the idle physical connection behind a released pooled connection (test-only internals). */
      const killAfterRelease = async (engine: Engine) => {
        const conn = await engine.connect();
        const physical = (conn as unknown as { _connection: { close(): Promise<void> } })._connection;
        await conn.release();
        await physical.close();
      };
      {
        await using engine = createEngine(new BackendCConfig({ database, poolSize: 1, prePing: true }));
        await killAfterRelease(engine);
        await using conn = await engine.connect();
        expect(await conn.all("SELECT 1 AS ok")).to.deep.equal([{ ok: 1 }]);
        expect(engine._pool.opened).to.equal(2);
      }
      {
        // Without pre_ping the dead connection is handed out and fails.
        await using engine = createEngine(new BackendCConfig({ database, poolSize: 1, prePing: false }));
        await killAfterRelease(engine);
        await using conn = await engine.connect();
        expect(await failureOf(conn.all("SELECT 1 AS ok"))).to.be.instanceOf(WarehouseError);
        expect(engine._pool.opened).to.equal(1);
      }
    });

    it("config objects take the TOML fields in camelCase (poolSize, maxOverflow, readOnly, httpPath, ...)", async () => {
      const c = new BackendCConfig({
        database: join(tmp.path, "c.duckdb"),
        poolSize: 3,
        maxOverflow: 2,
        timeout: 7,
        recycle: 60,
        prePing: true,
        readOnly: false,
        semanticViews: "builtin",
      });
      expect(c.settings).to.deep.include({
        type: "backend_c",
        poolSize: 3,
        maxOverflow: 2,
        timeout: 7,
        recycle: 60,
        prePing: true,
        readOnly: false,
        semanticViews: "builtin",
      });
      const b = new BackendBConfig(
        {
          host: "dbc-1.cloud.example.com",
          httpPath: "/sql/1.0/warehouses/abc",
          token: "dapi-secret-token",
          catalog: "main",
          poolSize: 2,
        },
        { env: {} },
      );
      expect(b.settings).to.deep.include({
        type: "backend_b",
        host: "dbc-1.cloud.example.com",
        httpPath: "/sql/1.0/warehouses/abc",
        poolSize: 2,
      });
      expect(String(b)).not.to.contain("dapi-secret-token");
      const a = new BackendAConfig(
        { account: "acme-xy12345", user: "svc", password: "pw-secret-1", warehouse: "WH", role: "R", maxOverflow: 0 },
        { env: {} },
      );
      expect(a.settings).to.deep.include({
        type: "backend_a",
        account: "acme-xy12345",
        user: "svc",
        warehouse: "WH",
        maxOverflow: 0,
      });
      expect(String(a)).not.to.contain("pw-secret-1");
      expect(JSON.stringify(a)).not.to.contain("pw-secret-1");
      // read_only = true really opens the file read-only.
      {
        await using writer = createEngine(new BackendCConfig({ database: join(tmp.path, "ro.duckdb"), poolSize: 1 }));
        await using conn = await writer.connect();
        await conn.run("CREATE TABLE t AS SELECT 1 AS a");
        await conn.commit();
      }
      await using reader = createEngine(
        new BackendCConfig({ database: join(tmp.path, "ro.duckdb"), readOnly: true, poolSize: 1 }),
      );
      await using conn = await reader.connect();
      expect(await conn.all("SELECT a FROM t")).to.deep.equal([{ a: 1 }]);
      expect(await failureOf(conn.run("INSERT INTO t VALUES (2)"))).to.be.instanceOf(WarehouseError);
    });
  });
});
