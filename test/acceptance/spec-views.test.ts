/** SPEC.md acceptance, Resources: the semantic view declaration and the example view Sales, result typing, the RevenueByCountry model and the test-support engine. */
import { expect } from "chai";
import { join } from "node:path";
import {
  BackendCConfig,
  Decimal,
  Dimension,
  Metric,
  SemanticView,
  WarehouseError,
  createEngine,
  getEngine,
  toJson,
} from "lib";
import { toJsonSchema } from "lib/express";
import type { ConnectConnection, Engine } from "lib";
import { createApp } from "../../example-service/app.js";
import { RevenueByCountry } from "../../example-service/model.js";
import { listen, recordingLogger } from "../service/support/service-harness.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";
import { SALES_ROWS, SALES_TOTALS } from "../support/sales-fixture.js";
import { seedSales, withSalesEngine } from "../support/sales-engine.js";
import { Sales, BY_COUNTRY, unregisteredSalesEngine, revenueQuery, ENV_KEYS, isRegistered } from "./support/spec.js";
import { useIsolatedEnv } from "../support/environment.js";

describe("SPEC.md acceptance: Resources: views, typing and the test engine", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  useIsolatedEnv(ENV_KEYS);

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

  describe("Resources: Result typing", () => {
    it("Backend C, sum over an integer column: integer (bigint, exact)", async () => {
      await withSalesEngine(async () => {
        await using cursor = await Sales.query().metrics(Sales.revenue).execute();
        const [row] = await cursor.fetchAllRows();
        expect(row!.revenue).to.equal(SALES_TOTALS.revenue);
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
          expect(await conn.all("SELECT count(*) AS n FROM sales_data")).to.deep.equal([
            { n: BigInt(SALES_ROWS.length) },
          ]);
        }
        await using again = await engine.connect();
        expect(await again.all("SELECT count(*) AS n FROM sales_data")).to.deep.equal([
          { n: BigInt(SALES_ROWS.length) },
        ]);
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
          expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "US", revenue: 425n }]);
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
});
