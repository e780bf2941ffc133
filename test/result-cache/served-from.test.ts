/**
 * `cursor.servedFrom` on every path, and in the log and tracing events: a statement (warehouse), backend
 * C's built-in engine answering from a declared materialization, and the result cache.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import { expect } from "chai";
import { BackendCConfig, QUERY_CHANNEL, createEngine, type LogEvent, type QueryTraceContext } from "lib";
import { byCountry, ORDERS_DDL, Orders } from "./support/cached-engine.js";

const MATERIALIZED_DDL = [
  "CREATE TABLE revenue_by_country AS SELECT country, SUM(amount)::BIGINT AS revenue FROM orders GROUP BY country",
  `CREATE OR REPLACE SEMANTIC VIEW orders_v AS
    TABLES (orders)
    DIMENSIONS (orders.country AS country)
    METRICS (orders.revenue AS SUM(amount), orders.boom AS MAX(error('boom')))
    MATERIALIZATIONS (by_country AS (TABLE revenue_by_country, DIMENSIONS (country), METRICS (revenue)))`,
];

describe("result cache: servedFrom on every path", () => {
  for (const cached of [false, true]) {
    it(`warehouse and materialization${cached ? ", then cache" : ""}: cursors, log events and lib:query agree`, async () => {
      const events: LogEvent[] = [];
      const traced: (string | undefined)[] = [];
      const channel = diagnosticsChannel.tracingChannel<QueryTraceContext>(QUERY_CHANNEL);
      const handlers = {
        asyncEnd: (context: QueryTraceContext) => {
          if (context.sql.includes("semantic_view(")) traced.push(context.servedFrom);
        },
      };
      channel.subscribe(handlers as never);
      const engine = createEngine(
        new BackendCConfig({ database: ":memory:", ...(cached ? { cache: { ttl: 60 } } : {}) }, { env: {} }),
        { log: (event) => events.push(event) },
      );
      try {
        {
          await using conn = await engine.connect();
          for (const statement of [...ORDERS_DDL, ...MATERIALIZED_DDL]) await conn.run(statement);
          await conn.commit();
        }
        const servedFrom = async (q: typeof byCountry | ReturnType<typeof Orders.query>) => {
          await using cursor = await q.using(engine).execute();
          await cursor.fetchAllRows();
          return cursor.servedFrom;
        };
        const routed = byCountry; // exactly the materialization's dimensions and metrics
        const filtered = byCountry.where(Orders.country.eq("DE")); // a filter is never routed
        const first = [await servedFrom(routed), await servedFrom(filtered)];
        const second = [await servedFrom(routed), await servedFrom(filtered)];
        expect(first).to.deep.equal(["materialization", "warehouse"]);
        expect(second).to.deep.equal(cached ? ["cache", "cache"] : ["materialization", "warehouse"]);
        const logged = events
          .filter(
            (e): e is Extract<LogEvent, { type: "query" }> => e.type === "query" && e.sql.includes("semantic_view("),
          )
          .map((e) => e.servedFrom);
        expect(logged).to.deep.equal([...first, ...second]);
        expect(traced).to.deep.equal([...first, ...second]);
      } finally {
        channel.unsubscribe(handlers as never);
        await engine.dispose();
      }
    });
  }
});
