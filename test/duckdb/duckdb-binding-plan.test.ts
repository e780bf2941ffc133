/**
 * A filter shape's binding plan (semantic/call/bind-lifted.ts `liftedBinder`, one per parameter of the
 * shape, made when the shape is probed): through the builder, values of other types in the same shape
 * (a bigint, a number, Decimals with and without a fraction) bind in the parameter's type or fall back
 * to their literal, answering as the hand-written SQL does; a column redefined with another type makes
 * a new plan (the shape is probed again after the commit) and the values bind in the new type.
 */
import { expect } from "chai";
import { Decimal, Dimension, Metric, SemanticView } from "lib";
import { semanticQueryCacheStats } from "../../runtime/semantic/call/typed-query.js";
import { useSeededConnection } from "../support/engines.js";
import { useTempDir } from "../support/temp-dir.js";

class Plan extends SemanticView("plan_v", { n: Metric<bigint>(), k: Dimension<number>() }) {}

type Value = bigint | number | Decimal;

describe("backend C: a filter shape's binding plan", () => {
  const db = useSeededConnection(useTempDir("all"), async (setup) => {
    await setup.run("CREATE TABLE pt (k BIGINT)");
    await setup.run("INSERT INTO pt VALUES (5), (6), (7)");
    await setup.run("CREATE SEMANTIC VIEW plan_v AS TABLES (pt) DIMENSIONS (pt.k AS k) METRICS (pt.n AS count(*))");
  });

  /** The k values the builder's `k >= value` answers (as text: BIGINT or DECIMAL alike). */
  const builder = async (value: Value): Promise<string[]> => {
    const query = Plan.query().dimensions(Plan.k).metrics(Plan.n).where(Plan.k.gte(value)).orderBy(Plan.k.asc());
    await using cursor = await query.using(db.engine).execute();
    return (await cursor.fetchAllRows()).map((row) => String(row.k));
  };
  /** The same answer from hand-written SQL on the table. */
  const handWritten = async (value: Value): Promise<string[]> =>
    (await db.conn.all(`SELECT k FROM pt WHERE k >= ${String(value)} ORDER BY k`)).map((row) => String(row["k"]));
  const probes = (): number => semanticQueryCacheStats().misses;

  it("binds values of several types into one shape's plan, or falls back to the literal, answering as written", async () => {
    await builder(0n); // the shape `k >= $1` and its plan (BIGINT)
    const before = probes();
    for (const value of [6n, 6, Decimal.from("6"), 7n, 5]) {
      expect(await builder(value), String(value)).to.deep.equal(await handWritten(value));
    }
    expect(probes() - before, "every value bound into the known shape: no probe").to.equal(0);
    // A fractional value is compared in a guarded shape whose parameter is BIGINT: 5.5 is none, so the
    // plan refuses it and the literal statement answers (the shape's probe, then the literal's).
    expect(await builder(Decimal.from("5.5"))).to.deep.equal(["6", "7"]);
    expect(probes() - before).to.equal(2);
  });

  it("makes a new plan when the column's type changes, and binds in the new type", async () => {
    await db.conn.run("CREATE OR REPLACE TABLE pt (k DECIMAL(10,1))");
    await db.conn.run("INSERT INTO pt VALUES (5.0), (5.5), (6.0)");
    await db.conn.commit();
    const before = probes();
    // DuckDB keeps reporting BIGINT for the statement prepared before: the shape is prepared afresh.
    expect(await builder(Decimal.from("5.5"))).to.deep.equal(["5.5", "6.0"]);
    expect(probes() - before, "the guarded shape probed again, 5.5 bound as DECIMAL(10,1)").to.equal(1);
    for (const value of [Decimal.from("6.5"), Decimal.from("5.0")]) {
      expect(await builder(value), String(value)).to.deep.equal(await handWritten(value));
    }
    expect(probes() - before, "new values bound into the new plan").to.equal(1);
    for (const value of [6n, 5, Decimal.from("6")]) {
      expect(await builder(value), String(value)).to.deep.equal(await handWritten(value));
    }
    expect(probes() - before, "the integer shape probed again once").to.equal(2);
  });
});
