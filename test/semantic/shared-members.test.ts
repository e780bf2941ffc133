/**
 * Shared members (issue 22 item 2): a chain of facts or derived metrics where each uses the previous
 * one twice must expand linearly, answer as the inlined expansion does, and stop at a size cap with
 * an error naming the view and the limit.
 */
import { expect } from "chai";
import { expandSemanticQuery, type SemanticQueryRequest } from "../../runtime/semantic/expand/expand.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import type { SemanticViewDefinition } from "../../runtime/semantic/view-definition.js";
import { defineView } from "./support/definitions.js";
import { TestSession } from "./support/session.js";
import { customersView, detailsView, flightsView, seedShop, shopView } from "./support/shop-fixture.js";

/** f_i = f_{i-1} + f_{i-1} (so f_n = amount·2^n) and m_i = m_{i-1} + m_{i-1} (m_n = SUM(amount)·2^n). */
function doublingView(levels: number): SemanticViewDefinition {
  const facts: Record<string, string> = { "o.f0": "o.amount" };
  const metrics: Record<string, string> = { "o.m0": "SUM(o.amount)" };
  for (let i = 1; i <= levels; i++) {
    facts[`o.f${i}`] = `o.f${i - 1} + f${i - 1}`;
    metrics[`m${i}`] = `m${i - 1} + m${i - 1}`;
  }
  metrics["o.top"] = `SUM(o.f${levels})`;
  return defineView({
    name: "doubling",
    tables: [
      { alias: "o", table: "orders", primaryKey: ["id"] },
      { alias: "c", table: "customers", primaryKey: ["id"] },
    ],
    relationships: [{ name: "order_customer", from: "o", fk: ["customer_id"], to: "c" }],
    facts,
    dimensions: { "o.top_fact": `o.f${levels}`, "c.segment": "c.segment" },
    metrics,
  });
}

/** c.h_i uses o.g_(i-1) twice and o.g_i uses c.h_i twice; each equals o.amount when the customer exists. */
function alternatingView(levels: number): SemanticViewDefinition {
  const facts: Record<string, string> = { "o.g0": "o.amount" };
  for (let i = 1; i <= levels; i++) {
    facts[`c.h${i}`] = `greatest(o.g${i - 1}, o.g${i - 1}) + c.id - c.id`;
    facts[`o.g${i}`] = `greatest(c.h${i}, c.h${i})`;
  }
  return defineView({
    ...{ name: "alternating", facts },
    tables: [
      { alias: "o", table: "orders", primaryKey: ["id"] },
      { alias: "c", table: "customers", primaryKey: ["id"] },
    ],
    relationships: [{ name: "order_customer", from: "o", fk: ["customer_id"], to: "c" }],
    dimensions: { "c.segment": "c.segment", "o.status": "o.status" },
    metrics: { "o.n": `SUM(o.g${levels})` },
  });
}

/** Facts over two and three tables, a fact over a cross-table fact, and members that use them. */
const crossTableView = defineView({
  name: "cross_table",
  tables: [
    { alias: "o", table: "orders", primaryKey: ["id"] },
    { alias: "c", table: "customers", primaryKey: ["id"] },
    { alias: "r", table: "regions", primaryKey: ["id"] },
  ],
  relationships: [
    { name: "order_customer", from: "o", fk: ["customer_id"], to: "c" },
    { name: "customer_region", from: "c", fk: ["region_id"], to: "r" },
  ],
  facts: {
    "o.net": "o.amount - o.discount",
    "c.customer_net": "o.net * 2 + c.id",
    "o.adjusted": "c.customer_net - o.qty",
    "r.regional": "c.customer_net + r.id + o.net",
  },
  dimensions: {
    "c.segment": "c.segment",
    "r.region_name": "r.name",
    "o.status": "o.status",
    "o.adjusted_band": "o.adjusted > 100",
  },
  metrics: {
    "o.adjusted_total": "SUM(o.adjusted)",
    "o.regional_max": "MAX(r.regional)",
    "o.order_count": "COUNT(*)",
    adjusted_per_order: "adjusted_total / order_count",
  },
});

