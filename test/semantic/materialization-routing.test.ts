/**
 * routeToMaterialization() on definitions built directly: the exact-set rule, first match, the
 * exclusions (facts, where_clause, semi-additive and window metrics), the SQL it emits.
 */
import { expect } from "chai";
import { routeToMaterialization } from "../../runtime/semantic/expand/materialization.js";
import type { MaterializationDef, MetricDef, SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { defineView } from "./support/definitions.js";

const base = defineView({
  name: "orders_view",
  tables: [{ alias: "o", table: "orders", primaryKey: ["id"] }],
  facts: { "o.net": "o.amount * 0.9" },
  dimensions: { "o.region": "o.region", "o.status": "o.status" },
  metrics: { "o.revenue": "SUM(o.amount)", "o.n": "COUNT(*)" },
});

const withMaterializations = (
  def: SemanticViewDefinition,
  ...materializations: MaterializationDef[]
): SemanticViewDefinition => ({
  ...def,
  materializations,
});

const request = (dimensions: string[], metrics: string[], extra: { facts?: string[]; whereClause?: string } = {}) => ({
  dimensions,
  metrics,
  facts: extra.facts ?? [],
  whereClause: extra.whereClause,
});

const view = withMaterializations(
  base,
  { name: "by_region", table: "agg", dimensions: ["Region"], metrics: ["REVENUE", "n"] },
  { name: "again", table: "other.agg2", dimensions: ["region"], metrics: ["revenue", "n"] },
  { name: "regions", table: "region_list", dimensions: ["region"], metrics: [] },
);

describe("materialization routing", () => {
  it("routes exact sets (case-insensitive, any order) to the first match, qualifying a bare table", () => {
    const routed = routeToMaterialization(view, request(["o.region"], ["n", "revenue"]));
    expect(routed).to.deep.equal({
      materialization: "by_region",
      columns: ["region", "n", "revenue"],
      sql: 'SELECT\n    "region",\n    "n",\n    "revenue"\nFROM "memory"."main"."agg"',
    });
  });

  it("a dimensions-only materialization selects DISTINCT", () => {
    expect(routeToMaterialization(view, request(["region"], []))?.sql).to.equal(
      'SELECT DISTINCT\n    "region"\nFROM "memory"."main"."region_list"',
    );
  });

  it("does not route subsets, supersets, facts, a where_clause or unknown names", () => {
    expect(routeToMaterialization(view, request(["region"], ["revenue"]))).to.equal(undefined);
    expect(routeToMaterialization(view, request(["region", "status"], ["revenue", "n"]))).to.equal(undefined);
    expect(routeToMaterialization(view, request(["region"], [], { facts: ["net"] }))).to.equal(undefined);
    expect(
      routeToMaterialization(view, request(["region"], ["revenue", "n"], { whereClause: "status = 'open'" })),
    ).to.equal(undefined);
    expect(
      routeToMaterialization(view, request(["region"], ["revenue", "n"], { whereClause: "  " }))?.materialization,
    ).to.equal("by_region");
    expect(routeToMaterialization(view, request(["regoin"], ["revenue", "n"]))).to.equal(undefined);
    expect(routeToMaterialization(base, request(["region"], ["revenue", "n"]))).to.equal(undefined);
  });

  it("never routes a semi-additive or a window metric", () => {
    const replaceRevenue = (change: object): SemanticViewDefinition => ({
      ...view,
      metrics: view.metrics.map((m): MetricDef => (m.name === "revenue" ? Object.assign({}, m, change) : m)),
    });
    const semiAdditive = replaceRevenue({ nonAdditiveBy: [{ dimension: "status", order: "desc", nulls: "last" }] });
    expect(routeToMaterialization(semiAdditive, request(["region"], ["revenue", "n"]))).to.equal(undefined);
    const windowed = replaceRevenue({ window: { func: "AVG", innerMetric: "n" } });
    expect(routeToMaterialization(windowed, request(["region"], ["revenue", "n"]))).to.equal(undefined);
    expect(
      routeToMaterialization(replaceRevenue({ nonAdditiveBy: [] }), request(["region"], ["revenue", "n"]))
        ?.materialization,
    ).to.equal("by_region");
  });

  it("applies a declared output_type and keeps a qualified table as written", () => {
    const typed: SemanticViewDefinition = {
      ...withMaterializations(base, {
        name: "q",
        table: 'other."Agg Table"',
        dimensions: ["region"],
        metrics: ["revenue"],
      }),
      metrics: base.metrics.map((m) => (m.name === "revenue" ? { ...m, outputType: "DOUBLE" } : m)),
    };
    expect(routeToMaterialization(typed, request(["region"], ["revenue"]))?.sql).to.equal(
      'SELECT\n    "region",\n    CAST("revenue" AS DOUBLE) AS "revenue"\nFROM "other"."Agg Table"',
    );
  });
});
