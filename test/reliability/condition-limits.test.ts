/**
 * Issue 22 item 8: conditions nested thousands deep, or a flat `and()` of 100k terms, ended in a
 * bare `RangeError` (the stack ran out in validation or in the compiler's visitor). Now their shape
 * is validated without recursion (at most 100 levels, 10,000 terms) with a `ValidationError`, and
 * what is allowed compiles without recursing per term on every dialect.
 */
import { expect } from "chai";
import { ValidationError, and, not, or, type RowCondition } from "lib";
import { ConditionNode } from "../../runtime/operation-node/condition-node.js";
import { MAX_CONDITION_DEPTH, MAX_CONDITION_TERMS } from "../../runtime/operation-node/condition-shape.js";
import { conditionOf } from "../../runtime/query/condition.js";
import { Sales } from "../support/sales-fixture.js";
import { withSalesEngine } from "../support/sales-engine.js";

const DIALECTS = ["backend_a", "backend_b", "backend_c"] as const;
const query = (condition: RowCondition<"sales">) => Sales.query().metrics(Sales.revenue).where(condition);

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectTooLarge(error: unknown, where: string): void {
  expect(error, where).to.be.instanceOf(ValidationError);
  expect((error as Error).message, where).to.match(/the condition is too large: at most 100 levels .* 10000 terms/);
}

const terms = (n: number) => Array.from({ length: n }, (_, i) => Sales.country.eq(`c${i}`));

/** `depth` levels of alternating or()/not() around one comparison. */
function nested(depth: number): RowCondition<"sales"> {
  let condition: RowCondition<"sales"> = Sales.country.eq("x");
  for (let i = 0; i < depth; i++) condition = i % 2 === 0 ? or(condition, Sales.region.eq("y")) : not(condition);
  return condition;
}

describe("reliability: conditions too deep or too large", () => {
  it("a flat and() of 100k terms is a ValidationError (was RangeError in the compiler)", () => {
    expectTooLarge(
      thrownBy(() => and(...terms(100_000))),
      "and()",
    );
  });

  it("nesting beyond the limit is a ValidationError at the combinator (was RangeError in where())", () => {
    expect(thrownBy(() => nested(MAX_CONDITION_DEPTH))).to.equal(undefined);
    expectTooLarge(
      thrownBy(() => nested(MAX_CONDITION_DEPTH + 1)),
      "nested",
    );
  });

  it("nodes built without the combinators are checked in where() and again at compile, without recursion", () => {
    let deep: ConditionNode = ConditionNode.comparison(Sales.country.node, "=", "x");
    for (let i = 0; i < 20_000; i++) deep = ConditionNode.not(deep);
    const wide = ConditionNode.and(terms(100_000).map((c) => c.node));
    for (const node of [deep, wide]) {
      expectTooLarge(
        thrownBy(() => query(conditionOf(node))),
        "where()",
      );
    }
    // Two where() calls that are fine alone but too large together.
    const half = and(...terms(MAX_CONDITION_TERMS / 2 + 1));
    expectTooLarge(
      thrownBy(() => query(half).where(half)),
      "where() twice",
    );
  });

  it(`${MAX_CONDITION_TERMS} terms and ${MAX_CONDITION_DEPTH} levels compile on every dialect`, () => {
    const wide = query(and(...terms(MAX_CONDITION_TERMS)));
    const deep = query(nested(MAX_CONDITION_DEPTH));
    for (const dialect of DIALECTS) {
      expect(wide.compile({ dialect }).sql.split(" AND ").length, dialect).to.equal(MAX_CONDITION_TERMS);
      expect(deep.compile({ dialect }).sql, dialect).to.include("NOT (");
    }
  });

  it("a large flat or() runs on backend C", async () => {
    await withSalesEngine(async (engine) => {
      const countries = [...terms(2_000), Sales.country.eq("US")];
      await using cursor = await Sales.query()
        .dimensions(Sales.country)
        .metrics(Sales.revenue)
        .where(or(...countries))
        .using(engine)
        .execute();
      expect((await cursor.fetchAllRows()).map((r) => r.country)).to.deep.equal(["US"]);
    });
  });
});
