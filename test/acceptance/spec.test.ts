/**
 * SPEC.md acceptance, section by section: one compact test per testable statement, named with the
 * SPEC's own wording (Python idioms translated per API.md). Deep coverage lives in the area suites
 * (test/config, test/engine, test/query, test/cursor, test/service, test/codegen); this file is the
 * traceability layer and fills the gaps between them. Everything runs for real: DuckDB in-process,
 * the Express app on an ephemeral port, the `lib` binary as a child process.
 */
import { expect } from "chai";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import {
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  Decimal,
  DecimalType,
  Dimension,
  InternalError,
  LibConnectionError,
  LibSchemaMismatchError,
  Metric,
  PoolTimeoutError,
  ProgrammingError,
  SemanticView,
  ValidationError,
  WarehouseError,
  createAsyncEngine,
  createEngine,
  getEngine,
  toJson,
  toJsonSchema,
  unregister,
} from "lib";
import type { ConnectConnection, Engine } from "lib";
import { createApp } from "../../example-service/app.js";
import { startService } from "../../example-service/lifespan.js";
import { RevenueByCountry } from "../../example-service/model.js";
import { runLib } from "../codegen/support/run-cli.js";
import { listen, recordingLogger } from "../service/support.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";

// ---------------------------------------------------------------------------------------------
// Shared pieces: the SPEC's `Sales` view, its fixture rows, temp dirs and environment helpers.
// ---------------------------------------------------------------------------------------------

/** SPEC "Example semantic view Sales", declared as API.md shows. */
class Sales extends SemanticView("sales", {
  revenue: Metric(),
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
}) {}

/** Several rows share one country (SPEC fixture point 4). */
const ROWS = [
  [100, 40, "US", "West"],
  [250, 90, "US", "East"],
  [300, 120, "DE", "Berlin"],
  [120, 50, "DE", "Bavaria"],
  [90, 60, "FR", "Paris"],
] as const;
/** Revenue per country, descending. */
const BY_COUNTRY = [
  { country: "DE", revenue: 420n },
  { country: "US", revenue: 350n },
  { country: "FR", revenue: 90n },
];

const VIEW_DDL = `CREATE OR REPLACE SEMANTIC VIEW sales AS
  TABLES (sales_data)
  DIMENSIONS (sales_data.country AS country, sales_data.region AS region)
  METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))`;

const UNAVAILABLE_BODY = '{"detail":"Data warehouse is unavailable"}';

/** SPEC fixture point 4: the `connect` listener's steps, in order. */
async function seedSales(conn: ConnectConnection): Promise<void> {
  await conn.run("INSTALL semantic_views");
  await conn.run("LOAD semantic_views");
  await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
  await conn.run(`INSERT INTO sales_data VALUES ${ROWS.map(() => "(?, ?, ?, ?)").join(", ")}`, ROWS.flat());
  await conn.run(VIEW_DDL);
  await conn.run("COMMIT");
}

/**
 * SPEC "Test-support engine" (`sales_engine`, function-scoped), written as the SPEC describes it:
 * `:memory:`, pool size 1, registered as `default`, seeded by a `connect` listener on `engine._pool`;
 * leaving the `await using` block unregisters `default`, then disposes the pool.
 */
async function withSalesEngine<T>(body: (engine: Engine) => Promise<T>): Promise<T> {
  await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
  engine._pool.on("connect", seedSales);
  return await body(engine);
}

/** A seeded in-memory engine that is not registered (the service's lifespan registers it). */
function unregisteredSalesEngine(): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  engine._pool.on("connect", seedSales);
  return engine;
}

