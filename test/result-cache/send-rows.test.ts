/**
 * `sendRows` (lib/express): what it sends equals `sendJson(res, await cursor.fetchAllRows())` on every
 * path; a cache hit sends its entry's JSON text, made once, counted against the byte budget and
 * dropped with the entry; the hit is still reported to the log.
 */
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, SemanticView, createEngine, type Decimal } from "lib";
import type { LogEvent } from "lib";
import { sendJson, sendRows, type JsonResponseTarget } from "lib/express";
import { JsonBody } from "../../runtime/result-cache/json-body.js";

class Shipments extends SemanticView("shipments_v", {
  place: Dimension<string>(),
  day: Dimension<Date | null>(),
  amount: Metric<Decimal>(),
  shipments: Metric<bigint>(),
}) {}

const DDL = [
  "CREATE TABLE shipments (place VARCHAR, day DATE, amount DECIMAL(12, 2))",
  `INSERT INTO shipments VALUES ('Zürich "HQ"', DATE '2024-02-29', 12.50), ('line\nbreak\\', DATE '2024-03-01', -0.05),
     ('Zürich "HQ"', DATE '2024-02-29', 99999999.99), ('\u2028 tab\t', NULL, NULL)`,
  `CREATE SEMANTIC VIEW shipments_v AS TABLES (shipments)
     DIMENSIONS (shipments.place AS place, shipments.day AS day)
     METRICS (shipments.amount AS SUM(amount), shipments.shipments AS COUNT(*))`,
];

const query = Shipments.query()
  .dimensions(Shipments.place, Shipments.day)
  .metrics(Shipments.amount, Shipments.shipments)
  .orderBy(Shipments.place, Shipments.day);

/** A response that records what was written. */
function response(): JsonResponseTarget & { body?: string; readonly headers: Map<string, string> } {
  const headers = new Map<string, string>();
  const res = {
    statusCode: 200,
    headers,
    body: undefined as string | undefined,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    end: (body: string | Uint8Array) => {
      res.body = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
    },
  };
  return res;
}

async function engineWith(maxBytes: number, events: LogEvent[]) {
  const engine = createEngine(new BackendCConfig({ database: ":memory:", cache: { ttl: 60, maxBytes } }, { env: {} }), {
    log: (event) => events.push(event),
  });
  await using conn = await engine.connect();
  for (const statement of DDL) await conn.run(statement);
  await conn.commit();
  return engine;
}

describe("sendRows: a cursor as lossless JSON, a cache hit from its entry's JSON text", () => {
  it("sends what sendJson(fetchAllRows()) sends on a miss and on hits; the text is kept once, counted and dropped with its entry", async () => {
    const events: LogEvent[] = [];
    const engine = await engineWith(1024 * 1024, events);
    try {
      const expected = response();
      {
        await using cursor = await query.using(engine).execute({ cache: false });
        sendJson(expected, await cursor.fetchAllRows(), 201);
      }
      expect(expected.body)
        .to.contain('"day":"2024-02-29"')
        .and.contain("100000012.49")
        .and.contain("-0.05")
        .and.contain('"shipments":2');
      const sent = async () => {
        const res = response();
        const cursor = await query.using(engine).execute();
        await sendRows(res, cursor, 201);
        expect(cursor.closed, "closed by sendRows").to.equal(true);
        expect([res.statusCode, res.headers.get("content-type"), res.body]).to.deep.equal([
          201,
          "application/json; charset=utf-8",
          expected.body,
        ]);
        return cursor.servedFrom;
      };
      expect(await sent()).to.equal("warehouse");
      const entryBytes = engine.resultCache!.stats().bytes;
      expect(await sent()).to.equal("cache");
      const withBody = engine.resultCache!.stats().bytes;
      expect(withBody - entryBytes, "the kept body's bytes").to.equal(new JsonBody(expected.body!).keptBytes);
      expect(await sent()).to.equal("cache");
      expect(engine.resultCache!.stats().bytes, "made once").to.equal(withBody);
      const served = events.filter((e) => e.type === "query" && e.servedFrom === "cache");
      expect(served, "each hit is still reported").to.have.length(2);

      // A partly read hit sends the rest, as fetchAllRows() would.
      {
        await using cursor = await query.using(engine).execute();
        const first = await cursor.fetchOne();
        const res = response();
        await sendRows(res, cursor);
        expect(first).to.include({ place: 'Zürich "HQ"', shipments: 2n });
        expect(res.body).to.equal(toRest(expected.body!));
      }

      // Dropped with the entry: a commit invalidates, and the next hit makes the text again.
      {
        await using conn = await engine.connect();
        await conn.run("INSERT INTO shipments VALUES ('new', DATE '2025-01-01', 1)");
        await conn.commit();
      }
      expect(engine.resultCache!.stats().bytes).to.equal(0);
      const after = response();
      await sendRows(after, await query.using(engine).execute());
      expect(after.body).to.contain('"place":"new"');
    } finally {
      await engine.dispose();
    }
  });

  it("keeps no text that does not fit the byte budget, and still sends it", async () => {
    const events: LogEvent[] = [];
    const engine = await engineWith(1024 * 1024, events);
    try {
      await (await query.using(engine).execute()).close();
      const bytes = engine.resultCache!.stats().bytes;
      // The same rows in an engine whose budget holds the entry but not the entry plus its text.
      const tight = await engineWith(bytes + 64, []);
      try {
        await (await query.using(tight).execute()).close();
        expect(tight.resultCache!.stats().bytes).to.equal(bytes);
        const res = response();
        await sendRows(res, await query.using(tight).execute());
        expect(JSON.parse(res.body!)).to.have.length(3);
        expect(tight.resultCache!.stats()).to.include({ bytes, entries: 1, evictions: 0 });
      } finally {
        await tight.dispose();
      }
    } finally {
      await engine.dispose();
    }
  });
});

/** The JSON text of every row but the first. */
function toRest(body: string): string {
  const end = body.indexOf("},{") + 2;
  return `[${body.slice(end)}`;
}
