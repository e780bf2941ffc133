/**
 * `SemanticView(name, fields, options)`: `{ name }` for a warehouse view name that is not an
 * identifier (compiled per dialect, run on backend C), and `{ groupableBy }`, the metric–dimension
 * rules the builder enforces with a ValidationError naming the metric, the dimension and the allowed set.
 */
import { expect } from "chai";
import { BackendCConfig, Dimension, Metric, SemanticView, ValidationError, createEngine } from "lib";
import { thrownBy } from "../support/failures.js";
import { expectSql } from "./support/golden.js";

class OddView extends SemanticView(
  "oddView",
  { country: Dimension<string>(), revenue: Metric<bigint>() },
  { name: "Odd View" },
) {}

class Orders extends SemanticView(
  "orders",
  {
    customerName: Dimension<string>(),
    supplierName: Dimension<string>(),
    orderDate: Dimension<Date>(),
    revenue: Metric<bigint>(),
    orderCount: Metric<bigint>(),
    margin: Metric<bigint>(),
  },
  { groupableBy: { revenue: ["customerName", "orderDate"], orderCount: [] } },
) {}

function validationError(fn: () => unknown): ValidationError {
  const error = thrownBy(fn);
  expect(error).to.be.instanceOf(ValidationError);
  return error as ValidationError;
}

describe("SemanticView options: { name }", () => {
  it("fields and errors use the declared name; every dialect quotes the warehouse name", () => {
    expect(OddView.viewName).to.equal("oddView");
    expect(OddView.country.viewName).to.equal("oddView");
    expectSql(OddView.query().dimensions(OddView.country).metrics(OddView.revenue), {
      backend_a: {
        sql: 'SELECT * FROM SEMANTIC_VIEW("Odd View" DIMENSIONS "COUNTRY" AS "country" METRICS "REVENUE" AS "revenue")',
      },
      backend_b: { sql: "SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `Odd View` GROUP BY ALL" },
      backend_c: `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('"Odd View"', dimensions := ['country'], metrics := ['revenue'])`,
    });
  });

  it("replaces the view's own name; a database and schema come from the declared name", () => {
    class Qualified extends SemanticView("analytics.oddView", { revenue: Metric<bigint>() }, { name: 'it"s' }) {}
    expectSql(Qualified.query().metrics(Qualified.revenue), {
      backend_a: { sql: 'SELECT * FROM SEMANTIC_VIEW("ANALYTICS"."IT""S" METRICS "REVENUE" AS "revenue")' },
      backend_b: { sql: 'SELECT MEASURE(`revenue`) AS `revenue` FROM `analytics`.`it"s`' },
      backend_c: `SELECT "revenue" AS "revenue" FROM semantic_view('analytics."it""s"', metrics := ['revenue'])`,
    });
  });

  it('runs against a backend C view named "Odd View"', async () => {
    await using engine = createEngine(new BackendCConfig({ database: ":memory:", semanticViews: "builtin" }));
    {
      await using conn = await engine.connect();
      await conn.run("CREATE TABLE t (country VARCHAR, amount INTEGER)");
      await conn.run("INSERT INTO t VALUES ('DE', 3), ('US', 4), ('DE', 5)");
      await conn.run(
        `CREATE SEMANTIC VIEW "Odd View" AS TABLES (t) DIMENSIONS (t.country AS t.country) METRICS (t.revenue AS SUM(t.amount))`,
      );
      await conn.commit();
    }
    await using cursor = await OddView.query()
      .dimensions(OddView.country)
      .metrics(OddView.revenue)
      .orderBy(OddView.country)
      .using(engine)
      .execute();
    expect(await cursor.fetchAllRows()).to.deep.equal([
      { country: "DE", revenue: 8n },
      { country: "US", revenue: 4n },
    ]);
  });

  it("a name that is not a non-empty string is a ValidationError naming the option", () => {
    for (const name of ["", "  ", 5]) {
      const error = validationError(() => SemanticView("v", { m: Metric() }, { name: name as string }));
      expect(error.field).to.equal("name");
      expect(error.message).to.contain('SemanticView("v"): { name } must be a non-empty string');
    }
  });
});

describe("SemanticView options: { groupableBy }", () => {
  it("a refused pair is a ValidationError naming metric, dimension and allowed set, whichever is selected first", () => {
    const afterMetric = validationError(() =>
      // @ts-expect-error metric 'revenue' cannot be grouped by dimension 'supplierName'
      Orders.query().metrics(Orders.revenue).dimensions(Orders.supplierName),
    );
    expect(afterMetric.message).to.equal(
      'orders.query().dimensions(): metric "revenue" cannot be grouped by dimension "supplierName" ' +
        "(it can be grouped by: customerName, orderDate); the semantic view orders refuses the pair (a fan trap, or no join path)",
    );
    expect(afterMetric.field).to.equal("supplierName");
    const afterDimension = validationError(() =>
      // @ts-expect-error metric 'revenue' cannot be grouped by dimension 'supplierName'
      Orders.query().dimensions(Orders.customerName, Orders.supplierName).metrics(Orders.margin, Orders.revenue),
    );
    expect(afterDimension.message).to.contain(
      'orders.query().metrics(): metric "revenue" cannot be grouped by dimension "supplierName"',
    );
    expect(afterDimension.field).to.equal("revenue");
    // @ts-expect-error metric 'orderCount' cannot be grouped by dimension 'orderDate' (it can be grouped by no dimension)
    const none = validationError(() => Orders.query().metrics(Orders.orderCount).dimensions(Orders.orderDate));
    expect(none.message).to.contain("(it can be grouped by no dimension)");
  });

  it("allowed pairs and metrics without a rule compile as before", () => {
    const q = Orders.query()
      .metrics(Orders.revenue)
      .dimensions(Orders.customerName, Orders.orderDate)
      .toSql({ dialect: "backend_c" });
    expect(q).to.contain("metrics := ['revenue']");
    expect(() => Orders.query().metrics(Orders.margin).dimensions(Orders.supplierName)).not.to.throw();
    expect(() => Orders.query().metrics(Orders.orderCount)).not.to.throw();
  });

  it("rules naming a missing field, or a field of the wrong kind, are ValidationErrors where declared", () => {
    const fields = { revenue: Metric(), country: Dimension() };
    const declare = (groupableBy: unknown) => () =>
      SemanticView("v", fields, { groupableBy: groupableBy as { revenue: ["country"] } });
    expect(validationError(declare({ profit: ["country"] })).message).to.contain(
      'groupableBy names "profit", which is not a metric of the view',
    );
    expect(validationError(declare({ country: [] })).message).to.contain(
      'groupableBy names "country", which is not a metric of the view',
    );
    expect(validationError(declare({ revenue: ["revenue"] })).message).to.contain(
      'groupableBy of "revenue" names "revenue", which is not a dimension of the view',
    );
    expect(validationError(declare({ revenue: "country" })).message).to.contain(
      'groupableBy of "revenue" must be an array of dimension fields',
    );
    expect(validationError(declare([])).message).to.contain("groupableBy must map metric fields to arrays");
  });
});
