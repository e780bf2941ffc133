/**
 * `sendRows` through Express: a cache hit sends its entry's kept UTF-8 bytes with the ETag Express
 * would compute for them (hashed once per entry under the built-in settings), so responses equal
 * `sendJson(res, await cursor.fetchAllRows())`'s under every `etag` setting, and conditional GET keeps
 * working; the kept body is counted once and leaves with its entry.
 */
import { expect } from "chai";
import express from "express";
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ColumnInfo } from "../../runtime/driver/query-result.js";
import { sendJson, sendRows } from "lib/express";
import type { CachedResult } from "../../runtime/result-cache/cached-result.js";
import { JsonBody } from "../../runtime/result-cache/json-body.js";
import { measureRows } from "../../runtime/result-cache/measure-bytes.js";
import { ResultCache } from "../../runtime/result-cache/result-cache.js";
import { byCountry, cachedEngine, type CachedEngine } from "./support/cached-engine.js";

type ETagSetting = "weak" | "strong" | false | ((body: Buffer, encoding?: BufferEncoding) => string);

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

describe("sendRows through Express: a hit's kept bytes and ETag", () => {
  let cached: CachedEngine;
  let server: Server;
  let base: string;
  const customCalls: unknown[][] = [];
  const custom = (body: Buffer, encoding?: BufferEncoding): string => {
    customCalls.push([Buffer.isBuffer(body), encoding]);
    return `"custom-${body.length}"`;
  };

  before(async () => {
    cached = await cachedEngine({ ttl: 60, maxBytes: 1 << 20 });
    {
      await using conn = await cached.engine.connect();
      await conn.run(`INSERT INTO orders VALUES ('Zürich "HQ" \u2028', 7)`);
      await conn.commit();
    }
    const app = express();
    const mount = (path: string, setting: ETagSetting | undefined): void => {
      const sub = express();
      if (setting !== undefined) sub.set("etag", setting);
      sub.get("/expected", async (_req, res) => {
        await using cursor = await byCountry.using(cached.engine).execute({ cache: false });
        sendJson(res, await cursor.fetchAllRows());
      });
      sub.get("/rows", async (_req, res) => sendRows(res, await byCountry.using(cached.engine).execute()));
      app.use(path, sub);
    };
    mount("/default", undefined);
    mount("/strong", "strong");
    mount("/none", false);
    mount("/custom", custom);
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    await cached.engine.dispose();
  });

  async function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
    const response = await fetch(`${base}${path}`, { headers, method });
    const kept = [...response.headers].filter(([name]) => !["date", "connection", "keep-alive"].includes(name));
    return { status: response.status, headers: Object.fromEntries(kept), body: await response.text() };
  }

  it("sends the status, headers and body sendJson(fetchAllRows()) sends, on a miss and on hits, under each etag setting", async () => {
    const tags: Record<string, string | undefined> = {};
    for (const path of ["/default", "/strong", "/none", "/custom"]) {
      cached.engine.resultCache!.invalidate();
      const expected = await get(`${path}/expected`);
      expect(expected.body).to.contain('"country":"Zürich \\"HQ\\" \u2028"');
      const served = cached.served();
      for (const side of ["miss", "hit", "hit again"])
        expect(await get(`${path}/rows`), `${path} ${side}`).to.deep.equal(expected);
      expect(cached.served() - served, `${path}: two hits`).to.equal(2);
      tags[path] = expected.headers["etag"];
      expect(expected.headers["content-length"]).to.equal(String(Buffer.byteLength(expected.body)));
    }
    expect(tags["/default"]).to.match(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(tags["/strong"]).to.equal(tags["/default"]!.slice(2));
    expect(tags["/none"]).to.equal(undefined);
    expect(tags["/custom"]).to.match(/^"custom-\d+"$/);
    expect(customCalls, "the custom function: called per response, as Express calls it").to.deep.equal(
      Array.from({ length: 4 }, () => [true, undefined]),
    );
  });

  it("answers a matching If-None-Match with 304 and no body on a miss and on a hit; HEAD on a hit sends no body", async () => {
    const expected = await get("/default/expected");
    const tag = expected.headers["etag"]!;
    // fetch adds `Cache-Control: no-cache` to a conditional request unless it has one (and Express's
    // freshness check then answers 200); a browser's reload sends max-age=0.
    const conditional = { "If-None-Match": tag, "Cache-Control": "max-age=0" };
    cached.engine.resultCache!.invalidate();
    const served = cached.served();
    const miss = await get("/default/rows", conditional);
    expect(cached.served(), "a miss").to.equal(served);
    const hit = await get("/default/rows", conditional);
    expect(cached.served(), "a hit").to.equal(served + 1);
    for (const answer of [miss, hit]) {
      expect(answer).to.include({ status: 304, body: "" });
      expect(answer.headers["etag"]).to.equal(tag);
      expect(answer.headers).to.not.have.property("content-type");
    }
    expect(await get("/default/rows", { ...conditional, "If-None-Match": 'W/"other"' })).to.deep.equal(expected);
    const head = await get("/default/rows", {}, "HEAD");
    expect(head).to.deep.equal({ ...expected, body: "" });
  });

  it("hands res.send a hit's kept bytes with its ETag already set, so Express neither encodes nor hashes", async () => {
    const app = express();
    const calls: { etag: unknown; bytes: boolean }[] = [];
    const headers = new Map<string, string>();
    const res = {
      app,
      statusCode: 200,
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
      end: () => undefined,
      send: (body: string | Uint8Array) => calls.push({ etag: headers.get("etag"), bytes: Buffer.isBuffer(body) }),
    };
    await (await byCountry.using(cached.engine).execute()).close();
    await sendRows(res, await byCountry.using(cached.engine).execute());
    expect(calls).to.deep.equal([{ etag: (await get("/default/expected")).headers["etag"], bytes: true }]);
  });
});

