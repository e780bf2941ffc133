/**
 * Nested LEFT JOINs (what semantic_view() runs) answer exactly as the extension's chained layout
 * (what explain_semantic_view prints), on real DuckDB: the conformance fixture views (snowflake,
 * role-playing, one-to-many from the base, one-to-one, a snapshot two hops from its dimension) and
 * random relationship trees over random data with NULL and dangling keys, with where_clause filters,
 * the phantom-row guard, facts and several grains. Errors must be the same error. Filtered subtrees
 * are joined before their siblings (several filters, AND/OR across subtrees, selective and
 * NULL-keeping ones), which must not change an answer either.
 */
import { expect } from "chai";
import { expandSemanticQuery, type SemanticQueryRequest } from "../../runtime/semantic/expand/expand.js";
import { listDefinitions } from "../../runtime/semantic/catalog.js";
import type { SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { mulberry32 as prng } from "../../scripts/prng.js";
import { DocsRunner } from "./support/docs-runner.js";
import { pick, subset } from "./support/random-choice.js";
import { createViewSql, diamondTable, randomGraph, setupSql } from "./support/random-graph.js";
import { customersView, detailsView, flightsView, seedShop, shopView } from "./support/shop-fixture.js";

const SNAPSHOT_VIEW = `CREATE SEMANTIC VIEW regional_snapshot AS
  TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id), r AS regions PRIMARY KEY (id))
  RELATIONSHIPS (oc AS o(customer_id) REFERENCES c, cr AS c(region_id) REFERENCES r)
  FACTS (o.net AS o.amount - o.discount)
  DIMENSIONS (r.region_name AS r.name, c.segment AS c.segment, o.order_date AS o.order_date, o.status AS o.status)
  METRICS (
    o.last_day_revenue NON ADDITIVE BY (order_date) AS SUM(o.amount),
    o.net_revenue AS SUM(o.net),
    c.customers AS COUNT(*),
    r.regions AS COUNT(*))`;

describe("semantic_view(): nested joins answer as the extension's chained joins", () => {
  let db: DocsRunner;
  const random = prng(20261127);
  const views: SemanticViewDefinition[] = [shopView, flightsView, customersView, detailsView];

  before(async () => {
    db = await DocsRunner.open();
    await seedShop(db.session);
    await db.run(SNAPSHOT_VIEW);
    for (let made = 0, tried = 0; made < 6; tried++) {
      const g = randomGraph(random, `j${tried}`);
      for (const sql of setupSql(g, random)) await db.session.query(sql);
      if (diamondTable(g) !== undefined) continue;
      await db.run(createViewSql(g, `${g.prefix}_view`));
      made++;
    }
    views.push(...(await listDefinitions(db.session)));
  });
  after(() => db.close());

  const outcome = async (def: SemanticViewDefinition, request: SemanticQueryRequest, joins: "tree" | "chain") => {
    try {
      const { sql } = expandSemanticQuery(def, request, { joins });
      const { columns, rows } = await db.session.query(sql);
      const sorted = rows
        .map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)))
        .sort();
      return { answer: { columns, sorted }, nested: sql.includes("LEFT JOIN ("), firstJoined: firstJoined(sql) };
    } catch (error) {
      // The layouts differ in line count, so the same error points at another place (LINE n, caret).
      const message = (error as Error).message.split("\n\nLINE ")[0];
      return { answer: { error: message }, nested: false, firstJoined: undefined };
    }
  };

  /** The alias of the first table joined to the FROM table (the anchor's first child). */
  const firstJoined = (sql: string): string | undefined => {
    const from = sql.search(/^\s*FROM /m);
    return /AS "([^"]+)"/g.exec(sql.slice(sql.indexOf("\n", from)))?.[1];
  };

  const FILTERS = ["IS NULL", "IS NOT NULL", "<> 'a'", "= 'b'", "IN ('a', 'c')"];

  /** Every dimension alone, pairs, metric sets, facts and filters on a far dimension. */
  const requests = (def: SemanticViewDefinition): SemanticQueryRequest[] => {
    const dims = def.dimensions.map((d) => d.name);
    const metrics = def.metrics.filter((m) => m.access === "public").map((m) => m.name);
    const facts = def.facts.filter((f) => f.access === "public").map((f) => f.name);
    const out: SemanticQueryRequest[] = [];
    for (let i = 0; i < 14; i++) {
      const ds = subset(random, dims, metrics.length > 0 ? 0 : 1, 2);
      const filtered = random() < 0.6 && dims.length > 0;
      const one = (): string => `${pick(random, dims)} ${pick(random, FILTERS)}`;
      const whereClause = !filtered
        ? undefined
        : random() < 0.6
          ? one()
          : `${one()} ${pick(random, ["AND", "OR"])} ${one()}`;
      const withFacts = facts.length > 0 && random() < 0.2;
      const ms = withFacts ? [] : subset(random, metrics, ds.length === 0 ? 1 : 0, 3);
      out.push({ dimensions: ds, metrics: ms, facts: withFacts ? facts : [], whereClause });
    }
    // Every dimension filtered under every other, so filtered subtrees that are not the first child move.
    for (const listed of dims) {
      for (const d of dims) {
        if (d === listed) continue;
        const whereClause = `${d} ${pick(random, FILTERS)}`;
        const ms = random() < 0.5 ? [] : metrics.slice(0, 1);
        out.push({
          dimensions: [listed, dims[0]!].filter((x, i, a) => a.indexOf(x) === i),
          metrics: ms,
          facts: [],
          whereClause,
        });
      }
    }
    return out;
  };

  it("every fixture view and random tree, chain vs tree", async () => {
    let answered = 0;
    let nested = 0;
    let reordered = 0;
    for (const def of views) {
      for (const request of requests(def)) {
        const chain = await outcome(def, request, "chain");
        const tree = await outcome(def, request, "tree");
        expect(tree.answer, `${def.name} ${JSON.stringify(request)}`).to.deep.equal(chain.answer);
        if (!("error" in chain.answer)) answered++;
        if (tree.nested) nested++;
        if (tree.firstJoined !== chain.firstJoined) reordered++;
      }
    }
    expect(answered, "most requests are answered").to.be.greaterThan(views.length * 5);
    expect(nested, "many requests nest a subtree").to.be.greaterThan(views.length);
    expect(reordered, "filtered subtrees are joined before their siblings").to.be.greaterThan(views.length);
  });

  it("a filter two hops away, a snapshot and the phantom-row guard, nested", async () => {
    const snapshot = views.find((v) => v.name === "regional_snapshot")!;
    for (const request of [
      {
        dimensions: ["segment"],
        metrics: ["last_day_revenue", "net_revenue"],
        facts: [],
        whereClause: "region_name = 'North'",
      },
      { dimensions: ["region_name"], metrics: ["last_day_revenue"], facts: [] },
      { dimensions: ["status"], metrics: [], facts: [], whereClause: "region_name IS NULL" },
      { dimensions: ["region_name"], metrics: ["customers", "net_revenue"], facts: [] },
    ]) {
      const tree = await outcome(snapshot, request, "tree");
      expect(tree.nested, JSON.stringify(request)).to.equal(true);
      expect(tree.answer).to.deep.equal((await outcome(snapshot, request, "chain")).answer);
      expect(tree.answer).not.to.have.property("error");
    }
  });

  it("joins the filtered subtree first, with the same answer", async () => {
    const shop = views.find((v) => v.name === "shop")!;
    for (const [whereClause, first] of [
      ["category = 'Furniture'", "p"],
      ["region_name = 'North'", "c"],
      ["category IS NULL", "p"],
      ["category = 'Furniture' OR region_name = 'North'", "c"],
    ] as const) {
      const request = { dimensions: ["segment", "status"], metrics: [], facts: [], whereClause };
      for (const r of [request, { ...request, metrics: ["revenue", "order_count"] }]) {
        const tree = await outcome(shop, r, "tree");
        expect(tree.firstJoined, whereClause).to.equal(first);
        expect(tree.answer, whereClause).to.deep.equal((await outcome(shop, r, "chain")).answer);
        expect(tree.answer).not.to.have.property("error");
      }
    }
    // The phantom-row guard restricts the grain table: its subtree goes first too.
    const guarded = { dimensions: ["category"], metrics: [], facts: [] };
    const tree = await outcome(shop, guarded, "tree");
    expect(tree.answer).to.deep.equal((await outcome(shop, guarded, "chain")).answer);
  });

  it("explain_semantic_view prints the chain (the extension's layout)", async () => {
    const snapshot = views.find((v) => v.name === "regional_snapshot")!;
    const request = { dimensions: ["region_name"], metrics: ["net_revenue"], facts: [] };
    const { rows } = await db.run(
      "SELECT * FROM explain_semantic_view('regional_snapshot', dimensions := ['region_name'], metrics := ['net_revenue'])",
    );
    const lines = rows.map((r) => String(r[0]));
    const sql = lines.slice(lines.indexOf("-- Expanded SQL:") + 1, lines.indexOf("-- DuckDB Plan:") - 1).join("\n");
    expect(sql).to.equal(expandSemanticQuery(snapshot, request, { joins: "chain" }).sql);
    expect(sql).not.to.contain("LEFT JOIN (");
    expect(expandSemanticQuery(snapshot, request).sql).to.contain("LEFT JOIN (");
  });
});
