/** Runs one statement through the built-in semantic layer the way the DuckDB driver does. */
import { createBuiltinSemanticLayer } from "../../../runtime/semantic/index.js";
import type { TestSession } from "./session.js";

const layer = createBuiltinSemanticLayer();

export interface StatementRows {
  readonly columns: string[];
  readonly types: string[];
  readonly rows: unknown[][];
}

export async function runStatement(session: TestSession, sql: string): Promise<StatementRows> {
  const handled = await layer.handle(session, sql);
  const r = handled.kind === "result" ? handled : await session.query(handled.kind === "rewritten" ? handled.sql : sql);
  return { columns: r.columns.map((c) => c.name), types: r.columns.map((c) => c.type), rows: r.rows };
}

/** The error message a statement fails with (fails the test when it succeeds). */
export async function errorOf(session: TestSession, sql: string): Promise<string> {
  try {
    await runStatement(session, sql);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error(`expected an error from: ${sql}`);
}
