/** The shared behaviour suite on backend A: the real snowflake-sdk against the loopback Snowflake stand-in. */
import type { Engine } from "lib";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import { standInEngine, startStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { behaviourSuite } from "./support/behaviour-suite.js";

let standIn: SnowflakeStandIn | undefined;
let engine: Engine | undefined;

behaviourSuite({
  title: "backend A (snowflake-sdk on the Snowflake stand-in)",
  facts: { alone: "rows", withDimensions: "refused" },
  lastStatement: () => {
    const query = standIn!.queries.at(-1)!;
    return { sql: query.sqlText, parameters: Object.values(query.bindings ?? {}).map((b) => b.value as string) };
  },
  async start() {
    standIn = await startStandIn();
    engine = standInEngine(standIn);
    return engine;
  },
  async stop() {
    await engine?.dispose();
    await standIn?.close();
  },
});
