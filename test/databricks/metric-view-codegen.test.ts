/**
 * Codegen of backend B metric views written with `fields:` (the YAML reference's preferred key) and a
 * wildcard field (`source.* EXCEPT (id)`), which has no `name` in the YAML (issue 20, item 9): the
 * members come from `DESCRIBE TABLE EXTENDED ... AS JSON` `columns[]`, the YAML only tells measures
 * from fields. Through the real driver against the stand-in.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { Decimal, Dimension, Metric, SemanticView } from "lib";
import { runCodegen } from "../../codegen/codegen.js";
import {
  CATALOG,
  SCHEMA,
  STAND_IN_HTTP_PATH,
  TOKEN,
  standInEngine,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { useTempDir } from "../support/temp-dir.js";

const SHIPMENTS = {
  name: "shipments",
  source: "shipments_data",
  fieldsKey: "fields",
  dimensions: { destination: "upper(country)" },
  wildcard: { except: ["id"] },
  measures: { total_weight: "SUM(weight)" },
} as const;

/** What codegen writes (checked below). */
class Shipments extends SemanticView("shipments", {
  destination: Dimension<string>(),
  country: Dimension<string>(),
  carrier: Dimension<string>(),
  weight: Dimension<Decimal>(),
  total_weight: Metric<Decimal>(),
}) {}

describe("backend B: codegen of fields: and wildcard fields", function () {
  this.timeout(30_000);
  const fixture = useStandIn({
    token: TOKEN,
    setupSql: [
      "CREATE TABLE shipments_data (id INTEGER, country VARCHAR, carrier VARCHAR, weight DECIMAL(10,2))",
      "INSERT INTO shipments_data VALUES (1, 'de', 'DHL', 1.50), (2, 'de', 'UPS', 2.25), (3, 'fr', 'DHL', 4.00)",
    ],
    metricViews: [SHIPMENTS],
  });
  const tmp = useTempDir();

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
    await writeFile(
      join(tmp.path, ".lib.toml"),
      [
        "[connections.backend_b]",
        'type = "backend_b"',
        'host = "127.0.0.1"',
        `port = ${fixture.standIn.port}`,
        `http_path = "${STAND_IN_HTTP_PATH}"`,
        `token = "${TOKEN}"`,
        `catalog = "${CATALOG}"`,
        `schema = "${SCHEMA}"`,
        "",
      ].join("\n"),
    );
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
});
