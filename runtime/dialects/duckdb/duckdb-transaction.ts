/**
 * Autocommit off, emulated on one DuckDB connection (README "Engines, pools and the registry"): an
 * explicit transaction is begun lazily before the first statement after a commit or rollback that
 * may write, so `run`/`all` work inside a transaction until `commit()` (or the SQL statement
 * `COMMIT`). A statement that only reads, issued while no transaction is open, runs in DuckDB's
 * autocommit instead: it sees the same committed state a fresh transaction would, and there is
 * nothing to roll back, so it saves the BEGIN and the ROLLBACK on release.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { DefinitionCache } from "../../semantic/definition-cache.js";
import { UNCOMMITTED_MEMO_KEY } from "../../semantic/semantic-layer.js";
import { isNoActiveTransaction } from "./duckdb-errors.js";
import { isReadOnlyStatement, transactionControlOf } from "./duckdb-statements.js";

export class DuckDBTransaction {
  readonly #connection: DuckDBConnection;
  /** The semantic layer's per-connection memo: facts an uncommitted transaction created go with it. */
  readonly #memo: Map<string, unknown>;
  /** Committed semantic-view definitions: any commit may change them. */
  readonly #definitions: DefinitionCache;
  /** Told before and after every COMMIT (the database's change feed: result caches). */
  readonly #onCommit: () => void;
  /** Whether we have an explicit transaction open on the DuckDB connection. */
  #inTransaction = false;

  constructor(
    connection: DuckDBConnection,
    memo: Map<string, unknown>,
    definitions: DefinitionCache,
    onCommit: () => void = () => undefined,
  ) {
    this.#connection = connection;
    this.#memo = memo;
    this.#definitions = definitions;
    this.#onCommit = onCommit;
  }

  /** True while an explicit transaction is open. */
  get open(): boolean {
    return this.#inTransaction;
  }

  /**
   * Runs the layer's own SQL inside our transaction, opening one if needed. BEGIN is its own call:
   * the layer's SQL carries user-influenced text and never travels in a multi-statement call. If the
   * SQL fails, the transaction it opened is rolled back: it held nothing else.
   */
  async withTransaction<T>(run: () => Promise<T>): Promise<T> {
    if (this.#inTransaction) return run();
    await this.#connection.run("BEGIN TRANSACTION");
    this.#inTransaction = true;
    try {
      return await run();
    } catch (error) {
      this.#inTransaction = false;
      await this.#connection.run("ROLLBACK").catch(() => undefined); // nothing open after a parse error
      this.forgetUncommitted();
      throw error;
    }
  }

  async #ensureTransaction(): Promise<void> {
    if (this.#inTransaction) return;
    await this.#connection.run("BEGIN TRANSACTION");
    this.#inTransaction = true;
  }

  /**
   * Opens our transaction for `statement` unless it only reads and none is open. True when it runs
   * as such an autocommit read (which may use a cached prepared statement).
   */
  async beginUnlessReadOnly(statement: string): Promise<boolean> {
    if (this.readsInAutocommit(statement)) return true;
    if (this.#inTransaction) return false;
    await this.#ensureTransaction();
    return false;
  }

  /** True when `statement` runs as an autocommit read (no transaction open, it only reads): nothing to begin. */
  readsInAutocommit(statement: string): boolean {
    return !this.#inTransaction && isReadOnlyStatement(statement);
  }

  /**
   * A transaction-control statement (BEGIN, COMMIT, ROLLBACK) updates our state instead of running
   * as written; true when `statement` was one.
   */
  async control(statement: string): Promise<boolean> {
    switch (transactionControlOf(statement)) {
      case "begin":
        // Autocommit is off, so a transaction is (or will be) open anyway: BEGIN joins it.
        await this.#ensureTransaction();
        return true;
      case "commit":
        await this.end("COMMIT");
        return true;
      case "rollback":
        await this.end("ROLLBACK");
        return true;
      default:
        return false;
    }
  }

  /**
   * COMMIT or ROLLBACK our transaction. With none open it is a no-op. A failed COMMIT has ended
   * DuckDB's transaction (or left it aborted), so we roll back defensively and start clean.
   */
  async end(statement: "COMMIT" | "ROLLBACK"): Promise<void> {
    if (!this.#inTransaction) return;
    const committing = statement === "COMMIT";
    // Any committed write may change the catalog: before, so nobody caches what is about to change;
    // after, so nothing read while the commit ran survives it.
    if (committing) this.#committing();
    try {
      await this.#connection.run(statement);
      if (committing) this.#memo.delete(UNCOMMITTED_MEMO_KEY);
      else this.forgetUncommitted();
    } catch (error) {
      this.forgetUncommitted();
      await this.#connection.run("ROLLBACK").catch((rollbackError: unknown) => {
        if (!isNoActiveTransaction(rollbackError)) throw rollbackError;
      });
      throw error;
    } finally {
      this.#inTransaction = false;
      if (committing) this.#committing();
    }
  }

  #committing(): void {
    this.#definitions.invalidate();
    this.#onCommit();
  }

  /** After a rollback: memoized facts the transaction created are gone with it. */
  forgetUncommitted(): void {
    if (this.#memo.has(UNCOMMITTED_MEMO_KEY)) this.#memo.clear();
  }
}
