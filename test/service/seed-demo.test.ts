/** scripts/seed-demo.ts: the demo database codegen and `npm start` rely on (schema, data, idempotence). */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { BackendCConfig, createEngine } from "lib";
import { DEMO_COUNTRIES, generateSalesRows } from "../../scripts/seed-demo-data.js";
import { seedDemoDatabase } from "../../scripts/seed-demo.js";
import { failureOf } from "../support/failures.js";
import { tempDir } from "../support/temp-dir.js";

describe("demo database seed", function () {
  it("generates the same realistic rows every time", function () {
    const rows = generateSalesRows();
    expect(rows).to.have.length(6000);
    expect(generateSalesRows()).to.deep.equal(rows);
    expect(new Set(DEMO_COUNTRIES.map((c) => c.code)).size).to.equal(36);
    expect(new Set(DEMO_COUNTRIES.map((c) => c.region)).size).to.equal(6);
    expect(new Set(rows.map((r) => r.country)).size).to.equal(36);
    for (const r of rows) {
      expect(Number.isSafeInteger(r.revenue) && r.revenue > 0 && r.revenue < 2 ** 31).to.equal(true);
      expect(r.cost).to.be.within(0, r.revenue);
    }
  });

  it("creates sales_data with SPEC.md's schema and the sales view, once", async function () {
    await using dir = await tempDir();
    const database = join(dir.path, "nested", "demo.duckdb");
    const first = await seedDemoDatabase(database, { createDirectory: true });
    expect(first).to.deep.equal({ database, created: true, rows: 6000 });
    const again = await seedDemoDatabase(database);
    expect(again).to.deep.equal({ database, created: false, rows: 6000 });

    await using engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
    await using conn = await engine.connect();
    const columns = await conn.all(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'sales_data' ORDER BY ordinal_position",
    );
    expect(columns).to.deep.equal([
      { column_name: "revenue", data_type: "INTEGER" },
      { column_name: "cost", data_type: "INTEGER" },
      { column_name: "country", data_type: "VARCHAR" },
      { column_name: "region", data_type: "VARCHAR" },
    ]);
    const [direct] = await conn.all(
      "SELECT sum(revenue) AS total, count(DISTINCT country) AS countries FROM sales_data",
    );
    const viaView = await conn.all(
      "SELECT * FROM semantic_view('sales', dimensions := ['region'], metrics := ['revenue', 'cost'])",
    );
    expect(viaView).to.have.length(6);
    expect(viaView.reduce((sum, r) => sum + BigInt(r.revenue as bigint), 0n)).to.equal(BigInt(direct!.total as bigint));
    expect(Number(direct!.countries)).to.equal(36);
  });

  it("creates a missing directory only when asked (the service's demo default): otherwise it fails naming it", async function () {
    await using dir = await tempDir();
    const directory = join(dir.path, "missing");
    const error = await failureOf(seedDemoDatabase(join(directory, "demo.duckdb")));
    expect(error.message).to.contain(`the directory ${directory} does not exist: create it first`);
    expect(existsSync(directory)).to.equal(false);
  });
});
