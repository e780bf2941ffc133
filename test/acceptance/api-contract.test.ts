/**
 * Acceptance test of ../shared/API.md, section by section: every code sample is used as written there
 * and every stated behaviour is exercised against the real DuckDB backend (backend C), importing only
 * from "lib" (plus test-only reads of documented private members such as `engine._pool`).
 * Type-level claims are checked by `tsc --noEmit` (this file is part of the project type-check).
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Table } from "apache-arrow";
import express from "express";
import { Type } from "typebox";
import {
  and,
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  createAsyncEngine,
  createEngine,
  DataError,
  Decimal,
  DecimalType,
  Dimension,
  getEngine,
  IntegrityError,
  InternalError,
  jsonReplacer,
  jsonReplacerWritesNumbers,
  jsonResponse,
  LibConnectionError,
  LibSchemaMismatchError,
  LibType,
  Metric,
  not,
  NotSupportedError,
  OperationalError,
  or,
  PoolTimeoutError,
  ProgrammingError,
  QueryCancelledError,
  register,
  SemanticView,
  sendJson,
  toJson,
  unregister,
  ValidationError,
  WarehouseError,
  BigIntType,
} from "lib";
import { Cursor } from "lib";
import type { Engine } from "lib";
import { failureOf, thrownBy } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A temp directory per test, removed afterwards. */
// ---------------------------------------------------------------------------------------------
// "Declaring a semantic view": the sample, verbatim
// ---------------------------------------------------------------------------------------------

export class Sales extends SemanticView("sales", {
  revenue: Metric(), // optional value type: Metric<bigint>()
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
}) {}

/** The same view with every value type filled in (the form codegen emits). */
class TypedSales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string | null>(),
}) {}

