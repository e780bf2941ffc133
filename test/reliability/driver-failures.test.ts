/**
 * Issue 22 item 8: a malformed warehouse answer crashed the process inside snowflake-sdk (it reads
 * results in callbacks of its own, so its exception was uncaught) and left the query pending. Now
 * such a failure rejects the query with `InternalError` (code `driver_failure`) and its connection
 * is replaced; the process and the engine go on. Mocha fails a test on any uncaught exception, so
 * these tests also prove that none escaped. The guard sits at the sdk's exact throwing points
 * (snowflake-containment.ts), not in a Node domain, which would tax every promise of the process.
 */
import { EventEmitter } from "node:events";
import { expect } from "chai";
import { InternalError, type Engine } from "lib";
import { Sales } from "../support/sales-fixture.js";
import { failureOf } from "../support/failures.js";
import { standInEngine, startStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";

type Data = Record<string, unknown>;
const firstColumn = (data: Data) => (data["rowtype"] as Record<string, unknown>[])[0]!;

/** Answers that made the sdk throw in its own callbacks (found by probing the real sdk). */
const MALFORMED: readonly [string, (data: Data) => Data][] = [
  ["a row that is null", (data) => ({ ...data, rowset: [null] })],
  ["a rowset that is not an array", (data) => ({ ...data, rowset: "not rows" })],
  [
    "text in an integer column",
    (data) => ({
      ...data,
      rowtype: [{ ...firstColumn(data), type: "fixed", precision: 38, scale: 0 }],
      rowset: [["abc"]],
    }),
  ],
];

describe("reliability: a driver failure rejects the query, never the process", function () {
  this.timeout(30_000);
  let standIn: SnowflakeStandIn;
  beforeEach(async () => {
    standIn = await startStandIn();
  });
  afterEach(() => standIn.close());

  for (const [name, malform] of MALFORMED) {
    it(`${name}: raw SQL and a streamed query reject with InternalError; the engine answers next`, async () => {
      await using engine = standInEngine(standIn);
      standIn.malformAnswers = { match: /SELECT 1 AS one|SEMANTIC_VIEW/, rewrite: malform };
      const raw = await failureOf(
        (async () => {
          await using conn = await engine.connect();
          return await conn.all("SELECT 1 AS one");
        })(),
      );
      expect(raw).to.be.instanceOf(InternalError);
      expect(raw).to.have.property("code", "driver_failure");
      expect(raw.message).to.match(/^Backend A's driver failed reading the warehouse's answer: /);
      const streamed = await failureOf(
        (async () => {
          await using cursor = await Sales.query().metrics(Sales.revenue).using(engine).execute();
          return await cursor.fetchAllRows();
        })(),
      );
      expect(streamed).to.be.instanceOf(InternalError);
      standIn.malformAnswers = undefined;
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
    });
  }

  /** Reads `sql` through `conn.all()` and through a stream: the rows or the error, for each. */
  async function bothReads(engine: Engine, sql: string): Promise<[unknown, unknown]> {
    const outcome = (read: Promise<unknown>) => read.catch((error: unknown) => error);
    const all = await outcome(
      (async () => {
        await using conn = await engine.connect();
        return await conn.all(sql);
      })(),
    );
    const streamed = await outcome(
      (async () => {
        await using conn = await engine.connect();
        const rows: unknown[] = [];
        for await (const chunk of await conn.stream(sql)) rows.push(...chunk);
        return rows;
      })(),
    );
    return [all, streamed];
  }

  it("a bad value in a result chunk downloaded later fails the statement too (the guard is on the columns)", async () => {
    const chunked = await startStandIn({ chunkRows: 1 });
    try {
      await using engine = standInEngine(chunked);
      const sql = "SELECT v FROM (VALUES ('1'), ('abc')) AS t(v) ORDER BY v";
      // The first row ('1') is inline and converts; 'abc' arrives in the downloaded chunk.
      chunked.malformAnswers = {
        match: /VALUES/,
        rewrite: (data) => ({ ...data, rowtype: [{ ...firstColumn(data), type: "fixed", precision: 38, scale: 0 }] }),
      };
      for (const failure of await bothReads(engine, sql)) {
        expect(failure).to.be.instanceOf(InternalError);
        expect(failure).to.have.property("code", "driver_failure");
      }
      chunked.malformAnswers = undefined;
      await using conn = await engine.connect();
      expect(await conn.all(sql)).to.deep.equal([{ v: "1" }, { v: "abc" }]);
    } finally {
      await chunked.close();
    }
  });

  it("no Node domain is used and process.nextTick is only swapped while the sdk's work runs", async () => {
    const tick = process.nextTick;
    await using engine = standInEngine(standIn);
    const [all, streamed] = await bothReads(engine, "SELECT 1 AS one");
    expect(all).to.deep.equal([{ one: 1 }]);
    expect(streamed).to.deep.equal([[1]]);
    expect(process.nextTick).to.equal(tick);
    expect((EventEmitter as { usingDomains?: boolean }).usingDomains ?? false).to.equal(false);
  });
});
