/** API.md acceptance: the error classes and what raises them. */
import { expect } from "chai";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  and,
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  createEngine,
  DataError,
  getEngine,
  IntegrityError,
  InternalError,
  LibConnectionError,
  LibSchemaMismatchError,
  not,
  NotSupportedError,
  OperationalError,
  PoolTimeoutError,
  ProgrammingError,
  register,
  ValidationError,
  WarehouseError,
} from "lib";
import { failureOf, thrownBy } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";
import { Sales } from "./support/api.js";

describe("API.md contract (acceptance, backend C): Errors", function () {
  this.timeout(60_000);

  afterEach(() => {
    // No engine may leak into the next test under "default".
    expect(() => getEngine("default")).to.throw();
  });

  describe("Errors", () => {
    const tmp = useTempDir();

    it("every class is exported with its name and hierarchy", () => {
      const warehouse = {
        ProgrammingError,
        InternalError,
        OperationalError,
        DataError,
        IntegrityError,
        NotSupportedError,
      };
      for (const [name, ErrorClass] of Object.entries(warehouse)) {
        const error = new ErrorClass("boom", { cause: new Error("driver") });
        expect(error, name).to.be.instanceOf(WarehouseError);
        expect(error.name).to.equal(name);
        expect((error.cause as Error).message).to.equal("driver");
      }
      expect(new ValidationError("x").name).to.equal("ValidationError");
      expect(new LibConnectionError("x").name).to.equal("LibConnectionError");
      expect(new WarehouseError("x").name).to.equal("WarehouseError");
      expect(
        new LibSchemaMismatchError("M", [{ field: "f", modelType: "string", columnType: "INTEGER" }]).name,
      ).to.equal("LibSchemaMismatchError");
      expect(new PoolTimeoutError("t")).to.be.instanceOf(Error);
    });

    it("ValidationError: unknown type, wrong field type, :memory: with pool_size > 1, mutually exclusive fields; names file, section, field", async () => {
      const path = join(tmp.path, "conf.toml");
      await writeFile(
        path,
        [
          '[connections.unknown]\ntype = "backend_z"\n',
          '[connections.wrongtype]\ntype = "backend_c"\npool_size = "five"\n',
          '[connections.memory]\ntype = "backend_c"\ndatabase = ":memory:"\npool_size = 4\n',
          '[connections.both]\ntype = "backend_a"\naccount = "acme"\nuser = "u"\nprivate_key_path = "/k.p8"\nprivate_key_pem = "-----BEGIN PRIVATE KEY-----SECRETPEM"\n',
          '[connections.uri]\ntype = "backend_b"\nuri = "databricks://token:dapiSECRET123@h.example.com:443/sql/1.0/warehouses/x"\nhost = "h.example.com"\n',
        ].join("\n"),
      );
      const cases: [string, string][] = [
        ["unknown", "type"],
        ["wrongtype", "pool_size"],
        ["memory", "pool_size"],
        ["both", "private_key"],
        ["uri", "uri"],
      ];
      for (const [section, field] of cases) {
        const error = thrownBy(() => createEngine(section, { configPath: path })) as ValidationError;
        expect(error, section).to.be.instanceOf(ValidationError);
        expect(error.message, section).to.contain(path).and.to.contain(`connections.${section}`).and.to.contain(field);
        expect(error.message).not.to.contain("SECRETPEM").and.not.to.contain("dapiSECRET123");
        expect(String(error.stack)).not.to.contain("SECRETPEM").and.not.to.contain("dapiSECRET123");
      }
    });

    it("secrets never appear in error messages", async () => {
      const path = join(tmp.path, "secret.toml");
      await writeFile(
        path,
        '[connections.default]\ntype = "backend_a"\naccount = "acme"\nuser = "u"\npassword = "hunter2-pw"\npool_size = -1\n',
      );
      const error = thrownBy(() => createEngine("default", { configPath: path })) as Error;
      expect(error).to.be.instanceOf(ValidationError);
      expect(error.message).not.to.contain("hunter2-pw");
      const objectError = thrownBy(
        () =>
          new BackendBConfig({ uri: "databricks://token:dapiTOPSECRET@h:443/p", token: "dapiTOPSECRET" }, { env: {} }),
      ) as Error;
      expect(objectError).to.be.instanceOf(ValidationError);
      expect(objectError.message).not.to.contain("dapiTOPSECRET");
      const badPassword = thrownBy(
        () => new BackendAConfig({ account: "acme", user: "u", password: 12345678 as unknown as string }, { env: {} }),
      ) as Error;
      expect(badPassword).to.be.instanceOf(ValidationError);
      expect(badPassword.message).not.to.contain("12345678");
    });

    it("LibConnectionError: no connection could be obtained in execute() (the original error is its cause)", async () => {
      const database = join(tmp.path, "no-such-dir", "x.duckdb");
      await using _engine = createEngine(new BackendCConfig({ database, poolSize: 1 }), { register: true });
      const error = (await failureOf(Sales.query().metrics(Sales.revenue).execute())) as LibConnectionError;
      expect(error).to.be.instanceOf(LibConnectionError);
      expect(error.cause).to.be.instanceOf(Error);
    });

    it("WarehouseError: warehouse errors map to DB-API subclasses with the driver error as cause; catch the base class", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
      await using conn = await engine.connect();
      const expectations: [string, new (...args: never[]) => WarehouseError][] = [
        ["SELEC 1", ProgrammingError],
        ["SELECT * FROM no_such_table", ProgrammingError],
        ["SELECT CAST('abc' AS INTEGER)", DataError],
        ["SELECT * FROM read_csv('/no/such/file.csv')", OperationalError],
      ];
      for (const [sql, ErrorClass] of expectations) {
        const error = (await failureOf(conn.run(sql))) as WarehouseError;
        expect(error, sql).to.be.instanceOf(ErrorClass);
        expect(error, sql).to.be.instanceOf(WarehouseError);
        expect(error.cause, sql).to.be.instanceOf(Error);
        expect(error.cause, sql).not.to.be.instanceOf(WarehouseError);
        await conn.rollback();
      }
      await conn.run("CREATE TABLE k (id INTEGER PRIMARY KEY)");
      await conn.run("INSERT INTO k VALUES (1)");
      expect(await failureOf(conn.run("INSERT INTO k VALUES (1)"))).to.be.instanceOf(IntegrityError);
      await conn.rollback();
      await conn.release();
      // A semantic query against a view that does not exist: a WarehouseError from execute().
      const missing = await failureOf(Sales.query().metrics(Sales.revenue).execute());
      expect(missing).to.be.instanceOf(WarehouseError);
      expect(missing).to.be.instanceOf(InternalError);
      expect(engine._pool.borrowed).to.equal(0);
    });
  });
});
