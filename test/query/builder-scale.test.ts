/**
 * Issue 25 item 3: chained `where()` grew quadratically (each call copied the accumulated AND and
 * re-measured it). The conditions now accumulate in a persistent list and become one AND when the
 * query is compiled; these tests pin that the result is the same query as before.
 */
import { expect } from "chai";
import { and, type RowCondition } from "lib";
import { MAX_CONDITION_TERMS } from "../../runtime/operation-node/condition-shape.js";
import { Sales } from "./support/views.js";

const DIALECTS = ["backend_a", "backend_b", "backend_c"] as const;
const base = () => Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
const terms = (n: number): RowCondition<"sales">[] => Array.from({ length: n }, (_, i) => Sales.country.ne(`c${i}`));

describe("query builder: chained where()", () => {
  it("N chained where() calls compile exactly like one and() of the N conditions, on every dialect", () => {
    const conditions = terms(1_000);
    let chained = base();
    for (const c of conditions) chained = chained.where(c);
    const single = base().where(and(...conditions));
    for (const dialect of DIALECTS) {
      expect(chained.compile({ dialect }), dialect).to.deep.equal(single.compile({ dialect }));
    }
    expect(chained.toOperationNode().where).to.deep.equal(single.toOperationNode().where);
  });

  it("flattens and() arguments of several calls into one AND, and keeps a single call's condition as given", () => {
    const [a, b, c] = terms(3) as [RowCondition<"sales">, RowCondition<"sales">, RowCondition<"sales">];
    const ab = and(a, b);
    expect(base().where(ab).toOperationNode().where).to.equal(ab.node);
    const where = base().where(ab).where(c).toOperationNode().where;
    expect(where).to.deep.equal(and(a, b, c).node);
  });

  it("branches from a shared prefix stay independent, and the built node is built once", () => {
    const [a, b, c] = terms(3) as [RowCondition<"sales">, RowCondition<"sales">, RowCondition<"sales">];
    const prefix = base().where(a);
    const left = prefix.where(b);
    const right = prefix.where(c).limit(5);
    expect(left.toOperationNode().where).to.deep.equal(and(a, b).node);
    expect(right.toOperationNode().where).to.deep.equal(and(a, c).node);
    expect(right.toOperationNode().limit).to.equal(5);
    expect(prefix.toOperationNode().where).to.equal(a.node);
    expect(left.toOperationNode()).to.equal(left.toOperationNode());
    expect(Object.isFrozen(left.toOperationNode())).to.equal(true);
  });

  it(`${MAX_CONDITION_TERMS} chained where() calls are accepted; one more is a ValidationError`, () => {
    let q = base();
    for (const c of terms(MAX_CONDITION_TERMS)) q = q.where(c);
    expect(q.compile({ dialect: "backend_c" }).sql.split(" AND ").length).to.equal(MAX_CONDITION_TERMS);
    expect(() => q.where(Sales.country.eq("x"))).to.throw(/the condition is too large/);
  });
});
