/**
 * The SPEC's test-support engine generalised to any fixture that `lib codegen --fixture` wrote: a
 * backend C engine on `:memory:` with `pool_size = 1`, registered as "default" for one test, whose
 * pool runs the fixture's statements and a COMMIT on every new connection (through the private
 * `engine._pool`, as the SPEC's fixture does), and which is unregistered, then disposed, afterwards.
 * No test framework is imported: `useFixtureEngine()` takes the framework's own hooks.
 */
import { createEngine } from "../engine/create-engine.js";
import type { Engine } from "../engine/engine.js";
import { BackendCConfig } from "../dialects/duckdb/duckdb-config.js";
import type { UntranslatedConstruct } from "../dialects/fixture/fixture-model.js";

/** What a fixture module exports (the namespace of the module `lib codegen --fixture` wrote). */
export interface FixtureModule {
  /** Base tables, their rows and the semantic views, in the order they are created. */
  readonly FIXTURE_STATEMENTS: readonly string[];
  /** The warehouse's answers to recorded queries (`lib codegen --record`); checked when replayed. */
  readonly RECORDED_QUERIES?: readonly FixtureRecordedQuery[];
  /** What the fixture does not reproduce exactly (the views and members it concerns). */
  readonly UNTRANSLATED?: readonly FixtureUntranslated[];
}

/** A recorded query as a fixture module declares it (`RecordedQuery`, with its tags and ops as plain strings). */
export interface FixtureRecordedQuery {
  readonly view: string;
  readonly dimensions?: readonly string[];
  readonly metrics?: readonly string[];
  readonly facts?: readonly string[];
  readonly where?: readonly {
    readonly member: string;
    readonly op: string;
    readonly value?: unknown;
    readonly values?: readonly unknown[];
  }[];
  readonly orderBy?: readonly { readonly member: string; readonly direction?: string; readonly nulls?: string }[];
  readonly limit?: number;
  readonly offset?: number;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/** A construct the fixture does not reproduce exactly, and the views (and members) whose answers depend on it. */
export type FixtureUntranslated = UntranslatedConstruct;

/** A fixture module, or just its statements. */
export type FixtureSource = FixtureModule | readonly string[];

export interface FixtureEngineOptions {
  /** Register the engine as "default" (default true), so queries without `.using()` run on it. */
  readonly register?: boolean | undefined;
  /** Which semantic-view engine answers (default "auto": the extension when installed, else the built-in one). */
  readonly semanticViews?: "auto" | "builtin" | "extension" | undefined;
}

/** The `beforeEach`/`afterEach` of mocha, node:test (`import { beforeEach, afterEach } from "node:test"`), vitest or jest. */
export interface TestHooks {
  beforeEach(fn: () => unknown): unknown;
  afterEach(fn: () => unknown): unknown;
}

function statementsOf(fixture: FixtureSource): readonly string[] {
  const statements = Array.isArray(fixture) ? fixture : (fixture as FixtureModule).FIXTURE_STATEMENTS;
  if (!Array.isArray(statements) || statements.some((s) => typeof s !== "string")) {
    throw new TypeError(
      "a fixture is the module `lib codegen --fixture` wrote (FIXTURE_STATEMENTS) or a list of SQL statements",
    );
  }
  return statements;
}

/** An in-memory backend C engine whose every new connection recreates the fixture first. */
export function createFixtureEngine(fixture: FixtureSource, options: FixtureEngineOptions = {}): Engine {
  const statements = statementsOf(fixture);
  const engine = createEngine(
    new BackendCConfig({ database: ":memory:", poolSize: 1, semanticViews: options.semanticViews ?? "auto" }),
    { register: options.register ?? true },
  );
  engine._pool.on("connect", async (conn) => {
    for (const sql of statements) await conn.run(sql);
    await conn.commit();
  });
  return engine;
}

/** Runs `fn` with a fixture engine registered as "default"; unregisters and disposes it afterwards, also on failure. */
export async function withFixtureEngine<T>(
  fixture: FixtureSource,
  fn: (engine: Engine) => Promise<T> | T,
  options: FixtureEngineOptions = {},
): Promise<T> {
  const engine = createFixtureEngine(fixture, options);
  try {
    return await fn(engine);
  } finally {
    await engine.dispose();
  }
}

/**
 * A fresh fixture engine for every test, through the framework's hooks:
 * `const warehouse = useFixtureEngine(fixture, { beforeEach, afterEach });` then `warehouse.engine`.
 */
export function useFixtureEngine(
  fixture: FixtureSource,
  hooks: TestHooks,
  options: FixtureEngineOptions = {},
): { readonly engine: Engine } {
  statementsOf(fixture);
  let current: Engine | undefined;
  hooks.beforeEach(() => {
    current = createFixtureEngine(fixture, options);
  });
  hooks.afterEach(async () => {
    const engine = current;
    current = undefined;
    await engine?.dispose();
  });
  return {
    get engine(): Engine {
      if (current === undefined) throw new Error("useFixtureEngine(): the engine exists only while a test runs");
      return current;
    },
  };
}
