/**
 * Shared setup of the request-core and router tests: one backend C engine over the sales fixture plus
 * a `big` view (300,000 ids) for streaming, its log events recorded (so a test can prove no statement
 * was sent), and a router served on an ephemeral port.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { BackendCConfig, createEngine, type Engine, type LogEvent } from "lib";
import { semanticRouter, type SemanticRouterOptions } from "lib/express";
import {
  ORDERS_VIEW_DDL,
  SALES_ROWS,
  SALES_VIEW_DDL,
  ordersTableSql,
  salesTableDdl,
} from "../../support/sales-fixture.js";
import * as servedViews from "../../support/served-views.js";
import { Dimension, Metric, SemanticView } from "lib";

/** 300,000 rows, one per id: enough that a stream is still running when a client leaves. */
export const BIG_ROWS = 300_000;

export class Big extends SemanticView("big", {
  id: Dimension<bigint>(),
  bucket: Dimension<bigint>(),
  n: Metric<bigint>(),
}) {}

export const views = { ...servedViews, Big };

export interface RecordedEngine {
  readonly engine: Engine;
  /** Every `query` and `query-error` event since the last `reset()`. */
  readonly statements: string[];
  reset(): void;
}

/** A backend C engine (pool 1, :memory:) over the fixture, recording the statements it runs. */
export function recordedEngine(): RecordedEngine {
  const statements: string[] = [];
  const engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }), {
    log: (event: LogEvent) => {
      if (event.type === "query" || event.type === "query-error") statements.push(event.sql);
    },
  });
  engine._pool.on("connect", async (conn) => {
    await conn.run(salesTableDdl());
    for (const row of SALES_ROWS) {
      await conn.run("INSERT INTO sales_data VALUES (?, ?, ?, ?)", [row.revenue, row.cost, row.country, row.region]);
    }
    for (const statement of [SALES_VIEW_DDL, ...ordersTableSql(), ORDERS_VIEW_DDL]) await conn.run(statement);
    await conn.run(
      `CREATE TABLE big_data AS SELECT i::BIGINT AS id, (i % 7)::BIGINT AS bucket FROM range(${BIG_ROWS}) t(i)`,
    );
    await conn.run(`CREATE SEMANTIC VIEW big AS TABLES (b AS big_data PRIMARY KEY (id))
      DIMENSIONS (b.id AS id, b.bucket AS bucket) METRICS (b.n AS COUNT(*))`);
    await conn.commit();
  });
  return {
    engine,
    statements,
    reset: () => void statements.splice(0),
  };
}

export interface RunningRouter extends AsyncDisposable {
  readonly url: string;
  readonly server: Server;
}

/** `semanticRouter(options)` mounted at /api on an Express app on 127.0.0.1. */
export async function serveRouter<R>(
  options: SemanticRouterOptions,
  setup?: (app: express.Express) => R,
): Promise<RunningRouter> {
  const app = express();
  setup?.(app);
  app.use("/api", semanticRouter(options));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    server,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const JSON_HEADERS = { "content-type": "application/json" } as const;

/** POSTs `body` (an object is sent as JSON text) to `url`. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
