/**
 * The semantic router through backends A and B: the real snowflake-sdk and @databricks/sql drivers
 * against the loopback stand-ins, answering the same rows as JSON, NDJSON and Arrow; a refused
 * request sends no statement there either.
 */
import { tableFromIPC } from "apache-arrow";
import { expect } from "chai";
import { createEngine, type Engine, type LogEvent } from "lib";
import { post, serveRouter, type RunningRouter } from "./support/router-fixture.js";
import * as views from "../support/served-views.js";
import { ORDERS_BY_STATUS, SALES_BY_COUNTRY } from "../support/sales-fixture.js";
import { startStandIn, standInConfig } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { standInEngine, useStandIn } from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";

const BY_COUNTRY = SALES_BY_COUNTRY.map(({ country, revenue }) => `{"country":"${country}","revenue":${revenue}}`);
const BY_STATUS = ORDERS_BY_STATUS.map(
  (r) => `{"status":"${r.status}","total":${r.total},"orderCount":${r.orderCount}}`,
);

function routerSuite(
  title: string,
  start: (log: (event: LogEvent) => void) => Promise<{ engine: Engine; stop: () => Promise<void> }>,
) {
  describe(`semantic router on ${title}`, function () {
    this.timeout(60_000);
    const statements: string[] = [];
    let running: { engine: Engine; stop: () => Promise<void> } | undefined;
    let router: RunningRouter;

    before(async function () {
      running = await start((event) => {
        if (event.type === "query" || event.type === "query-error") statements.push(event.sql);
      });
      router = await serveRouter({ views, engine: running.engine });
    });
    after(async function () {
      await router?.[Symbol.asyncDispose]();
      await running?.engine.dispose();
      await running?.stop();
    });

    const byCountry = { metrics: ["revenue"], dimensions: ["country"], orderBy: ["-revenue"] };

    it("JSON and NDJSON carry the fixture's exact answer", async () => {
      const json = await post(`${router.url}/views/sales/query`, byCountry);
      expect(await json.text()).to.equal(`{"rows":[${BY_COUNTRY.join(",")}],"truncated":false,"next":null}`);
      const ndjson = await post(`${router.url}/views/sales/query`, byCountry, { accept: "application/x-ndjson" });
      expect(await ndjson.text()).to.equal(BY_COUNTRY.map((l) => `${l}\n`).join(""));
      const orders = { metrics: ["total", "orderCount"], dimensions: ["status"], orderBy: ["status"] };
      const exact = await post(`${router.url}/views/orders/query`, orders, { accept: "application/x-ndjson" });
      expect(await exact.text()).to.equal(BY_STATUS.map((l) => `${l}\n`).join(""));
    });

    it("Arrow IPC carries the same rows", async () => {
      const response = await post(`${router.url}/views/sales/query`, byCountry, {
        accept: "application/vnd.apache.arrow.stream",
      });
      const table = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
      expect(table.toArray().map((r) => ({ ...r.toJSON() }))).to.deep.equal(
        SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue })),
      );
    });

    it("a filter is bound, and a refused request sends nothing", async () => {
      const where = { field: "country", op: "in", value: ["DE", "FR"] };
      const response = await post(`${router.url}/views/sales/query`, { ...byCountry, where });
      expect(((await response.json()) as { rows: unknown[] }).rows).to.have.length(2);
      statements.splice(0);
      const refused = await post(`${router.url}/views/sales/query`, {
        ...byCountry,
        where: { field: "revenue", op: "gt", value: 1 },
      });
      expect(refused.status).to.equal(422);
      expect(statements).to.deep.equal([]);
    });
  });
}

routerSuite("backend A (Snowflake stand-in)", async (log) => {
  const standIn = await startStandIn();
  return { engine: createEngine(standInConfig(standIn), { log }), stop: () => standIn.close() };
});

describe("backend B", function () {
  const fixture = useStandIn();
  routerSuite("backend B (Databricks stand-in)", async (log) => ({
    engine: standInEngine(fixture.standIn, { log }),
    stop: async () => undefined,
  }));
});
