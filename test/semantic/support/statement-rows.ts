/** Column names and types next to the rows of a DocsRunner result, and the message a statement fails with. */
import type { DocsRunner } from "./docs-runner.js";

export interface StatementRows {
  readonly columns: string[];
  readonly types: string[];
  readonly rows: unknown[][];
}

export async function runStatement(runner: DocsRunner, sql: string): Promise<StatementRows> {
  const r = await runner.run(sql);
  return { columns: r.columns.map((c) => c.name), types: r.columns.map((c) => c.type), rows: r.rows };
}

/** The semantic error message a statement fails with (fails the test when it succeeds). */
export async function errorOf(runner: DocsRunner, sql: string): Promise<string> {
  return (await runner.error(sql)).message;
}
