/**
 * Issue 9 item 7: caches are bounded by size, not only by count, and go with the engine. 100
 * distinct 1 MB filter values used to keep ~400 MB of heap, still held after `engine.dispose()`.
 * Heap is measured after forced collections (outcomes, not timings), with a wide margin. The test
 * uses 40 values: five times the largest cache's 8 MB budget, and ~160 MB under the old behaviour,
 * four times the bound it asserts.
 */
import { expect } from "chai";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Dimension, Metric, SemanticView } from "lib";
import { LruCache, stringBytes } from "../../runtime/semantic/lru-cache.js";
import { semanticQueryCacheStats } from "../../runtime/semantic/call/typed-query.js";
import { closeSalesEngine, createSalesEngine } from "../support/sales-engine.js";

class Sales extends SemanticView("sales", { country: Dimension<string>(), revenue: Metric<bigint>() }) {}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapMB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe("reliability: cache memory", () => {
  it("an LRU cache keeps its byte budget, refuses an entry bigger than all of it, and counts what it holds", () => {
    const cache = new LruCache<string, string>({
      maxEntries: 10,
      maxBytes: 1000,
      sizeOf: (k, v) => stringBytes(k) + stringBytes(v),
    });
    cache.set("a", "x".repeat(200)); // 402 bytes
    cache.set("b", "y".repeat(200));
    expect([cache.size, cache.bytes]).to.deep.equal([2, 804]);
    cache.set("c", "z".repeat(200)); // over 1000: the least recently used ("a") goes
    expect([cache.get("a"), cache.size, cache.bytes]).to.deep.equal([undefined, 2, 804]);
    cache.set("huge", "w".repeat(600)); // alone over the budget: not kept, nothing evicted
    expect([cache.get("huge"), cache.size]).to.deep.equal([undefined, 2]);
    cache.set("b", "short");
    expect(cache.bytes).to.equal(402 + 12);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, "");
    expect(cache.size).to.equal(10);
  });

  it("an LRU cache evicts the least recently used whichever key was read last, also after deletes and clear", () => {
    const cache = new LruCache<string, number>(3);
    const keys = () => ["a", "b", "c", "d", "e"].filter((k) => cache.get(k) !== undefined);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    cache.get("c"); // already the newest: nothing moves
    cache.get("a"); // a becomes the newest; b is now the oldest
    cache.get("a");
    cache.set("d", 4); // evicts b
    expect([cache.get("b"), cache.size]).to.deep.equal([undefined, 3]);
    cache.delete("d"); // the newest goes; c is then the oldest, a the newest
    cache.get("c");
    cache.set("e", 5);
    cache.set("d", 4); // evicts a (c was read after it)
    expect(cache.get("a")).to.equal(undefined);
    cache.clear();
    cache.set("a", 1);
    cache.get("a");
    expect(keys()).to.deep.equal(["a"]);
  });

  it("40 distinct 1 MB filter values keep little heap while the engine runs and none after dispose", async function () {
    this.timeout(120_000);
    const query = () => Sales.query().dimensions(Sales.country).metrics(Sales.revenue);
    const engine = createSalesEngine();
    const cachedBefore = semanticQueryCacheStats().size;
    let before = 0;
    try {
      {
        await using warm = await query().execute();
        await warm.fetchAllRows();
      }
      before = heapMB();
      for (let i = 0; i < 40; i++) {
        const value = `${i}-`.padEnd(1_000_000, String.fromCharCode(97 + (i % 26)));
        await using cursor = await query().where(Sales.country.eq(value)).execute();
        expect(await cursor.fetchAllRows()).to.deep.equal([]);
      }
      const running = heapMB() - before;
      expect(running, `heap held while running: ${running.toFixed(1)} MB`).to.be.below(40); // was ~160 (4 MB a value)
    } finally {
      await closeSalesEngine(engine);
    }
    expect(semanticQueryCacheStats().size, "probes cached for the engine's connection").to.equal(cachedBefore);
    const disposed = heapMB() - before;
    expect(disposed, `heap held after dispose: ${disposed.toFixed(1)} MB`).to.be.below(20); // was ~160
  });
});
