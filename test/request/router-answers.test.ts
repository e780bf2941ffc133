/**
 * What the semantic router answers on backend C: the same rows as JSON pages, NDJSON and Arrow IPC
 * (exact numbers in each), pages cut at maxRows that `next` continues to the end, streams capped by
 * maxStreamRows with a trailer, a client that leaves mid-stream (the statement stops and the pooled
 * connection comes back), the scope hook, and the compiled SQL per dialect.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { tableFromIPC } from "apache-arrow";
import { expect } from "chai";
import {
  BIG_ROWS,
  post,
  recordedEngine,
  serveRouter,
  views,
  type RecordedEngine,
  type RunningRouter,
} from "./support/router-fixture.js";
import { ORDERS_BY_STATUS, SALES_BY_COUNTRY } from "../support/sales-fixture.js";

type Rows = Record<string, unknown>[];

/** A raw HTTP GET that resolves with the response as soon as its headers arrive. */
function rawGet(url: string, accept: string): Promise<{ response: IncomingMessage; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { accept } }, (response) =>
      resolve({ response, abort: () => req.destroy() }),
    );
    req.on("error", reject);
    req.end();
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check(), what).to.equal(true);
}

describe("semantic router: answers", function () {
  this.timeout(60_000);
  let recorded: RecordedEngine;
  let router: RunningRouter;
  let capped: RunningRouter;

  before(async function () {
    recorded = recordedEngine();
    router = await serveRouter({ views, engine: recorded.engine, limits: { maxRows: 3 } });
    capped = await serveRouter({ views, engine: recorded.engine, limits: { maxStreamRows: 5 } });
  });
  after(async function () {
    await router?.[Symbol.asyncDispose]();
    await capped?.[Symbol.asyncDispose]();
    await recorded?.engine.dispose();
  });

  const byStatus = { metrics: ["total", "orderCount"], dimensions: ["status"], orderBy: ["status"] };
  const expectedOrders = ORDERS_BY_STATUS.map(
    (r) => `{"status":"${r.status}","total":${r.total},"orderCount":${r.orderCount}}`,
  );

  it("JSON: { rows, truncated, next } with exact decimals and 64-bit integers", async () => {
    const response = await post(`${router.url}/views/orders/query`, byStatus);
    expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(await response.text()).to.equal(`{"rows":[${expectedOrders.join(",")}],"truncated":false,"next":null}`);
  });

  it("NDJSON: one exact row per line", async () => {
    const response = await post(`${router.url}/views/orders/query`, byStatus, { accept: "application/x-ndjson" });
    expect(response.headers.get("content-type")).to.equal("application/x-ndjson; charset=utf-8");
    expect(await response.text()).to.equal(expectedOrders.map((l) => `${l}\n`).join(""));
  });

  it("Arrow IPC stream: typed columns with the same values", async () => {
    const response = await post(`${router.url}/views/orders/query`, byStatus, {
      accept: "application/vnd.apache.arrow.stream",
    });
    expect(response.headers.get("content-type")).to.equal("application/vnd.apache.arrow.stream");
    const table = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).to.deep.equal([
      "status: Utf8",
      "total: Decimal[38e+2]",
      "orderCount: Int64",
    ]);
    expect(table.getChild("orderCount")!.toArray()).to.deep.equal(
      BigInt64Array.from(ORDERS_BY_STATUS.map((r) => r.orderCount)),
    );
    expect(table.numRows).to.equal(2);
    // An empty result is still a valid stream with its schema.
    const none = await post(
      `${router.url}/views/orders/query`,
      { ...byStatus, where: { field: "status", op: "eq", value: "lost" } },
      { accept: "application/vnd.apache.arrow.stream" },
    );
    const empty = tableFromIPC(new Uint8Array(await none.arrayBuffer()));
    expect([empty.numRows, empty.schema.fields.length]).to.deep.equal([0, 3]);
  });

  it("a page cut at maxRows continues with next (POST) and with the Link header (GET) to the end", async () => {
    const all: Rows = [];
    let body: unknown = { metrics: ["revenue"], dimensions: ["country", "region"] };
    let pages = 0;
    for (; body !== null; pages++) {
      const page = (await (await post(`${router.url}/views/sales/query`, body)).json()) as {
        rows: Rows;
        truncated: boolean;
        next: unknown;
      };
      expect(page.rows.length).to.be.at.most(3);
      expect(page.truncated).to.equal(page.next !== null);
      all.push(...page.rows);
      body = page.next;
    }
    expect(pages).to.equal(3);
    expect(all).to.have.length(7);
    expect(new Set(all.map((r) => `${String(r["country"])}/${String(r["region"])}`)).size).to.equal(7);

    const linked: Rows = [];
    let url: string | undefined = `${router.url}/views/sales/query?metrics=revenue&dimensions=country&orderBy=-revenue`;
    while (url !== undefined) {
      const response: Response = await fetch(url);
      linked.push(...((await response.json()) as { rows: Rows }).rows);
      const link = response.headers.get("link");
      url = link === null ? undefined : new URL(/^<([^>]+)>/.exec(link)![1]!, router.url).toString();
    }
    expect(linked).to.deep.equal(
      SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue: Number(revenue) })),
    );
  });

  it("a stream capped by maxStreamRows says so in its Lib-Truncated trailer", async () => {
    const { response } = await rawGet(`${capped.url}/views/big/query?dimensions=id&orderBy=id`, "application/x-ndjson");
    let text = "";
    for await (const chunk of response) text += String(chunk);
    expect(text.trim().split("\n")).to.deep.equal([0, 1, 2, 3, 4].map((id) => `{"id":${id}}`));
    expect(response.trailers["lib-truncated"]).to.equal("true");
    const { response: small } = await rawGet(
      `${capped.url}/views/sales/query?dimensions=country`,
      "application/x-ndjson",
    );
    for await (const _ of small);
    expect(small.trailers["lib-truncated"]).to.equal("false");
  });

  it("an Arrow IPC stream capped by maxStreamRows holds exactly the first rows and says so", async () => {
    const { response } = await rawGet(
      `${capped.url}/views/big/query?dimensions=id&orderBy=id`,
      "application/vnd.apache.arrow.stream",
    );
    const parts: Buffer[] = [];
    for await (const chunk of response) parts.push(chunk as Buffer);
    const table = tableFromIPC(new Uint8Array(Buffer.concat(parts)));
    expect(table.getChild("id")!.toArray()).to.deep.equal(BigInt64Array.from([0n, 1n, 2n, 3n, 4n]));
    expect(response.trailers["lib-truncated"]).to.equal("true");
  });

  it("streams the whole of a large result as Arrow IPC in several record batches with exact values", async () => {
    const response = await fetch(`${router.url}/views/big/query?dimensions=id,bucket&orderBy=id`, {
      headers: { accept: "application/vnd.apache.arrow.stream" },
    });
    const table = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).to.deep.equal([
      "id: Int64",
      "bucket: Int64",
    ]);
    expect(table.batches.length).to.be.greaterThan(1);
    expect(table.numRows).to.equal(BIG_ROWS);
    const ids = table.getChild("id")!.toArray() as BigInt64Array;
    const buckets = table.getChild("bucket")!.toArray() as BigInt64Array;
    let wrong = 0;
    for (let i = 0; i < BIG_ROWS; i++) if (ids[i] !== BigInt(i) || buckets[i] !== BigInt(i % 7)) wrong++;
    expect(wrong).to.equal(0);
    await until(() => recorded.engine._pool.borrowed === 0, "connection returned");
  });

  for (const accept of ["application/x-ndjson", "application/vnd.apache.arrow.stream"]) {
    it(`a client that disconnects mid-stream (${accept}) stops the query and returns the connection`, async () => {
      recorded.reset();
      const { response, abort } = await rawGet(`${router.url}/views/big/query?dimensions=id,bucket&metrics=n`, accept);
      expect(response.statusCode).to.equal(200);
      await new Promise((resolve) => response.once("data", resolve));
      expect(recorded.engine._pool.borrowed).to.equal(1);
      abort();
      await until(() => recorded.engine._pool.borrowed === 0, "the pooled connection came back");
      // The pool has one connection: this answers only if it came back healthy.
      const after = await post(`${router.url}/views/sales/query`, { metrics: ["revenue"] });
      expect(((await after.json()) as { rows: Rows }).rows).to.deep.equal([{ revenue: 1035 }]);
    });
  }

  it("streams the whole of a large result (NDJSON) with the connection returned at the end", async () => {
    const response = await fetch(`${router.url}/views/big/query?dimensions=id&metrics=n`, {
      headers: { accept: "application/x-ndjson" },
    });
    let lines = 0;
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) lines += decoder.decode(chunk as Uint8Array).split("\n").length - 1;
    expect(lines).to.equal(BIG_ROWS);
    await until(() => recorded.engine._pool.borrowed === 0, "connection returned");
  });

  it("/sql compiles for every dialect without a statement", async () => {
    recorded.reset();
    const response = await fetch(
      `${router.url}/views/sales/sql?metrics=revenue&dimensions=country&where=${encodeURIComponent('{"field":"country","op":"eq","value":"DE"}')}`,
    );
    const body = (await response.json()) as {
      backend: string;
      dialects: Record<string, { sql: string; parameters: unknown[] }>;
    };
    expect(body.backend).to.equal("backend_c");
    expect(Object.keys(body.dialects)).to.deep.equal(["backend_a", "backend_b", "backend_c"]);
    expect(body.dialects["backend_a"]!.parameters).to.deep.equal(["DE"]);
    expect(body.dialects["backend_c"]!.sql).to.include(`where_clause := '"country" = ''DE'''`);
    expect(recorded.statements).to.deep.equal([]);
  });
});

