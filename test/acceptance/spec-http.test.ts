/** SPEC.md acceptance, Endpoints: the example service (GET /revenue, GET /docs). */
import { expect } from "chai";
import { rm } from "node:fs/promises";
import { Type } from "typebox";
import {
  BackendCConfig,
  InternalError,
  LibConnectionError,
  LibSchemaMismatchError,
  ProgrammingError,
  WarehouseError,
  createEngine,
  toJson,
} from "lib";
import type { Engine } from "lib";
import { createApp } from "../../example-service/app.js";
import { startService } from "../../example-service/lifespan.js";
import { RevenueByCountry } from "../../example-service/model.js";
import { listen, recordingLogger } from "../service/support/service-harness.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";
import { withSalesEngine } from "../support/sales-engine.js";
import {
  UNAVAILABLE_BODY,
  unregisteredSalesEngine,
  pause,
  seededFile,
  revenueQuery,
  ENV_KEYS,
} from "./support/spec.js";
import { useIsolatedEnv } from "../support/environment.js";

describe("SPEC.md acceptance: Endpoints: HTTP", function () {
  this.timeout(60_000);

  // Keep the host's variables out of every test here.
  useIsolatedEnv(ENV_KEYS);

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
          '[{"country":"US","revenue":425},{"country":"DE","revenue":420},{"country":"JP","revenue":100},{"country":"FR","revenue":90}]',
        );
      });
    });

    it("1. When country is absent or empty, no filter applies; aggregated revenue is returned per country", async () => {
      await withApp(async (url) => {
        const absent = await (await fetch(`${url}/revenue`)).json();
        const empty = await (await fetch(`${url}/revenue?country=`)).json();
        expect(empty).to.deep.equal(absent);
        expect((absent as unknown[]).length).to.equal(4);
      });
    });

    it("2. When country is non-empty, an equality condition on the country dimension applies; an unknown value gives 200 []", async () => {
      await withApp(async (url) => {
        expect(await (await fetch(`${url}/revenue?country=US`)).json()).to.deep.equal([
          { country: "US", revenue: 425 },
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
          5,
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
          expect(rows.map((r) => Object.keys(r))).to.deep.equal(Array(4).fill(["country", "revenue"]));
          expect(toJson(rows[0])).to.equal('{"country":"US","revenue":425}');
        }
        // A model declaring revenue before country: its order wins.
        const RevenueFirst = Type.Object(
          { revenue: Type.Integer(), country: Type.String() },
          { title: "RevenueFirst" },
        );
        await using cursor = await revenueQuery().execute();
        const typed = await cursor.into(RevenueFirst);
        expect(typed.map((r) => Object.keys(r))).to.deep.equal(Array(4).fill(["revenue", "country"]));
        expect(toJson(typed[0])).to.equal('{"revenue":425,"country":"US"}');
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
});
