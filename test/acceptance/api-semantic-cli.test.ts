/** API.md acceptance: backend C semantic views and `lib codegen`. */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import {
  and,
  BackendCConfig,
  createEngine,
  Dimension,
  getEngine,
  Metric,
  not,
  register,
  SemanticView,
  ValidationError,
  WarehouseError,
} from "lib";
import { failureOf, thrownBy } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";
import { runLib } from "../codegen/support/run-cli.js";
import { seedSales } from "../support/sales-engine.js";
import { Sales, BY_COUNTRY } from "./support/api.js";

describe("API.md contract (acceptance, backend C): Backend C semantic views and the CLI", function () {
  this.timeout(60_000);

  afterEach(() => {
    // No engine may leak into the next test under "default".
    expect(() => getEngine("default")).to.throw();
  });

  describe("Backend C semantic views", () => {
    const tmp = useTempDir();

    it('the built-in engine accepts CREATE [OR REPLACE] SEMANTIC VIEW and INSTALL/LOAD semantic_views (default "auto", "builtin")', async () => {
      for (const semanticViews of [undefined, "auto", "builtin"] as const) {
        const config =
          semanticViews === undefined
            ? { database: ":memory:", poolSize: 1 }
            : { database: ":memory:", poolSize: 1, semanticViews };
        await using engine = createEngine(new BackendCConfig(config), { register: true });
        expect(engine.settings).to.deep.include({ semanticViews: semanticViews ?? "auto" });
        engine._pool.on("connect", seedSales);
        await using conn = await engine.connect();
        await conn.run(
          `CREATE SEMANTIC VIEW sales2 AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country) METRICS (sales_data.revenue AS SUM(revenue))`,
        );
        await conn.release();
        await using cursor = await Sales.query()
          .metrics(Sales.revenue)
          .dimensions(Sales.country)
          .orderBy(Sales.revenue.desc())
          .execute();
        expect(await cursor.fetchAllRows()).to.deep.equal(BY_COUNTRY);
      }
    });

    it('semantic_views = "extension" does not use the built-in engine (and never downloads implicitly)', async () => {
      await using engine = createEngine(
        new BackendCConfig({ database: ":memory:", poolSize: 1, semanticViews: "extension" }),
      );
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS ok")).to.deep.equal([{ ok: 1 }]);
      await conn.run("CREATE TABLE sales_data (revenue INTEGER, country VARCHAR)");
      const error = await failureOf(
        conn.run(
          "CREATE SEMANTIC VIEW s AS TABLES (sales_data) DIMENSIONS (sales_data.country AS country) METRICS (sales_data.revenue AS SUM(revenue))",
        ),
      );
      expect(error).to.be.instanceOf(WarehouseError);
    });

    it("the TOML field semantic_views is validated", async () => {
      const path = join(tmp.path, "sv.toml");
      await writeFile(
        path,
        '[connections.ok]\ntype = "backend_c"\nsemantic_views = "builtin"\n\n[connections.bad]\ntype = "backend_c"\nsemantic_views = "sometimes"\n',
      );
      const ok = createEngine("ok", { configPath: path });
      expect(ok.settings).to.deep.include({ semanticViews: "builtin" });
      await ok.dispose();
      const error = thrownBy(() => createEngine("bad", { configPath: path })) as ValidationError;
      expect(error).to.be.instanceOf(ValidationError);
      expect(error.message).to.contain("semantic_views");
    });
  });

  describe("CLI: lib codegen", function () {
    this.timeout(120_000);
    const tmp = useTempDir();

    /** `lib <args>` through the CLI's own entry, in-process (test/codegen/support/run-cli.ts). */
    function lib(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
      return runLib(args, { cwd, env: { HOME: cwd } });
    }

    it("backend_c: --check exits 1 when generated/ is stale and writes nothing; generating then --check exits 0", async () => {
      const database = join(tmp.path, "shop.duckdb");
      {
        await using engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
        await using conn = await engine.connect();
        await seedSales(conn);
      }
      const stale = await lib(["codegen", "--backend", "backend_c", "--database", database, "--check"], tmp.path);
      expect(stale.code, stale.stdout + stale.stderr).to.equal(1);
      expect(existsSync(join(tmp.path, "generated"))).to.equal(false);
      const generate = await lib(["codegen", "--backend", "backend_c", "--database", database], tmp.path);
      expect(generate.code, generate.stderr).to.equal(0);
      const files = await readdir(join(tmp.path, "generated"));
      expect(files).to.include.members(["index.ts", "sales.ts", "sales.dto.ts"]);
      expect(await readFile(join(tmp.path, "generated", "index.ts"), "utf8")).to.contain("./sales.js");
      expect(await readFile(join(tmp.path, "generated", "sales.dto.ts"), "utf8")).to.contain("Type.Object(");
      const sales = await readFile(join(tmp.path, "generated", "sales.ts"), "utf8");
      expect(sales).to.contain('export class Sales extends SemanticView("sales", {');
      expect(sales).to.contain("revenue: Metric<bigint>()").and.to.contain("country: Dimension<string>()");
      // Reads .env: BACKEND_C_DATABASE gives the path when --database is absent.
      await writeFile(join(tmp.path, ".env"), `BACKEND_C_DATABASE=${database}\n`);
      const current = await lib(["codegen", "--backend", "backend_c", "--check"], tmp.path);
      expect(current.code, current.stdout + current.stderr).to.equal(0);
      await writeFile(join(tmp.path, "generated", "sales.ts"), sales.replace("Metric<bigint>()", "Metric<number>()"));
      const drift = await lib(["codegen", "--backend", "backend_c", "--database", database, "--check"], tmp.path);
      expect(drift.code).to.equal(1);
      expect(drift.stdout + drift.stderr).to.contain("sales.ts");
    });

    it("backend_a with only [connections.default]: exit 2", async () => {
      await writeFile(
        join(tmp.path, ".lib.toml"),
        '[connections.default]\ntype = "backend_a"\naccount = "acme"\nuser = "u"\npassword = "pw"\n',
      );
      const result = await lib(["codegen", "--backend", "backend_a"], tmp.path);
      expect(result.code, result.stdout + result.stderr).to.equal(2);
      expect(result.stdout + result.stderr).not.to.contain('password = "pw"');
    });
  });
});