class Other extends SemanticView("other", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

/** The response model of API.md "Cursor". */
const RevenueByCountry = Type.Object(
  { country: Type.String({ title: "Country" }), revenue: Type.Integer({ title: "Revenue" }) },
  { title: "RevenueByCountry" },
);

/** Seeded rows; several share a country; one region is NULL. */
const ROWS: readonly [number, number, string, string | null][] = [
  [100, 40, "US", "West"],
  [250, 90, "US", "East"],
  [75, 30, "US", "West"],
  [300, 120, "DE", "Berlin"],
  [120, 50, "DE", "Bavaria"],
  [90, 60, "FR", "Paris"],
  [60, 20, "JP", null],
  [40, 35, "JP", "Kansai"],
];
/** Revenue per country, ordered by revenue descending. */
const BY_COUNTRY = [
  { country: "US", revenue: 425n },
  { country: "DE", revenue: 420n },
  { country: "JP", revenue: 100n },
  { country: "FR", revenue: 90n },
];

/** The SPEC.md fixture's listener steps, on every new connection. */
async function seedSales(conn: { run(sql: string, params?: readonly unknown[]): Promise<void> }): Promise<void> {
  await conn.run("INSTALL semantic_views");
  await conn.run("LOAD semantic_views");
  await conn.run("CREATE TABLE sales_data (revenue INTEGER, cost INTEGER, country VARCHAR, region VARCHAR)");
  await conn.run(`INSERT INTO sales_data VALUES ${ROWS.map(() => "(?, ?, ?, ?)").join(", ")}`, ROWS.flat());
  await conn.run(`CREATE OR REPLACE SEMANTIC VIEW sales AS
    TABLES (sales_data)
    DIMENSIONS (sales_data.country AS country, sales_data.region AS region)
    METRICS (sales_data.revenue AS SUM(revenue), sales_data.cost AS SUM(cost))`);
  await conn.run("COMMIT");
}

/** The API.md engine sample plus the seeding listener; registered as "default". */
function salesEngine(): Engine {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
  engine._pool.on("connect", async (conn) => seedSales(conn));
  return engine;
}

function countries(rows: readonly { country: unknown }[]): unknown[] {
  return rows.map((r) => r.country);
}

describe("API.md contract (acceptance, backend C)", function () {
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
      expect(pkg.exports["."]?.default).to.match(/^\.\/dist\/.+\.js$/);
      expect(pkg.exports["."]?.types).to.match(/^\.\/dist\/.+\.d\.ts$/);
      expect(pkg.bin["lib"]).to.match(/^\.\/dist\/.+\.js$/);
      expect(pkg.scripts["build"]).to.be.a("string");
      expect(pkg.scripts["test"]).to.be.a("string");
    });

    it('exports every name of API.md from "lib"', async () => {
      const lib = (await import("lib")) as Record<string, unknown>;
      const names = [
        "SemanticView",
        "Metric",
        "Dimension",
        "and",
        "or",
        "not",
        "Decimal",
        "toJson",
        "jsonReplacer",
        "createEngine",
        "createAsyncEngine",
        "register",
        "unregister",
        "getEngine",
        "BackendAConfig",
        "BackendBConfig",
        "BackendCConfig",
        "ValidationError",
        "LibConnectionError",
        "WarehouseError",
        "ProgrammingError",
        "InternalError",
        "OperationalError",
        "DataError",
        "IntegrityError",
        "NotSupportedError",
        "LibSchemaMismatchError",
        "PoolTimeoutError",
      ];
      for (const name of names) expect(lib[name], name).to.be.a("function");
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

  describe("Conditions and orderings", () => {
    const byCountry = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

    async function run(condition: Parameters<typeof byCountry.where>[0]): Promise<unknown[]> {
      await using cursor = await byCountry.where(condition).execute();
      return countries(await cursor.fetchAllRows());
    }

    it("eq, ne, gt, gte, lt, lte, in, notIn, between, like, isNull, isNotNull, and, or, not", async () => {
      await using _engine = salesEngine();
      expect(await run(Sales.country.eq("US"))).to.deep.equal(["US"]);
      expect(await run(Sales.country.ne("US"))).to.deep.equal(["DE", "JP", "FR"]);
      expect(await run(Sales.country.gt("FR"))).to.deep.equal(["US", "JP"]);
      expect(await run(Sales.country.gte("FR"))).to.deep.equal(["US", "JP", "FR"]);
      expect(await run(Sales.country.lt("FR"))).to.deep.equal(["DE"]);
      expect(await run(Sales.country.lte("FR"))).to.deep.equal(["DE", "FR"]);
      expect(await run(Sales.country.in(["US", "FR"]))).to.deep.equal(["US", "FR"]);
      expect(await run(Sales.country.notIn(["US", "FR"]))).to.deep.equal(["DE", "JP"]);
      expect(await run(Sales.country.between("DE", "FR"))).to.deep.equal(["DE", "FR"]);
      expect(await run(Sales.country.like("U%"))).to.deep.equal(["US"]);
      expect(await run(Sales.region.isNull())).to.deep.equal(["JP"]);
      expect(await run(Sales.region.isNotNull())).to.deep.equal(["US", "DE", "FR", "JP"]); // JP: 40 without its NULL region
      expect(await run(and(Sales.country.eq("US"), Sales.region.eq("West")))).to.deep.equal(["US"]);
      expect(await run(or(Sales.country.eq("US"), Sales.country.eq("FR")))).to.deep.equal(["US", "FR"]);
      expect(await run(not(Sales.country.eq("US")))).to.deep.equal(["DE", "JP", "FR"]);
      await using cursor = await byCountry.where(and(Sales.country.eq("US"), Sales.region.eq("West"))).execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "US", revenue: 175n }]);
    });

    it('desc() and asc() accept { nulls: "first" | "last" }', async () => {
      await using _engine = salesEngine();
      const jp = Sales.query().dimensions(Sales.region).metrics(Sales.revenue).where(Sales.country.eq("JP"));
      const regions = async (q: typeof jp) => {
        await using cursor = await q.execute();
        return (await cursor.fetchAllRows()).map((r) => r.region);
      };
      expect(await regions(jp.orderBy(Sales.region.asc({ nulls: "first" })))).to.deep.equal([null, "Kansai"]);
      expect(await regions(jp.orderBy(Sales.region.asc({ nulls: "last" })))).to.deep.equal(["Kansai", null]);
      expect(await regions(jp.orderBy(Sales.region.desc({ nulls: "first" })))).to.deep.equal([null, "Kansai"]);
      expect(await regions(jp.orderBy(Sales.region.desc({ nulls: "last" })))).to.deep.equal(["Kansai", null]);
      expect(await regions(jp.orderBy(Sales.revenue.asc()))).to.deep.equal(["Kansai", null]);
      expect(await regions(jp.orderBy(Sales.revenue.desc()))).to.deep.equal([null, "Kansai"]);
    });

    it("values are data, never SQL: bound parameters on A and B, escaped literals on C", async () => {
      await using _engine = salesEngine();
      const hostile = "US' OR '1'='1";
      const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).where(Sales.country.eq(hostile));
      const a = q.compile({ dialect: "backend_a" });
      expect(a.parameters).to.deep.equal([hostile]);
      expect(a.sql).not.to.contain(hostile);
      const b = q.compile({ dialect: "backend_b" });
      expect(b.parameters).to.deep.equal([hostile]);
      expect(b.sql).not.to.contain(hostile);
      const c = q.compile({ dialect: "backend_c" });
      expect(c.sql).not.to.contain(hostile); // the quote is doubled inside the literal
      await using cursor = await q.execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([]);
    });
  });

  describe("Query builder", () => {
    it("the API.md chain, verbatim: where(null) is a no-op, limit(100).offset(200) pages", async () => {
      await using _engine = salesEngine();
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
      await using _engine = salesEngine();
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
        await using _default = salesEngine();
        await using c3 = await q.execute();
        expect(await c3.fetchAllRows()).to.deep.equal(BY_COUNTRY);
      } finally {
        unregister("analytics-late");
        await unregistered.dispose();
      }
    });

    it("execute() yields rows typed from the selection (type-level, checked by tsc)", async () => {
      await using _engine = salesEngine();
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

  describe("Cursor", () => {
    const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

    it("the API.md sample: fetchAllRows, into (default strict), iterInto; released at scope exit", async () => {
      await using engine = salesEngine();
      {
        await using cursor = await q.execute(); // the pooled connection is released at scope exit
        const rows = await cursor.fetchAllRows(); // plain objects keyed by field name
        expect(rows).to.deep.equal(BY_COUNTRY);
        for (const row of rows) {
          expect(Object.getPrototypeOf(row)).to.equal(Object.prototype);
          expect(Object.keys(row)).to.deep.equal(["country", "revenue"]);
        }
        expect(engine._pool.borrowed).to.equal(0); // exhausted: already back
      }
      {
        await using cursor = await q.execute();
        const typed = await cursor.into(RevenueByCountry); // default validate: "strict"
        // Type.Integer() is `number`: the 64-bit SUM arrives as a number within ±(2^53−1).
        expect(typed.map((r) => [r.country, r.revenue])).to.deep.equal(
          BY_COUNTRY.map((r) => [r.country, Number(r.revenue)]),
        );
      }
      {
        await using cursor = await q.execute();
        const seen: unknown[] = [];
        for await (const r of cursor.iterInto(RevenueByCountry)) seen.push(r.country); // streaming, bounded memory
        expect(seen).to.deep.equal(["US", "DE", "JP", "FR"]);
      }
      {
        const cursor = await q.execute();
        {
          await using scoped = cursor;
          expect(engine._pool.borrowed).to.equal(1);
          void scoped;
        }
        expect(engine._pool.borrowed).to.equal(0);
      }
    });

    it("into(): one instance per row, keys in the model's declaration order, columns matched by name", async () => {
      await using _engine = salesEngine();
      const Reordered = Type.Object({ revenue: Type.Integer(), country: Type.String() }, { title: "Reordered" });
      await using cursor = await q.execute();
      const rows = await cursor.into(Reordered);
      expect(rows).to.have.length(4);
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(["revenue", "country"]);
      expect(rows[0]).to.deep.include({ country: "US" });
      expect(BigInt(rows[0]!.revenue as number | bigint)).to.equal(425n);
    });

    it('validate "strict": a disagreeing model throws LibSchemaMismatchError naming field, model type and column type', async () => {
      await using _engine = salesEngine();
      const Wrong = Type.Object({ country: Type.String(), revenue: Type.String() }, { title: "Wrong" });
      for (const options of [undefined, { validate: "strict" as const }]) {
        await using cursor = await q.execute();
        const error = (await failureOf(cursor.into(Wrong, options))) as LibSchemaMismatchError;
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        // SUM(INTEGER) arrives as BIGINT (the semantic layer casts HUGEINT down, as the extension does).
        expect(error.message).to.contain("revenue").and.to.contain("string").and.to.contain("BIGINT");
      }
      // A 64-bit column agrees with `number` value by value: these sums are within ±(2^53−1).
      await using cursor = await q.execute();
      const AsNumber = Type.Object({ country: Type.String(), revenue: Type.Number() });
      expect((await cursor.into(AsNumber)).map((r) => typeof r.revenue)).to.deep.equal(BY_COUNTRY.map(() => "number"));
    });

    it('validate "coerce" converts exactly or throws; "none" does not check', async () => {
      await using engine = salesEngine();
      const AsNumber = Type.Object({ country: Type.String(), revenue: Type.Number() });
      {
        await using cursor = await q.execute();
        const rows = await cursor.into(AsNumber, { validate: "coerce" });
        expect(rows[0]).to.deep.equal({ country: "US", revenue: 425 });
        expect(typeof rows[0]!.revenue).to.equal("number");
      }
      {
        await using conn = await engine.connect();
        await conn.run("ALTER TABLE sales_data ALTER revenue TYPE BIGINT");
        await conn.run("INSERT INTO sales_data VALUES (9007199254740993, 0, 'XL', 'Big')"); // 2^53 + 1
        await conn.commit();
      }
      {
        await using cursor = await q.execute();
        const error = await failureOf(cursor.into(AsNumber, { validate: "coerce" }));
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        expect((error as Error).message).to.contain("revenue");
      }
      {
        const Wrong = Type.Object({ country: Type.String(), revenue: Type.String() });
        await using cursor = await q.execute();
        const rows = await cursor.into(Wrong, { validate: "none" });
        expect(rows[0]).to.deep.equal({ country: "XL", revenue: 9007199254740993n });
      }
      {
        await using cursor = await q.execute();
        const rows: unknown[] = [];
        for await (const r of cursor.iterInto(AsNumber, { validate: "none" })) rows.push(r);
        expect(rows).to.have.length(5);
      }
    });

    it("fetchArrow() returns an apache-arrow Table", async () => {
      await using _engine = salesEngine();
      await using cursor = await q.execute();
      const table = await cursor.fetchArrow();
      expect(table).to.be.instanceOf(Table);
      expect(table.numRows).to.equal(4);
      expect(table.schema.fields.map((f) => f.name)).to.deep.equal(["country", "revenue"]);
      expect(table.getChild("country")?.toArray()).to.deep.equal(["US", "DE", "JP", "FR"]);
      expect(BigInt(table.getChild("revenue")!.get(0) as bigint)).to.equal(425n);
    });

    it("one read mode per result: mixing modes throws a clear error", async () => {
      await using _engine = salesEngine();
      type Read = (c: Awaited<ReturnType<typeof q.execute>>) => Promise<unknown>;
      const reads: Read[] = [
        (c) => c.fetchAllRows(),
        (c) => c.into(RevenueByCountry),
        async (c) => {
          for await (const _ of c.iterInto(RevenueByCountry)) break;
        },
        (c) => c.fetchArrow(),
      ];
      for (let first = 0; first < reads.length; first++) {
        for (let second = 0; second < reads.length; second++) {
          if (first === second) continue;
          await using cursor = await q.execute();
          await reads[first]!(cursor);
          const error = await failureOf(Promise.resolve().then(() => reads[second]!(cursor)));
          expect(error, `${first} then ${second}`).to.be.instanceOf(Error);
          expect((error as Error).message).to.match(/read mode|already read/i);
        }
      }
    });

    it("close() releases the connection early; closing twice is harmless", async () => {
      await using engine = salesEngine();
      const cursor = await q.execute();
      expect(engine._pool.borrowed).to.equal(1);
      await cursor.close();
      expect(engine._pool.borrowed).to.equal(0);
      await cursor.close();
      await cursor[Symbol.asyncDispose]();
      expect(engine._pool.borrowed).to.equal(0);
    });
  });

  describe("How values arrive", () => {
    class Typed extends SemanticView("typed", {
      tiny: Dimension<number>(),
      small: Dimension<number>(),
      int: Dimension<number>(),
      uint: Dimension<number>(),
      big: Dimension<bigint>(),
      huge: Dimension<bigint>(),
      ubig: Dimension<bigint>(),
      money: Dimension<Decimal>(),
      real: Dimension<number>(),
      dbl: Dimension<number>(),
      txt: Dimension<string>(),
      flag: Dimension<boolean>(),
      day: Dimension<Date>(),
      ts: Dimension<Date>(),
      total_money: Metric<Decimal>(),
      total_big: Metric<bigint>(),
      avg_int: Metric<number>(),
    }) {}
    const selectValues = (
      huge: string,
    ) => `SELECT 1::TINYINT AS tiny, 2::SMALLINT AS small, 3::INTEGER AS int, 4::UINTEGER AS uint,
      9007199254740993::BIGINT AS big, ${huge}::HUGEINT AS huge, 18446744073709551615::UBIGINT AS ubig,
      12345678901234.56::DECIMAL(18,2) AS money, 1.5::FLOAT AS real, 2.25::DOUBLE AS dbl, 'text' AS txt, true AS flag,
      DATE '2024-02-29' AS day, TIMESTAMP '2024-02-29 12:34:56' AS ts`;

    function typedEngine(): Engine {
      const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), { register: true });
      engine._pool.on("connect", async (conn) => {
        await conn.run(`CREATE TABLE typed_data AS ${selectValues(VIEW_HUGE)}`);
        await conn.run(`CREATE SEMANTIC VIEW typed AS TABLES (t AS typed_data)
          DIMENSIONS (${["tiny", "small", "int", "uint", "big", "huge", "ubig", "money", "real", "dbl", "txt", "flag", "day", "ts"].map((c) => `t.${c} AS ${c}`).join(", ")})
          METRICS (t.total_money AS SUM(money), t.total_big AS SUM(big), t.avg_int AS AVG(int))`);
        await conn.commit();
      });
      return engine;
    }

    /** Semantic views hand HUGEINT out as BIGINT (as the extension does), so the view's value fits 64 bits. */
    const VIEW_HUGE = "9223372036854775807";
    const RAW_HUGE = "170141183460469231731687303715884105727";

    function checkValues(row: Record<string, unknown>, huge: string): void {
      for (const key of ["tiny", "small", "int", "uint"]) expect(row[key], key).to.be.a("number");
      expect([row["tiny"], row["small"], row["int"], row["uint"]]).to.deep.equal([1, 2, 3, 4]);
      expect(row["big"]).to.equal(9007199254740993n);
      expect(row["huge"]).to.equal(BigInt(huge));
      expect(row["ubig"]).to.equal(18446744073709551615n);
      expect(row["money"]).to.be.instanceOf(Decimal);
      expect((row["money"] as Decimal).toString()).to.equal("12345678901234.56");
      expect(row["real"]).to.equal(1.5);
      expect(row["dbl"]).to.equal(2.25);
      expect(row["txt"]).to.equal("text");
      expect(row["flag"]).to.equal(true);
      expect(row["day"]).to.be.instanceOf(Date);
      expect((row["day"] as Date).toISOString()).to.equal("2024-02-29T00:00:00.000Z");
      expect(row["ts"]).to.be.instanceOf(Date);
      expect((row["ts"] as Date).toISOString()).to.equal("2024-02-29T12:34:56.000Z");
    }

    it("through a cursor: number, bigint, Decimal, number, string, boolean, Date", async () => {
      await using _engine = typedEngine();
      const q = Typed.query()
        .dimensions(Typed.tiny, Typed.small, Typed.int, Typed.uint, Typed.big, Typed.huge, Typed.ubig, Typed.money)
        .dimensions(Typed.real, Typed.dbl, Typed.txt, Typed.flag, Typed.day, Typed.ts)
        .metrics(Typed.total_money, Typed.total_big, Typed.avg_int);
      await using cursor = await q.execute();
      const rows = await cursor.fetchAllRows();
      expect(rows).to.have.length(1);
      const row = rows[0]!;
      checkValues(row, VIEW_HUGE);
      expect(row.total_money).to.be.instanceOf(Decimal);
      expect(row.total_money.toString()).to.equal("12345678901234.56");
      expect(row.total_big).to.equal(9007199254740993n);
      expect(row.avg_int).to.equal(3);
      assertType<Equals<typeof row.total_money, Decimal>>();
    });

    it("through conn.all(): the same normalization", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      await using conn = await engine.connect();
      const [row] = await conn.all(selectValues(RAW_HUGE));
      checkValues(row!, RAW_HUGE);
    });

    it("model types agree: integer with number-integers, BigIntType with bigint, number with number, Decimal helper with Decimal, string with text", async () => {
      await using _engine = typedEngine();
      const Model = Type.Object({
        int: Type.Integer(),
        big: BigIntType(),
        dbl: Type.Number(),
        money: DecimalType(), // API.md: the schema helper of `Decimal` columns
        total_money: DecimalType(),
        txt: Type.String(),
        flag: Type.Boolean(),
      });
      const q = Typed.query()
        .dimensions(Typed.int, Typed.big, Typed.dbl, Typed.money, Typed.txt, Typed.flag)
        .metrics(Typed.total_money);
      await using cursor = await q.execute();
      const [row] = await cursor.into(Model);
      expect(row!.int).to.equal(3);
      expect(row!.big).to.equal(9007199254740993n);
      {
        // Type.Integer() (`number`) over the same 64-bit value: an error naming field, value and row.
        await using again = await Typed.query().dimensions(Typed.big).execute();
        const error = (await failureOf(again.into(Type.Object({ big: Type.Integer() })))) as LibSchemaMismatchError;
        expect(error).to.be.instanceOf(LibSchemaMismatchError);
        expect(error.message).to.contain("big").and.contain("9007199254740993n").and.contain("row 0");
      }
      expect(row!.dbl).to.equal(2.25);
      expect(row!.money).to.be.instanceOf(Decimal);
      expect(row!.total_money.toString()).to.equal("12345678901234.56");
      assertType<Equals<NonNullable<typeof row>["money"], Decimal>>();
      expect(row!.txt).to.equal("text");
      {
        await using again = await Typed.query().dimensions(Typed.money).execute();
        const [viaLibType] = await again.into(Type.Object({ money: LibType.Decimal() }));
        expect(viaLibType!.money.toString()).to.equal("12345678901234.56");
      }
      const Mismatch = Type.Object({ money: Type.Number() });
      await using again = await Typed.query().dimensions(Typed.money).execute();
      expect(await failureOf(again.into(Mismatch))).to.be.instanceOf(LibSchemaMismatchError);
    });
  });

  describe("Decimal and lossless JSON", () => {
    it("Decimal is an exact plain class: toString(), toJSON(); not callable (DecimalType() is the schema helper)", () => {
      const built = new Decimal(1250n, 2);
      expect(built).to.be.instanceOf(Decimal);
      expect(built.toString()).to.equal("12.50");
      expect(Decimal.isDecimal(built)).to.equal(true);
      expect(() => (Decimal as unknown as (options: object) => unknown)({ title: "Revenue" })).to.throw(TypeError);
      expect(DecimalType({ title: "Revenue" })).to.deep.include({ title: "Revenue" });
      const d = Decimal.parse("12345678901234567890.123456789");
      expect(d.toString()).to.equal("12345678901234567890.123456789");
      expect(d.toJSON()).to.equal("12345678901234567890.123456789");
      expect(Decimal.parse("1.50").toString()).to.equal("1.50");
      expect(Decimal.parse("-0.05").toString()).to.equal("-0.05");
    });

    it("toJson writes bigint and Decimal as exact JSON numbers, no TypeError", () => {
      const body = {
        big: 9223372036854775807n,
        money: Decimal.parse("12345678901234567890.123456789"),
        list: [1n, "x", null],
        day: new Date(0),
      };
      expect(() => JSON.stringify(body)).to.throw(TypeError);
      expect(toJson(body)).to.equal(
        '{"big":9223372036854775807,"money":12345678901234567890.123456789,"list":[1,"x",null],"day":"1970-01-01T00:00:00.000Z"}',
      );
    });

    it("jsonReplacer makes JSON.stringify lossless (exact numbers when JSON.rawJSON exists)", () => {
      const text = JSON.stringify({ big: 9223372036854775807n, money: Decimal.parse("0.10") }, jsonReplacer);
      expect(text).to.equal(
        jsonReplacerWritesNumbers
          ? '{"big":9223372036854775807,"money":0.10}'
          : '{"big":"9223372036854775807","money":"0.10"}',
      );
    });

    it("the Express response helpers write exact numbers", async () => {
      const app = express();
      app.get("/helper", (_req, res) => sendJson(res, [{ country: "US", revenue: 9007199254740993n }]));
      app.use(jsonResponse());
      app.get("/middleware", (_req, res) => {
        res.status(200).json({ money: Decimal.parse("12345678901234567890.12") });
      });
      const server = app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server.once("listening", () => resolve()));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const helper = await fetch(`${base}/helper`);
        expect(helper.headers.get("content-type")).to.contain("application/json");
        expect(await helper.text()).to.equal('[{"country":"US","revenue":9007199254740993}]');
        expect(await (await fetch(`${base}/middleware`)).text()).to.equal('{"money":12345678901234567890.12}');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
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
        `[connections.analytics]\ntype = "backend_c"\ndatabase = ${JSON.stringify(database)}\npool_size = 2\n`,
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
    const root = fileURLToPath(new URL("../../", import.meta.url));

    function lib(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
      const env: Record<string, string> = {
        PATH: process.env["PATH"] ?? "",
        HOME: cwd,
        TSX_TSCONFIG_PATH: join(root, "tsconfig.json"),
        NO_COLOR: "1",
      };
      const argv = [
        "--import",
        pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
        join(root, "codegen", "bin.ts"),
        ...args,
      ];
      return new Promise((resolve) => {
        execFile(process.execPath, argv, { cwd, env, timeout: 90_000 }, (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
        });
      });
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