/** A cross-table fact on a role-played table: computed under the alias the metric's USING scopes. */
const rolePlayedFacts = defineView({
  name: "role_played_facts",
  tables: [
    { alias: "f", table: "flights", primaryKey: ["id"] },
    { alias: "a", table: "airports", primaryKey: ["code"] },
  ],
  relationships: [
    { name: "departs", from: "f", fk: ["dep_airport"], to: "a" },
    { name: "arrives", from: "f", fk: ["arr_airport"], to: "a" },
  ],
  facts: { "f.pax": "f.passengers", "a.busy": "f.pax + length(a.city)" },
  dimensions: { "a.city": "a.city", "a.busy_band": "a.busy > 100" },
  metrics: {
    "f.busy_out": { expr: "SUM(a.busy)", using: ["departs"] },
    "f.departures": { expr: "COUNT(*)", using: ["departs"] },
    "f.pax_out": { expr: "SUM(f.pax)", using: ["departs"] },
  },
});

const alternatingSize = (levels: number): number =>
  expandSemanticQuery(alternatingView(levels), { dimensions: [], metrics: ["n"], facts: [] }).sql.length;

const sizeOf = (def: SemanticViewDefinition, request: Partial<SemanticQueryRequest>): number =>
  expandSemanticQuery(def, { dimensions: [], metrics: [], facts: [], ...request }).sql.length;

function expansionError(run: () => unknown): SemanticViewError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(SemanticViewError);
    return error as SemanticViewError;
  }
  throw new Error("expected the expansion to fail");
}

