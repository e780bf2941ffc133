/**
 * Shared fixture of the backend B tests: the Databricks stand-in seeded with a `sales` metric
 * view, the view classes the tests query, and engines pointed at the stand-in. The stand-in's
 * self-signed certificate is trusted through `BACKEND_B_CA_CERT` (set while the stand-in runs).
 */
import { BackendBConfig, Decimal, Dimension, Metric, SemanticView, createEngine } from "lib";
import type { Engine } from "lib";
import type { BackendBSettings } from "../../runtime/config/types.js";
import { Secret } from "../../runtime/config/secret.js";
import {
  DatabricksStandIn,
  STAND_IN_HTTP_PATH,
  type StandInOptions,
} from "../support/stand-ins/databricks/databricks-stand-in.js";

export { DatabricksStandIn, STAND_IN_HTTP_PATH };

export const TOKEN = "dapi-test-0123456789abcdef";
export const CATALOG = "main";
export const SCHEMA = "retail";

export class Sales extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  cost: Metric<bigint>(),
  money: Metric<Decimal>(),
  country: Dimension<string>(),
  region: Dimension<string | null>(),
}) {}

export class Ghost extends SemanticView("ghost_view", {
  revenue: Metric<bigint>(),
  country: Dimension<string>(),
}) {}

/** Rows: revenue and cost as BIGINT, money as DECIMAL(18,2) (sums become DECIMAL(38,2)). */
export const SALES_SETUP = [
  "CREATE TABLE sales_data (revenue BIGINT, cost BIGINT, amount DECIMAL(18,2), country VARCHAR, region VARCHAR)",
  `INSERT INTO sales_data VALUES
     (100, 40, 10.10, 'US', 'West'), (250, 90, 20.20, 'US', 'East'), (75, 30, 0.05, 'US', 'West'),
     (300, 120, 99999999999.99, 'DE', 'Berlin'), (120, 50, 0.01, 'DE', 'Bavaria'),
     (90, 60, 1.00, 'FR', 'Paris'), (60, 20, 2.50, 'JP', 'Kanto'), (40, 35, 3.33, 'JP', NULL)`,
];

export const STAND_IN_OPTIONS: StandInOptions = {
  token: TOKEN,
  setupSql: SALES_SETUP,
  metricViews: [
    {
      name: "sales",
      source: "sales_data",
      comment: "Sales by country and region",
      dimensions: { country: "country", region: "region" },
      measures: { revenue: "SUM(revenue)", cost: "SUM(cost)", money: "SUM(amount)" },
    },
  ],
};

/** Starts a stand-in and trusts its certificate until `after` restores the environment. */
export function useStandIn(options: StandInOptions = STAND_IN_OPTIONS): { readonly standIn: DatabricksStandIn } {
  const holder = { standIn: undefined as unknown as DatabricksStandIn };
  let previous: string | undefined;
  before(async () => {
    holder.standIn = await DatabricksStandIn.start(options);
    previous = process.env["BACKEND_B_CA_CERT"];
    process.env["BACKEND_B_CA_CERT"] = holder.standIn.certPath;
  });
  after(async () => {
    if (previous === undefined) delete process.env["BACKEND_B_CA_CERT"];
    else process.env["BACKEND_B_CA_CERT"] = previous;
    await holder.standIn?.close();
  });
  return holder;
}

/** Another stand-in serving the fixture's (already trusted) certificate. */
export function startAnotherStandIn(
  fixture: { readonly standIn: DatabricksStandIn },
  options: StandInOptions = STAND_IN_OPTIONS,
): Promise<DatabricksStandIn> {
  return DatabricksStandIn.start({ ...options, certificate: fixture.standIn.certificate });
}

export interface EngineOverrides {
  readonly token?: string;
  readonly port?: number;
  readonly poolSize?: number;
  readonly prePing?: boolean;
  readonly timeout?: number;
}

/** A backend B engine in decomposed mode (host/port/http_path/token) on the stand-in. */
export function standInEngine(standIn: DatabricksStandIn, overrides: EngineOverrides = {}): Engine {
  return createEngine(
    new BackendBConfig({
      host: "127.0.0.1",
      port: overrides.port ?? standIn.port,
      httpPath: STAND_IN_HTTP_PATH,
      token: overrides.token ?? TOKEN,
      catalog: CATALOG,
      schema: SCHEMA,
      poolSize: overrides.poolSize ?? 1,
      ...(overrides.prePing === undefined ? {} : { prePing: overrides.prePing }),
      ...(overrides.timeout === undefined ? {} : { timeout: overrides.timeout }),
    }),
  );
}

/** Resolved settings for using the driver directly (below the engine). */
export function driverSettings(standIn: DatabricksStandIn, token = TOKEN): BackendBSettings {
  return {
    type: "backend_b",
    host: "127.0.0.1",
    port: standIn.port,
    httpPath: STAND_IN_HTTP_PATH,
    token: new Secret(token),
    catalog: CATALOG,
    schema: SCHEMA,
    poolSize: 1,
    maxOverflow: 0,
    timeout: 5,
    recycle: 3600,
    prePing: false,
  };
}
