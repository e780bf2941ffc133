/**
 * "revenue-by-country": the SPEC.md example through the library (builder → execute() → into() or
 * fetchAllRows()) against the raw DuckDB driver running the equivalent hand-written GROUP BY on the
 * same table, same instance, same run. Both answers are checked to be equal before timing.
 */
import { deepStrictEqual } from "node:assert/strict";
import { Type } from "typebox";
import { BigIntType, Dimension, Fact, Metric, SemanticView } from "lib";
import type { BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./bench-harness.js";
import type { BenchSettings } from "./bench-settings.js";

/** The `sales` view's members (distinct-values.ts declares them again over a smaller table). */
export const SALES_MEMBERS = {
  revenue: Metric(),
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
  sale_id: Fact<bigint>(),
  unit_revenue: Fact<number>(),
  amount: Fact(),
  sold_on: Fact<Date>(),
};

export class Sales extends SemanticView("sales", SALES_MEMBERS) {}

// BigIntType: the metric is BIGINT, read exactly (as the generated RevenueByCountry does).
export const RevenueByCountry = Type.Object(
  { country: Type.String(), revenue: BigIntType() },
  { title: "RevenueByCountry" },
);

export const libQuery = (country?: string) =>
  Sales.query()
    .metrics(Sales.revenue)
    .dimensions(Sales.country)
    .where(country ? Sales.country.eq(country) : null)
    .orderBy(Sales.revenue.desc());

// The built-in layer casts the metric to BIGINT (SUM over INTEGER is HUGEINT in DuckDB): same types on both sides.
export const RAW_SQL = `SELECT country, SUM(revenue)::BIGINT AS revenue FROM sales_data GROUP BY country ORDER BY revenue DESC NULLS LAST`;
export const RAW_SQL_FILTERED = `SELECT country, SUM(revenue)::BIGINT AS revenue FROM sales_data WHERE country = $1 GROUP BY country ORDER BY revenue DESC NULLS LAST`;

export async function runRevenueByCountry(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const { raw } = fixture;
  const results: GroupResult[] = [];
  for (const country of [undefined, "DE"]) {
    const q = libQuery(country);
    const rawRead = () => raw.runAndReadAll(country ? RAW_SQL_FILTERED : RAW_SQL, country ? [country] : undefined);
    const rawRows = async () => (await rawRead()).getRowObjects();
    // A raw user who keeps the prepared statement (lib's DuckDB connection does, for autocommit reads).
    const prepared = await raw.prepare(country ? RAW_SQL_FILTERED : RAW_SQL);
    const preparedRows = async () => {
      if (country) prepared.bind([country]);
      return (await prepared.runAndReadAll()).getRowObjects();
    };

    // Same answer and same column types on both sides.
    {
      await using cursor = await q.execute();
      const lib = await cursor.into(RevenueByCountry);
      const reader = await rawRead();
      const expected = reader.getRowObjects().map((r) => ({ country: r["country"], revenue: r["revenue"] }));
      deepStrictEqual(
        lib.map((r) => ({ ...r })),
        expected,
        "library and raw driver disagree on revenue by country",
      );
      deepStrictEqual(
        cursor.columns.map((c) => c.type),
        reader.columnTypes().map(String),
        "library and raw driver return different column types",
      );
    }

    results.push(
      await measureGroup({
        benchmark: "revenue-by-country",
        key: country ? `revenue-by-country[${country}]` : "revenue-by-country",
        title: `revenue-by-country${country ? ` WHERE country = '${country}'` : ""}: ${fixture.rows.toLocaleString("en-US")} fact rows`,
        // A round is six ~3 ms queries: enough rounds for a median that holds within a few percent.
        warmupRounds: settings.quick ? 10 : 20,
        rounds: settings.quick ? 60 : 200,
        minRounds: settings.quick ? 40 : 100,
        budgetMs: settings.quick ? 4_000 : 12_000,
        cases: [
          {
            name: "execute().into(RevenueByCountry)",
            role: "lib",
            baselines: ["getRowObjects()", "prepared once, getRowObjects()"],
            run: async () => {
              await using cursor = await q.execute();
              return await cursor.into(RevenueByCountry);
            },
          },
          {
            name: "execute().fetchAllRows()",
            role: "lib",
            baselines: ["getRowObjects()", "prepared once, getRowObjects()"],
            run: async () => {
              await using cursor = await q.execute();
              return await cursor.fetchAllRows();
            },
          },
          {
            // Same hand-written SQL through the library's escape hatch: pool + value normalization,
            // without the builder or the semantic-view expansion.
            name: "engine.connect().all(hand-written SQL)",
            role: "lib",
            baselines: ["getRowObjects()"],
            run: async () => {
              await using conn = await fixture.engine.connect();
              return await conn.all(country ? RAW_SQL_FILTERED : RAW_SQL, country ? [country] : undefined);
            },
          },
          {
            // The builder's SQL (semantic_view(...)) through the escape hatch: expansion without the cursor.
            name: "engine.connect().all(q.compile().sql)",
            role: "lib",
            baselines: ["getRowObjects()"],
            run: async () => {
              await using conn = await fixture.engine.connect();
              const compiled = q.compile();
              return await conn.all(compiled.sql, compiled.parameters);
            },
          },
          { name: "getRowObjects()", role: "raw", run: rawRows },
          { name: "prepared once, getRowObjects()", role: "raw", run: preparedRows },
        ],
        note:
          "lib execute(): builder + compile + pool checkout + built-in semantic_view() expansion (definitions cached per database) + DuckDB " +
          "(autocommit read, no BEGIN/ROLLBACK, prepared statement reused per connection) + cursor; raw: runAndReadAll on one reused " +
          "connection (autocommit), planned each time or prepared once.",
      }),
    );
    prepared.destroySync();
  }
  return results;
}
