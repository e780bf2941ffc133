/**
 * Every path that writes a result as JSON agrees on dates: a DATE is its ISO day (`"2024-02-29"`, JSON
 * Schema's `format: "date"`), a TIMESTAMP and a TIMESTAMPTZ an ISO date-time in UTC to the millisecond.
 * `toJson` of `fetchAllRows()`/`fetchMany()`/`into()`, the MCP query tool (text and structured content),
 * the router's JSON page and NDJSON, and a fixture recording.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect } from "chai";
import { Type } from "typebox";
import { BackendCConfig, DateType, createEngine, toJson, type Engine } from "lib";
import { createMcpServer, type McpServer } from "lib/mcp";
import { encodeValue, decodeValue } from "../../runtime/testing/tagged-values.js";
import { withDayFields } from "../../runtime/values/day-columns.js";
import { ORDERS_VIEW_DDL, SALES_VIEW_DDL, ordersTableSql, salesTableSql } from "../support/sales-fixture.js";
import * as servedViews from "../support/served-views.js";
import { post, serveRouter, type RunningRouter } from "../request/support/router-fixture.js";
import { useHarness } from "../cursor/support/cursor-harness.js";

const DAY = '"2024-02-29"';
const INSTANT = '"2024-02-29T12:34:56.789Z"';
/** The sales fixture's earliest order: a day and an instant before 1970. */
const byOrder = { dimensions: ["orderedOn", "orderedAt"], metrics: ["orderCount"], orderBy: ["orderedAt"], limit: 1 };
const ORDER_JSON = '{"orderedOn":"1969-12-31","orderedAt":"1969-12-31T23:59:59.500Z","orderCount":1}';

describe("dates in JSON: every writer prints a DATE as its day and a timestamp as its instant", function () {
  this.timeout(30_000);
  let engine: Engine;
  before(async () => {
    engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
    engine._pool.on("connect", async (conn) => {
      for (const sql of [...salesTableSql(), SALES_VIEW_DDL, ...ordersTableSql(), ORDERS_VIEW_DDL]) await conn.run(sql);
      await conn.commit();
    });
  });
  after(() => engine.dispose());
  const h = useHarness();

  const SELECT = `SELECT DATE '2024-02-29' AS d, TIMESTAMP '2024-02-29 12:34:56.789' AS ts,
    TIMESTAMPTZ '2024-02-29 12:34:56.789+00' AS tz, NULL::DATE AS none, 'x' AS s`;
  const EXPECTED = `{"d":${DAY},"ts":${INSTANT},"tz":${INSTANT},"none":null,"s":"x"}`;

  it("toJson of fetchAllRows() and fetchMany() rows, at any depth; a copied array writes instants", async () => {
    const rows = await (await h.cursor(SELECT)).fetchAllRows();
    expect(toJson(rows)).to.equal(`[${EXPECTED}]`);
    expect(toJson({ page: { rows } }, 1)).to.contain(`"d": ${DAY}`);
    expect(rows[0]!["d"]).to.be.instanceOf(Date); // the values are untouched Dates
    expect(toJson([...rows])).to.contain('"d":"2024-02-29T00:00:00.000Z"');
    await using cursor = await h.cursor(SELECT);
    expect(toJson(await cursor.fetchMany(5))).to.equal(`[${EXPECTED}]`);
  });

  it('toJson of into() rows follows the model: DateType({ format: "date" }) is the day, DateType() the instant', async () => {
    const Model = Type.Object({ d: DateType({ format: "date" }), ts: DateType(), tz: DateType() });
    expect(toJson(await (await h.cursor(SELECT)).into(Model))).to.equal(
      `[{"d":${DAY},"ts":${INSTANT},"tz":${INSTANT}}]`,
    );
    const Instants = Type.Object({ d: DateType() });
    expect(toJson(await (await h.cursor(SELECT)).into(Instants))).to.equal('[{"d":"2024-02-29T00:00:00.000Z"}]');
  });

  it("the MCP query tool: the text and the structured content", async () => {
    const server: McpServer = await createMcpServer({ views: servedViews, engine });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: "query", arguments: { view: "orders", ...byOrder } });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).to.contain(`"rows":[${ORDER_JSON}]`);
      const structured = result.structuredContent as { rows: Record<string, unknown>[] };
      expect(structured.rows).to.deep.equal([
        { orderedOn: "1969-12-31", orderedAt: "1969-12-31T23:59:59.500Z", orderCount: 1 },
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("the router's JSON page and NDJSON", async () => {
    await using router: RunningRouter = await serveRouter({ views: servedViews, engine });
    const page = await (await post(`${router.url}/views/orders/query`, byOrder)).text();
    expect(page).to.contain(`"rows":[${ORDER_JSON}]`);
    const ndjson = await post(`${router.url}/views/orders/query`, byOrder, { accept: "application/x-ndjson" });
    expect((await ndjson.text()).trim()).to.equal(ORDER_JSON);
  });

  it("a fixture recording: a DATE column's value as its day, a timestamp as its instant; both decode to the Date", () => {
    const day = new Date("2024-02-29T00:00:00Z");
    const instant = new Date("2024-02-29T12:34:56.789Z");
    expect(encodeValue(day, "date")).to.deep.equal({ $date: "2024-02-29" });
    expect(encodeValue(day, "timestamp")).to.deep.equal({ $date: "2024-02-29T00:00:00.000Z" });
    expect(encodeValue(instant)).to.deep.equal({ $date: "2024-02-29T12:34:56.789Z" });
    expect((decodeValue({ $date: "2024-02-29" }) as Date).getTime()).to.equal(day.getTime());
  });

  it("withDayFields marks only arrays with such a field, and never an element's other Dates", () => {
    const plain: unknown[] = [];
    expect(Object.getOwnPropertySymbols(withDayFields(plain, []))).to.deep.equal([]);
    const rows = withDayFields([{ d: new Date(0), other: new Date(0), nested: { d: new Date(0) } }], ["d"]);
    expect(toJson(rows)).to.equal(
      '[{"d":"1970-01-01","other":"1970-01-01T00:00:00.000Z","nested":{"d":"1970-01-01T00:00:00.000Z"}}]',
    );
    expect(Object.keys(rows)).to.deep.equal(["0"]); // not enumerable: JSON.stringify and spreads ignore it
  });
});