/** Sets environment variables for the duration of `body` and restores them afterwards. */
async function withEnv<T>(vars: Record<string, string | undefined>, body: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

/** Runs `body` with `dir` as the working directory (restored afterwards). */
async function inDirectory<T>(dir: string, body: () => T | Promise<T>): Promise<T> {
  const previous = process.cwd();
  process.chdir(dir);
  try {
    return await body();
  } finally {
    process.chdir(previous);
  }
}

/** Lets wall-clock time pass (for recycle ages); nothing asserts on durations. */
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A DuckDB file with `sales_data` and the `sales` view, committed. */
async function seededFile(dir: string, name = "sales.duckdb"): Promise<string> {
  const database = join(dir, name);
  await using engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
  await using conn = await engine.connect();
  await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
  await conn.run(`INSERT INTO sales_data VALUES ${ROWS.map(() => "(?, ?, ?, ?)").join(", ")}`, ROWS.flat());
  await conn.run(VIEW_DDL);
  await conn.commit();
  return database;
}

const revenueQuery = (country?: string) =>
  Sales.query()
    .metrics(Sales.revenue)
    .dimensions(Sales.country)
    .where(country ? Sales.country.eq(country) : null)
    .orderBy(Sales.revenue.desc());

const ENV_KEYS = [
  "BACKEND_A_PASSWORD",
  "BACKEND_B_TOKEN",
  "BACKEND_C_DATABASE",
  "SCHEMA",
  "BACKEND_A_SCHEMA",
  "BACKEND_C_POOL_SIZE",
];

describe("SPEC.md acceptance", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  let savedEnv: Record<string, string | undefined>;
  before(() => {
    savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
    for (const k of ENV_KEYS) delete process.env[k];
  });
  after(() => {
    for (const [k, v] of Object.entries(savedEnv))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  // -------------------------------------------------------------------------------------------
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

  // -------------------------------------------------------------------------------------------
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
      const result = await runLib(["codegen", "--backend", "backend_c"], { cwd: dir.path });
      expect(result.code, result.stderr).to.equal(0);
      expect(await readFile(join(dir.path, "generated", "sales.ts"), "utf8")).to.contain('SemanticView("sales"');
    });
  });

  // -------------------------------------------------------------------------------------------
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

    it("lib codegen --backend backend_c: no section; the database path comes from --database or BACKEND_C_DATABASE", async () => {
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

  // -------------------------------------------------------------------------------------------
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

  // -------------------------------------------------------------------------------------------
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
      expect(await conn.all("SELECT count(*) AS n FROM sales_data")).to.deep.equal([{ n: BigInt(ROWS.length) }]);
      expect(await failureOf(conn.run("INSERT INTO sales_data VALUES (1, 1, 'X', 'Y')"))).to.be.instanceOf(
        WarehouseError,
      );
    });
  });

  // -------------------------------------------------------------------------------------------
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

  // -------------------------------------------------------------------------------------------
  describe("Resources: Semantic view declaration; Example semantic view Sales", () => {
    it("A semantic view is a class that subclasses SemanticView and names its view; View name: sales", () => {
      expect(Sales.viewName).to.equal("sales");
      expect(Object.getPrototypeOf(Sales.prototype)).not.to.equal(Object.prototype);
    });

    it("Members are Metric() and Dimension() with no arguments; each member name is the field name (metrics revenue, cost; dimensions country, region)", () => {
      for (const name of ["revenue", "cost", "country", "region"] as const) expect(Sales[name].name).to.equal(name);
      expect([Sales.revenue.kind, Sales.cost.kind, Sales.country.kind, Sales.region.kind]).to.deep.equal([
        "metric",
        "metric",
        "dimension",
        "dimension",
      ]);
    });

    it("Each selected column is aliased to its field name, so every backend returns the same keys", async () => {
      const q = revenueQuery();
      expect(q.toSql({ dialect: "backend_a" }))
        .to.contain('AS "country"')
        .and.contain('AS "revenue"');
      expect(q.toSql({ dialect: "backend_b" }))
        .to.contain("AS `country`")
        .and.contain("AS `revenue`");
      expect(q.toSql({ dialect: "backend_c" })).to.match(
        /^SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view\(/,
      );
      await withSalesEngine(async () => {
        await using cursor = await q.execute();
        expect(cursor.columns.map((c) => c.name)).to.deep.equal(["country", "revenue"]);
      });
      // Backend C: a view that spells its members differently still returns the field names as keys.
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      engine._pool.on("connect", async (conn) => {
        await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
        await conn.run("INSERT INTO sales_data VALUES (5, 1, 'US', 'West'), (7, 2, 'US', 'East')");
        await conn.run(
          'CREATE SEMANTIC VIEW sales AS TABLES (s AS sales_data) DIMENSIONS (s."Country" AS country, s.REGION AS region) METRICS (s.Revenue AS SUM(revenue), s.COST AS SUM(cost))',
        );
        await conn.run("COMMIT");
      });
      await using cursor = await Sales.query()
        .metrics(Sales.revenue, Sales.cost)
        .dimensions(Sales.country)
        .where(Sales.country.eq("US"))
        .using(engine)
        .execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "US", revenue: 12n, cost: 3n }]);
    });

    it("<View>.<field> == <value> gives a condition; <View>.<metric>.desc() gives a descending ordering", () => {
      const sql = Sales.query()
        .metrics(Sales.revenue)
        .dimensions(Sales.country)
        .where(Sales.country.eq("US"))
        .orderBy(Sales.revenue.desc())
        .toSql({ dialect: "backend_b" });
      expect(sql)
        .to.match(/WHERE `country` = \?/)
        .and.match(/ORDER BY `revenue` DESC/);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Resources: Result typing", () => {
    it("Backend C, sum over an integer column: integer (bigint, exact)", async () => {
      await withSalesEngine(async () => {
        await using cursor = await Sales.query().metrics(Sales.revenue).execute();
        const [row] = await cursor.fetchAllRows();
        expect(row!.revenue).to.equal(860n);
      });
    });

    it("Metric over a decimal (money) column: Decimal; written as an exact JSON number (API.md's lossless JSON, not a float)", async () => {
      class Money extends SemanticView("money", { amount: Metric(), country: Dimension<string>() }) {}
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      engine._pool.on("connect", async (conn) => {
        await conn.run("CREATE TABLE m (amount DECIMAL(38,2), country VARCHAR)");
        await conn.run("INSERT INTO m VALUES (12345678901234567890.10, 'US'), (0.05, 'US')");
        await conn.run(
          "CREATE SEMANTIC VIEW money AS TABLES (m) DIMENSIONS (m.country AS country) METRICS (m.amount AS SUM(amount))",
        );
        await conn.run("COMMIT");
      });
      await using cursor = await Money.query().metrics(Money.amount).dimensions(Money.country).using(engine).execute();
      const rows = await cursor.fetchAllRows();
      expect(rows[0]!.amount).to.be.instanceOf(Decimal);
      expect(String(rows[0]!.amount)).to.equal("12345678901234567890.15");
      expect(toJson(rows)).to.equal('[{"country":"US","amount":12345678901234567890.15}]');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Resources: Example response model RevenueByCountry", () => {
    it("the generated response schema is an object titled RevenueByCountry, both fields required, country string, revenue integer, capitalized titles", () => {
      // The JSON Schema of the model's wire form (revenue is a BigIntType(): exact 64-bit integers).
      expect(toJsonSchema(RevenueByCountry)).to.deep.equal({
        type: "object",
        title: "RevenueByCountry",
        required: ["country", "revenue"],
        properties: {
          country: { type: "string", title: "Country" },
          revenue: { type: "integer", format: "int64", title: "Revenue" },
        },
      });
    });

    it("the served OpenAPI document carries the same schema", async () => {
      await using app = await listen(createApp({ engine: unregisteredSalesEngine(), logger: recordingLogger() }));
      const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
        components: { schemas: Record<string, unknown> };
      };
      expect(doc.components.schemas["RevenueByCountry"]).to.deep.equal(toJsonSchema(RevenueByCountry));
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Resources: Test-support engine (sales_engine)", () => {
    it("1-2. creates a backend C engine with database = :memory: and pool_size = 1, registered as `default` for one test", async () => {
      await withSalesEngine(async (engine) => {
        expect(engine.settings).to.include({ type: "backend_c", database: ":memory:", poolSize: 1 });
        expect(getEngine("default")).to.equal(engine);
      });
    });

    it("1. each pooled connection to an in-memory database is a separate database, so one connection gives one set of seeded rows", async () => {
      await withSalesEngine(async (engine) => {
        {
          await using conn = await engine.connect();
          expect(await conn.all("SELECT count(*) AS n FROM sales_data")).to.deep.equal([{ n: BigInt(ROWS.length) }]);
        }
        await using again = await engine.connect();
        expect(await again.all("SELECT count(*) AS n FROM sales_data")).to.deep.equal([{ n: BigInt(ROWS.length) }]);
        expect(engine._pool.opened).to.equal(1);
      });
      // Two engines on :memory: do not share a database.
      await using a = createEngine(new BackendCConfig({ database: ":memory:" }));
      await using b = createEngine(new BackendCConfig({ database: ":memory:" }));
      {
        await using conn = await a.connect();
        await conn.run("CREATE TABLE only_in_a (x INTEGER)");
        await conn.commit();
      }
      await using conn = await b.connect();
      expect(await failureOf(conn.all("SELECT * FROM only_in_a"))).to.be.instanceOf(WarehouseError);
    });

    it("3-4. a listener on the pool's `connect` event through engine._pool runs on each new connection, in order: INSTALL/LOAD, CREATE TABLE, INSERT, CREATE OR REPLACE SEMANTIC VIEW, COMMIT", async () => {
      const statements: string[] = [];
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      engine._pool.on("connect", async (conn) => {
        const recording = {
          run: async (sql: string, params?: readonly unknown[]) => {
            statements.push(sql.split(/\s+/).slice(0, 4).join(" "));
            await conn.run(sql, params);
          },
          all: conn.all.bind(conn),
        } as ConnectConnection;
        await seedSales(recording);
      });
      // engine._pool is the only way to the pool: the engine has no public accessor for it.
      expect(Object.keys(engine).filter((k) => /pool/i.test(k))).to.deep.equal(["_pool"]);
      expect("pool" in engine).to.equal(false);
      await using cursor = await revenueQuery().using(engine).execute();
      expect(await cursor.fetchAllRows()).to.deep.equal(BY_COUNTRY);
      expect(statements).to.deep.equal([
        "INSTALL semantic_views",
        "LOAD semantic_views",
        "CREATE TABLE sales_data (revenue",
        "INSERT INTO sales_data VALUES",
        "CREATE OR REPLACE SEMANTIC",
        "COMMIT",
      ]);
    });

    it("5. connections open with autocommit off: uncommitted state is invisible to another connection until COMMIT", async () => {
      await using dir = await tempDir();
      await using engine = createEngine(new BackendCConfig({ database: join(dir.path, "ac.duckdb"), poolSize: 2 }));
      await using writer = await engine.connect();
      await using reader = await engine.connect();
      await writer.run("CREATE TABLE t (x INTEGER)");
      expect(await failureOf(reader.all("SELECT * FROM t"))).to.be.instanceOf(WarehouseError);
      await writer.run("COMMIT");
      // The reader's own transaction (autocommit off) keeps its snapshot until it ends.
      await reader.rollback();
      expect(await reader.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 0n }]);
    });

    it("6. on teardown, leaving the block removes the `default` name and then disposes the pool, so no engine leaks into the next test", async () => {
      let seen: { registeredWhileDisposing?: boolean } = {};
      let held: Engine | undefined;
      await withSalesEngine(async (engine) => {
        held = engine;
        const dispose = engine._pool.dispose.bind(engine._pool);
        engine._pool.dispose = () => {
          seen = { registeredWhileDisposing: isRegistered("default") };
          return dispose();
        };
      });
      expect(seen.registeredWhileDisposing, "unregistered before the pool is disposed").to.equal(false);
      expect(held!.disposed).to.equal(true);
      expect(held!._pool.disposed).to.equal(true);
      expect(isRegistered("default")).to.equal(false);
    });

    describe("Test expectations for the example query", () => {
      it("Rows of one country are summed into one row; results are ordered by revenue descending", async () => {
        await withSalesEngine(async () => {
          await using cursor = await revenueQuery().execute();
          expect(await cursor.fetchAllRows()).to.deep.equal(BY_COUNTRY);
        });
      });

      it("Filtering by an existing country returns only that country's row", async () => {
        await withSalesEngine(async () => {
          await using cursor = await revenueQuery("US").execute();
          expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "US", revenue: 350n }]);
        });
      });

      it("Filtering by an unknown country returns an empty list", async () => {
        await withSalesEngine(async () => {
          await using cursor = await revenueQuery("Atlantis").execute();
          expect(await cursor.fetchAllRows()).to.deep.equal([]);
        });
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("States and transitions", () => {
    it("no engine → create_engine(<config object>, register=True) in a `with` block → open, registered as `default`; a query with no .using() finds it", async () => {
      expect(isRegistered("default")).to.equal(false);
      {
        await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
          register: true,
        });
        engine._pool.on("connect", seedSales);
        expect(getEngine("default")).to.equal(engine);
        await using cursor = await revenueQuery().execute();
        expect(await cursor.fetchAllRows()).to.deep.equal(BY_COUNTRY);
      }
      expect(isRegistered("default")).to.equal(false);
    });

    it("no engine → create_engine(<name>, register=True) → open, registered under that connection name", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(path, '[connections.analytics]\ntype = "backend_c"\n');
      await using engine = createEngine("analytics", { configPath: path, register: true });
      expect(getEngine("analytics")).to.equal(engine);
      expect(isRegistered("default")).to.equal(false);
      engine._pool.on("connect", seedSales);
      await using cursor = await revenueQuery("DE").using("analytics").execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "DE", revenue: 420n }]);
    });

    it("engine open, registered → exit of the `with` block → name unregistered, then pool disposed (in this order)", async () => {
      const order: string[] = [];
      let engineRef: Engine | undefined;
      {
        await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
          register: true,
        });
        engineRef = engine;
        const dispose = engine._pool.dispose.bind(engine._pool);
        engine._pool.dispose = () => {
          order.push(isRegistered("default") ? "dispose while registered" : "dispose after unregister");
          return dispose();
        };
      }
      expect(order).to.deep.equal(["dispose after unregister"]);
      expect(engineRef!._pool.disposed).to.equal(true);
    });

    it("engine open, not in a `with` block → engine.dispose() → disposed, the pool is closed; manual teardown: unregister, then dispose", async () => {
      const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
      engine._pool.on("connect", seedSales);
      {
        await using cursor = await revenueQuery().execute();
        await cursor.fetchAllRows();
      }
      expect(engine._pool.size).to.equal(1);
      unregister("default");
      await engine.dispose();
      expect(engine.disposed).to.equal(true);
      expect(engine._pool.disposed).to.equal(true);
      expect(engine._pool.size).to.equal(0);
      expect(await failureOf(engine.connect())).to.be.instanceOf(LibConnectionError);
    });

    it("service running: startup registers the engine as `default` (built once, not per request); shutdown disposes it", async () => {
      const engine = unregisteredSalesEngine();
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger: recordingLogger() });
      try {
        expect(getEngine("default")).to.equal(engine);
        for (let i = 0; i < 3; i++) expect((await fetch(`${service.url}revenue`)).status).to.equal(200);
        expect(getEngine("default")).to.equal(engine);
        expect(engine._pool.opened, "one engine, one pooled in-memory connection for every request").to.equal(1);
      } finally {
        await service.shutdown();
      }
      expect(engine.disposed).to.equal(true);
      expect(isRegistered("default")).to.equal(false);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Endpoints: GET /revenue", () => {
    /** The app resolving the fixture engine registered as `default` (no engine passed). */
    async function withApp<T>(body: (url: string, engine: Engine) => Promise<T>): Promise<T> {
      return withSalesEngine(async (engine) => {
        await using app = await listen(createApp({ logger: recordingLogger() }));
        return await body(app.url, engine);
      });
    }

    it("200: JSON array of {country: string, revenue: integer}; key order country, then revenue; sorted by revenue descending", async () => {
      await withApp(async (url) => {
        const response = await fetch(`${url}/revenue`);
        expect(response.status).to.equal(200);
        expect(response.headers.get("content-type")).to.match(/^application\/json/);
        expect(await response.text()).to.equal(
          '[{"country":"DE","revenue":420},{"country":"US","revenue":350},{"country":"FR","revenue":90}]',
        );
      });
    });

    it("1. When country is absent or empty, no filter applies; aggregated revenue is returned per country", async () => {
      await withApp(async (url) => {
        const absent = await (await fetch(`${url}/revenue`)).json();
        const empty = await (await fetch(`${url}/revenue?country=`)).json();
        expect(empty).to.deep.equal(absent);
        expect((absent as unknown[]).length).to.equal(3);
      });
    });

    it("2. When country is non-empty, an equality condition on the country dimension applies; an unknown value gives 200 []", async () => {
      await withApp(async (url) => {
        expect(await (await fetch(`${url}/revenue?country=US`)).json()).to.deep.equal([
          { country: "US", revenue: 350 },
        ]);
        // Equality, not a pattern: a prefix matches nothing.
        expect(await (await fetch(`${url}/revenue?country=U`)).json()).to.deep.equal([]);
        const unknown = await fetch(`${url}/revenue?country=Atlantis`);
        expect(unknown.status).to.equal(200);
        expect(await unknown.text()).to.equal("[]");
      });
    });

    it("3. country is not escaped by the caller: backends A and B send it as a bound parameter; backend C writes it into the SQL text as an escaped literal", async () => {
      const hostile = "O'Brien'); DROP TABLE sales_data; --";
      const q = revenueQuery(hostile);
      for (const dialect of ["backend_a", "backend_b"] as const) {
        const compiled = q.compile({ dialect });
        expect(compiled.parameters, dialect).to.deep.equal([hostile]);
        expect(compiled.sql, dialect).not.to.contain("O'Brien");
      }
      const c = q.compile({ dialect: "backend_c" });
      expect(c.parameters).to.deep.equal([]);
      // The value sits inside a string literal (the where clause is itself a literal, so quotes double twice).
      expect(c.sql).to.contain("''O''''Brien''''); DROP TABLE sales_data; --''");
      await withApp(async (url, engine) => {
        {
          await using conn = await engine.connect();
          await conn.run("INSERT INTO sales_data VALUES (5, 1, ?, 'Nowhere')", [hostile]);
          await conn.commit();
        }
        const response = await fetch(`${url}/revenue?country=${encodeURIComponent(hostile)}`);
        expect(response.status).to.equal(200);
        expect(await response.json()).to.deep.equal([{ country: hostile, revenue: 5 }]);
        expect(((await (await fetch(`${url}/revenue`)).json()) as unknown[]).length, "sales_data is intact").to.equal(
          4,
        );
      });
    });

    it("4. The query selects the revenue metric and the country dimension, ordered by revenue descending", () => {
      const node = revenueQuery().compile({ dialect: "backend_c" }).query;
      expect(node.metrics.map((f) => f.name)).to.deep.equal(["revenue"]);
      expect(node.dimensions.map((f) => f.name)).to.deep.equal(["country"]);
      expect(node.orderBy.map((o) => [o.field.name, o.direction])).to.deep.equal([["revenue", "desc"]]);
    });

    it("5. Before the typed model is introduced, the body keys are the view's field names; after it, the keys follow the model's declaration order", async () => {
      await withSalesEngine(async () => {
        {
          await using cursor = await revenueQuery().execute();
          const rows = await cursor.fetchAllRows();
          expect(rows.map((r) => Object.keys(r))).to.deep.equal(Array(3).fill(["country", "revenue"]));
          expect(toJson(rows[0])).to.equal('{"country":"DE","revenue":420}');
        }
        // A model declaring revenue before country: its order wins.
        const RevenueFirst = Type.Object(
          { revenue: Type.Integer(), country: Type.String() },
          { title: "RevenueFirst" },
        );
        await using cursor = await revenueQuery().execute();
        const typed = await cursor.into(RevenueFirst);
        expect(typed.map((r) => Object.keys(r))).to.deep.equal(Array(3).fill(["revenue", "country"]));
        expect(toJson(typed[0])).to.equal('{"revenue":420,"country":"DE"}');
      });
    });

    it("6. The cursor is used in a `with` block, so the pooled connection is returned when the handler finishes", async () => {
      await withApp(async (url, engine) => {
        // pool_size 1 and no overflow on :memory:: a leaked connection would block the next request.
        for (let i = 0; i < 4; i++) expect((await fetch(`${url}/revenue?country=FR`)).status).to.equal(200);
        expect(engine._pool.borrowed).to.equal(0);
        expect(engine._pool.available).to.equal(1);
      });
    });

    it("7. When the warehouse rejects the statement: 503 {detail: 'Data warehouse is unavailable'}; a missing view arrives as InternalError", async () => {
      await withApp(async (url, engine) => {
        {
          await using conn = await engine.connect();
          await conn.run("DROP SEMANTIC VIEW sales");
          await conn.commit();
        }
        const response = await fetch(`${url}/revenue`);
        expect(response.status).to.equal(503);
        expect(response.headers.get("content-type")).to.match(/^application\/json/);
        expect(await response.text()).to.equal(UNAVAILABLE_BODY);
        const error = await failureOf(revenueQuery().execute());
        expect(error).to.be.instanceOf(InternalError);
        expect(error).not.to.be.instanceOf(ProgrammingError);
      });
    });

    it("7. In both cases the driver-layer base error is caught, not a subclass (another subclass also gives 503)", async () => {
      await withApp(async (url, engine) => {
        {
          await using conn = await engine.connect();
          await conn.run("DROP TABLE sales_data");
          await conn.commit();
        }
        const error = await failureOf(revenueQuery().execute());
        expect(error).to.be.instanceOf(WarehouseError);
        expect(error).not.to.be.instanceOf(InternalError);
        const response = await fetch(`${url}/revenue`);
        expect(response.status).to.equal(503);
        expect(await response.text()).to.equal(UNAVAILABLE_BODY);
      });
    });

    it("7. When LibConnectionError is raised (a warehouse up at startup is unreachable when a request checks out a connection): 503", async () => {
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      // pool_size 1 with one overflow: while the pooled connection is busy, a request needs a new one.
      const engine = createEngine(new BackendCConfig({ database, poolSize: 1, maxOverflow: 1 }));
      let reachable = true;
      engine._pool.on("connect", () => {
        if (!reachable) throw new Error("could not connect to the warehouse: connection refused");
      });
      const logger = recordingLogger();
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger });
      try {
        expect((await fetch(`${service.url}revenue`)).status, "up at startup").to.equal(200);
        reachable = false;
        {
          await using busy = await engine.connect();
          const response = await fetch(`${service.url}revenue?country=US`);
          expect(response.status).to.equal(503);
          expect(await response.text()).to.equal(UNAVAILABLE_BODY);
          expect(logger.lines.join("\n")).to.include("LibConnectionError");
          // The same condition seen by application code: .execute() raises LibConnectionError.
          const error = await failureOf(revenueQuery().execute());
          expect(error).to.be.instanceOf(LibConnectionError);
          await busy.release();
        }
        reachable = true;
        expect((await fetch(`${service.url}revenue`)).status, "the kept connection still answers").to.equal(200);
      } finally {
        await service.shutdown();
      }
    });

    it("7. LibConnectionError via recycle: the pooled connection is replaced at checkout and the warehouse, up at startup, is unreachable: 503", async () => {
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      // recycle = 0: every connection that sat in the pool is replaced at checkout.
      const engine = createEngine(new BackendCConfig({ database, poolSize: 1, recycle: 0 }));
      let reachable = true;
      engine._pool.on("connect", () => {
        if (!reachable) throw new Error("could not connect to the warehouse: connection refused");
      });
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger: recordingLogger() });
      try {
        expect((await fetch(`${service.url}revenue`)).status, "up at startup").to.equal(200);
        reachable = false;
        await pause(5); // let the pooled connection age past recycle = 0 s
        const response = await fetch(`${service.url}revenue`);
        expect(response.status).to.equal(503);
        expect(await response.text()).to.equal(UNAVAILABLE_BODY);
        reachable = true;
        expect((await fetch(`${service.url}revenue`)).status, "back once the warehouse is").to.equal(200);
      } finally {
        await service.shutdown();
      }
    });

    it("7. LibConnectionError: the warehouse, up at startup, is gone when a request needs a connection (its database file was deleted): 503", async () => {
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      const engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
      const service = await startService({ engine, port: 0, host: "127.0.0.1", logger: recordingLogger() });
      try {
        expect((await fetch(`${service.url}revenue`)).status, "up at startup").to.equal(200);
        await rm(database);
        await rm(`${database}.wal`, { force: true });
        const response = await fetch(`${service.url}revenue`);
        expect(response.status).to.equal(503);
        expect(await response.text()).to.equal(UNAVAILABLE_BODY);
      } finally {
        await service.shutdown();
      }
    });

    it("Any other unhandled failure in the example endpoint gives HTTP 500", async () => {
      await withApp(async (url, engine) => {
        {
          // revenue now arrives as text: into(RevenueByCountry) fails with LibSchemaMismatchError.
          await using conn = await engine.connect();
          await conn.run(
            "CREATE OR REPLACE SEMANTIC VIEW sales AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country) METRICS (sales_data.revenue AS MAX(region))",
          );
          await conn.commit();
        }
        const response = await fetch(`${url}/revenue`);
        expect(response.status).to.equal(500);
      });
    });

    it("The example endpoint's path is /revenue, with no version segment", async () => {
      await withApp(async (url) => {
        expect((await fetch(`${url}/revenue`)).status).to.equal(200);
        expect((await fetch(`${url}/v1/revenue`)).status).to.equal(404);
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Endpoints: GET /docs", () => {
    it("The framework generates this documentation page; it shows the response schema of /revenue", async () => {
      await using app = await listen(createApp({ engine: unregisteredSalesEngine(), logger: recordingLogger() }));
      const page = await fetch(`${app.url}/docs/`);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include("swagger-ui");
      const init = await (await fetch(`${app.url}/docs/swagger-ui-init.js`)).text();
      expect(init)
        .to.include('"/revenue"')
        .and.include('"RevenueByCountry"')
        .and.include('"title": "Revenue"')
        .and.include('"type": "integer"');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Endpoints: Programmatic operations", () => {
    it("create_engine(<name or config object>, config_path=, register=) returns an engine usable as a context manager", async () => {
      let outer: Engine | undefined;
      {
        await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
        outer = engine;
        expect(engine.disposed).to.equal(false);
        expect(engine.name).to.equal(undefined);
      }
      expect(outer.disposed).to.equal(true);
    });

    it("create_async_engine(<name>) is the async counterpart and reads the same section rules", async () => {
      await using dir = await tempDir();
      const path = join(dir.path, ".lib.toml");
      await writeFile(path, '[connections.default]\ntype = "backend_c"\ndatabase = ":memory:"\npool_size = 2\n');
      expect(await failureOf(createAsyncEngine("default", { configPath: path }))).to.be.instanceOf(ValidationError);
      await writeFile(path, '[connections.default]\ntype = "backend_c"\n');
      await inDirectory(dir.path, async () => {
        await using engine = await createAsyncEngine();
        expect(engine.settings.database).to.equal(":memory:");
        expect(engine._pool.opened, "one connection was checked out and returned").to.equal(1);
      });
    });

    it("<View>.query() returns a query builder; .metrics(), .dimensions(), .where(), .order_by() select, filter and order", () => {
      const q = Sales.query();
      const built = q
        .metrics(Sales.revenue, Sales.cost)
        .dimensions(Sales.country, Sales.region)
        .where(Sales.region.eq("West"))
        .orderBy(Sales.cost.desc());
      expect(built).not.to.equal(q);
      expect(built.toSql({ dialect: "backend_b" })).to.equal(
        "SELECT `country` AS `country`, `region` AS `region`, MEASURE(`revenue`) AS `revenue`, MEASURE(`cost`) AS `cost` FROM `sales` WHERE `region` = ? GROUP BY ALL ORDER BY `cost` DESC NULLS LAST",
      );
    });

    it(".where(None) is a no-op", () => {
      const base = Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
      for (const dialect of ["backend_a", "backend_b", "backend_c"] as const) {
        expect(base.where(null).toSql({ dialect })).to.equal(base.toSql({ dialect }));
        expect(base.where(undefined).toSql({ dialect })).to.equal(base.toSql({ dialect }));
      }
    });

    it(".using(...) selects a specific engine instead of the registered `default`; .to_sql() returns the generated SQL text", async () => {
      await withSalesEngine(async () => {
        // A second engine with other data: .using() picks it over `default`.
        await using other = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
        other._pool.on("connect", async (conn) => {
          await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
          await conn.run("INSERT INTO sales_data VALUES (7, 1, 'NZ', 'Auckland')");
          await conn.run(VIEW_DDL);
          await conn.run("COMMIT");
        });
        await using cursor = await revenueQuery().using(other).execute();
        expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "NZ", revenue: 7n }]);
        const sql = revenueQuery("US").toSql();
        expect(sql).to.be.a("string").and.contain("semantic_view('sales'");
      });
    });

    it("A query with no .using() resolves the engine registered as `default` at execution time", async () => {
      const q = revenueQuery("FR");
      // No engine exists when the query is built.
      expect(isRegistered("default")).to.equal(false);
      await withSalesEngine(async () => {
        await using cursor = await q.execute();
        expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "FR", revenue: 90n }]);
      });
    });

    it(".execute() runs on a pooled connection and returns a cursor usable as a context manager; the connection returns to the pool on exit of the block", async () => {
      await withSalesEngine(async (engine) => {
        {
          await using cursor = await revenueQuery().execute();
          expect(engine._pool.borrowed).to.equal(1);
          await cursor.fetchAllRows();
        }
        expect(engine._pool.borrowed).to.equal(0);
        {
          await using cursor = await revenueQuery().execute();
          expect(engine._pool.borrowed).to.equal(1);
          void cursor; // never read: the block exit still returns the connection
        }
        expect(engine._pool.borrowed).to.equal(0);
      });
    });

    it("cursor.fetchall_rows() returns all rows, each a mapping keyed by field name", async () => {
      await withSalesEngine(async () => {
        await using cursor = await Sales.query()
          .metrics(Sales.revenue, Sales.cost)
          .dimensions(Sales.country)
          .orderBy(Sales.revenue.desc())
          .execute();
        expect(await cursor.fetchAllRows()).to.deep.equal([
          { country: "DE", revenue: 420n, cost: 170n },
          { country: "US", revenue: 350n, cost: 130n },
          { country: "FR", revenue: 90n, cost: 60n },
        ]);
      });
    });

    it("cursor.into(<model>) returns one model instance per row, columns matched to fields by name", async () => {
      await withSalesEngine(async () => {
        await using cursor = await revenueQuery().execute();
        expect(await cursor.into(RevenueByCountry)).to.deep.equal(BY_COUNTRY);
      });
    });

    it("into(): by default the annotation must agree with the type the column arrives as (else LibSchemaMismatchError); validate= relaxes it", async () => {
      await withSalesEngine(async () => {
        const AsText = Type.Object({ country: Type.String(), revenue: Type.String() });
        {
          await using cursor = await revenueQuery().execute();
          const error = await failureOf(cursor.into(AsText));
          expect(error).to.be.instanceOf(LibSchemaMismatchError);
          expect((error as Error).message).to.contain("revenue");
        }
        const AsMoney = Type.Object({ country: Type.String(), revenue: DecimalType() });
        {
          await using cursor = await revenueQuery().execute();
          expect(await failureOf(cursor.into(AsMoney))).to.be.instanceOf(LibSchemaMismatchError);
        }
        const AsNumber = Type.Object({ country: Type.String(), revenue: Type.Number() });
        await using cursor = await revenueQuery().execute();
        expect(await cursor.into(AsNumber, { validate: "coerce" })).to.deep.equal(
          BY_COUNTRY.map((r) => ({ ...r, revenue: Number(r.revenue) })),
        );
      });
    });

    it("cursor.iter_into(<model>) is the streaming variant of into", async () => {
      await withSalesEngine(async () => {
        await using cursor = await revenueQuery().execute();
        const rows: unknown[] = [];
        for await (const row of cursor.iterInto(RevenueByCountry)) rows.push(row);
        expect(rows).to.deep.equal(BY_COUNTRY);
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Endpoints: Command line", () => {
    it("lib codegen --backend backend_c --database <path> generates models and DTO classes (exit 0)", async () => {
      await using dir = await tempDir();
      const database = await seededFile(dir.path);
      await writeFile(
        join(dir.path, ".lib.toml"),
        '[codegen.dtos.RevenueByCountry]\nview = "sales"\nfields = ["country", "revenue"]\n',
      );
      const result = await runLib(["codegen", "--backend", "backend_c", "--database", database], { cwd: dir.path });
      expect(result.code, result.stderr).to.equal(0);
      const view = await readFile(join(dir.path, "generated", "sales.ts"), "utf8");
      expect(view).to.contain('export class Sales extends SemanticView("sales", {');
      for (const member of [
        "country: Dimension<string>()",
        "region: Dimension<string>()",
        "revenue: Metric<bigint>()",
        "cost: Metric<bigint>()",
      ]) {
        expect(view).to.contain(member);
      }
      const dto = await readFile(join(dir.path, "generated", "sales.dto.ts"), "utf8");
      expect(dto).to.contain(
        'export const RevenueByCountry = Type.Object(\n  {\n    country: Type.String({ title: "Country" }),\n    revenue: BigIntType({ title: "Revenue" }),\n  },\n  { title: "RevenueByCountry" },\n);',
      );
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("Errors", () => {
    it("The warehouse rejects the statement in .execute(): the driver layer's error is re-raised unchanged; its base class is the driver manager's Error", async () => {
      await withSalesEngine(async (engine) => {
        {
          await using conn = await engine.connect();
          await conn.run("DROP SEMANTIC VIEW sales");
          await conn.commit();
        }
        const error = await failureOf(revenueQuery().execute());
        expect(error).to.be.instanceOf(WarehouseError);
        expect(error).to.be.instanceOf(InternalError);
        expect((error as Error).message).to.contain("sales");
        expect(engine._pool.borrowed, "the connection went back to the pool").to.equal(0);
      });
    });

    it("No connection can be obtained in .execute(): LibConnectionError (the original error is its cause)", async () => {
      await using dir = await tempDir();
      const notADatabase = join(dir.path, "broken.duckdb");
      await writeFile(notADatabase, "not a database\n".repeat(100));
      await using engine = createEngine(new BackendCConfig({ database: notADatabase, poolSize: 1 }));
      const error = await failureOf(revenueQuery().using(engine).execute());
      expect(error).to.be.instanceOf(LibConnectionError);
      expect((error as Error).cause).to.be.instanceOf(Error);
    });
  });
});

function isRegistered(name: string): boolean {
  try {
    getEngine(name);
    return true;
  } catch {
    return false;
  }
}
