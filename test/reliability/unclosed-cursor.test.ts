/**
 * Issue 9.13: a cursor that is never closed and then garbage-collected gives its pooled connection
 * back, with one process warning per place that opened such cursors, naming that place. (The other
 * safety net of 9.13, a DuckDB file deleted under a running service, is in restart-recovery.)
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect } from "chai";
import { Dimension, Metric, SemanticView } from "lib";
import type { Engine } from "lib";
import { closeSalesEngine, createSalesEngine } from "../support/sales-engine.js";
import { captureWarnings } from "../support/warnings.js";
import { TRACE_CURSORS_ENV, traceCursorOpenings } from "../../runtime/cursor/unclosed-cursor.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

class Sales extends SemanticView("sales", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

/** Executes a query and drops its cursor without closing it (the bug this safety net covers). */
async function leakCursor(engine: Engine): Promise<void> {
  await Sales.query().metrics(Sales.revenue).using(engine).execute();
}

/** Collects garbage until `done()`; a full collection is slow in a big heap, so each is given time to finalize. */
async function collectUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 20 && !done(); i++) {
    gc();
    for (let wait = 0; wait < 20 && !done(); wait++) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("reliability: a cursor garbage-collected unclosed (issue 9.13)", function () {
  this.timeout(60_000); // full collections in a loaded CI worker's big heap
  afterEach(() => traceCursorOpenings(undefined));

  /** Leaks `rounds` cursors from one place in this file; the warnings they caused. */
  async function leakRounds(engine: Engine, rounds: number) {
    return captureWarnings("LIB_UNCLOSED_CURSOR", async () => {
      for (let round = 0; round < rounds; round++) {
        await leakCursor(engine);
        expect(engine._pool.borrowed, "the leaked cursor holds the only connection").to.equal(1);
        await collectUntil(() => engine._pool.borrowed === 0);
        expect(engine._pool.borrowed).to.equal(0);
        await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      }
    });
  }

  it(`with ${TRACE_CURSORS_ENV}=1: returns its connection and warns once per opening site, naming it`, async () => {
    process.env[TRACE_CURSORS_ENV] = "1";
    traceCursorOpenings(undefined); // read the environment again
    const engine = createSalesEngine();
    try {
      const warnings = await leakRounds(engine, 2);
      expect(warnings).to.have.length(1);
      expect(warnings[0]!.message).to.match(/garbage-collected without being closed/);
      expect(warnings[0]!.message).to.contain("unclosed-cursor.test.ts");
      // The pool is healthy: the next query gets the returned connection.
      await using cursor = await Sales.query().metrics(Sales.revenue).using(engine).execute();
      expect((await cursor.fetchAllRows()).length).to.equal(1);
    } finally {
      delete process.env[TRACE_CURSORS_ENV];
      await closeSalesEngine(engine);
    }
  });

  it("by default: no stack per query; the first leak says so and turns recording on, the next one is named", async () => {
    delete process.env[TRACE_CURSORS_ENV];
    traceCursorOpenings(undefined);
    const engine = createSalesEngine();
    try {
      const warnings = await leakRounds(engine, 3);
      expect(warnings.map((w) => w.message)).to.have.length(2);
      expect(warnings[0]!.message).to.match(/garbage-collected without being closed/);
      expect(warnings[0]!.message).to.contain(`${TRACE_CURSORS_ENV}=1`);
      expect(warnings[0]!.message).not.to.contain("unclosed-cursor.test.ts");
      expect(warnings[1]!.message, "the second leak names its place").to.contain("unclosed-cursor.test.ts");
      await using cursor = await Sales.query().metrics(Sales.revenue).using(engine).execute();
      expect((await cursor.fetchAllRows()).length).to.equal(1);
    } finally {
      await closeSalesEngine(engine);
    }
  });
});
