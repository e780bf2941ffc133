/**
 * Differential test: random requests over generated data (seeded, deterministic), each compared with
 * an independently written query that always joins every table and groups by expressions.
 */
import { expect } from "chai";
import { clearSemanticQueryCache } from "../../runtime/semantic/call/typed-query.js";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import { quoteLiteral } from "../../runtime/semantic/sql/quote.js";
import { defineView, fixedCatalog } from "./support/definitions.js";
import { mulberry32 as prng } from "../../scripts/prng.js";
import { pick, subset } from "./support/random-choice.js";
import { TestSession } from "./support/session.js";

const view = defineView({
  name: "gen",
  tables: [
    { alias: "o", table: "g_orders", primaryKey: ["id"] },
    { alias: "c", table: "g_customers", primaryKey: ["id"] },
    { alias: "p", table: "g_products", primaryKey: ["id"] },
    { alias: "r", table: "g_regions", primaryKey: ["id"] },
  ],
  relationships: [
    { name: "oc", from: "o", fk: ["customer_id"], to: "c" },
    { name: "op", from: "o", fk: ["product_id"], to: "p" },
    { name: "cr", from: "c", fk: ["region_id"], to: "r" },
  ],
  facts: { "o.net": "o.amount - o.discount" },
  dimensions: {
    "c.segment": "c.segment",
    "r.region_name": "r.name",
    "p.category": "p.category",
    "o.status": "o.status",
    "o.yr": "year(o.day)",
  },
  metrics: {
    "o.revenue": "SUM(o.amount)",
    "o.units": "SUM(o.qty)",
    "o.order_count": "COUNT(*)",
    "o.net_revenue": "SUM(o.net)",
    "o.max_qty": "MAX(o.qty)",
    avg_net: "net_revenue / order_count",
  },
});

/** The same members written by hand against the fully joined tables. */
const DIMS: Record<string, { sql: string; table: string }> = {
  segment: { sql: "c.segment", table: "c" },
  region_name: { sql: "r.name", table: "r" },
  category: { sql: "p.category", table: "p" },
  status: { sql: "o.status", table: "o" },
  yr: { sql: "year(o.day)", table: "o" },
};
const METRICS: Record<string, string> = {
  revenue: "SUM(o.amount)",
  units: "SUM(o.qty)",
  order_count: "COUNT(*)",
  net_revenue: "SUM(o.amount - o.discount)",
  max_qty: "MAX(o.qty)",
  avg_net: "SUM(o.amount - o.discount) / COUNT(*)",
};
const FILTERS: { semantic: string; hand: string }[] = [
  { semantic: "status = 'open'", hand: "o.status = 'open'" },
  { semantic: "segment IN ('A', 'B') AND yr >= 2023", hand: "c.segment IN ('A', 'B') AND year(o.day) >= 2023" },
  { semantic: "region_name IS NULL OR net > 50", hand: "r.name IS NULL OR (o.amount - o.discount) > 50" },
  { semantic: "category <> 'k''s'", hand: "p.category <> 'k''s'" },
];
const FROM = `FROM g_orders o LEFT JOIN g_customers c ON o.customer_id = c.id
  LEFT JOIN g_products p ON o.product_id = p.id LEFT JOIN g_regions r ON c.region_id = r.id`;

