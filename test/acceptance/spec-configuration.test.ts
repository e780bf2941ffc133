/** SPEC.md acceptance, Resources: the configuration file, environment variables, which section is read, the fields of every backend, defaults, limits, authentication and config objects. */
import { expect } from "chai";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  LibConnectionError,
  PoolTimeoutError,
  SemanticView,
  ValidationError,
  WarehouseError,
  createAsyncEngine,
  createEngine,
  getEngine,
} from "lib";
import { runLib } from "../codegen/support/run-cli.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";
import { SALES_ROWS } from "../support/sales-fixture.js";
import { seedSales } from "../support/sales-engine.js";
import { inDirectory, pause, seededFile, revenueQuery, ENV_KEYS } from "./support/spec.js";
import { useIsolatedEnv, withEnv } from "../support/environment.js";

describe("SPEC.md acceptance: Resources: configuration", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  useIsolatedEnv(ENV_KEYS);

  describe("Resources: Configuration file", () => {
    it("Format: TOML; each named connection is a table [connections.<name>]; create_engine(<name>) selects a connection by name", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, "conf.toml");
      await writeFile(
        path,
        '[connections.default]\ntype = "backend_c"\n\n[connections.analytics]\ntype = "backend_c"\ndatabase = "a.duckdb"\n',
      );
      await using engine = createEngine("analytics", { configPath: path });
      expect(engine.backend).to.equal("backend_c");
      expect(engine.settings.database).to.equal("a.duckdb");
    });

    it("Default location: .lib.toml in the current working directory; the default name is `default`", async () => {
      await using dir = await tempDir();
      await writeFile(
        join(dir.path, ".lib.toml"),
        '[connections.default]\ntype = "backend_c"\ndatabase = "from-cwd.duckdb"\n',
      );
      await inDirectory(dir.path, async () => {
        await using engine = createEngine();
        expect(engine.settings.database).to.equal("from-cwd.duckdb");
      });
    });

    it("A different path is given with the config_path argument of create_engine()", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, "elsewhere.toml");
      await writeFile(path, '[connections.default]\ntype = "backend_c"\ndatabase = "elsewhere.duckdb"\n');
      await using engine = createEngine("default", { configPath: path });
      expect(engine.settings.database).to.equal("elsewhere.duckdb");
    });

    it("The `type` field is required and decides which backend fields are available", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(path, '[connections.default]\ndatabase = "x.duckdb"\n');
      expect(await failureOf(() => createEngine("default", { configPath: path }))).to.be.instanceOf(ValidationError);
      // `account` is a backend A field: not available on backend C.
      await writeFile(path, '[connections.default]\ntype = "backend_c"\naccount = "acme"\n');
      const error = await failureOf(() => createEngine("default", { configPath: path }));
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as ValidationError).field).to.equal("account");
      await writeFile(path, '[connections.default]\ntype = "backend_a"\naccount = "acme"\n');
      await using engine = createEngine("default", { configPath: path });
      expect(engine.backend).to.equal("backend_a");
    });
  });

  describe("Resources: Environment variables", () => {
    async function configFile(dir: string, body: string): Promise<string> {
      const path = join(dir, ".lib.toml");
      await writeFile(path, body);
      return path;
    }

    it("1. A field left out is read from <PREFIX><FIELD>: BACKEND_A_PASSWORD, BACKEND_B_TOKEN (and BACKEND_C_*)", async () => {
      await using dir = await tempDir();
      const path = await configFile(
        dir.path,
        '[connections.a]\ntype = "backend_a"\naccount = "acme"\nuser = "u"\n\n[connections.b]\ntype = "backend_b"\nhost = "h.example"\nhttp_path = "/sql/1.0/warehouses/x"\n\n[connections.c]\ntype = "backend_c"\n',
      );
      await withEnv(
        {
          BACKEND_A_PASSWORD: "env-pass",
          BACKEND_B_TOKEN: "env-token",
          BACKEND_C_DATABASE: "env.duckdb",
          BACKEND_C_POOL_SIZE: "4",
        },
        async () => {
          await using a = createEngine("a", { configPath: path });
          await using b = createEngine("b", { configPath: path });
          await using c = createEngine("c", { configPath: path });
          expect(a.settings.type === "backend_a" && a.settings.password?.reveal()).to.equal("env-pass");
          expect(b.settings.type === "backend_b" && b.settings.token?.reveal()).to.equal("env-token");
          expect(c.settings.database).to.equal("env.duckdb");
          expect(c.settings.poolSize, "BACKEND_C_POOL_SIZE: the field name in upper case").to.equal(4);
        },
      );
    });

    it("2. A value present in the section wins over the environment", async () => {
      await using dir = await tempDir();
      const path = await configFile(
        dir.path,
        '[connections.default]\ntype = "backend_a"\naccount = "acme"\npassword = "file-pass"\n',
      );
      await withEnv({ BACKEND_A_PASSWORD: "env-pass" }, async () => {
        await using engine = createEngine("default", { configPath: path });
        expect(engine.settings.password?.reveal()).to.equal("file-pass");
      });
    });

    it("3. Exception: `schema` on backends A and B is read from an unprefixed SCHEMA variable", async () => {
      await using dir = await tempDir();
      const path = await configFile(
        dir.path,
        '[connections.a]\ntype = "backend_a"\naccount = "acme"\n\n[connections.b]\ntype = "backend_b"\nhost = "h"\nhttp_path = "/p"\ntoken = "t"\n\n[connections.a_file]\ntype = "backend_a"\naccount = "acme"\nschema = "FROM_FILE"\n',
      );
      await withEnv({ SCHEMA: "ANALYTICS", BACKEND_A_SCHEMA: "PREFIXED" }, async () => {
        await using a = createEngine("a", { configPath: path });
        await using b = createEngine("b", { configPath: path });
        await using file = createEngine("a_file", { configPath: path });
        expect(a.settings.schema).to.equal("ANALYTICS");
        expect(b.settings.schema).to.equal("ANALYTICS");
        expect(file.settings.schema, "Set `schema` in the file instead").to.equal("FROM_FILE");
      });
    });

    it("4. `lib codegen` also reads a .env file", async () => {
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      await writeFile(join(dir.path, ".env"), `BACKEND_C_DATABASE=${database}\n`);
      // The CLI's own entry, as the executable calls it (which also loads .env into its process
      // environment first: test/codegen/settings.test.ts), with no BACKEND_C_DATABASE set.
      const result = await runLib(["codegen", "--backend", "backend_c"], { cwd: dir.path });
      expect(result.code, result.stderr).to.equal(0);
      expect(await readFile(join(dir.path, "generated", "sales.ts"), "utf8")).to.contain('SemanticView("sales"');
    });
  });

  describe("Resources: Which section is read", () => {
    const ONLY_DEFAULT = '[connections.default]\ntype = "backend_a"\naccount = "acme-xy12345"\nuser = "app"\n';

    it("create_engine() / create_async_engine(): the name passed; default [connections.default]", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(
        path,
        '[connections.default]\ntype = "backend_c"\n\n[connections.other]\ntype = "backend_c"\ndatabase = ":memory:"\npool_size = 1\n',
      );
      await using byDefault = createEngine(undefined, { configPath: path, register: true });
      expect(byDefault.name).to.equal("default");
      await using other = await createAsyncEngine("other", { configPath: path, register: true });
      expect(other.name).to.equal("other");
    });

    it("A file with only [connections.default] serves the application for backends A and B, but `lib codegen` then exits with status 2", async () => {
      await using dir = await tempDir();
      await writeFile(join(dir.path, ".lib.toml"), ONLY_DEFAULT);
      await inDirectory(dir.path, async () => {
        await using engine = createEngine();
        expect(engine.backend).to.equal("backend_a");
      });
      for (const backend of ["backend_a", "backend_b"]) {
        const result = await runLib(["codegen", "--backend", backend], { cwd: dir.path });
        expect(result.code, `${backend}: ${result.stderr}`).to.equal(2);
        expect(result.stderr).to.contain(`[connections.${backend}]`);
      }
    });

    it("lib codegen --backend backend_a or backend_b reads [connections.<name>] whose name matches the backend (no exit 2 once it exists)", async () => {
      await using dir = await tempDir();
      await writeFile(
        join(dir.path, ".lib.toml"),
        `${ONLY_DEFAULT}\n[connections.backend_a]\ntype = "backend_a"\naccount = "acme-xy12345"\nuser = "codegen"\nhost = "127.0.0.1"\nport = 9\nprotocol = "http"\nlogin_timeout = "2s"\n`,
      );
      await writeFile(
        join(dir.path, ".lib.toml"),
        `\n[connections.backend_b]\ntype = "backend_b"\nhost = "127.0.0.1"\nport = 9\nhttp_path = "/sql/1.0/warehouses/x"\ntoken = "dapi-0123456789abcdef"\n`,
        { flag: "a" },
      );
      for (const backend of ["backend_a", "backend_b"]) {
        const result = await runLib(["codegen", "--backend", backend], { cwd: dir.path });
        expect(result.code, result.stderr).not.to.equal(2);
        expect(result.code, result.stderr).not.to.equal(0); // nothing listens there
        expect(result.stderr)
          .to.contain(`[connections.${backend}]`)
          .and.not.contain(`has no [connections.${backend}] section`);
      }
    });

    it("lib codegen --backend backend_c: no section; the database path comes from --database or BACKEND_C_DATABASE", async function () {
      this.timeout(180_000); // three runs of the CLI: on a loaded 2-core machine each takes up to ~30 s
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      // A [connections.backend_c] section pointing elsewhere is not read.
      await writeFile(
        join(dir.path, ".lib.toml"),
        '[connections.backend_c]\ntype = "backend_c"\ndatabase = "missing.duckdb"\n',
      );
      const byFlag = await runLib(["codegen", "--backend", "backend_c", "--database", database, "--out", "by-flag"], {
        cwd: dir.path,
      });
      expect(byFlag.code, byFlag.stderr).to.equal(0);
      const byEnv = await runLib(["codegen", "--backend", "backend_c", "--out", "by-env"], {
        cwd: dir.path,
        env: { BACKEND_C_DATABASE: database },
      });
      expect(byEnv.code, byEnv.stderr).to.equal(0);
      expect(await readFile(join(dir.path, "by-env", "sales.ts"), "utf8")).to.equal(
        await readFile(join(dir.path, "by-flag", "sales.ts"), "utf8"),
      );
      const neither = await runLib(["codegen", "--backend", "backend_c"], { cwd: dir.path });
      expect(neither.code).to.equal(2);
    });
  });

  describe("Resources: Fields accepted by all connection types (defaults) and Limits", () => {
    it("pool_size 5, max_overflow 3, timeout 30 s, recycle 3600 s, pre_ping false; user/password/database/schema/host/port/protocol none", async () => {
      await using engine = createEngine(new BackendAConfig({ account: "acme" }));
      const s = engine.settings;
      expect([s.poolSize, s.maxOverflow, s.timeout, s.recycle, s.prePing]).to.deep.equal([5, 3, 30, 3600, false]);
      expect([s.user, s.password, s.database, s.schema, s.host, s.port, s.protocol]).to.deep.equal(
        Array(7).fill(undefined),
      );
    });

    it("every common field is accepted from the TOML section (user, password, database, schema, host, port, protocol, pool knobs)", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(
        path,
        '[connections.default]\ntype = "backend_a"\naccount = "acme"\npool_size = 2\nmax_overflow = 0\ntimeout = 5\nrecycle = 60\npre_ping = true\nuser = "u"\npassword = "p"\ndatabase = "DB"\nschema = "S"\nhost = "h.example"\nport = 8443\nprotocol = "https"\n',
      );
      await using engine = createEngine("default", { configPath: path });
      const s = engine.settings;
      expect([s.poolSize, s.maxOverflow, s.timeout, s.recycle, s.prePing]).to.deep.equal([2, 0, 5, 60, true]);
      expect([s.user, s.password?.reveal(), s.database, s.schema, s.host, s.port, s.protocol]).to.deep.equal([
        "u",
        "p",
        "DB",
        "S",
        "h.example",
        8443,
        "https",
      ]);
    });

    it("protocol is `http` or `https`", () => {
      expect(() => new BackendAConfig({ account: "acme", protocol: "ftp" as "http" })).to.throw(ValidationError);
    });

    it("For backend C, a file-backed database defaults pool_size to 5; database = :memory: defaults it to 1", async () => {
      await using file = createEngine(new BackendCConfig({ database: "x.duckdb" }));
      await using memory = createEngine(new BackendCConfig({ database: ":memory:" }));
      expect(file.settings.poolSize).to.equal(5);
      expect(memory.settings.poolSize).to.equal(1);
    });

    it("Rule: pool_size greater than 1 with database = :memory: raises ValidationError (file section and config object)", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(path, '[connections.default]\ntype = "backend_c"\ndatabase = ":memory:"\npool_size = 2\n');
      const fromFile = await failureOf(() => createEngine("default", { configPath: path }));
      expect(fromFile).to.be.instanceOf(ValidationError);
      expect((fromFile as ValidationError).field).to.equal("pool_size");
      expect((fromFile as Error).message).to.match(/file path/);
      expect(() => createEngine(new BackendCConfig({ database: ":memory:", poolSize: 2 }))).to.throw(ValidationError);
      // The default database is :memory: too.
      expect(() => createEngine(new BackendCConfig({ poolSize: 2 }))).to.throw(ValidationError);
    });

    it("max_overflow: extra connections allowed beyond pool_size under load", async () => {
      await using dir = await tempDir();
      await using engine = createEngine(
        new BackendCConfig({ database: join(dir.path, "o.duckdb"), poolSize: 1, maxOverflow: 1, timeout: 1 }),
      );
      await using first = await engine.connect();
      await using second = await engine.connect();
      expect(engine._pool.borrowed).to.equal(2);
      // pool_size + max_overflow are out: the next caller waits and gets the pool library's TimeoutError.
      expect(await failureOf(engine.connect())).to.be.instanceOf(PoolTimeoutError);
      await second.release();
      await first.release();
      expect(engine._pool.size, "pool_size kept, the overflow connection closed when returned").to.equal(1);
    });

    it("recycle: a connection older than recycle seconds is closed and replaced at checkout (a new one is never replaced at once)", async () => {
      await using dir = await tempDir();
      await using engine = createEngine(
        new BackendCConfig({ database: join(dir.path, "r.duckdb"), poolSize: 1, recycle: 0 }),
      );
      await (await engine.connect()).release();
      expect(engine._pool.opened, "the connection opened for a checkout is handed out").to.equal(1);
      await pause(5);
      await using conn = await engine.connect();
      expect(engine._pool.opened).to.equal(2);
      expect(engine._pool.closed).to.equal(1);
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });

    it("timeout: waiting longer for a pool connection raises the pool library's TimeoutError, not a builtin one", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1, timeout: 1 }));
      engine._pool.on("connect", seedSales);
      await using held = await engine.connect();
      const error = await failureOf(revenueQuery().using(engine).execute());
      expect(error).to.be.instanceOf(PoolTimeoutError);
      expect((error as Error).name).to.equal("TimeoutError");
      expect(error).not.to.be.instanceOf(DOMException);
      expect(error).not.to.be.instanceOf(LibConnectionError);
      await held.release();
    });
  });

  describe("Resources: Backend A, B and C fields; Authentication", () => {
    it("Backend A fields: account, warehouse, role, region, durations with unit suffixes, booleans with their defaults", () => {
      const cfg = new BackendAConfig({
        account: "acme",
        warehouse: "WH",
        role: "R",
        region: "eu-west-1",
        loginTimeout: "1m30s",
        requestTimeout: "500ms",
        clientTimeout: "45s",
        appName: "dash",
      });
      const s = cfg.settings;
      expect([s.account, s.warehouse, s.role, s.region, s.appName]).to.deep.equal([
        "acme",
        "WH",
        "R",
        "eu-west-1",
        "dash",
      ]);
      expect([s.loginTimeout, s.requestTimeout, s.clientTimeout]).to.deep.equal([90_000, 500, 45_000]);
      expect([
        s.tlsSkipVerify,
        s.ocspFailOpenMode,
        s.keepSessionAlive,
        s.disableTelemetry,
        s.cacheMfaToken,
        s.storeTempCreds,
      ]).to.deep.equal([false, true, false, false, false, false]);
    });

    it("Backend A authentication: auth_type values; private key fields; sso_url required when auth_type = auth_sso", () => {
      for (const authType of [
        "auth_jwt",
        "auth_ext_browser",
        "auth_oauth",
        "auth_mfa",
        "auth_sso",
        "auth_pat",
        "auth_wif",
      ] as const) {
        const extra =
          authType === "auth_jwt"
            ? { privateKeyPath: "/keys/rsa.p8", privateKeyPassphrase: "pp", jwtExpireTimeout: "60s" }
            : authType === "auth_oauth"
              ? { oauthToken: "tok" }
              : authType === "auth_sso"
                ? { ssoUrl: "https://sso.example" }
                : authType === "auth_wif"
                  ? { identityProvider: "aws" }
                  : {};
        expect(new BackendAConfig({ account: "acme", user: "u", authType, ...extra }).settings.authType).to.equal(
          authType,
        );
      }
      expect(() => new BackendAConfig({ account: "acme", authType: "auth_sso" })).to.throw(
        ValidationError,
        /sso_?url/i,
      );
      // Basic authentication: user + password, no auth_type.
      const basic = new BackendAConfig({ account: "acme", user: "u", password: "p" }).settings;
      expect([basic.authType, basic.user, basic.password?.reveal()]).to.deep.equal([undefined, "u", "p"]);
    });

    it("Backend B: URI mode or decomposed mode; catalog and schema in either", () => {
      const uri = new BackendBConfig({
        uri: "databricks://token:dapi123@adb-1.azuredatabricks.net:443/sql/1.0/warehouses/abc",
        catalog: "main",
        schema: "s",
      });
      expect([
        uri.settings.host,
        uri.settings.httpPath,
        uri.settings.token?.reveal(),
        uri.settings.catalog,
        uri.settings.schema,
      ]).to.deep.equal(["adb-1.azuredatabricks.net", "/sql/1.0/warehouses/abc", "dapi123", "main", "s"]);
      const decomposed = new BackendBConfig({
        host: "adb-1.azuredatabricks.net",
        httpPath: "/sql/1.0/warehouses/abc",
        token: "dapi123",
        catalog: "main",
      });
      expect([
        decomposed.settings.host,
        decomposed.settings.httpPath,
        decomposed.settings.token?.reveal(),
      ]).to.deep.equal(["adb-1.azuredatabricks.net", "/sql/1.0/warehouses/abc", "dapi123"]);
    });

    it("Backend B authentication: OAuthU2M, OAuthM2M with client_id/client_secret; token from BACKEND_B_TOKEN", async () => {
      const m2m = new BackendBConfig({
        host: "h",
        httpPath: "/p",
        authType: "OAuthM2M",
        clientId: "id",
        clientSecret: "secret",
      }).settings;
      expect([m2m.authType, m2m.clientId, m2m.clientSecret?.reveal()]).to.deep.equal(["OAuthM2M", "id", "secret"]);
      expect(new BackendBConfig({ host: "h", httpPath: "/p", authType: "OAuthU2M" }).settings.authType).to.equal(
        "OAuthU2M",
      );
      await withEnv({ BACKEND_B_TOKEN: "from-env" }, () => {
        expect(new BackendBConfig({ host: "h", httpPath: "/p" }).settings.token?.reveal()).to.equal("from-env");
      });
    });

    it("Backend C: database defaults to :memory:; read_only opens the database in read-only mode", async () => {
      expect(new BackendCConfig().settings.database).to.equal(":memory:");
      expect(new BackendCConfig().settings.readOnly).to.equal(false);
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      await using engine = createEngine(new BackendCConfig({ database, readOnly: true }));
      await using conn = await engine.connect();
      expect(await conn.all("SELECT count(*) AS n FROM sales_data")).to.deep.equal([{ n: BigInt(SALES_ROWS.length) }]);
      expect(await failureOf(conn.run("INSERT INTO sales_data VALUES (1, 1, 'X', 'Y')"))).to.be.instanceOf(
        WarehouseError,
      );
    });
  });

  describe("Resources: Config objects", () => {
    it("BackendAConfig, BackendBConfig and BackendCConfig exist; the backend C config accepts database and pool_size", async () => {
      await using dir = await tempDir();
      const cfg = new BackendCConfig({ database: join(dir.path, "c.duckdb"), poolSize: 3 });
      expect(cfg.settings.poolSize).to.equal(3);
      expect(new BackendAConfig({ account: "acme" }).settings.type).to.equal("backend_a");
      expect(new BackendBConfig({ host: "h", httpPath: "/p", token: "t" }).settings.type).to.equal("backend_b");
    });

    it("A config object carries no connection name: register=True files it as `default`", async () => {
      const cfg = new BackendCConfig({ database: ":memory:", poolSize: 1 });
      expect("name" in cfg && (cfg as { name?: unknown }).name !== undefined).to.equal(false);
      await using engine = createEngine(cfg, { register: true });
      expect(engine.name).to.equal("default");
      expect(getEngine("default")).to.equal(engine);
    });

    it("The pool is sized through the config object", async () => {
      await using dir = await tempDir();
      await using engine = createEngine(
        new BackendCConfig({ database: join(dir.path, "p.duckdb"), poolSize: 2, maxOverflow: 0, timeout: 1 }),
      );
      expect(engine._pool.max).to.equal(2);
      await using a = await engine.connect();
      await using b = await engine.connect();
      expect(engine._pool.size).to.equal(2);
      expect(await failureOf(engine.connect())).to.be.instanceOf(PoolTimeoutError);
    });
  });
});
