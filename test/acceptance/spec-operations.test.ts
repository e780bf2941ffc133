/** SPEC.md acceptance, Endpoints: programmatic operations and the command line. */
import { expect } from "chai";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import {
  BackendCConfig,
  DecimalType,
  Dimension,
  LibSchemaMismatchError,
  Metric,
  SemanticView,
  ValidationError,
  createAsyncEngine,
  createEngine,
} from "lib";
import type { Engine } from "lib";
import { RevenueByCountry } from "../../example-service/model.js";
import { runLib } from "../codegen/support/run-cli.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";
import { SALES_VIEW_DDL } from "../support/sales-fixture.js";
import { withSalesEngine } from "../support/sales-engine.js";
import { Sales, BY_COUNTRY, inDirectory, seededFile, revenueQuery, ENV_KEYS, isRegistered } from "./support/spec.js";
import { useIsolatedEnv } from "../support/environment.js";

describe("SPEC.md acceptance: Endpoints: programmatic and command line", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  useIsolatedEnv(ENV_KEYS);

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
          await conn.run(SALES_VIEW_DDL);
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
          { country: "US", revenue: 425n, cost: 160n },
          { country: "DE", revenue: 420n, cost: 170n },
          { country: "JP", revenue: 100n, cost: 55n },
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
});