describe("semantic_view() differential over generated data", () => {
  let session: TestSession;
  const random = prng(20260101);

  before(async () => {
    clearSemanticQueryCache();
    session = await TestSession.open();
    await session.query("CREATE TABLE g_regions (id INTEGER, name VARCHAR)");
    await session.query("CREATE TABLE g_customers (id INTEGER, segment VARCHAR, region_id INTEGER)");
    await session.query("CREATE TABLE g_products (id INTEGER, category VARCHAR)");
    await session.query(
      "CREATE TABLE g_orders (id INTEGER, customer_id INTEGER, product_id INTEGER, qty INTEGER, amount DECIMAL(12,2), discount DECIMAL(12,2), status VARCHAR, day DATE)",
    );
    const values = (rows: string[]) => rows.join(", ");
    await session.query(`INSERT INTO g_regions VALUES ${values(["(1, 'north')", "(2, 'south')", "(3, 'east')"])}`);
    const customers: string[] = [];
    for (let i = 1; i <= 40; i++) {
      const region = random() < 0.15 ? "NULL" : String(1 + Math.floor(random() * 4)); // 4 is dangling
      const segment = random() < 0.1 ? "NULL" : quoteLiteral(pick(random, ["A", "B", "C"]));
      customers.push(`(${i}, ${segment}, ${region})`);
    }
    await session.query(`INSERT INTO g_customers VALUES ${values(customers)}`);
    const products: string[] = [];
    for (let i = 1; i <= 12; i++)
      products.push(`(${i}, ${quoteLiteral(pick(random, ["toys", "food", "k's", "tools"]))})`);
    await session.query(`INSERT INTO g_products VALUES ${values(products)}`);
    const orders: string[] = [];
    for (let i = 1; i <= 1500; i++) {
      const customer = random() < 0.05 ? "NULL" : String(1 + Math.floor(random() * 44)); // >40 dangling
      const product = random() < 0.05 ? "NULL" : String(1 + Math.floor(random() * 12));
      const qty = 1 + Math.floor(random() * 20);
      const amount = (random() * 500).toFixed(2);
      const discount = (random() * 20).toFixed(2);
      const status = quoteLiteral(pick(random, ["open", "done", "void"]));
      const day = `DATE '${2021 + Math.floor(random() * 4)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}'`;
      orders.push(`(${i}, ${customer}, ${product}, ${qty}, ${amount}, ${discount}, ${status}, ${day})`);
    }
    await session.query(`INSERT INTO g_orders VALUES ${values(orders)}`);
  });
  after(() => session.close());

  const list = (names: readonly string[]) => `[${names.map(quoteLiteral).join(", ")}]`;

  for (let n = 0; n < 40; n++) {
    it(`random request #${n + 1}`, async () => {
      const dims = subset(random, Object.keys(DIMS), 0, 3);
      const metrics = subset(random, Object.keys(METRICS), dims.length === 0 ? 1 : 0, 3);
      const filter = random() < 0.5 ? pick(random, FILTERS) : undefined;
      const args = [`'gen'`];
      if (dims.length > 0) args.push(`dimensions := ${list(dims)}`);
      if (metrics.length > 0) args.push(`metrics := ${list(metrics)}`);
      if (filter) args.push(`where_clause := ${quoteLiteral(filter.semantic)}`);
      const semantic = `SELECT * FROM semantic_view(${args.join(", ")}) ORDER BY ALL`;

      const select = [...dims.map((d) => DIMS[d]!.sql), ...metrics.map((m) => METRICS[m]!)];
      const where: string[] = filter ? [`(${filter.hand})`] : [];
      // Every dimension table is above the base (orders): a NULL from an order whose customer,
      // product or region is missing is a row of the view, so no phantom-row guard applies.
      const hand =
        `SELECT ${metrics.length === 0 ? "DISTINCT " : ""}${select.join(", ")} ${FROM}` +
        (where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
        (metrics.length > 0 && dims.length > 0 ? ` GROUP BY ${dims.map((d) => DIMS[d]!.sql).join(", ")}` : "") +
        " ORDER BY ALL";

      const rewritten = await rewriteSemanticViewCalls(session, semantic, fixedCatalog(view));
      const actual = await session.query(rewritten!);
      const expected = await session.query(hand);
      expect(actual.columns.map((c) => c.name)).to.deep.equal([...dims, ...metrics]);
      expect(actual.rows, `${semantic}\n-- vs --\n${hand}`).to.deep.equal(expected.rows);
    });
  }
});
