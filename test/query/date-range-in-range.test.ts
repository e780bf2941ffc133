/**
 * `inRange(start, end)`: a half-open range of fixed instants on a Date dimension or fact, `>= start AND <
 * end` on every dialect, checked against real DuckDB rows at both edges; `between()` stays inclusive.
 */
import { expect } from "chai";
import { BackendCConfig, Dimension, Fact, Metric, SemanticView, ValidationError, createEngine } from "lib";

class Orders extends SemanticView("orders", {
  orderedOn: Dimension<Date>(),
  shippedAt: Fact<Date>(),
  revenue: Metric<bigint>(),
}) {}
const start = new Date("2024-03-01T00:00:00Z");
const end = new Date("2024-04-01T00:00:00Z");

describe("inRange(start, end): half-open range of instants", () => {
  it("compiles to >= start AND < end on every dialect, for dimensions and facts", () => {
    const q = Orders.query().metrics(Orders.revenue).where(Orders.orderedOn.inRange(start, end));
    expect(q.toSql({ dialect: "backend_c" })).to.contain(
      `where_clause := '"orderedOn" >= DATE ''2024-03-01'' AND "orderedOn" < DATE ''2024-04-01'''`,
    );
    const a = q.compile({ dialect: "backend_a" });
    expect(a.sql).to.contain(`WHERE "orderedOn" >= TO_TIMESTAMP_NTZ(?, 3) AND "orderedOn" < TO_TIMESTAMP_NTZ(?, 3))`);
    expect(a.parameters).to.deep.equal([start.getTime(), end.getTime()]);
    const b = q.compile({ dialect: "backend_b" });
    expect(b.sql).to.contain("WHERE `orderedOn` >= ? AND `orderedOn` < ?");
    expect(b.parameters).to.deep.equal([start, end]);
    const fact = Orders.query().facts(Orders.shippedAt).where(Orders.shippedAt.inRange(start, end));
    expect(fact.compile({ dialect: "backend_a" }).sql).to.contain(
      `"shippedAt" >= TO_TIMESTAMP_NTZ(?, 3) AND "shippedAt" < TO_TIMESTAMP_NTZ(?, 3)`,
    );
    // between() keeps SQL's BETWEEN, both ends included.
    const inclusive = Orders.query().metrics(Orders.revenue).where(Orders.orderedOn.between(start, end));
    expect(inclusive.compile({ dialect: "backend_b" }).sql).to.contain("WHERE `orderedOn` BETWEEN ? AND ?");
  });

  it("keeps its own copy of the Dates (a later change to the caller's Date does not move the bounds)", () => {
    const mutable = new Date(start.getTime());
    const q = Orders.query().metrics(Orders.revenue).where(Orders.orderedOn.inRange(mutable, end));
    mutable.setUTCFullYear(1999);
    expect(q.compile({ dialect: "backend_b" }).parameters).to.deep.equal([start, end]);
  });

  it("filters real rows on backend C: start included, end excluded; between() includes both", async () => {
    await using engine = createEngine(
      new BackendCConfig({ database: ":memory:", poolSize: 1, semanticViews: "builtin" }),
    );
    {
      await using conn = await engine.connect();
      await conn.run(
        "CREATE TABLE o (ordered_on TIMESTAMP, amount BIGINT); INSERT INTO o VALUES " +
          "('2024-02-29 23:59:59.999', 1), ('2024-03-01 00:00:00', 10), ('2024-03-31 23:59:59.999', 100), ('2024-04-01 00:00:00', 1000)",
      );
      await conn.run(
        `CREATE SEMANTIC VIEW sv AS TABLES (o AS o PRIMARY KEY (ordered_on)) DIMENSIONS (o.ordered_on AS o.ordered_on) METRICS (o.total AS SUM(o.amount))`,
      );
      await conn.commit(); // pooled connections run inside a transaction
    }
    class Sv extends SemanticView("sv", { ordered_on: Dimension<Date>(), total: Metric<bigint>() }) {}
    const total = async (condition: ReturnType<typeof Sv.ordered_on.inRange>) => {
      await using cursor = await Sv.query().metrics(Sv.total).where(condition).using(engine).execute();
      return await cursor.fetchAllRows();
    };
    expect(await total(Sv.ordered_on.inRange(start, end))).to.deep.equal([{ total: 110n }]);
    expect(await total(Sv.ordered_on.between(start, end))).to.deep.equal([{ total: 1110n }]);
    expect(await total(Sv.ordered_on.inRange(start, start))).to.deep.equal([{ total: null }]);
  });

  it("refuses bad arguments with a ValidationError naming the field and the argument", () => {
    expect(() => Orders.orderedOn.inRange(end, start)).to.throw(
      ValidationError,
      "orders.orderedOn.inRange(): end (2024-03-01T00:00:00.000Z) is before start (2024-04-01T00:00:00.000Z)",
    );
    expect(() => Orders.orderedOn.inRange(new Date("nope"), end)).to.throw(
      ValidationError,
      "orders.orderedOn.inRange(): start must be a valid Date, got an invalid Date",
    );
    expect(() => Orders.shippedAt.inRange(start, "2024-04-01" as unknown as Date)).to.throw(
      ValidationError,
      "orders.shippedAt.inRange(): end must be a valid Date, got string",
    );
    expect(() => Orders.orderedOn.inRange(null as unknown as Date, end)).to.throw(
      ValidationError,
      "start must be a valid Date, got null",
    );
  });
});
