/**
 * Interned builder nodes (runtime/query/interned-nodes.ts): a builder call made before on the same node
 * with the same arguments gives back the node it made, so a query built per request reaches the
 * per-node compile cache; the query objects stay new, frozen and independent.
 */
import { expect } from "chai";
import { Dimension, Metric, SemanticView, ValidationError } from "lib";
import { derivedCount, MAX_DERIVED } from "../../runtime/query/interned-nodes.js";
import { compilerFor } from "../../runtime/dialects/dialects.js";
import { compilesDuring } from "../support/compiles-during.js";
import { Sales } from "./support/views.js";

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

const full = compilerFor("backend_c");

describe("interned builder nodes", () => {
  it("the same calls on the same node give back the same frozen node, in new query objects", () => {
    const [a, b] = [revenueByCountry(), revenueByCountry()];
    expect(a).to.not.equal(b);
    expect(a.toOperationNode()).to.equal(b.toOperationNode());
    expect(Object.isFrozen(a.toOperationNode())).to.equal(true);
    expect(Sales.query().toOperationNode()).to.equal(Sales.query().toOperationNode());
    // A field given as itself and as its ascending ordering with the same options: the same ORDER BY item.
    const q = Sales.query().metrics(Sales.revenue);
    expect(q.orderBy(Sales.revenue).toOperationNode()).to.equal(q.orderBy(Sales.revenue).toOperationNode());
    expect(q.orderBy(Sales.revenue.desc()).toOperationNode()).to.equal(
      q.orderBy(Sales.revenue.desc()).toOperationNode(),
    );
    // where() keeps the query's values its own: two filters never share a node.
    const [us, de] = [a.where(Sales.country.eq("US")), b.where(Sales.country.eq("DE"))];
    expect(us.toOperationNode()).to.not.equal(de.toOperationNode());
    expect(us.compile({ dialect: "backend_a" }).parameters).to.deep.equal(["US"]);
    expect(de.compile({ dialect: "backend_a" }).parameters).to.deep.equal(["DE"]);
  });

  it("a field gives one frozen ordering per direction and nulls placement", () => {
    expect(Sales.revenue.desc()).to.equal(Sales.revenue.desc());
    expect(Object.isFrozen(Sales.revenue.desc())).to.equal(true);
    expect(Sales.revenue.desc({ nulls: "first" })).to.equal(Sales.revenue.desc({ nulls: "first" }));
    const all = [
      Sales.revenue.asc(),
      Sales.revenue.desc(),
      Sales.revenue.asc({ nulls: "first" }),
      Sales.revenue.desc({ nulls: "first" }),
      Sales.revenue.desc({ nulls: "last" }),
      Sales.cost.desc(),
    ];
    expect(new Set(all).size).to.equal(all.length);
    expect(all.map((o) => [o.node.field.name, o.node.direction, o.node.nulls])).to.deep.equal([
      ["revenue", "asc", undefined],
      ["revenue", "desc", undefined],
      ["revenue", "asc", "first"],
      ["revenue", "desc", "first"],
      ["revenue", "desc", "last"],
      ["cost", "desc", undefined],
    ]);
  });

  it("different arguments, order or parent give different nodes, each compiling to its own SQL", () => {
    const base = Sales.query().metrics(Sales.revenue);
    const nodes = [
      base.dimensions(Sales.country),
      base.dimensions(Sales.region),
      base.dimensions(Sales.country, Sales.region),
      base.dimensions(Sales.region, Sales.country),
      base.orderBy(Sales.revenue.desc()),
      base.orderBy(Sales.revenue.asc()),
      base.orderBy(Sales.revenue.desc({ nulls: "first" })),
      Sales.query().metrics(Sales.cost),
      Sales.query().metrics(Sales.revenue, Sales.cost),
    ].map((q) => q.toOperationNode());
    expect(new Set(nodes).size).to.equal(nodes.length);
    const texts = [
      base.dimensions(Sales.country).toSql({ dialect: "backend_c" }),
      base.dimensions(Sales.region).toSql({ dialect: "backend_c" }),
      base.orderBy(Sales.revenue.desc()).toSql({ dialect: "backend_c" }),
      base.orderBy(Sales.revenue.asc()).toSql({ dialect: "backend_c" }),
    ];
    expect(new Set(texts).size).to.equal(texts.length);
    expect(texts[2]).to.include(`ORDER BY "revenue" DESC NULLS LAST`);
    expect(texts[3]).to.include(`ORDER BY "revenue" ASC NULLS LAST`);
  });

  it("a call that failed fails again (failures are never remembered)", () => {
    const q = Sales.query().metrics(Sales.revenue);
    for (let i = 0; i < 2; i++) {
      expect(() => q.metrics(Sales.revenue as never)).to.throw(ValidationError, /already selected/);
      expect(() => q.orderBy("revenue" as never)).to.throw(ValidationError, /expected an ordering/);
    }
  });

  it("keeps at most MAX_DERIVED nodes per node and method: distinct builds do not grow it", () => {
    const members: Record<string, ReturnType<typeof Dimension<string>>> = {};
    for (let i = 0; i < 40; i++) members[`d${i}`] = Dimension<string>();
    class Wide extends SemanticView("wide", { m: Metric<bigint>(), ...members }) {}
    const fields = Object.keys(members).map((k) => (Wide as unknown as Record<string, typeof Wide.m>)[k]!);
    const root = Wide.query().metrics(Wide.m);
    for (const f of fields) root.dimensions(f as never).orderBy(Wide.m.desc());
    expect(derivedCount(root.toOperationNode())).to.equal(MAX_DERIVED);
    // The newest are kept: the last field's node is given back, the first one's is made anew.
    const last = fields[fields.length - 1]!;
    expect(root.dimensions(last as never).toOperationNode()).to.equal(root.dimensions(last as never).toOperationNode());
    expect(derivedCount(root.toOperationNode())).to.equal(MAX_DERIVED);
  });

  it("queries sharing lists but not their selection get their own value shape and SQL", () => {
    const ordered = Sales.query().metrics(Sales.revenue).orderBy(Sales.revenue.desc());
    // Each pair shares the ORDER BY list (the key's anchor) and differs in what follows it.
    const pairs = [
      [ordered.limit(5), ordered.limit(6)],
      [ordered.offset(1), ordered],
      [ordered.dimensions(Sales.country), ordered.dimensions(Sales.region)],
    ] as const;
    for (const [a, b] of pairs) {
      for (let round = 0; round < 2; round++) {
        for (const value of ["US", "DE"]) {
          const queries = [a, b].map((q) => q.where(Sales.country.eq(value)));
          const sql = queries.map((q) => q.toSql({ dialect: "backend_c" }));
          expect(sql[0]).to.not.equal(sql[1]);
          // What the full compiler writes for each (the template path must agree).
          expect(queries.map((q) => full.compileSemanticQuery(q.toOperationNode()).sql)).to.deep.equal(sql);
          expect(sql[1]).to.include(`''${value}''`);
        }
      }
    }
    expect(pairs[0][0].where(Sales.country.eq("US")).toSql({ dialect: "backend_c" })).to.include("LIMIT 5");
    expect(pairs[0][1].where(Sales.country.eq("US")).toSql({ dialect: "backend_c" })).to.include("LIMIT 6");
    expect(pairs[2][1].where(Sales.country.eq("US")).toSql({ dialect: "backend_c" })).to.include(
      `dimensions := ['region']`,
    );
  });

  it("a query built per request compiles once, and compile() gives the same frozen result", () => {
    const first = revenueByCountry().compile({ dialect: "backend_b" });
    let again = first;
    expect(compilesDuring(() => (again = revenueByCountry().compile({ dialect: "backend_b" })))).to.equal(0);
    expect(again).to.equal(first);
    expect(again.query).to.equal(revenueByCountry().toOperationNode());
  });
});