describe("semantic router: the scope hook", function () {
  let recorded: RecordedEngine;
  let router: RunningRouter;
  const errors: unknown[] = [];

  before(async function () {
    recorded = recordedEngine();
    router = await serveRouter({
      views,
      engine: recorded.engine,
      onError: (e) => void errors.push(e),
      scope: (req, view) => {
        const tenant = req.headers["x-tenant"];
        if (tenant === undefined) return false;
        if (tenant === "broken") return { field: "tenant", op: "eq", value: "x" };
        return view.name === "sales" ? { field: "country", op: "eq", value: String(tenant) } : null;
      },
    });
  });
  after(async function () {
    await router?.[Symbol.asyncDispose]();
    await recorded?.engine.dispose();
  });

  const query = (body: unknown, tenant?: string) =>
    post(`${router.url}/views/sales/query`, body, tenant === undefined ? {} : { "x-tenant": tenant });

  it("a tenant sees only its own rows, whatever it filters on", async () => {
    const own = await query({ metrics: ["revenue"], dimensions: ["country"] }, "DE");
    expect(((await own.json()) as { rows: Rows }).rows).to.deep.equal([{ country: "DE", revenue: 420 }]);
    const other = await query(
      { metrics: ["revenue"], dimensions: ["country"], where: { field: "country", op: "eq", value: "US" } },
      "DE",
    );
    expect(((await other.json()) as { rows: Rows }).rows).to.deep.equal([]);
    const widened = {
      or: [{ field: "country", op: "eq", value: "US" }, { not: { field: "country", op: "eq", value: "US" } }],
    };
    const around = await query({ metrics: ["revenue"], dimensions: ["country"], where: widened }, "DE");
    expect(((await around.json()) as { rows: Rows }).rows).to.deep.equal([{ country: "DE", revenue: 420 }]);
    const total = await query({ metrics: ["revenue"] }, "DE");
    expect(((await total.json()) as { rows: Rows }).rows).to.deep.equal([{ revenue: 420 }]);
  });

  it("a refused scope is 403; a broken one fails closed with 500 and tells the client nothing", async () => {
    const refused = await query({ metrics: ["revenue"] });
    expect(refused.status).to.equal(403);
    const broken = await query({ metrics: ["revenue"] }, "broken");
    expect(broken.status).to.equal(500);
    expect(await broken.text()).not.to.include("tenant");
    expect(String(errors.at(-1))).to.include('scope(): condition 0 is invalid for view "sales"');
  });
});
