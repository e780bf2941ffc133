/**
 * Runs SQL through the built-in semantic layer the way a driver does (split, handle, execute the
 * result or the rewritten SQL), for tests written as the documentation's scripts.
 */
import { createBuiltinSemanticLayer, type HandledStatement } from "../../../runtime/semantic/index.js";
import type { TestSession } from "./session.js";

const layer = createBuiltinSemanticLayer();

export interface ScriptResult {
  columns: string[];
  rows: unknown[][];
}

/** Every statement's result, in order. */
export async function runScript(session: TestSession, sql: string): Promise<ScriptResult[]> {
  const out: ScriptResult[] = [];
  const statements = layer.mayHandle(sql) ? layer.splitStatements(sql) : [sql];
  for (const statement of statements) {
    const handled: HandledStatement = await layer.handle(session, statement);
    if (handled.kind === "result") {
      out.push({ columns: handled.columns.map((c) => c.name), rows: handled.rows });
    } else {
      const r = await session.query(handled.kind === "rewritten" ? handled.sql : statement);
      out.push({ columns: r.columns.map((c) => c.name), rows: r.rows });
    }
  }
  return out;
}

/** The last statement's result. */
export async function runQuery(session: TestSession, sql: string): Promise<ScriptResult> {
  const results = await runScript(session, sql);
  return results[results.length - 1]!;
}

/** The error a statement raises (fails the test when it succeeds). */
export async function runError(session: TestSession, sql: string): Promise<Error> {
  try {
    await runScript(session, sql);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected an error from: ${sql}`);
}
