/**
 * The result cache's store on its own (no database): the byte bound under 1,000 distinct large
 * results, least-recently-used eviction, TTL on a test clock, invalidation while a run is in flight,
 * and the key's parts (typed parameters, scope, result mode).
 */
import { expect } from "chai";
import { Decimal } from "lib";
import type { ColumnInfo } from "../../runtime/driver/query-result.js";
import { withQueryScope } from "lib/cache";
import { cachedRequestFor } from "../../runtime/query-executor/cache-options.js";
import { cacheKey } from "../../runtime/result-cache/cache-key.js";
import { cachedStream, type CachedResult } from "../../runtime/result-cache/cached-result.js";
import { measureRows, measureValue } from "../../runtime/result-cache/measure-bytes.js";
import { ResultCache } from "../../runtime/result-cache/result-cache.js";
import { Cursor } from "../../runtime/cursor/cursor.js";
import { literalRowObjects, rowObjectBuilder } from "../../runtime/driver/row-objects.js";

const COLUMNS: readonly ColumnInfo[] = [
  { name: "id", type: "BIGINT", kind: "bigint" },
  { name: "label", type: "VARCHAR", kind: "string" },
  { name: "amount", type: "DECIMAL(12,2)", kind: "decimal" },
];

/** A result of `rows` rows whose bytes are measured from its values. */
function result(rows: number, seed: number): CachedResult {
  const chunk = Array.from({ length: rows }, (_, i) => [
    BigInt(seed * 10_000 + i),
    `row ${seed}-${i} `.repeat(4),
    new Decimal(BigInt(i), 2),
  ]);
  return Object.freeze({
    columns: COLUMNS,
    chunks: [chunk],
    rowCount: rows,
    bytes: measureRows(chunk),
    origin: "warehouse",
  });
}

