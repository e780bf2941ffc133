/** The shared behaviour suite on backend B: the real @databricks/sql driver against the loopback Databricks stand-in. */
import type { Engine } from "lib";
import {
  DatabricksStandIn,
  STAND_IN_OPTIONS,
  standInEngine,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { behaviourSuite } from "./support/behaviour-suite.js";

const CA_CERT = "BACKEND_B_CA_CERT";
let standIn: DatabricksStandIn | undefined;
let engine: Engine | undefined;
let previousCaCert: string | undefined;

behaviourSuite({
  title: "backend B (@databricks/sql on the Databricks stand-in)",
  facts: { alone: "refused", withDimensions: "refused" },
  lastStatement: () => {
    const statement = standIn!.statements.at(-1)!;
    return { sql: statement.sql, parameters: statement.parameters.map((p) => p.value) };
  },
  async start() {
    standIn = await DatabricksStandIn.start(STAND_IN_OPTIONS);
    // The stand-in's certificate is self-signed: trust it while the suite runs.
    previousCaCert = process.env[CA_CERT];
    process.env[CA_CERT] = standIn.certPath;
    engine = standInEngine(standIn);
    return engine;
  },
  async stop() {
    await engine?.dispose();
    if (previousCaCert === undefined) delete process.env[CA_CERT];
    else process.env[CA_CERT] = previousCaCert;
    await standIn?.close();
  },
});
