/**
 * Generated code at run time: modules generated from a real DuckDB file are imported, queried
 * through the library, and their rows mapped with `into()` onto the generated DTOs under the
 * default strict validation (so the DTO schema types agree with how values arrive).
 */
import { expect } from "chai";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BackendCConfig, createEngine, Decimal } from "lib";
import { ViewRegistry } from "lib/request";
import { createDatabase, ORDERS_DDL, SALES_DDL } from "./support/databases.js";
import { REPO_ROOT, runLib } from "./support/run-cli.js";
import { tempDir } from "../support/temp-dir.js";

describe("generated modules run against the database they came from", function () {
  this.timeout(120_000);

  it("queries the generated views and maps rows onto the generated DTOs (strict)", async () => {
    await using dir = await tempDir({
      ".lib.toml": '[codegen.dtos.RevenueByCountry]\nview = "sales"\nfields = ["country", "revenue"]\n',
      "package.json": JSON.stringify({ type: "module", private: true }),
    });
    await symlink(join(REPO_ROOT, "node_modules"), join(dir.path, "node_modules"), "dir");
    const database = await createDatabase(dir.path, "shop.duckdb", [...SALES_DDL, ...ORDERS_DDL]);
    const result = await runLib(["codegen", "--backend", "backend_c", "--database", database], { cwd: dir.path });
    expect(result.code, result.stderr).to.equal(0);

    // Loaded untyped here: their static types are checked by compile.test.ts.
    const generated = (await import(pathToFileURL(join(dir.path, "generated", "index.ts")).href)) as Record<
      string,
      any
    >;
    const { Sales, Orders, RevenueByCountry, SalesRow, OrdersRow, OrdersFacts } = generated;
    // Registered as "default": the generated views' queries find it without naming it.
    await using _engine = createEngine(new BackendCConfig({ database, poolSize: 1, readOnly: true }), {
      register: true,
    });

    {
      await using cursor = await Sales.query()
        .metrics(Sales.revenue)
        .dimensions(Sales.country)
        .orderBy(Sales.revenue.desc())
        .execute();
      expect(await cursor.into(RevenueByCountry)).to.deep.equal([
        { country: "US", revenue: 100n },
        { country: "DE", revenue: 80n },
      ]);
    }
    {
      await using cursor = await Sales.query()
        .metrics(Sales.revenue, Sales.cost)
        .dimensions(Sales.country, Sales.region)
        .orderBy(Sales.country.asc())
        .execute();
      expect(await cursor.into(SalesRow)).to.deep.equal([
        { country: "DE", region: "EU", revenue: 80n, cost: 50n },
        { country: "US", region: "NA", revenue: 100n, cost: 60n },
      ]);
    }
    {
      await using cursor = await Orders.query()
        .metrics(Orders.amount, Orders.lines, Orders.avg_qty)
        .dimensions(Orders.channel, Orders.placed_on, Orders.express)
        .orderBy(Orders.channel.asc())
        .execute();
      const rows = (await cursor.into(OrdersRow)) as Record<string, unknown>[];
      expect(rows).to.have.length(2);
      expect(rows[0]).to.include({ channel: "shop", express: false, lines: 1n, avg_qty: 1 });
      expect(rows[0]!["amount"]).to.be.instanceOf(Decimal);
      expect(String(rows[0]!["amount"])).to.equal("3.10");
      expect((rows[0]!["placed_on"] as Date).toISOString()).to.equal("2026-01-03T00:00:00.000Z");
    }
    {
      // Facts are queried on their own; their DTO types them, and the request core reads their types from it.
      await using cursor = await Orders.query().facts(Orders.unit_price).orderBy(Orders.unit_price.asc()).execute();
      expect(await cursor.into(OrdersFacts)).to.deep.equal([{ unit_price: 3.1 }, { unit_price: 5.25 }]);
      const orders = ViewRegistry.from(generated).get("orders")!;
      expect(orders.factsSchema).to.equal(OrdersFacts);
      expect(orders.member("unit_price")).to.include({ kind: "fact", type: "number" });
    }
  });
});
