/**
 * "checkout": the pool's checkout + release against the raw driver opening a connection per call and
 * reusing one connection; once bare, once with a trivial statement (`SELECT 1`) in between.
 * Library connections are already open in the pool (warm-up), as in a long-running service.
 */
import type { BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./bench-harness.js";
import type { BenchSettings } from "./bench-settings.js";

export async function runCheckout(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  const { engine, instance, raw } = fixture;
  // A raw user who keeps the prepared statement, as lib's DuckDB connection does for autocommit reads.
  const prepared = await raw.prepare("SELECT 1 AS one");
  const common = {
    benchmark: "checkout",
    warmupRounds: 2,
    rounds: settings.quick ? 7 : 21,
    batch: settings.quick ? 100 : 300,
    budgetMs: settings.quick ? 3_000 : 10_000,
  };
  const bare = await measureGroup({
    ...common,
    title: "checkout: obtain + give back a connection",
    cases: [
      {
        name: "engine.connect() + release()",
        role: "lib",
        baselines: ["instance.connect() + closeSync()"],
        run: async () => {
          const conn = await engine.connect();
          await conn.release();
        },
      },
      {
        name: "instance.connect() + closeSync()",
        role: "raw",
        run: async () => (await instance.connect()).closeSync(),
      },
    ],
  });
  const withQuery = await measureGroup({
    ...common,
    title: "checkout + SELECT 1 + give back",
    cases: [
      {
        name: "connect + all('SELECT 1') + release",
        role: "lib",
        baselines: ["reused connection", "connect per call", "reused connection + prepared statement"],
        run: async () => {
          await using conn = await engine.connect();
          return await conn.all("SELECT 1 AS one");
        },
      },
      {
        name: "reused connection",
        role: "raw",
        run: async () => (await raw.runAndReadAll("SELECT 1 AS one")).getRowObjects(),
      },
      {
        name: "reused connection + prepared statement",
        role: "raw",
        run: async () => (await prepared.runAndReadAll()).getRowObjects(),
      },
      {
        name: "connect per call",
        role: "raw",
        run: async () => {
          const conn = await instance.connect();
          try {
            return (await conn.runAndReadAll("SELECT 1 AS one")).getRowObjects();
          } finally {
            conn.closeSync();
          }
        },
      },
    ],
    note:
      "lib runs a read outside a transaction in autocommit (no BEGIN, nothing to roll back on release) and reuses its prepared " +
      "statement per connection; raw runs in autocommit, planning the statement each time unless prepared once.",
  });
  prepared.destroySync();
  return [bare, withQuery];
}