describe("result cache: the store", () => {
  it("measures values by their size, not by count", () => {
    expect(measureValue("x".repeat(1000))).to.be.greaterThan(measureValue("x") + 1900);
    expect(measureValue(2n ** 200n)).to.be.greaterThan(measureValue(1n));
    expect(measureRows([[1, "a"]])).to.be.lessThan(measureRows([[1, "a".repeat(100)]]));
    expect(measureValue(new Uint8Array(4096))).to.be.greaterThan(4096);
  });

  it("stays within max_bytes under 1,000 distinct large results, evicting the least recently used", () => {
    const maxBytes = 2 * 1024 * 1024;
    const cache = new ResultCache({ ttl: 60, maxBytes });
    let stored = 0;
    for (let i = 0; i < 1000; i++) {
      if (cache.set(`q${i}`, result(200, i), 60, cache.generation)) stored++;
      if (i === 500) expect(cache.get("q499"), "recently stored").to.not.equal(undefined);
      expect(cache.stats().bytes).to.be.at.most(maxBytes);
    }
    const stats = cache.stats();
    expect(stored).to.equal(1000);
    expect(stats.evictions).to.be.greaterThan(900);
    expect(stats.entries).to.be.lessThan(100).and.greaterThan(10);
    expect(cache.get("q999")).to.not.equal(undefined);
    expect(cache.get("q0")).to.equal(undefined);
    // An entry larger than the whole cache is not kept (and evicts nothing).
    expect(cache.set("huge", result(20_000, 1), 60, cache.generation)).to.equal(false);
    expect(cache.stats().entries).to.equal(stats.entries);
  });

  it("a hit makes its entry the most recently used: eviction takes the least recently used, also after an invalidation", () => {
    const one = result(20, 1);
    const maxBytes = 3 * (one.bytes + 64 + 2 * "k0".length);
    const cache = new ResultCache({ ttl: 60, maxBytes });
    const has = (...keys: string[]) => keys.map((k) => cache.get(k) !== undefined);
    for (const key of ["k0", "k1", "k2"]) expect(cache.set(key, one, 60, cache.generation)).to.equal(true);
    expect(has("k0")).to.deep.equal([true]); // k1 is now the least recently used
    cache.set("k3", one, 60, cache.generation);
    expect(has("k1", "k2", "k3", "k0")).to.deep.equal([false, true, true, true]);
    cache.set("k4", one, 60, cache.generation); // k2 is the least recently used, then k3
    cache.set("k5", one, 60, cache.generation);
    expect(has("k2", "k3", "k0", "k4", "k5")).to.deep.equal([false, false, true, true, true]);
    expect(cache.stats()).to.include({ entries: 3, evictions: 3 });
    cache.invalidate();
    for (const key of ["k6", "k7", "k8", "k9"]) cache.set(key, one, 60, cache.generation);
    expect(has("k6", "k7", "k8", "k9", "k0")).to.deep.equal([false, true, true, true, false]);
    expect(cache.stats()).to.include({ entries: 3, bytes: maxBytes, evictions: 4 });
  });

  it("builds cached rows as fresh objects with the keys, order and own properties of the cursor's generic rows", async () => {
    const names = ["__proto__", "x", "1", 'a"b\\c\n\u2028', "x", "constructor", "\ud800", "`${x}`"];
    const columns = names.map((name) => ({ name, type: "INTEGER", kind: "integer" as const }));
    const row = names.map((_, i) => i);
    const literal = literalRowObjects(names)!(row);
    const generic = rowObjectBuilder(names)(row);
    expect(Object.getPrototypeOf(literal)).to.equal(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(literal, "__proto__")).to.deep.equal({
      value: 0,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(Object.entries(literal)).to.deep.equal(Object.entries(generic));
    expect(Object.keys(literal)).to.deep.equal([
      "1",
      "__proto__",
      "x",
      'a"b\\c\n\u2028',
      "constructor",
      "\ud800",
      "`${x}`",
    ]);
    expect(literal["x"]).to.equal(4);
    // Through a cursor: every hit gets its own row objects and its own array.
    const cached: CachedResult = Object.freeze({
      columns,
      chunks: [[row]],
      rowCount: 1,
      bytes: 100,
      origin: "warehouse",
    });
    const read = () => new Cursor(undefined, cachedStream(cached), undefined).fetchAllRows();
    const first = await read();
    first[0]!["x"] = "changed";
    first.push({});
    expect(await read()).to.deep.equal([generic]);
  });

  it("serves an entry until its TTL, then drops it", () => {
    let now = 1_000;
    const cache = new ResultCache({ ttl: 60, maxBytes: 1 << 20, now: () => now });
    cache.set("a", result(1, 1), 10, cache.generation);
    now += 9_999;
    expect(cache.get("a")).to.not.equal(undefined);
    now += 1;
    expect(cache.get("a")).to.equal(undefined);
    expect(cache.stats()).to.include({ entries: 0, bytes: 0, hits: 1, misses: 1 });
  });

  it("does not store what a run read before an invalidation; a new request does not join that run", async () => {
    const cache = new ResultCache({ ttl: 60, maxBytes: 1 << 20 });
    let finish!: (value: string) => void;
    const generation = cache.generation;
    const first = cache.flight("k", () => new Promise<string>((resolve) => (finish = resolve)));
    expect(cache.flight("k", async () => "other").joined).to.equal(true);
    cache.invalidate();
    const after = cache.flight("k", async () => "fresh");
    expect(after.joined).to.equal(false);
    finish("stale");
    expect(await first.flight.join()).to.equal("stale");
    expect(await after.flight.join()).to.equal("fresh");
    expect(cache.set("k", result(1, 1), 60, generation)).to.equal(false);
  });

  it("keys on dialect, SQL, typed parameters, result mode and scope", () => {
    const base = { dialect: "backend_a", sql: "SELECT ?", parameters: [1] as unknown[] };
    const keys = [
      cacheKey(base),
      cacheKey({ ...base, dialect: "backend_b" }),
      cacheKey({ ...base, sql: "SELECT ? " }),
      cacheKey({ ...base, parameters: ["1"] }),
      cacheKey({ ...base, parameters: [1n] }),
      cacheKey({ ...base, parameters: [new Decimal(1n, 0)] }),
      cacheKey({ ...base, parameters: [new Date(1)] }),
      cacheKey({ ...base, columnNames: ["a"] }),
      cacheKey({ ...base, scope: { tenant: "a" } }),
      cacheKey({ ...base, scope: { tenant: "b" } }),
      cacheKey({ ...base, scope: { tenant: 1 } }),
    ];
    expect(new Set(keys).size).to.equal(keys.length);
    expect(cacheKey({ ...base, scope: { a: 1, b: 2 } })).to.equal(cacheKey({ ...base, scope: { b: 2, a: 1 } }));
  });

  it("memoizes a compiled query's key per dialect; never for a parameter the caller can change in place", () => {
    const cache = new ResultCache({ ttl: 60, maxBytes: 1 << 20 });
    const keyOf = (dialect: string, query: { sql: string; parameters: readonly unknown[] }) =>
      cachedRequestFor(cache, dialect, query, {})!.key;
    const plain = Object.freeze({ sql: "SELECT ?", parameters: Object.freeze([1, "DE", 2n, new Decimal(5n, 1)]) });
    expect(keyOf("backend_c", plain)).to.equal(cacheKey({ dialect: "backend_c", ...plain }));
    expect(keyOf("backend_c", plain)).to.equal(cacheKey({ dialect: "backend_c", ...plain }));
    expect(keyOf("backend_a", plain)).to.equal(cacheKey({ dialect: "backend_a", ...plain }));
    // A compiled query never changes; changing this stand-in for one shows the key was kept, not rebuilt.
    const kept = { sql: "SELECT 1", parameters: [] };
    const first = keyOf("backend_c", kept);
    kept.sql = "SELECT 2";
    expect(keyOf("backend_c", kept)).to.equal(first);
    // Two scopes never share the memoized key's entry.
    const scoped = (tenant: string) => withQueryScope({ tenant }, () => keyOf("backend_c", plain));
    expect(new Set([keyOf("backend_c", plain), scoped("a"), scoped("b")]).size).to.equal(3);
    expect(scoped("a")).to.equal(cacheKey({ dialect: "backend_c", ...plain, scope: { tenant: "a" } }));

    const day = new Date(Date.UTC(2024, 0, 1));
    const bytes = Uint8Array.of(1, 2);
    const list = ["FR"];
    const mutable = Object.freeze({ sql: "SELECT ?, ?, ?", parameters: Object.freeze([day, bytes, list]) });
    const before = keyOf("backend_c", mutable);
    day.setUTCDate(2);
    bytes[0] = 9;
    list.push("JP");
    const after = keyOf("backend_c", mutable);
    expect(after).to.not.equal(before);
    expect(after).to.equal(cacheKey({ dialect: "backend_c", ...mutable }));
  });

  it("gives each reader of a cached result its own dates", async () => {
    const day = new Date(Date.UTC(2024, 0, 1));
    const cached: CachedResult = Object.freeze({
      columns: [{ name: "day", type: "DATE", kind: "date" as const }],
      chunks: [[[day]], [[day]]],
      rowCount: 2,
      bytes: 100,
      origin: "warehouse",
    });
    const read = async () => {
      const rows: unknown[][] = [];
      for await (const chunk of cachedStream(cached)) rows.push(...chunk);
      return rows;
    };
    const first = await read();
    (first[0]![0] as Date).setUTCFullYear(1999);
    const second = await read();
    expect(second.map((r) => (r[0] as Date).toISOString())).to.deep.equal([day.toISOString(), day.toISOString()]);
    const stream = cachedStream(cached);
    await stream.close();
    expect((await stream[Symbol.asyncIterator]().next()).done).to.equal(true);
  });
});
