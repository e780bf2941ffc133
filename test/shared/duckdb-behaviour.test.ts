/** The shared behaviour suite on backend C: the built-in semantic engine over in-memory DuckDB. */
import type { Engine } from "lib";
import { createSalesEngine } from "../support/sales-engine.js";
import { behaviourSuite } from "./support/behaviour-suite.js";

let engine: Engine | undefined;

behaviourSuite({
  title: "backend C (@duckdb/node-api, in-memory)",
  facts: { alone: "rows", withDimensions: "rows" },
  lastStatement: undefined,
  async start() {
    engine = createSalesEngine({ name: "", orders: true }); // not registered: the suite passes the engine to using()
    return engine;
  },
  async stop() {
    await engine?.dispose();
  },
});
