/**
 * Issue 22 item 8: a malformed warehouse answer crashed the process inside snowflake-sdk (it reads
 * results in callbacks of its own, so its exception was uncaught) and left the query pending. Now
 * such a failure rejects the query with `InternalError` (code `driver_failure`) and its connection
 * is replaced; the process and the engine go on. Mocha fails a test on any uncaught exception, so
 * these tests also prove that none escaped.
 */
import { expect } from "chai";
import { InternalError } from "lib";
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
});
