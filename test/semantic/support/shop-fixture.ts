/**
 * A small hand-seeded warehouse for the conformance suite: a snowflake `shop` (orders → customers →
 * regions, orders → products) with orphan keys that exercise phantom rows, and a role-playing
 * `flights` view (two relationships from flights to airports).
 */
import type { SemanticViewDefinition } from "../../../runtime/semantic/view-definition.js";
import { defineView } from "./definitions.js";
import type { TestSession } from "./session.js";

export const SHOP_SEED = [
  `CREATE TABLE regions (id INTEGER PRIMARY KEY, name VARCHAR)`,
  `INSERT INTO regions VALUES (1, 'North'), (2, 'South'), (3, 'Empty')`,
  `CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR, segment VARCHAR, region_id INTEGER)`,
  `INSERT INTO customers VALUES
     (1, 'Ada', 'SMB', 1), (2, 'Bob', 'ENT', 1), (3, 'O''Brien', 'SMB', 2),
     (4, 'Dee', 'ENT', NULL), (5, 'Eve', 'SMB', 2), (6, 'Idle', 'ENT', 1)`,
  `CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR, category VARCHAR, price DECIMAL(10,2))`,
  `INSERT INTO products VALUES (1, 'Pen', 'Office', 1.50), (2, 'Desk', 'Furniture', 250.00), (3, 'Lamp', 'Furniture', 40.25)`,
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, product_id INTEGER, qty INTEGER,
     amount DECIMAL(10,2), discount DECIMAL(10,2), order_date DATE, status VARCHAR)`,
  `INSERT INTO orders VALUES
     (1, 1, 1, 10, 15.00, 0.00, DATE '2024-01-05', 'done'),
     (2, 1, 2, 1, 250.00, 25.00, DATE '2024-01-20', 'done'),
     (3, 2, 3, 2, 80.50, 0.50, DATE '2024-02-02', 'open'),
     (4, 3, 2, 1, 240.00, 10.00, DATE '2024-02-14', 'done'),
     (5, 3, 1, 100, 140.00, 20.00, DATE '2024-03-01', 'open'),
     (6, 4, 3, 3, 120.75, 0.00, DATE '2024-03-09', 'done'),
     (7, 5, NULL, 5, 9.99, 0.99, DATE '2024-03-15', 'cancelled'),
     (8, NULL, 1, 4, 6.00, 0.00, DATE '2024-03-20', 'done'),
     (9, 99, 2, 1, 255.00, 5.00, DATE '2024-03-28', 'open')`,
  `CREATE TABLE order_details (order_id INTEGER PRIMARY KEY, gift BOOLEAN, weight INTEGER)`,
  `INSERT INTO order_details VALUES (1, true, 3), (2, false, 40), (3, true, 5), (5, false, 12), (9, true, 30)`,
  `CREATE TABLE airports (code VARCHAR PRIMARY KEY, city VARCHAR)`,
  `INSERT INTO airports VALUES ('BER', 'Berlin'), ('MUC', 'Munich'), ('HAM', 'Hamburg')`,
  `CREATE TABLE flights (id INTEGER PRIMARY KEY, dep_airport VARCHAR, arr_airport VARCHAR, passengers INTEGER)`,
  `INSERT INTO flights VALUES (1, 'BER', 'MUC', 100), (2, 'BER', 'HAM', 80), (3, 'MUC', 'BER', 120), (4, 'HAM', 'BER', 60), (5, 'MUC', 'HAM', 50)`,
];

export async function seedShop(session: TestSession): Promise<void> {
  for (const sql of SHOP_SEED) await session.query(sql);
}

export const shopView: SemanticViewDefinition = defineView({
  name: "shop",
  tables: [
    { alias: "o", table: "orders", primaryKey: ["id"] },
    { alias: "c", table: "customers", primaryKey: ["id"] },
    { alias: "p", table: "products", primaryKey: ["id"] },
    { alias: "r", table: "regions", primaryKey: ["id"] },
  ],
  relationships: [
    { name: "order_customer", from: "o", fk: ["customer_id"], to: "c" },
    { name: "order_product", from: "o", fk: ["product_id"], to: "p" },
    { name: "customer_region", from: "c", fk: ["region_id"], to: "r" },
  ],
  facts: {
    "o.net": "o.amount - o.discount",
    "o.net_per_unit": "o.net / o.qty",
    "o.is_big": { expr: "o.amount > 100", private: true },
  },
  dimensions: {
    "c.segment": "c.segment",
    "c.customer_name": "c.name",
    "r.region_name": "r.name",
    "p.category": "p.category",
    "o.status": "o.status",
    "o.order_month": "date_trunc('month', o.order_date)",
  },
  metrics: {
    "o.revenue": "SUM(o.amount)",
    "o.net_revenue": "SUM(o.net)",
    "o.order_count": "COUNT(*)",
    "o.units": "SUM(o.qty)",
    "o.total_discount": { expr: "SUM(o.discount)", private: true },
    "c.customer_count": "COUNT(*)",
    "p.avg_price": "AVG(p.price)",
    net_per_order: "net_revenue / order_count",
    discount_share: "total_discount / revenue",
    discount_share_pct: "100 * discount_share",
    revenue_per_customer: "revenue / customer_count",
  },
});

export const flightsView: SemanticViewDefinition = defineView({
  name: "flights",
  tables: [
    { alias: "f", table: "flights", primaryKey: ["id"] },
    { alias: "a", table: "airports", primaryKey: ["code"] },
  ],
  relationships: [
    { name: "departs", from: "f", fk: ["dep_airport"], to: "a" },
    { name: "arrives", from: "f", fk: ["arr_airport"], to: "a" },
  ],
  dimensions: { "a.city": "a.city" },
  metrics: {
    "f.departures": { expr: "COUNT(*)", using: ["departs"] },
    "f.passengers_out": { expr: "SUM(f.passengers)", using: ["departs"] },
    "f.arrivals": { expr: "COUNT(*)", using: ["arrives"] },
    "f.flight_count": "COUNT(*)",
    avg_out: "passengers_out / departures",
  },
});

/** A view whose base table is the parent: customers, with orders below it (one-to-many). */
export const customersView: SemanticViewDefinition = defineView({
  name: "customer_orders",
  tables: [
    { alias: "c", table: "customers", primaryKey: ["id"] },
    { alias: "o", table: "orders", primaryKey: ["id"] },
  ],
  relationships: [{ name: "order_customer", from: "o", fk: ["customer_id"], to: "c" }],
  dimensions: { "c.segment": "c.segment", "o.status": "o.status" },
  metrics: {
    "c.customers": "COUNT(*)",
    "o.order_total": "SUM(o.amount)",
    "o.orders_n": "COUNT(*)",
    "o.ones": "SUM(1)",
  },
});

/** A one-to-one extension table: details(order_id) is both its key and a reference to orders. */
export const detailsView: SemanticViewDefinition = defineView({
  name: "order_details",
  tables: [
    { alias: "o", table: "orders", primaryKey: ["id"] },
    { alias: "d", table: "order_details", primaryKey: ["order_id"] },
  ],
  relationships: [{ name: "detail_order", from: "d", fk: ["order_id"], to: "o", oneToOne: true }],
  dimensions: { "o.status": "o.status", "d.gift": "d.gift" },
  metrics: { "o.revenue": "SUM(o.amount)", "d.detailed": "COUNT(*)", "d.weight": "SUM(d.weight)" },
});
