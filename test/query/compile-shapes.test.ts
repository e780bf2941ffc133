/**
 * An application that builds the same query per request (the example service does) compiles it
 * once per dialect: equal nodes without filter values or variables share their compiled SQL. The
 * key must tell apart everything the compilers read, and a node carrying values is compiled afresh.
 */
import { expect } from "chai";
import { Dimension, Fact, Metric, SemanticView } from "lib";
import { compilesDuring } from "../support/compiles-during.js";
import { MAX_SHAPES, shapeKey } from "../../runtime/query-executor/compiled-entry.js";

class Shapes extends SemanticView("compile_shapes", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  country: Dimension<string>(),
  region: Dimension<string>({ name: "Sales Region" }),
  amount: Fact<number>(),
}) {}

class Renamed extends SemanticView(
  "compile_shapes",
  { revenue: Metric<bigint>({ name: "REVENUE_TOTAL" }) },
  {
    name: "Compile Shapes",
  },
) {}

const byCountry = () =>
  Shapes.query().metrics(Shapes.revenue).dimensions(Shapes.country).orderBy(Shapes.revenue.desc());

describe("query compile: one compile per query shape", () => {
  it("equal queries built apart compile once per dialect; each compiled query names its own node", () => {
    const queries = [byCountry(), byCountry(), byCountry()];
    let compiled: { sql: string; query: unknown }[] = [];
    const compiles = compilesDuring(() => {
      compiled = queries.map((q) => q.compile({ dialect: "backend_c" }));
      queries.forEach((q) => q.compile({ dialect: "backend_a" }));
    });
    expect(compiles).to.equal(2);
    expect(new Set(compiled.map((c) => c.sql)).size).to.equal(1);
    compiled.forEach((c, i) => expect(c.query).to.equal(queries[i]!.toOperationNode()));
  });

  it("every difference the compilers read gives another key and other SQL", () => {
    const base = byCountry();
    const variants = [
      base,
      Shapes.query().metrics(Shapes.revenue).dimensions(Shapes.country).orderBy(Shapes.revenue.asc()),
      Shapes.query()
        .metrics(Shapes.revenue)
        .dimensions(Shapes.country)
        .orderBy(Shapes.revenue.desc({ nulls: "first" })),
      Shapes.query().metrics(Shapes.revenue).dimensions(Shapes.country).orderBy(Shapes.country.desc()),
      base.limit(5),
      base.limit(5).offset(2),
      Shapes.query().metrics(Shapes.revenue, Shapes.cost).dimensions(Shapes.country),
      Shapes.query().metrics(Shapes.cost, Shapes.revenue).dimensions(Shapes.country),
      Shapes.query().metrics(Shapes.revenue).dimensions(Shapes.region),
      Shapes.query().metrics(Shapes.revenue),
      Renamed.query().metrics(Renamed.revenue),
      Shapes.query().facts(Shapes.amount),
    ];
    const keys = variants.map((q) => shapeKey(q.toOperationNode()));
    expect(new Set(keys).size).to.equal(variants.length);
    const sql = variants.map((q) => q.toSql({ dialect: "backend_c" }));
    expect(new Set(sql).size).to.equal(variants.length);
    expect(Renamed.query().metrics(Renamed.revenue).toSql({ dialect: "backend_c" })).to.contain("REVENUE_TOTAL");
  });

  it("a query with filter values has no shape key (its key would carry them); on backend C its values are spliced", () => {
    const filtered = (country: string) => byCountry().where(Shapes.country.eq(country));
    expect(shapeKey(filtered("DE").toOperationNode())).to.equal(undefined);
    const compile = (dialect: "backend_a" | "backend_c") =>
      compilesDuring(() => ["DE", "FR", "IT"].forEach((c) => filtered(c).compile({ dialect })));
    expect(compile("backend_c"), "one compile, then the value shape's template").to.equal(1);
    expect(compile("backend_a"), "no template: compiled afresh").to.equal(3);
  });

  it("a filtered query kept and run with .using(engine) per request compiles once (the same node)", () => {
    const panel = byCountry().where(Shapes.region.ne("north"));
    const runs = [panel.using("default"), panel.using("default"), panel.using("other")];
    runs.forEach((q) => expect(q.toOperationNode()).to.equal(panel.toOperationNode()));
    expect(compilesDuring(() => runs.forEach((q) => q.compile({ dialect: "backend_c" })))).to.equal(1);
  });

  it(`keeps at most ${MAX_SHAPES} shapes per dialect (the oldest is compiled again)`, () => {
    const nth = (n: number) =>
      Shapes.query()
        .metrics(Shapes.revenue)
        .limit(n + 1);
    nth(0).compile({ dialect: "backend_b" });
    for (let n = 1; n <= MAX_SHAPES; n++) nth(n).compile({ dialect: "backend_b" });
    expect(
      compilesDuring(() => nth(MAX_SHAPES).compile({ dialect: "backend_b" })),
      "a recent one is kept",
    ).to.equal(0);
    expect(
      compilesDuring(() => nth(0).compile({ dialect: "backend_b" })),
      "the oldest went",
    ).to.equal(1);
  });

  it("the key covers every property of a query node, a field and an ordering (a new one must be added to it)", () => {
    const node = byCountry().limit(1).toOperationNode();
    expect(Object.keys(node).sort()).to.deep.equal(
      [
        "declaredVariables",
        "dimensions",
        "facts",
        "kind",
        "limit",
        "metrics",
        "offset",
        "orderBy",
        "variables",
        "viewName",
        "warehouseName",
        "where",
      ].sort(),
    );
    expect(Object.keys(node.metrics[0]!).sort()).to.deep.equal([
      "fieldKind",
      "kind",
      "name",
      "viewName",
      "warehouseName",
    ]);
    expect(Object.keys(node.orderBy[0]!).sort()).to.deep.equal(["direction", "field", "kind", "nulls"]);
  });
});