const COLUMNS: readonly ColumnInfo[] = [{ name: "label", type: "VARCHAR", kind: "string" }];

function result(label: string): CachedResult {
  const chunk = [[label]];
  return Object.freeze({
    columns: COLUMNS,
    chunks: [chunk],
    rowCount: 1,
    bytes: measureRows(chunk),
    origin: "warehouse",
  });
}

describe("result cache: an entry's kept JSON body", () => {
  it("is counted once and leaves with its entry on expiry, eviction and invalidation", () => {
    let now = 0;
    const cache = new ResultCache({ ttl: 60, maxBytes: 1 << 20, now: () => now });
    const keep = (key: string, text: string): { body: JsonBody; entry: number } => {
      const stored = result(text);
      cache.set(key, stored, 10, cache.generation);
      const entry = cache.stats().bytes;
      let made = 0;
      const make = () => (made++, new JsonBody(JSON.stringify([{ label: text }])));
      const body = cache.bodyOf(key, stored, make);
      expect(cache.bodyOf(key, stored, make), "kept").to.equal(body);
      expect(made, "made once").to.equal(1);
      expect(cache.stats().bytes - entry, "counted once").to.equal(body.keptBytes);
      expect(body.keptBytes).to.be.at.least(Buffer.byteLength(JSON.stringify([{ label: text }])));
      return { body, entry };
    };
    const long = "ü".repeat(2000);
    keep("a", long);
    now += 10_000;
    expect(cache.get("a"), "expired").to.equal(undefined);
    expect(cache.stats().bytes, "expiry takes the body").to.equal(0);

    const tight = new ResultCache({ ttl: 60, maxBytes: 12_000 });
    const first = result(long);
    tight.set("a", first, 10, tight.generation);
    tight.bodyOf("a", first, () => new JsonBody(JSON.stringify([{ label: long }])));
    tight.set("b", result(`${long}!`), 10, tight.generation);
    expect(tight.stats()).to.include({ entries: 1, evictions: 1 });
    expect(tight.stats().bytes, "eviction takes the body").to.be.below(first.bytes + 200);

    keep("c", long);
    cache.invalidate();
    expect(cache.stats().bytes, "invalidation takes the body").to.equal(0);
  });
});
