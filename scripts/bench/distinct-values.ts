/**
 * "distinct-values": a query whose filter value is new each time — the path a dashboard with a date
 * picker or a search box takes. Revenue by country `WHERE sale_id >= <new value>`, and
 * `WHERE country IN (<three new countries>)`, through `execute().into()`, on a 10,000-row table and
 * on the fixture's table. The fair raw baseline binds the same values to one statement it prepared
 * once (the library binds them too: the built-in engine lifts a where_clause's values into bound
 * parameters, so the rewrite, type probe and prepare happen once per filter shape). Same answers
 * checked before timing.
 */
import { deepStrictEqual } from "node:assert/strict";
import type { DuckDBPreparedStatement } from "@duckdb/node-api";
import { SemanticView } from "lib";
import { SALES_VIEW_DDL, type BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./bench-harness.js";
import { RevenueByCountry, Sales, SALES_MEMBERS } from "./revenue-by-country.js";
import type { BenchSettings } from "./bench-settings.js";

const SMALL_ROWS = 10_000;

/** The `sales` view's members over the first 10,000 rows. */
class SmallSales extends SemanticView("sales_10k", SALES_MEMBERS) {}

const COUNTRIES = ["US", "DE", "FR", "JP", "GB", "IT", "ES", "NL", "SE", "PL", "BR", "MX", "CA", "AU", "IN", "CN"];

const rawSql = (table: string, where: string) =>
  `SELECT country, SUM(revenue)::BIGINT AS revenue FROM ${table} WHERE ${where} GROUP BY country ORDER BY revenue DESC NULLS LAST`;

/** Both views declare the same members; only the view name differs. */
type View = typeof Sales;
const revenueQuery = (view: View) =>
  view.query().metrics(view.revenue).dimensions(view.country).orderBy(view.revenue.desc());
type RevenueQuery = ReturnType<typeof revenueQuery>;

async function createSmallTable(fixture: BenchFixture): Promise<void> {
  await using conn = await fixture.engine.connect();
  await conn.run(`CREATE OR REPLACE TABLE sales_10k AS SELECT * FROM sales_data ORDER BY id LIMIT ${SMALL_ROWS}`);
  await conn.run(SALES_VIEW_DDL.replace("VIEW sales AS", "VIEW sales_10k AS").replaceAll("sales_data", "sales_10k"));
  await conn.commit();
}

interface Variant {
  readonly name: string;
  readonly where: string;
  /** The i-th query's values: never the same twice in a run (ids) or practically never (3 of 16 countries in order). */
  readonly values: (i: number) => (bigint | string)[];
  readonly query: (view: View, values: readonly (bigint | string)[]) => RevenueQuery;
}

const VARIANTS: readonly Variant[] = [
  {
    name: "sale_id >= <new value>",
    where: "id >= $1",
    values: (i) => [BigInt(1 + ((i * 7919) % SMALL_ROWS))],
    query: (view, [id]) => revenueQuery(view).where(view.sale_id.gte(id as bigint)),
  },
  {
    name: "country IN (<new list of 3>)",
    where: "country IN ($1, $2, $3)",
    values: (i) => [0, 1, 2].map((k) => COUNTRIES[(i + k * (1 + (i % 5))) % COUNTRIES.length]!),
    query: (view, countries) => revenueQuery(view).where(view.country.in(countries as string[])),
  },
];

export async function runDistinctValues(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  await createSmallTable(fixture);
  const results: GroupResult[] = [];
  for (const [table, view, rows] of [
    ["sales_10k", SmallSales as unknown as View, SMALL_ROWS],
    ["sales_data", Sales, fixture.rows],
  ] as const) {
    for (const variant of VARIANTS) {
      const prepared: DuckDBPreparedStatement = await fixture.raw.prepare(rawSql(table, variant.where));
      const raw = async (values: readonly (bigint | string)[]) => {
        prepared.bind(values as (bigint | string)[]);
        return (await prepared.runAndReadAll()).getRowObjects();
      };
      const lib = async (values: readonly (bigint | string)[]) => {
        await using cursor = await variant.query(view, values).execute();
        return await cursor.into(RevenueByCountry);
      };
      for (const i of [0, 1, 2]) {
        const values = variant.values(1_000_000 + i);
        const expected = (await raw(values)).map((r) => ({ country: r["country"], revenue: r["revenue"] }));
        deepStrictEqual(
          (await lib(values)).map((r) => ({ ...r })),
          expected,
          `distinct-values: lib and raw disagree`,
        );
      }
      const same = variant.query(view, variant.values(0));
      const small = rows <= 100_000;
      let libCount = 0;
      let rawCount = 0;
      results.push(
        await measureGroup({
          benchmark: "distinct-values",
          key: `distinct-values[${table}: ${variant.name}]`,
          title: `distinct-values: revenue by country WHERE ${variant.name}, ${rows.toLocaleString("en-US")} rows`,
          // Short samples, many rounds (the same operations in the same time budget as 20-query samples had):
          // a round's lib and raw samples are ~15 ms apart instead of ~60 ms, so load that drifts between
          // rounds hardly enters their ratio, and 60 samples per case instead of 15 settle the medians
          // (15 rounds put the same code anywhere in 1.07–1.36× in idle runs). Warm-up: the same 60 queries.
          warmupRounds: small ? (settings.quick ? 12 : 20) : settings.quick ? 3 : 5,
          rounds: small ? (settings.quick ? 60 : 160) : settings.quick ? 40 : 100,
          batch: small ? 5 : 2,
          budgetMs: settings.quick ? 3_000 : 8_000,
          // Each round's lib and raw samples are taken back to back: their ratio sees the same machine
          // (load drifts between rounds, not within one), and the median over rounds is the goal's measure.
          perRoundRatio: true,
          threadCpu: true,
          cases: [
            {
              name: "execute().into(RevenueByCountry), a new value each query",
              role: "lib",
              baselines: ["prepared once, bind new values, getRowObjects()"],
              run: () => lib(variant.values(libCount++)),
            },
            {
              // The main path's floor: the same query object and value each time (every cache warm).
              name: "execute().into(RevenueByCountry), the same value each query",
              role: "info",
              run: async () => {
                await using cursor = await same.execute();
                return await cursor.into(RevenueByCountry);
              },
            },
            {
              name: "prepared once, bind new values, getRowObjects()",
              role: "raw",
              run: () => raw(variant.values(rawCount++)),
            },
          ],
          note: "lib: the where_clause's values are bound (one rewrite, probe and prepare per filter shape); raw binds them to one prepared statement.",
        }),
      );
      prepared.destroySync();
    }
  }
  return results;
}
