/** API.md acceptance: the package entry, declaring a semantic view, conditions and orderings. */
import { expect } from "chai";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  and,
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  createAsyncEngine,
  createEngine,
  DataError,
  Decimal,
  Dimension,
  getEngine,
  IntegrityError,
  InternalError,
  jsonReplacer,
  LibConnectionError,
  LibSchemaMismatchError,
  Metric,
  not,
  NotSupportedError,
  OperationalError,
  or,
  PoolTimeoutError,
  ProgrammingError,
  register,
  SemanticView,
  toJson,
  unregister,
  ValidationError,
  WarehouseError,
} from "lib";
import { type Equals, assertType, Sales } from "./support/api.js";

describe("API.md contract (acceptance, backend C): Package, declarations, conditions", function () {
  this.timeout(60_000);

  afterEach(() => {
    // No engine may leak into the next test under "default".
    expect(() => getEngine("default")).to.throw();
  });

  describe("Package", () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const pkg = createRequire(import.meta.url)(join(root, "package.json")) as {
      name: string;
      type: string;
      exports: Record<string, { types?: string; default?: string }>;
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };

    it("is the ESM package `lib` whose exports point at the built runtime with types, bin.lib the CLI", () => {
      expect(pkg.name).to.equal("lib");
      expect(pkg.type).to.equal("module");
      for (const entry of [".", "./express", "./config", "./dialects", "./request", "./mcp", "./testing"]) {
        expect(pkg.exports[entry]?.default, entry).to.match(/^\.\/dist\/.+\.js$/);
        expect(pkg.exports[entry]?.types, entry).to.match(/^\.\/dist\/.+\.d\.ts$/);
      }
      expect(pkg.bin["lib"]).to.match(/^\.\/dist\/.+\.js$/);
      expect(pkg.scripts["build"]).to.be.a("string");
      expect(pkg.scripts["test"]).to.be.a("string");
    });

    it('"lib" exports exactly the runtime names of API.md (types aside); the rest is in subpath entries', async () => {
      const exported = async (entry: string) => Object.keys((await import(entry)) as object).sort();
      expect(await exported("lib")).to.deep.equal(
        [
          // Declaring views, conditions, the query builder, the cursor.
          ...["SemanticView", "Metric", "Dimension", "Fact", "and", "or", "not", "SemanticQuery", "Cursor"],
          // View variables: backend A's semantic-view VARIABLES, backend B's metric-view parameters (README).
          "Variable",
          // Values, schema helpers and lossless JSON.
          ...["Decimal", "DecimalType", "BigIntType", "DateType", "LibType", "toJson", "jsonReplacer"],
          // Engines, pools, the registry and the config objects.
          ...["createEngine", "createAsyncEngine", "Engine", "register", "unregister", "getEngine"],
          ...["BackendAConfig", "BackendBConfig", "BackendCConfig"],
          // Errors.
          ...["LibError", "ValidationError", "LibConnectionError", "LibSchemaMismatchError", "QueryCancelledError"],
          ...["WarehouseError", "ProgrammingError", "InternalError", "OperationalError", "DataError"],
          ...["IntegrityError", "NotSupportedError", "PoolTimeoutError", "EngineNotFoundError", "MissingPackageError"],
          // Tracing channels (README "Logging and tracing").
          ...["QUERY_CHANNEL", "CONNECT_CHANNEL", "POOL_WAIT_CHANNEL"],
        ].sort(),
      );
      expect(await exported("lib/express")).to.deep.equal(
        [
          ...["jsonReplacerWritesNumbers", "jsonResponse", "sendJson", "sendRows", "toJsonSchema"],
          // The semantic router (README "Serving the model").
          ...["semanticRouter", "openApiDocument", "negotiateFormat", "MEDIA_TYPES", "PROBLEM_TYPES"],
          "TRUNCATED_TRAILER",
        ].sort(),
      );
      expect(await exported("lib/mcp")).to.deep.equal(
        ["createMcpServer", "serveMcp", "McpTools", "DEFAULT_MCP_LIMITS"].sort(),
      );
      expect(await exported("lib/dialects")).to.deep.equal(
        [
          ...["DIALECTS", "BACKENDS", "isBackend", "compilerFor", "SemanticQueryCompiler"],
          ...["SnowflakeQueryCompiler", "DatabricksQueryCompiler", "DuckDBQueryCompiler"],
        ].sort(),
      );
      expect(await exported("lib/testing")).to.deep.equal(
        [
          ...["createFixtureEngine", "withFixtureEngine", "useFixtureEngine", "verifyFixture", "formatFixtureReport"],
          ...["QueryDescriptorSchema", "parseQueryDescriptors"],
        ].sort(),
      );
      expect(await exported("lib/config")).to.deep.equal(
        [
          "Secret",
          "loadConnectionSettings",
          "loadConnectionSettingsIfPresent",
          "parseDuration",
          "resolveSettings",
        ].sort(),
      );
    });
  });

  describe("Declaring a semantic view", () => {
    it("the subclass carries the fields as static members that know their name and view", () => {
      expect(Sales.viewName).to.equal("sales");
      expect(Sales.revenue.name).to.equal("revenue");
      expect(Sales.revenue.viewName).to.equal("sales");
      expect(Sales.revenue.kind).to.equal("metric");
      expect(Sales.country.name).to.equal("country");
      expect(Sales.country.viewName).to.equal("sales");
      expect(Sales.country.kind).to.equal("dimension");
      expect(Sales.region.name).to.equal("region");
      expect(Sales.cost.name).to.equal("cost");
      assertType<Equals<typeof Sales.viewName, "sales">>();
    });

    it("aliases each selected column to its member name on every backend", () => {
      const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
      expect(q.toSql({ dialect: "backend_a" }))
        .to.contain('AS "country"')
        .and.to.contain('AS "revenue"');
      expect(q.toSql({ dialect: "backend_b" }))
        .to.contain("AS `country`")
        .and.to.contain("AS `revenue`");
      expect(q.toSql({ dialect: "backend_c" }))
        .to.contain("country")
        .and.to.contain("revenue");
    });
  });
});
