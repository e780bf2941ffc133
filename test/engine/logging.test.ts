/**
 * The engine `log` option and the `lib:*` diagnostics channels: every query (SQL, parameter count,
 * duration, rows or error), connection open/close/recycle and pool wait is reported; secrets never.
 */
import { expect } from "chai";
import diagnosticsChannel from "node:diagnostics_channel";
import { inspect } from "node:util";
import {
  BackendCConfig,
  CONNECT_CHANNEL,
  Dimension,
  Metric,
  POOL_WAIT_CHANNEL,
  QUERY_CHANNEL,
  SemanticView,
  WarehouseError,
  createEngine,
  type LogEvent,
  type QueryTraceContext,
} from "lib";
import { resolveSettings } from "../../runtime/dialects/resolve-settings.js";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import {
  PASSWORD,
  standInConfig,
  useSnowflakeStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";

class Shop extends SemanticView("shop", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

const SEED = [
  "CREATE TABLE orders (country VARCHAR, amount INTEGER)",
  "INSERT INTO orders VALUES ('DE', 120), ('US', 80), ('DE', 30)",
  "CREATE SEMANTIC VIEW shop AS TABLES (orders) DIMENSIONS (orders.country AS country) METRICS (orders.revenue AS SUM(amount))",
];

function recorder(): {
  events: LogEvent[];
  log: (event: LogEvent) => void;
  ofType<T extends LogEvent["type"]>(type: T): Extract<LogEvent, { type: T }>[];
} {
  const events: LogEvent[] = [];
  return {
    events,
    log: (event) => events.push(event),
    ofType: <T extends LogEvent["type"]>(type: T) =>
      events.filter((e): e is Extract<LogEvent, { type: T }> => e.type === type),
  };
}

describe("engine log option and diagnostics channels", () => {
  it("reports queries with SQL, parameter count, duration and rows; errors; connection open and close; pool waits", async () => {
    const r = recorder();
    const engine = createEngine(new BackendCConfig({ database: ":memory:" }), { log: r.log });
    {
      await using conn = await engine.connect();
      for (const sql of SEED) await conn.run(sql);
      await conn.all("SELECT * FROM orders WHERE amount > ? AND country <> ?", [50, "FR"]);
      const failed = await conn.all("SELECT nope FROM orders").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).to.be.instanceOf(WarehouseError);
      await conn.commit();
    }
    const query = Shop.query().metrics(Shop.revenue).dimensions(Shop.country).using(engine);
    {
      await using cursor = await query.execute();
      expect(await cursor.fetchAllRows()).to.have.length(2);
    }
    await engine.dispose();

    const select = r.ofType("query").find((e) => e.sql.startsWith("SELECT * FROM orders"));
    expect(select).to.include({ type: "query", backend: "backend_c", parameterCount: 2, rows: 2 });
    expect(select!.durationMs).to.be.a("number").and.to.be.at.least(0);
    const semantic = r.ofType("query").find((e) => e.sql === query.toSql());
    expect(semantic, "the semantic query is logged with the compiled SQL").to.include({ parameterCount: 0, rows: 2 });
    const [error] = r.ofType("query-error");
    expect(error).to.include({ sql: "SELECT nope FROM orders", parameterCount: 0 });
    expect(error!.error).to.be.instanceOf(WarehouseError);
    expect(r.ofType("connection").map((e) => e.action)).to.deep.equal(["open", "close"]);
    expect(r.ofType("pool-wait").map((e) => e.ok)).to.deep.equal([true, true]);
  });

  it("counts rows of a columnar read (fetchArrow) as rows, not columns", async () => {
    const r = recorder();
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }), { log: r.log });
    {
      await using conn = await engine.connect();
      for (const sql of SEED) await conn.run(sql);
      await conn.run("INSERT INTO orders VALUES ('FR', 1), ('JP', 2), ('IT', 3), ('ES', 4)");
      await conn.commit();
    }
    const query = Shop.query().metrics(Shop.revenue).dimensions(Shop.country).using(engine);
    {
      await using cursor = await query.execute();
      expect((await cursor.fetchArrow()).numRows).to.equal(6);
    }
    expect(r.ofType("query").find((e) => e.sql === query.toSql())).to.include({ rows: 6 });
  });

  it("reports a connection replaced for `recycle` as a recycle", async () => {
    const r = recorder();
    let clock = 0;
    const { settings } = resolveSettings(new BackendCConfig({ database: ":memory:", recycle: 10 }), {
      configPath: ".lib.toml",
    });
    await using engine = engineFromSettings(settings, { log: r.log, pool: { now: () => clock } });
    await (await engine.connect()).release();
    clock = 60_000; // older than recycle = 10 s at the next checkout
    await (await engine.connect()).release();
    expect(r.ofType("connection").map((e) => e.action)).to.deep.equal(["open", "recycle", "open"]);
  });

  it("a logger that throws does not fail the query", async () => {
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }), {
      log: () => {
        throw new Error("broken logger");
      },
    });
    await using conn = await engine.connect();
    expect(await conn.all("SELECT 42 AS n")).to.deep.equal([{ n: 42 }]);
  });

  it("traces queries, connects and pool waits on node:diagnostics_channel tracing channels", async () => {
    const seen: string[] = [];
    const queries: QueryTraceContext[] = [];
    const handlers = (name: string) => ({
      start: (context: unknown) => {
        seen.push(`${name}:start`);
        if (name === QUERY_CHANNEL) queries.push(context as QueryTraceContext);
      },
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: () => seen.push(`${name}:asyncEnd`),
      error: () => seen.push(`${name}:error`),
    });
    const subscriptions = [QUERY_CHANNEL, CONNECT_CHANNEL, POOL_WAIT_CHANNEL].map((name) => {
      const channel = diagnosticsChannel.tracingChannel(name);
      const subscriber = handlers(name);
      channel.subscribe(subscriber);
      return () => channel.unsubscribe(subscriber);
    });
    try {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:" }));
      await using conn = await engine.connect();
      await conn.all("SELECT ? AS n", [1]);
      await conn.all("SELECT nope").catch(() => undefined);
    } finally {
      for (const unsubscribe of subscriptions) unsubscribe();
    }
    expect(seen).to.include.members([
      `${POOL_WAIT_CHANNEL}:start`,
      `${POOL_WAIT_CHANNEL}:asyncEnd`,
      `${CONNECT_CHANNEL}:start`,
      `${CONNECT_CHANNEL}:asyncEnd`,
      `${QUERY_CHANNEL}:start`,
      `${QUERY_CHANNEL}:asyncEnd`,
      `${QUERY_CHANNEL}:error`,
    ]);
    expect(queries.map((q) => [q.backend, q.sql, q.parameterCount])).to.deep.include(["backend_c", "SELECT ? AS n", 1]);
  });

  it("a query subscriber added after the connection opened sees its next query; after unsubscribing, none", async () => {
    const sqls: string[] = [];
    const subscriber = {
      start: (context: unknown) => void sqls.push((context as QueryTraceContext).sql),
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: () => undefined,
      error: () => undefined,
    };
    const channel = diagnosticsChannel.tracingChannel(QUERY_CHANNEL);
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }));
    await using conn = await engine.connect();
    await conn.all("SELECT 1 AS before_subscribing");
    channel.subscribe(subscriber);
    try {
      await conn.all("SELECT 2 AS subscribed");
      for await (const chunk of await conn.stream("SELECT 3 AS streamed")) expect(chunk).to.deep.equal([[3]]);
    } finally {
      channel.unsubscribe(subscriber);
    }
    await conn.all("SELECT 4 AS after_unsubscribing");
    expect(sqls).to.deep.equal(["SELECT 2 AS subscribed", "SELECT 3 AS streamed"]);
  });

  describe("secrets (backend A stand-in)", () => {
    const stand = useSnowflakeStandIn();

    it("no event carries the password, whether the login fails or succeeds", async () => {
      const canary = "canary-Pa55word-9f3k";
      const r = recorder();
      // One function call per password: tsx's esbuild lowers an `await using` block inside a loop with
      // hoisted `var`s, so an error caught in one iteration would be rethrown by the next one's disposal.
      const queryWith = async (password: string) => {
        await using engine = createEngine(standInConfig(stand.standIn, { password }), { log: r.log });
        await using conn = await engine.connect();
        await conn.all("SELECT 1 AS one");
      };
      // The wrong password fails its login: its event is checked below.
      expect(
        await queryWith(canary).then(
          () => "logged in",
          () => "failed",
        ),
      ).to.equal("failed");
      await queryWith(PASSWORD);
      expect(r.ofType("connection").map((e) => e.action)).to.include.members(["open-error", "open", "close"]);
      expect(r.ofType("query")).to.have.length.at.least(1);
      const text = r.events
        .map((e) => `${inspect(e, { depth: 8 })} ${String((e as { error?: unknown }).error)}`)
        .join("\n");
      expect(text).to.not.contain(canary);
      expect(text).to.not.contain(PASSWORD);
    });
  });
});
