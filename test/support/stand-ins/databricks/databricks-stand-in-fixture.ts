/**
 * Shared fixture of the backend B tests: the Databricks stand-in seeded with the one sales fixture
 * (`sales` and `orders` metric views), a view that does not exist, and engines pointed at the stand-in. The stand-in's
 * self-signed certificate is trusted through `BACKEND_B_CA_CERT` (set while the stand-in runs).
 */
import { BackendBConfig, Dimension, Metric, SemanticView, createEngine } from "lib";
import type { BackendBConfigInput, Engine, EngineLogger } from "lib";
import type { BackendBSettings } from "../../../../runtime/dialects/databricks/databricks-settings.js";
import { Secret } from "../../../../runtime/config/secret.js";
import { DatabricksStandIn, STAND_IN_HTTP_PATH, type StandInOptions } from "./databricks-stand-in.js";
import { DATABRICKS_VIEWS, ordersTableSql, salesTableSql } from "../../sales-fixture.js";

export { DatabricksStandIn, STAND_IN_HTTP_PATH };

export const TOKEN = "dapi-test-0123456789abcdef";
export const CATALOG = "main";
export const SCHEMA = "retail";

export class Ghost extends SemanticView("ghost_view", {
  revenue: Metric<bigint>(),
  country: Dimension<string>(),
}) {}

/** The one sales fixture (`test/support/sales-fixture.ts`); Databricks sums BIGINT columns to BIGINT. */
export const SALES_SETUP: readonly string[] = [...salesTableSql("BIGINT"), ...ordersTableSql()];

export const STAND_IN_OPTIONS: StandInOptions = { token: TOKEN, setupSql: SALES_SETUP, metricViews: DATABRICKS_VIEWS };

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
  readonly log?: EngineLogger;
}

/** A backend B configuration in decomposed mode (host/port/http_path/token, pool 1) on the stand-in, plus `fields`. */
export function standInBackendBConfig(
  standIn: { readonly port: number },
  fields: Partial<BackendBConfigInput> = {},
): BackendBConfig {
  return new BackendBConfig({
    host: "127.0.0.1",
    port: standIn.port,
    httpPath: STAND_IN_HTTP_PATH,
    token: TOKEN,
    catalog: CATALOG,
    schema: SCHEMA,
    poolSize: 1,
    ...fields,
  });
}

/** A backend B engine in decomposed mode (host/port/http_path/token) on the stand-in. */
export function standInEngine(standIn: DatabricksStandIn, overrides: EngineOverrides = {}): Engine {
  const { log, ...fields } = overrides;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return createEngine(standInBackendBConfig(standIn, defined), log === undefined ? {} : { log });
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

/** The `[connections.backend_b]` TOML lines that reach `standIn` in decomposed mode with `token`. */
export function standInTomlLines(standIn: { readonly port: number }, token: string = TOKEN): string[] {
  return [
    "[connections.backend_b]",
    'type = "backend_b"',
    'host = "127.0.0.1"',
    `port = ${standIn.port}`,
    `http_path = "${STAND_IN_HTTP_PATH}"`,
    `token = "${token}"`,
    `catalog = "${CATALOG}"`,
    `schema = "${SCHEMA}"`,
  ];
}

/** Runs `fn` with a stand-in started from `options` whose certificate is trusted meanwhile; closes it after. */
export async function withStandIn<T>(
  options: StandInOptions,
  fn: (standIn: DatabricksStandIn) => Promise<T>,
): Promise<T> {
  const standIn = await DatabricksStandIn.start(options);
  const previous = process.env["BACKEND_B_CA_CERT"];
  process.env["BACKEND_B_CA_CERT"] = standIn.certPath;
  try {
    return await fn(standIn);
  } finally {
    if (previous === undefined) delete process.env["BACKEND_B_CA_CERT"];
    else process.env["BACKEND_B_CA_CERT"] = previous;
    await standIn.close();
  }
}
