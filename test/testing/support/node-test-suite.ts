/**
 * Run by `node --test` (test/testing/fixture-engine.test.ts): lib/testing's fixture engine through
 * node:test's own hooks, with no mocha in the process. FIXTURE_PATH names the fixture module.
 */
import { afterEach, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { Dimension, Metric, SemanticView, getEngine } from "lib";
import { useFixtureEngine, type FixtureModule } from "lib/testing";

const fixture = (await import(pathToFileURL(process.env["FIXTURE_PATH"]!).href)) as FixtureModule;
const warehouse = useFixtureEngine(fixture, { beforeEach, afterEach }, { semanticViews: "builtin" });

class Sales extends SemanticView("sales_v", { country: Dimension<string>(), revenue: Metric() }) {}

test("a query without .using() runs on the fixture engine registered as default", async () => {
  assert.equal(getEngine("default"), warehouse.engine);
  await using cursor = await Sales.query()
    .dimensions(Sales.country)
    .metrics(Sales.revenue)
    .orderBy(Sales.country.asc())
    .execute();
  const rows = await cursor.fetchAllRows();
  assert.deepEqual(
    rows.map((r) => [r.country, String(r.revenue)]),
    [
      ["DE", "5.50"],
      ["US", "20.00"],
    ],
  );
});

test("every test gets a fresh engine", async () => {
  await using conn = await warehouse.engine.connect();
  const [row] = await conn.all("SELECT count(*) AS n FROM sales");
  assert.equal(String(row!["n"]), "3");
});
