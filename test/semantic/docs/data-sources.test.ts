/**
 * docs/how-to/data-sources.rst: semantic views over a Parquet-backed view, a CSV-loaded table and a
 * catalog-qualified table; the generated SQL quotes each segment of a qualified name separately.
 * The page's files are written to a temporary folder first (the page assumes they exist).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { DocsRunner } from "../support/docs-runner.js";

describe("docs: how-to/data-sources", () => {
  let db: DocsRunner;
  let folder: string;
  const path = (name: string): string => join(folder, name).replace(/'/g, "''");

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), "lib-data-sources-"));
    writeFileSync(join(folder, "products.csv"), "product_id,name,category\n1,widget,tools\n2,apple,food\n");
    db = await DocsRunner.open();
    await db.run(`
      COPY (SELECT * FROM (VALUES (1, 1, 1, 'EU', 10.50), (2, 2, 2, 'US', 20.00), (3, 1, 2, 'EU', 4.00))
              AS t(order_id, customer_id, product_id, region, amount)) TO '${path("orders.parquet")}' (FORMAT parquet);
      COPY (SELECT * FROM (VALUES (1, 'Ann'), (2, 'Bo')) AS t(customer_id, name)) TO '${path("customers.parquet")}' (FORMAT parquet);`);
  });
  after(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("a view over a Parquet file and a CSV-loaded table back a semantic view (Mixed Sources)", async () => {
    await db.run(`
      CREATE VIEW orders AS SELECT * FROM read_parquet('${path("orders.parquet")}');
      CREATE TABLE customers AS SELECT * FROM read_parquet('${path("customers.parquet")}');
      CREATE TABLE products AS SELECT * FROM read_csv('${path("products.csv")}', auto_detect=true);
      CREATE SEMANTIC VIEW analytics AS
      TABLES (
          o AS orders    PRIMARY KEY (order_id),
          c AS customers PRIMARY KEY (customer_id),
          p AS products  PRIMARY KEY (product_id)
      )
      RELATIONSHIPS (
          order_customer AS o(customer_id) REFERENCES c,
          order_product  AS o(product_id)  REFERENCES p
      )
      DIMENSIONS (
          c.customer AS c.name,
          p.product  AS p.name,
          o.region   AS o.region
      )
      METRICS (
          o.revenue     AS SUM(o.amount),
          o.order_count AS COUNT(*)
      );`);
    const { rows } = await db.run(
      "SELECT customer, product, revenue::VARCHAR, order_count FROM semantic_view('analytics', dimensions := ['customer', 'product'], metrics := ['revenue', 'order_count']) ORDER BY ALL",
    );
    expect(rows).to.deep.equal([
      ["Ann", "apple", "4.00", 1n],
      ["Ann", "widget", "10.50", 1n],
      ["Bo", "apple", "20.00", 1n],
    ]);
  });

  it("a catalog-qualified table, each segment quoted separately in the generated SQL", async () => {
    await db.run(`
      ATTACH ':memory:' AS my_catalog;
      CREATE SCHEMA my_catalog.my_schema;
      CREATE TABLE my_catalog.my_schema.orders AS SELECT * FROM read_parquet('${path("orders.parquet")}');
      CREATE SEMANTIC VIEW catalog_view AS
      TABLES (
          o AS my_catalog.my_schema.orders PRIMARY KEY (order_id)
      )
      DIMENSIONS (
          o.region AS o.region
      )
      METRICS (
          o.revenue AS SUM(o.amount)
      );`);
    const { rows } = await db.run(
      "SELECT region, revenue::VARCHAR FROM semantic_view('catalog_view', dimensions := ['region'], metrics := ['revenue']) ORDER BY ALL",
    );
    expect(rows).to.deep.equal([
      ["EU", "14.50"],
      ["US", "20.00"],
    ]);
    const explain = (
      await db.run("SELECT explain_output FROM explain_semantic_view('catalog_view', metrics := ['revenue'])")
    ).rows.map((r) => r[0]);
    expect(explain).to.include('FROM "my_catalog"."my_schema"."orders" AS "o"');
  });
});
