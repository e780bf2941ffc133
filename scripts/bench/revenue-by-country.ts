/**
 * "revenue-by-country": the SPEC.md example through the library (builder → execute() → into() or
 * fetchAllRows()) against the raw DuckDB driver running the equivalent hand-written GROUP BY on the
 * same table, same instance, same run. Both answers are checked to be equal before timing.
 */
import { deepStrictEqual } from "node:assert/strict";
import { Type } from "typebox";
import { Dimension, Metric, SemanticView } from "lib";
import type { BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./harness.js";
import type { BenchSettings } from "./settings.js";

export class Sales extends SemanticView("sales", {
  revenue: Metric(),
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
}) {}

const RevenueByCountry = Type.Object({ country: Type.String(), revenue: Type.Integer() }, { title: "RevenueByCountry" });

const libQuery = (country?: string) =>
  Sales.query()
    .metrics(Sales.revenue)
    .dimensions(Sales.country)
    .where(country ? Sales.country.eq(country) : null)
    .orderBy(Sales.revenue.desc());

// SUM over INTEGER is HUGEINT in DuckDB, as in the view's metric: both sides return the same types.
const RAW_SQL = `SELECT country, SUM(revenue) AS revenue FROM sales_data GROUP BY country ORDER BY revenue DESC NULLS LAST`;
const RAW_SQL_FILTERED = `SELECT country, SUM(revenue) AS revenue FROM sales_data WHERE country = $1 GROUP BY country ORDER BY revenue DESC NULLS LAST`;

export async function runRevenueByCountry(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const { raw } = fixture;
  const results: GroupResult[] = [];
  for (const country of [undefined, "DE"]) {
    const q = libQuery(country);
    const rawRows = async () => (await raw.runAndReadAll(country ? RAW_SQL_FILTERED : RAW_SQL, country ? [country] : undefined)).getRowObjects();

    // Same answer on both sides (normalized to plain objects with bigint sums).
    {
      await using cursor = await q.execute();
      const lib = await cursor.into(RevenueByCountry);
      const expected = (await rawRows()).map((r) => ({ country: r["country"], revenue: r["revenue"] }));
      deepStrictEqual(lib.map((r) => ({ ...r })), expected, "library and raw driver disagree on revenue by country");
    }

    results.push(
      await measureGroup({
        benchmark: "revenue-by-country",
        key: country ? `revenue-by-country[${country}]` : "revenue-by-country",
        title: `revenue-by-country${country ? ` WHERE country = '${country}'` : ""}: ${fixture.rows.toLocaleString("en-US")} fact rows`,
        warmupRounds: settings.quick ? 3 : 5,
        rounds: settings.quick ? 10 : 40,
        budgetMs: settings.quick ? 3_000 : 12_000,
        cases: [
          {
            name: "execute().into(RevenueByCountry)",
            role: "lib",
            baselines: ["getRowObjects()"],
            run: async () => {
              await using cursor = await q.execute();
              return await cursor.into(RevenueByCountry);
            },
          },
          {
            name: "execute().fetchAllRows()",
            role: "lib",
            baselines: ["getRowObjects()"],
            run: async () => {
              await using cursor = await q.execute();
              return await cursor.fetchAllRows();
            },
          },
          {
            // Same hand-written SQL through the library's escape hatch: pool + transaction + value
            // normalization, without the builder or the semantic-view expansion.
            name: "engine.connect().all(hand-written SQL)",
            role: "lib",
            baselines: ["getRowObjects()"],
            run: async () => {
              await using conn = await fixture.engine.connect();
              return await conn.all(country ? RAW_SQL_FILTERED : RAW_SQL, country ? [country] : undefined);
            },
          },
          { name: "getRowObjects()", role: "raw", run: rawRows },
        ],
        note: "lib: builder + compile + pool checkout + built-in semantic_view() expansion + DuckDB + cursor; raw: runAndReadAll on one reused connection.",
      }),
    );
  }
  return results;
}
