/**
 * Runs documentation examples as written: each script goes through the built-in semantic layer
 * statement by statement on a real in-process DuckDB (DDL handled by the layer, semantic_view()
 * rewritten, plain SQL passed through), and the last statement's result comes back.
 */
import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../../runtime/semantic/builtin-layer.js";
import { SemanticViewError } from "../../../runtime/semantic/semantic-error.js";
import type { RawColumn } from "../../../runtime/semantic/semantic-layer.js";
import { TestSession } from "./session.js";

export interface DocsResult {
  readonly columns: RawColumn[];
  readonly rows: unknown[][];
}

export class DocsRunner {
  private readonly layer = createBuiltinSemanticLayer();

  private constructor(readonly session: TestSession) {}

  /** An in-memory database, or the file at `path` opened with DuckDB `options` (`access_mode`, ...). */
  static async open(path?: string, options?: Record<string, string>): Promise<DocsRunner> {
    return new DocsRunner(await TestSession.open(path, options));
  }

  /** Runs every statement of `script`; returns the last one's result. */
  async run(script: string): Promise<DocsResult> {
    let last: DocsResult = { columns: [], rows: [] };
    for (const statement of this.layer.splitStatements(script)) {
      const handled = await this.layer.handle(this.session, statement);
      if (handled.kind === "result") last = { columns: handled.columns, rows: handled.rows };
      else last = await this.session.query(handled.kind === "rewritten" ? handled.sql : statement);
    }
    return last;
  }

  /** Rows of a query, sorted by their JSON text (the docs show results without an ORDER BY). */
  async rows(sql: string): Promise<unknown[][]> {
    const { rows } = await this.run(sql);
    return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** A query's rows with every value as text (DECIMAL, DATE and the like compare as DuckDB prints them). */
  async text(sql: string): Promise<unknown[][]> {
    return (await this.run(`SELECT COLUMNS(*)::VARCHAR FROM (${sql})`)).rows;
  }

  /** Column name → DuckDB type of a query's result. */
  async types(sql: string): Promise<Record<string, string>> {
    const { columns } = await this.run(sql);
    return Object.fromEntries(columns.map((c) => [c.name, c.type]));
  }

  /** The semantic error a script raises. */
  async error(script: string): Promise<SemanticViewError> {
    try {
      await this.run(script);
    } catch (error) {
      expect(error, String(error)).to.be.instanceOf(SemanticViewError);
      return error as SemanticViewError;
    }
    return expect.fail(`expected the script to fail: ${script}`);
  }

  close(): void {
    this.session.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.close();
  }
}

const key = (row: unknown[]): string => JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
