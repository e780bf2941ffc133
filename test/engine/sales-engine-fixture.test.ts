import { expect } from "chai";
import { register, unregister } from "lib";
import type { Engine } from "lib";
import { getEngine, isRegisteredForTest } from "../support/engines.js";
import { useSalesEngine, withSalesEngine } from "../support/sales-engine.js";
import { SALES_BY_COUNTRY, SALES_ROWS, SALES_TOTALS } from "../support/sales-fixture.js";

describe("engine: SPEC sales_engine fixture", () => {
  const sales = useSalesEngine();

  it("registers as default with one seeded :memory: connection", async () => {
    expect(getEngine("default")).to.equal(sales.engine);
    expect(sales.engine.settings.poolSize).to.equal(1);
    await using conn = await sales.engine.connect();
    const rows = await conn.all("SELECT count(*) AS n, sum(revenue) AS revenue FROM sales_data");
    expect(rows).to.deep.equal([{ n: BigInt(SALES_ROWS.length), revenue: SALES_TOTALS.revenue }]);
    expect(sales.engine._pool.opened).to.equal(1);
  });

  it("answers the example query through the semantic view", async () => {
    await using conn = await sales.engine.connect();
    const rows = await conn.all(
      "SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue', 'cost']) ORDER BY revenue DESC",
    );
    expect(
      rows.map((r) => ({
        country: r["country"],
        revenue: BigInt(r["revenue"] as bigint),
        cost: BigInt(r["cost"] as bigint),
      })),
    ).to.deep.equal(SALES_BY_COUNTRY.map((r) => ({ ...r })));
  });

  it("withSalesEngine unregisters default, then disposes, also when the body throws", async () => {
    // The hooks' engine holds "default"; free it so withSalesEngine can register its own.
    const outer = sales.engine;
    unregister("default");
    let inner: Engine | undefined;
    try {
      await withSalesEngine(async (engine) => {
        inner = engine;
        expect(getEngine("default")).to.equal(engine);
        throw new Error("boom");
      });
      expect.fail("should have thrown");
    } catch (error) {
      expect((error as Error).message).to.equal("boom");
    }
    expect(inner?.disposed).to.equal(true);
    expect(isRegisteredForTest("default")).to.equal(false);
    register("default", outer);
  });
});
