/**
 * "overflow-connection" (issue 25, the step at 8 in `concurrency-scale`): the life of a connection the
 * pool opens for one query and closes when it comes back, as every overflow connection of a burst
 * lives. The engine has pool_size 1 + max_overflow 1 and each operation holds the idle connection, so
 * the filtered revenue query (`execute().into()`) opens a new one; giving the held one back closes the
 * surplus. Against the raw driver opening a connection, preparing, binding, running, reading and
 * closing. Main-thread CPU per operation beside wall time: the library's own work, which the machine's
 * other load changes least.
 */
import { BackendCConfig, createEngine } from "lib";
import type { BenchFixture } from "./fixture.js";
import { measureGroup, type GroupResult } from "./bench-harness.js";
import { libQuery, RAW_SQL_FILTERED, RevenueByCountry } from "./revenue-by-country.js";
import type { BenchSettings } from "./bench-settings.js";

export async function runOverflowConnection(fixture: BenchFixture, settings: BenchSettings): Promise<GroupResult[]> {
  await using engine = createEngine(new BackendCConfig({ database: fixture.file, poolSize: 1, maxOverflow: 1 }), {
    register: false,
  });
  const query = libQuery("DE").using(engine);
  const libCycle = async () => {
    const held = await engine.connect();
    try {
      await using cursor = await query.execute();
      return await cursor.into(RevenueByCountry);
    } finally {
      await held.release();
    }
  };
  // The operation must open (and close) one connection each time, or it measures something else.
  const pool = engine._pool;
  await libCycle();
  const [opened, closed] = [pool.opened, pool.closed];
  await libCycle();
  if (pool.opened - opened !== 1 || pool.closed - closed !== 1) {
    throw new Error("overflow-connection: an operation did not open and close exactly one connection");
  }
  return [
    await measureGroup({
      benchmark: "overflow-connection",
      title: "overflow-connection: open a connection, run the filtered revenue query on it, close it",
      warmupRounds: 1,
      rounds: settings.quick ? 9 : 21,
      batch: 20,
      budgetMs: settings.quick ? 4_000 : 15_000,
      minRounds: 5,
      perRoundRatio: true,
      threadCpu: true,
      cases: [
        {
          name: "new pooled connection + execute().into() + close",
          role: "lib",
          baselines: ["connect + prepare + run + close"],
          run: libCycle,
        },
        {
          name: "connect + prepare + run + close",
          role: "raw",
          run: async () => {
            const conn = await fixture.instance.connect();
            try {
              const prepared = await conn.prepare(RAW_SQL_FILTERED);
              try {
                prepared.bind(["DE"]);
                return (await prepared.runAndReadAll()).getRowObjects();
              } finally {
                prepared.destroySync();
              }
            } finally {
              conn.closeSync();
            }
          },
        },
      ],
      note:
        "lib: a held checkout makes the query open a new connection (pool 1 + overflow 1), closed again on return " +
        "(checked: one opened and one closed per operation); raw: instance.connect() + prepare + bind + runAndReadAll + closeSync.",
    }),
  ];
}
