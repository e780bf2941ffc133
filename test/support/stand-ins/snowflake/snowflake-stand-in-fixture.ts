/**
 * The backend A test fixture: a Snowflake stand-in on 127.0.0.1 seeded with the one sales fixture
 * (`SALES` and `ORDERS` semantic views, `test/support/sales-fixture.ts`), plus engines pointed at it
 * through the real snowflake-sdk.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { BackendAConfig, createEngine, type Engine } from "lib";
import { runCodegen } from "../../../../codegen/codegen.js";
import type { BackendAConfigInput } from "../../../../runtime/dialects/snowflake/snowflake-config.js";
import { SnowflakeStandIn, type SnowflakeStandInOptions } from "./snowflake-stand-in.js";
import { SNOWFLAKE_VIEWS, ordersTableSql, salesTableSql } from "../../sales-fixture.js";

export const USER = "tester";
export const PASSWORD = "pa55-Word!x7";

/** The one sales fixture; Snowflake's INTEGER is NUMBER(38,0). */
export const SEED_SQL: readonly string[] = [...salesTableSql("DECIMAL(38,0)"), ...ordersTableSql()];

export function standInOptions(extra: SnowflakeStandInOptions = {}): SnowflakeStandInOptions {
  return { users: { [USER]: PASSWORD }, seedSql: SEED_SQL, semanticViews: SNOWFLAKE_VIEWS, ...extra };
}

export function startStandIn(extra: SnowflakeStandInOptions = {}): Promise<SnowflakeStandIn> {
  return SnowflakeStandIn.start(standInOptions(extra));
}

/** Config for an engine on the stand-in (basic auth unless overridden). */
export function standInConfig(standIn: { port: number }, extra: BackendAConfigInput = {}): BackendAConfig {
  return new BackendAConfig({
    account: "fake",
    host: "127.0.0.1",
    port: standIn.port,
    protocol: "http",
    user: USER,
    password: PASSWORD,
    database: "ANALYTICS",
    schema: "PUBLIC",
    warehouse: "WH_XS",
    role: "ANALYST",
    poolSize: 1,
    loginTimeout: "5s",
    ...extra,
  } as BackendAConfigInput);
}

export function standInEngine(standIn: { port: number }, extra: BackendAConfigInput = {}, register = false): Engine {
  return createEngine(standInConfig(standIn, extra), { register });
}

/**
 * Runs `fn` with a stand-in started from `extra` (over the sales fixture and the test user, as
 * {@link startStandIn}); closes it after, whatever `fn` does. Like Databricks' `withStandIn()`.
 */
export async function withSnowflakeStandIn<T>(
  extra: SnowflakeStandInOptions,
  fn: (standIn: SnowflakeStandIn) => Promise<T>,
): Promise<T> {
  const standIn = await startStandIn(extra);
  try {
    return await fn(standIn);
  } finally {
    await standIn.close();
  }
}

/**
 * Mocha hooks: one stand-in started from `extra` (over the sales fixture and the test user) for the
 * whole `describe`, closed afterwards. `standIn` is readable inside the describe's tests and hooks.
 */
export function useSnowflakeStandIn(extra: SnowflakeStandInOptions = {}): { readonly standIn: SnowflakeStandIn } {
  let running: SnowflakeStandIn | undefined;
  before(async () => {
    running = await startStandIn(extra);
  });
  after(async () => {
    await running?.close();
    running = undefined;
  });
  return {
    get standIn() {
      if (running === undefined) throw new Error("useSnowflakeStandIn(): the stand-in runs only inside the describe");
      return running;
    },
  };
}

/** Mocha hooks: one stand-in and one engine on it for the whole `describe`; the engine is disposed before the stand-in closes. */
export function useStandInEngine(): { readonly standIn: SnowflakeStandIn; readonly engine: Engine } {
  let running: { standIn: SnowflakeStandIn; engine: Engine } | undefined;
  before(async () => {
    const standIn = await startStandIn();
    running = { standIn, engine: standInEngine(standIn) };
  });
  after(async () => {
    await running?.engine.dispose();
    await running?.standIn.close();
    running = undefined;
  });
  const current = () => {
    if (running === undefined) throw new Error("useStandInEngine(): the stand-in runs only inside the describe");
    return running;
  };
  return {
    get standIn() {
      return current().standIn;
    },
    get engine() {
      return current().engine;
    },
  };
}

/**
 * The `[connections.backend_a]` TOML lines that reach a stand-in on `port` (the password comes from
 * the environment); `extra` lines go after `user`.
 */
export function standInTomlLines(port: number, extra: readonly string[] = []): string[] {
  return [
    "[connections.backend_a]",
    'type = "backend_a"',
    'account = "fake"',
    'host = "127.0.0.1"',
    `port = ${port}`,
    'protocol = "http"',
    `user = "${USER}"`,
    ...extra,
    "pool_size = 1",
    'login_timeout = "5s"',
  ];
}

/**
 * Runs `lib codegen --backend backend_a` in `dir` against `standIn` (a `.lib.toml` written there, the
 * password from the environment) and returns the generated module of `stem` (`generated/<stem>.ts`).
 * Fails the test when codegen prints an error or exits non-zero.
 */
export async function codegenModuleFrom(standIn: { port: number }, dir: string, stem: string): Promise<string> {
  await writeFile(join(dir, ".lib.toml"), [...standInTomlLines(standIn.port), ""].join("\n"));
  const err: string[] = [];
  const exit = await runCodegen(
    { backend: "backend_a" },
    { cwd: dir, env: { BACKEND_A_PASSWORD: PASSWORD }, stdout: () => {}, stderr: (l) => err.push(l) },
  );
  expect(err.join("\n")).to.equal("");
  expect(exit).to.equal(0);
  return readFile(join(dir, "generated", `${stem}.ts`), "utf8");
}
