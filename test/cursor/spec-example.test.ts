/**
 * The SPEC.md example through the public API: revenue by country from the `sales` semantic view on
 * backend C, read with every cursor mode, mapped onto `RevenueByCountry`, and written as lossless JSON.
 */
import { expect } from "chai";
import { Type } from "typebox";
import { Dimension, LibSchemaMismatchError, Metric, SemanticView, toJson, type Cursor } from "lib";
import { useSalesEngine } from "../support/sales-engine.js";
import { SALES_BY_COUNTRY } from "../support/sales-fixture.js";
import { failureOf } from "../support/failures.js";

class Sales extends SemanticView("sales", {
  revenue: Metric(),
  cost: Metric(),
  country: Dimension<string>(),
  region: Dimension(),
}) {}

const RevenueByCountry = Type.Object(
  { country: Type.String({ title: "Country" }), revenue: Type.Integer({ title: "Revenue" }) },
  { title: "RevenueByCountry" },
);

const revenueByCountry = (country?: string) =>
  Sales.query()
    .metrics(Sales.revenue)
    .dimensions(Sales.country)
    .where(country ? Sales.country.eq(country) : null)
    .orderBy(Sales.revenue.desc());

describe("cursor: the SPEC example on backend C", () => {
  const sales = useSalesEngine();
  const expected = SALES_BY_COUNTRY.map(({ country, revenue }) => ({ country, revenue }));
  // Type.Integer() is `number` in TypeScript: the 64-bit SUM arrives as a number (it is within ±(2^53−1)).
  const expectedModels = expected.map(({ country, revenue }) => ({ country, revenue: Number(revenue) }));

  it("fetchAllRows returns rows keyed by field name, revenue as bigint", async () => {
    await using cursor = await revenueByCountry().execute();
    expect(await cursor.fetchAllRows()).to.deep.equal(expected.map(({ country, revenue }) => ({ revenue, country })));
    expect(cursor.columns.map((c) => c.kind)).to.include("bigint");
  });

  it("into(RevenueByCountry) agrees in strict mode; keys follow the model; toJson writes exact numbers", async () => {
    await using cursor = await revenueByCountry().execute();
    const rows = await cursor.into(RevenueByCountry);
    expect(rows).to.deep.equal(expectedModels);
    expect(Object.keys(rows[0]!)).to.deep.equal(["country", "revenue"]);
    expect(toJson(rows)).to.equal(
      `[${expected.map((r) => `{"country":"${r.country}","revenue":${r.revenue}}`).join(",")}]`,
    );
    expect(sales.engine._pool.borrowed).to.equal(0);
  });

  it("coerce turns the bigint sums into numbers for the model's Static type", async () => {
    await using cursor = await revenueByCountry("US").execute();
    const rows = await cursor.into(RevenueByCountry, { validate: "coerce" });
    expect(rows).to.deep.equal([{ country: "US", revenue: 425 }]);
    expect(typeof rows[0]!.revenue).to.equal("number");
  });

  it("an unknown country gives no rows; a model asking for a missing field fails before reading", async () => {
    {
      await using cursor = await revenueByCountry("Atlantis").execute();
      expect(await cursor.into(RevenueByCountry)).to.deep.equal([]);
    }
    await using cursor = await revenueByCountry().execute();
    const error = await failureOf(
      cursor.into(Type.Object({ country: Type.Integer(), region: Type.String() }, { title: "Wrong" })),
    );
    expect(error).to.be.instanceOf(LibSchemaMismatchError);
    expect((error as Error).message).to.equal(
      "Model Wrong does not match the result: country: model integer vs column VARCHAR (string); region: model string vs column (missing) (no column of that name in the result)",
    );
  });

  it("iterInto and fetchArrow read the same result", async () => {
    const streamed: unknown[] = [];
    {
      const cursor: Cursor<unknown> = await revenueByCountry().execute();
      for await (const row of cursor.iterInto(RevenueByCountry)) streamed.push(row);
    }
    expect(streamed).to.deep.equal(expectedModels);
    await using cursor = await revenueByCountry().execute();
    const table = await cursor.fetchArrow();
    expect(table.numRows).to.equal(expected.length);
    expect(table.getChild("country")!.toArray()).to.deep.equal(expected.map((r) => r.country));
  });
});
