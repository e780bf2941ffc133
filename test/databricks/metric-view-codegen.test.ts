/**
 * Codegen of backend B metric views written with `fields:` (the YAML reference's preferred key) and a
 * wildcard field (`source.* EXCEPT (id)`), which has no `name` in the YAML (issue 20, item 9): the
 * members come from `DESCRIBE TABLE EXTENDED ... AS JSON` `columns[]`, the YAML only tells measures
 * from fields. Metric-view parameters (item 8; docs: metric-views/use-parameters, DBR 18.2+): codegen
 * declares them as `Variable<T>()`, `.variables({ ... })` sends the table-valued call
 * ``FROM `mv`(`name` => ?)`` with bound values. Through the real driver against the stand-in.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { Decimal, Dimension, Metric, SemanticView, ValidationError, Variable, WarehouseError } from "lib";
import { runCodegen } from "../../codegen/codegen.js";
import {
  TOKEN,
  standInEngine,
  standInTomlLines,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { useTempDir } from "../support/temp-dir.js";
import { failureOf } from "../support/failures.js";

const SHIPMENTS = {
  name: "shipments",
  source: "shipments_data",
  fieldsKey: "fields",
  dimensions: { destination: "upper(country)" },
  wildcard: { except: ["id"] },
  measures: { total_weight: "SUM(weight)" },
} as const;

const PRICED = {
  name: "priced",
  source: "shipments_data",
  fieldsKey: "fields",
  dimensions: { carrier: "carrier" },
  measures: { heavy_count: "COUNT_IF(weight >= min_weight)", scaled_weight: "SUM(weight * factor)" },
  parameters: [
    { name: "min_weight", type: "DECIMAL(10,2)" },
    { name: "factor", type: "INT", default: "1" },
  ],
} as const;

class Priced extends SemanticView("priced", {
  carrier: Dimension<string>(),
  heavy_count: Metric<bigint>(),
  scaled_weight: Metric<Decimal>(),
  min_weight: Variable<Decimal>(),
  factor: Variable<number>({ optional: true }),
}) {}

/** What codegen writes (checked below). */
class Shipments extends SemanticView("shipments", {
  destination: Dimension<string>(),
  country: Dimension<string>(),
  carrier: Dimension<string>(),
  weight: Dimension<Decimal>(),
  total_weight: Metric<Decimal>(),
}) {}