describe("semantic_view(): shared members expand linearly", () => {
  let session: TestSession;
  before(async () => {
    session = await TestSession.open();
    await seedShop(session);
  });
  after(() => session.close());

  it("a doubling chain of derived metrics and facts stays small (inlined it doubles per level)", () => {
    // Inlined, 15 levels are over 1 MB of SQL; shared, the text grows by one line per level.
    const at15 = doublingView(15);
    const at30 = doublingView(30);
    for (const request of [
      { metrics: ["m15"] },
      { metrics: ["top"], dimensions: ["segment"] },
      { dimensions: ["top_fact"] },
      { facts: ["f15"] },
      { metrics: ["m0"], whereClause: "top_fact > 0 AND f15 < 1e12" },
    ]) {
      const small = sizeOf(at15, request);
      expect(small, JSON.stringify(request)).to.be.below(12_000);
      const deeper = JSON.parse(JSON.stringify(request).replace(/(m|f)15/g, "$130")) as Partial<SemanticQueryRequest>;
      expect(sizeOf(at30, deeper), JSON.stringify(deeper)).to.be.below(2.5 * small);
    }
  });

  it("answers a 26-level chain exactly (2^26 times the base)", async () => {
    const def = doublingView(26);
    const run = async (request: Partial<SemanticQueryRequest>) => {
      const { sql } = expandSemanticQuery(def, { dimensions: [], metrics: [], facts: [], ...request });
      return (await session.query(sql)).rows;
    };
    const [[total]] = (await session.query("SELECT SUM(amount) FROM orders")).rows as [[unknown]];
    const scale = 2 ** 26;
    const [[m26]] = (await run({ metrics: ["m26"] })) as [[unknown]];
    expect(Number(m26)).to.equal(Number(total) * scale);
    const [[top]] = (await run({ metrics: ["top"] })) as [[unknown]];
    expect(Number(top)).to.equal(Number(total) * scale);
    const facts = (await run({ facts: ["f26"] })).map(([v]) => Number(v)).sort((a, b) => a - b);
    const amounts = (await session.query("SELECT amount FROM orders")).rows.map(([v]) => Number(v) * scale);
    expect(facts).to.deep.equal(amounts.sort((a, b) => a - b));
  });

  it("caps the expanded SQL with an error naming the view and the limit", () => {
    const capped = expansionError(() =>
      expandSemanticQuery(doublingView(4), { dimensions: ["segment"], metrics: ["m4"], facts: [] }, { maxBytes: 200 }),
    );
    expect(capped.message).to.contain("semantic view 'doubling'").and.contain("limit of 200 bytes");
  });

  it("facts alternating between two tables expand once each and answer exactly (40 levels)", async () => {
    // Inlined, each level doubles the text (40 levels would be terabytes); shared, each cross-table fact
    // is one column of a lateral projection over the joined row.
    const def = alternatingView(40);
    const expand = (request: Partial<SemanticQueryRequest>) =>
      expandSemanticQuery(def, { dimensions: [], metrics: [], facts: [], ...request }).sql;
    const totals = expand({ metrics: ["n"], dimensions: ["segment"] });
    expect(totals.length).to.be.below(30_000);
    expect(alternatingSize(40)).to.be.below(2.5 * alternatingSize(20));
    // g_i = h_i = g_(i-1) when the customer row exists (NULL otherwise): the sum over matched orders.
    const matched = await session.query(
      `SELECT c.segment, SUM(CASE WHEN c.id IS NOT NULL THEN o.amount END) FROM orders o
       LEFT JOIN customers c ON o.customer_id = c.id GROUP BY ALL ORDER BY ALL`,
    );
    expect((await session.query(`${totals} ORDER BY ALL`)).rows).to.deep.equal(matched.rows);
    const facts = await session.query(`${expand({ facts: ["g40"], dimensions: ["status"] })} ORDER BY ALL`);
    const rows = await session.query(
      `SELECT o.status, CASE WHEN c.id IS NOT NULL THEN o.amount END FROM orders o
       LEFT JOIN customers c ON o.customer_id = c.id ORDER BY ALL`,
    );
    expect(facts.rows).to.deep.equal(rows.rows);
  });

  describe("differential: shared members answer as inlined members do", () => {
    const views = [
      shopView,
      flightsView,
      customersView,
      detailsView,
      crossTableView,
      rolePlayedFacts,
      alternatingView(3),
    ];
    const requests = (def: SemanticViewDefinition): SemanticQueryRequest[] => {
      const dims = def.dimensions.map((d) => d.name);
      const metrics = def.metrics.filter((m) => m.access === "public").map((m) => m.name);
      const facts = def.facts.filter((f) => f.access === "public").map((f) => f.name);
      const out: SemanticQueryRequest[] = [];
      const derived = def.metrics.filter((m) => m.table === undefined && m.access === "public").map((m) => m.name);
      const dimSets = [[], ...dims.map((d) => [d]), ...dims.slice(1, 3).map((d) => [dims[0]!, d])];
      for (const ds of dimSets) {
        for (const m of derived) out.push({ dimensions: ds, metrics: [m], facts: [] });
        if (metrics.length > 1) out.push({ dimensions: ds, metrics, facts: [] });
        if (ds.length > 0) out.push({ dimensions: ds, metrics: [], facts: [] });
        if (facts.length > 0) out.push({ dimensions: ds, metrics: [], facts });
      }
      const filtered =
        facts.length > 0 ? `${facts[facts.length - 1]} > 1 OR ${dims[0]} IS NULL` : `${dims[0]} IS NOT NULL`;
      for (const m of metrics)
        out.push({ dimensions: dims.slice(0, 1), metrics: [m], facts: [], whereClause: filtered });
      return out;
    };
    const outcome = async (
      def: SemanticViewDefinition,
      request: SemanticQueryRequest,
      sharing: "inline" | "shared",
    ) => {
      try {
        const { sql } = expandSemanticQuery(def, request, { sharing });
        const { columns, rows } = await session.query(sql);
        const sorted = rows
          .map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)))
          .sort();
        return { columns, sorted, shared: /__sv_(f\d|level)/.test(sql) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    for (const def of views) {
      it(`view '${def.name}'`, async () => {
        let answered = 0;
        let sharedShapes = 0;
        for (const request of requests(def)) {
          const inline = await outcome(def, request, "inline");
          const shared = await outcome(def, request, "shared");
          const { shared: usedShared, ...sharedAnswer } = shared as { shared?: boolean };
          const { shared: _inlineShape, ...inlineAnswer } = inline as { shared?: boolean };
          expect(sharedAnswer, JSON.stringify(request)).to.deep.equal(inlineAnswer);
          if (!("error" in inline)) answered++;
          if (usedShared === true) sharedShapes++;
        }
        expect(answered).to.be.greaterThan(2);
        if (def.facts.length > 0 || def.metrics.some((m) => m.table === undefined))
          expect(sharedShapes).to.be.greaterThan(0);
      });
    }
  });
});
