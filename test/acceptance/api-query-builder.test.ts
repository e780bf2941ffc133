/** API.md acceptance: the immutable query builder, compile/toSql and execute. */
import { expect } from "chai";
import {
  and,
  BackendCConfig,
  createEngine,
  Dimension,
  getEngine,
  Metric,
  not,
  or,
  QueryCancelledError,
  register,
  SemanticView,
  unregister,
  ValidationError,
} from "lib";
import { Cursor } from "lib";
import { failureOf, thrownBy } from "../support/failures.js";
import { seedSales, createSalesEngine } from "../support/sales-engine.js";
import { type Equals, assertType, Sales, TypedSales, Other, BY_COUNTRY } from "./support/api.js";

describe("API.md contract (acceptance, backend C): Query builder", function () {
  this.timeout(60_000);

  afterEach(() => {
    // No engine may leak into the next test under "default".
    expect(() => getEngine("default")).to.throw();
  });

  describe("Query builder", () => {
    it("the API.md chain, verbatim: where(null) is a no-op, limit(100).offset(200) pages", async () => {
      await using _engine = createSalesEngine();
      for (const country of [undefined, "", "US"]) {
        const q = Sales.query()
          .metrics(Sales.revenue)
          .dimensions(Sales.country)
          .where(country ? Sales.country.eq(country) : null) // null/undefined is a no-op
          .orderBy(Sales.revenue.desc())
          .limit(100) // optional
          .offset(200); // optional, for paging
        const sql = q.toSql();
        expect(sql)
          .to.match(/LIMIT 100/)
          .and.to.match(/OFFSET 200/);
        await using cursor = await q.execute();
        expect(await cursor.fetchAllRows()).to.deep.equal([]); // 4 groups at most: page 3 is empty
      }
      const unfiltered = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).where(undefined);
      expect(unfiltered.toSql()).to.equal(Sales.query().metrics(Sales.revenue).dimensions(Sales.country).toSql());
      const page = Sales.query()
        .metrics(Sales.revenue)
        .dimensions(Sales.country)
        .orderBy(Sales.revenue.desc())
        .limit(2)
        .offset(1);
      await using cursor = await page.execute();
      expect(await cursor.fetchAllRows()).to.deep.equal(BY_COUNTRY.slice(1, 3));
    });

    it("is immutable: every call returns a new query", () => {
      const base = Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
      const before = base.compile({ dialect: "backend_a" });
      const filtered = base.where(Sales.country.eq("US"));
      const ordered = filtered.orderBy(Sales.revenue.desc());
      const limited = ordered.limit(100);
      const paged = limited.offset(200);
      expect(new Set([base, filtered, ordered, limited, paged]).size).to.equal(5);
      expect(base.compile({ dialect: "backend_a" })).to.deep.equal(before);
      expect(before.parameters).to.deep.equal([]);
      expect(filtered.compile({ dialect: "backend_a" }).parameters).to.deep.equal(["US"]);
      expect(filtered.toSql({ dialect: "backend_a" })).not.to.match(/LIMIT/);
      expect(Object.isFrozen(base)).to.equal(true);
    });

    it("toSql()/compile() use the resolved engine's dialect, or the { dialect } option", async () => {
      const q = Sales.query()
        .metrics(Sales.revenue)
        .dimensions(Sales.country)
        .where(Sales.country.eq("US"))
        .orderBy(Sales.revenue.desc());
      expect(() => q.toSql()).to.throw(); // nothing registered as "default" yet: resolution happens now
      await using _engine = createSalesEngine();
      const sql: string = q.toSql();
      expect(sql).to.equal(q.toSql({ dialect: "backend_c" }));
      expect(q.toSql({ dialect: "backend_a" }))
        .to.be.a("string")
        .and.not.equal(sql);
      const compiled: { sql: string; parameters: unknown[] } = q.compile();
      expect(compiled.sql).to.equal(sql);
      expect(compiled.parameters).to.be.an("array");
      const a = q.compile({ dialect: "backend_a" });
      expect(a).to.deep.equal({ sql: q.toSql({ dialect: "backend_a" }), parameters: ["US"] });
      expect(q.compile()).to.deep.equal({ sql, parameters: [] }); // backend C inlines escaped literals
      expect(a.sql).to.equal(q.toSql({ dialect: "backend_a" }));
      expect(a.parameters).to.deep.equal(["US"]);
      expect(q.compile({ dialect: "backend_b" }).parameters).to.deep.equal(["US"]);
    });

    it('using(engineOrRegisteredName): an engine, or a name resolved at execution time; default: "default"', async () => {
      const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());
      const byName = q.using("analytics-late");
      // Built before any engine exists: resolution happens at execution time.
      const unregistered = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      unregistered._pool.on("connect", seedSales);
      try {
        expect(await failureOf(q.execute())).to.be.instanceOf(Error); // no "default" yet
        register("analytics-late", unregistered);
        expect(getEngine("analytics-late")).to.equal(unregistered);
        await using c1 = await byName.execute();
        expect(await c1.fetchAllRows()).to.deep.equal(BY_COUNTRY);
        unregister("analytics-late");
        expect(() => getEngine("analytics-late")).to.throw();
        await using c2 = await q.using(unregistered).execute();
        expect(await c2.fetchAllRows()).to.deep.equal(BY_COUNTRY);
        await using _default = createSalesEngine();
        await using c3 = await q.execute();
        expect(await c3.fetchAllRows()).to.deep.equal(BY_COUNTRY);
      } finally {
        unregister("analytics-late");
        await unregistered.dispose();
      }
    });

    it("execute() yields rows typed from the selection (type-level, checked by tsc)", async () => {
      await using _engine = createSalesEngine();
      const q = TypedSales.query()
        .metrics(TypedSales.revenue)
        .dimensions(TypedSales.country)
        .orderBy(TypedSales.revenue.desc());
      await using cursor = await q.execute();
      const rows = await cursor.fetchAllRows();
      assertType<Equals<(typeof rows)[number], { country: string; revenue: bigint }>>();
      const asDocumented: Promise<Cursor> = q.execute(); // "Promise<Cursor>"
      const documented = await asDocumented;
      expect(documented).to.be.instanceOf(Cursor);
      await documented.close();
      const first = rows[0]!;
      const country: string = first.country;
      const revenue: bigint = first.revenue;
      expect([country, revenue]).to.deep.equal(["US", 425n]);
      // @ts-expect-error `cost` was not selected
      expect(first.cost).to.equal(undefined);
    });

    it("selecting a field of another view is a type error and a runtime error", () => {
      const q = Sales.query();
      expect(
        // @ts-expect-error a metric of another view
        thrownBy(() => q.metrics(Other.revenue)),
      ).to.be.instanceOf(ValidationError);
      expect(
        // @ts-expect-error a dimension of another view
        thrownBy(() => q.dimensions(Other.country)),
      ).to.be.instanceOf(ValidationError);
      expect(
        // @ts-expect-error a condition on another view
        thrownBy(() => q.metrics(Sales.revenue).where(Other.country.eq("US"))),
      ).to.be.instanceOf(ValidationError);
      expect(
        // @ts-expect-error an ordering on another view
        thrownBy(() => q.metrics(Sales.revenue).orderBy(Other.revenue.desc())),
      ).to.be.instanceOf(ValidationError);
      const error = thrownBy(() => q.metrics(Other.revenue as never)) as Error;
      expect(error.message).to.contain("other").and.to.contain("sales");
    });

    it("execute({ signal, timeoutMs }) cancels the running statement", async () => {
      class Huge extends SemanticView("huge", { total: Metric<bigint>(), bucket: Dimension<string>() }) {}
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
      engine._pool.on("connect", async (conn) => {
        await conn.run("LOAD semantic_views");
        await conn.run(
          "CREATE VIEW huge_data AS SELECT (i % 97)::VARCHAR AS bucket, i AS v FROM range(300000000) t(i)",
        );
        await conn.run(
          "CREATE OR REPLACE SEMANTIC VIEW huge AS TABLES (h AS huge_data) DIMENSIONS (h.bucket AS bucket) METRICS (h.total AS SUM(v))",
        );
        await conn.commit();
      });
      const q = Huge.query().dimensions(Huge.bucket).metrics(Huge.total);
      const timedOut = await failureOf(
        (async () => {
          await using cursor = await q.execute({ timeoutMs: 200 });
          return cursor.fetchAllRows();
        })(),
      );
      expect(timedOut).to.be.instanceOf(QueryCancelledError);
      const controller = new AbortController();
      const running = (async () => {
        await using cursor = await q.execute({ signal: controller.signal });
        return cursor.fetchAllRows();
      })();
      setTimeout(() => controller.abort(), 200);
      expect(await failureOf(running)).to.be.instanceOf(QueryCancelledError);
      const aborted = new AbortController();
      aborted.abort();
      expect(await failureOf(q.execute({ signal: aborted.signal }))).to.be.instanceOf(QueryCancelledError);
      // The one pooled connection came back usable.
      expect(engine._pool.borrowed).to.equal(0);
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 42 AS answer")).to.deep.equal([{ answer: 42 }]);
    });
  });
});