describe("backend B: codegen of fields:, wildcard fields and parameters", function () {
  this.timeout(30_000);
  const fixture = useStandIn({
    token: TOKEN,
    setupSql: [
      "CREATE TABLE shipments_data (id INTEGER, country VARCHAR, carrier VARCHAR, weight DECIMAL(10,2))",
      "INSERT INTO shipments_data VALUES (1, 'de', 'DHL', 1.50), (2, 'de', 'UPS', 2.25), (3, 'fr', 'DHL', 4.00)",
    ],
    metricViews: [SHIPMENTS, PRICED],
  });
  const tmp = useTempDir("all");

  it("DESCRIBE ... AS JSON keeps the wildcard in the YAML and the imported columns in columns[]", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const [row] = await conn.all("DESCRIBE TABLE EXTENDED `shipments` AS JSON");
    const json = JSON.parse(String(row!["json_metadata"])) as { columns: { name: string }[]; view_text: string };
    expect(json.view_text).to.contain('"expr": "source.* EXCEPT (id)"');
    expect(json.view_text).to.contain('"fields"');
    expect(json.columns.map((c) => c.name)).to.deep.equal([
      "destination",
      "country",
      "carrier",
      "weight",
      "total_weight",
    ]);
  });

  it("generates a member per column, measures as metrics, and the model queries", async () => {
    await writeFile(join(tmp.path, ".lib.toml"), [...standInTomlLines(fixture.standIn), ""].join("\n"));
    const err: string[] = [];
    const exit = await runCodegen(
      { backend: "backend_b" },
      { cwd: tmp.path, env: {}, stdout: () => {}, stderr: (l) => err.push(l) },
    );
    expect(err.join("\n")).to.equal("");
    expect(exit).to.equal(0);
    const source = await readFile(join(tmp.path, "generated", "shipments.ts"), "utf8");
    for (const line of [
      "  destination: Dimension<string>(),\n",
      "  country: Dimension<string>(),\n",
      "  carrier: Dimension<string>(),\n",
      "  weight: Dimension<Decimal>(),\n",
      "  total_weight: Metric<Decimal>(),\n",
    ]) {
      expect(source).to.contain(line);
    }
    expect(source).not.to.match(/\bid:/);

    await using engine = standInEngine(fixture.standIn);
    await using cursor = await Shipments.query()
      .dimensions(Shipments.carrier)
      .metrics(Shipments.total_weight)
      .orderBy(Shipments.carrier.asc())
      .using(engine)
      .execute();
    const rows = (await cursor.fetchAllRows()).map((r) => [r.carrier, r.total_weight.toString()]);
    expect(rows).to.deep.equal([
      ["DHL", "5.50"],
      ["UPS", "2.25"],
    ]);
  });

  it("codegen declares the parameters with their types; one with a default is optional", async () => {
    // The previous test generated into the same directory.
    const source = await readFile(join(tmp.path, "generated", "priced.ts"), "utf8");
    expect(source).to.contain("  min_weight: Variable<Decimal>(),\n");
    expect(source).to.contain("  factor: Variable<number>({ optional: true }),\n");
  });

  it("values go as a table-valued call with bound arguments; omitted ones take their default", async () => {
    await using engine = standInEngine(fixture.standIn);
    const query = Priced.query()
      .dimensions(Priced.carrier)
      .metrics(Priced.heavy_count, Priced.scaled_weight)
      .variables({ min_weight: Decimal.parse("2.00") })
      .orderBy(Priced.carrier.asc());
    expect(query.compile({ dialect: "backend_b" })).to.deep.equal({
      sql: "SELECT `carrier` AS `carrier`, MEASURE(`heavy_count`) AS `heavy_count`, MEASURE(`scaled_weight`) AS `scaled_weight` FROM `priced`(`min_weight` => CAST(? AS DECIMAL(3,2))) GROUP BY ALL ORDER BY `carrier` ASC NULLS LAST",
      parameters: ["2.00"],
    });
    {
      await using cursor = await query.using(engine).execute();
      const rows = (await cursor.fetchAllRows()).map((r) => [r.carrier, r.heavy_count, r.scaled_weight.toString()]);
      expect(rows).to.deep.equal([
        ["DHL", 1n, "5.50"],
        ["UPS", 1n, "2.25"],
      ]);
    }
    await using cursor = await query
      .variables({ min_weight: Decimal.parse("2.00"), factor: 2 })
      .using(engine)
      .execute();
    expect((await cursor.fetchAllRows()).map((r) => r.scaled_weight.toString())).to.deep.equal(["11.00", "4.50"]);
    const received = fixture.standIn.statements.at(-1)!;
    expect(received.sql).to.contain("FROM `priced`(`min_weight` => CAST(? AS DECIMAL(3,2)), `factor` => ?)");
    expect(received.parameters.map((p) => p.value)).to.deep.equal(["2.00", "2"]);
  });

  it("a parameter without a default must be passed: a ValidationError before sending; the warehouse refuses the call", async () => {
    await using engine = standInEngine(fixture.standIn);
    const error = await failureOf(Priced.query().metrics(Priced.heavy_count).using(engine).execute());
    expect(error).to.be.instanceOf(ValidationError);
    expect(error.message).to.match(/priced requires variable min_weight/);
    await using conn = await engine.connect();
    const refused = await failureOf(conn.all("SELECT MEASURE(`heavy_count`) FROM `priced`"));
    expect(refused).to.be.instanceOf(WarehouseError);
    expect(refused.message).to.match(/REQUIRED_PARAMETER_NOT_FOUND/);
  });
});
