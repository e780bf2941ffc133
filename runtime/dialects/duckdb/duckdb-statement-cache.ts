/**
 * Prepared statements kept per connection, keyed by SQL text (least recently used first out), for
 * the single read-only statements a connection runs outside a transaction. Running the same text
 * again skips DuckDB's parse, bind and plan, and one native round trip: on the 200k-row benchmark
 * that is ~0.35 of ~1.4 ms for the revenue query and ~50 of ~150 µs for `SELECT 1`.
 *
 * Why a cached statement cannot answer stale: DuckDB checks the catalog before each execution of a
 * prepared statement and binds it again when anything changed since it was prepared (DDL on any
 * connection, another schema on the search path), and data is always read at execution. What DuckDB
 * does not check is the session's settings (a statement bound under one `TimeZone` keeps it), so
 * every statement that may change settings or the search path, on any connection of the process,
 * empties every cache (`noteSessionChange`).
 *
 * Memory: a prepared statement holds its text several times over in DuckDB (parse tree, plan): a
 * 1 MB literal costs ~4 MB. So the cache is bounded by text bytes as well as by count (the engine's
 * budget, ENGINE_STATEMENT_BYTES, shared out among its connections), and a statement whose text
 * carries a literal over MAX_LITERAL_BYTES is never kept: it carries a value, and another value is
 * another text, so it would never be reused anyway.
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBType, DuckDBValue } from "@duckdb/node-api";
import type { BoundParameter } from "../../semantic/semantic-layer.js";
import { binderFor, bindLiftedTyped, type Binder } from "./duckdb-typed-binders.js";
import { notePreparedText } from "./duckdb-result-plan.js";

/** Statements that may change settings, the search path or the attached databases. */
const MAY_CHANGE_SESSION = /\b(?:USE|ATTACH|DETACH|DROP\s+SCHEMA|SET|RESET|PRAGMA|CALL)\b/i;
const DEFAULT_CAPACITY = 32;
/** Text bytes of prepared statements one engine keeps, over all its connections. */
export const ENGINE_STATEMENT_BYTES = 8 * 1024 * 1024;
/** A statement with a string literal longer than this is not kept. */
export const MAX_LITERAL_BYTES = 4 * 1024;

export interface StatementCacheLimits {
  /** Statements kept (default 32). */
  readonly maxEntries?: number;
  /** Text bytes kept (default: the whole engine budget). */
  readonly maxBytes?: number | undefined;
  /** The longest string literal a kept statement may carry (default MAX_LITERAL_BYTES). */
  readonly maxLiteralBytes?: number;
}

/** Text bytes of the statements every cache in the process keeps (tests, benchmarks). */
let processBytes = 0;

/** Text bytes of the prepared statements kept by every connection of the process. */
export function preparedStatementBytes(): number {
  return processBytes;
}

/** Statements the caches of the process have prepared so far (tests: one per statement shape). */
let processPrepares = 0;

export function statementCachePrepares(): number {
  return processPrepares;
}

/** Bumped by every session-changing statement in the process; a cache that saw another value empties itself. */
let sessionEpoch = 0;

/** Whether `sql` may change settings or the search path (also what the connection's memo is cleared on). */
export function maySessionChange(sql: string): boolean {
  return MAY_CHANGE_SESSION.test(sql);
}

/** Bumped by every `noteSessionChange`: whoever keeps something that depends on a session compares it. */
export function currentSessionEpoch(): number {
  return sessionEpoch;
}

/** Call before running SQL for which `maySessionChange` holds: every cache in the process starts over. */
export function noteSessionChange(): void {
  sessionEpoch++;
}

interface Entry {
  readonly statement: DuckDBPreparedStatement;
  readonly parameterCount: number;
  readonly bytes: number;
  /** Binders for its parameters' types as DuckDB resolved them, made once (see `bound`'s `lifted`). */
  binders?: readonly Binder[];
}

/** A prepared statement's parameter types as DuckDB resolved them (throws for one it could not type). */
export function parameterTypesOf(statement: DuckDBPreparedStatement): DuckDBType[] {
  return Array.from({ length: statement.parameterCount }, (_, i) => statement.parameterType(i + 1));
}

/** One binder per parameter, for the types DuckDB resolved (throws for a parameter it could not type). */
export function bindersOf(statement: DuckDBPreparedStatement): Binder[] {
  return parameterTypesOf(statement).map(binderFor);
}

/** Whether `sql` holds a '...' literal longer than `limit` characters (a cheap scan; '' is a quote). */
export function carriesLongLiteral(sql: string, limit: number): boolean {
  if (sql.length <= limit) return false;
  let open = sql.indexOf("'");
  while (open >= 0) {
    let close = sql.indexOf("'", open + 1);
    while (close >= 0 && sql[close + 1] === "'") close = sql.indexOf("'", close + 2);
    if (close < 0) return sql.length - open > limit;
    if (close - open - 1 > limit) return true;
    open = sql.indexOf("'", close + 1);
  }
  return false;
}

export class StatementCache {
  readonly #connection: DuckDBConnection;
  readonly #capacity: number;
  readonly #maxBytes: number;
  readonly #maxLiteral: number;
  readonly #entries = new Map<string, Entry>();
  /** The key inserted last (the most recently used), while it is still held. */
  #newest: string | undefined;
  #bytes = 0;
  #epoch = sessionEpoch;

  constructor(connection: DuckDBConnection, limits: StatementCacheLimits = {}) {
    this.#connection = connection;
    this.#capacity = limits.maxEntries ?? DEFAULT_CAPACITY;
    this.#maxBytes = limits.maxBytes ?? ENGINE_STATEMENT_BYTES;
    this.#maxLiteral = limits.maxLiteralBytes ?? MAX_LITERAL_BYTES;
  }

  /** Statements held (tests). */
  get size(): number {
    return this.#entries.size;
  }

  /** Text bytes of the statements held. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The statement for `sql` with `values` bound, prepared now if it is not cached. Undefined when it
   * cannot be reused: the values do not match its parameters (a missing one must fail as before, not
   * reuse an earlier binding), or DuckDB cannot prepare it (PIVOT expands to several statements; a
   * statement that is wrong fails the same way when the caller then runs it uncached). `lifted`
   * instead of `values`: the semantic layer's lifted values, each bound in its parameter's resolved type.
   */
  async bound(
    sql: string,
    values: readonly DuckDBValue[] | undefined,
    lifted?: readonly BoundParameter[],
  ): Promise<DuckDBPreparedStatement | undefined> {
    const entry = await this.#entry(sql);
    if (entry === undefined || entry.parameterCount !== ((lifted ?? values)?.length ?? 0)) return undefined;
    return this.#bind(entry, values, lifted);
  }

  #bind(
    entry: Entry,
    values: readonly DuckDBValue[] | undefined,
    lifted: readonly BoundParameter[] | undefined,
  ): DuckDBPreparedStatement {
    if (lifted !== undefined) bindLiftedTyped(entry.statement, (entry.binders ??= bindersOf(entry.statement)), lifted);
    else if (values !== undefined) entry.statement.bind(values as DuckDBValue[]);
    return entry.statement;
  }

  /**
   * `bound` without a wait when `sql` is already prepared here: the statement with `values` bound, or
   * undefined when it is not cached (or cannot take these values; `bound` then says the same).
   */
  boundIfCached(
    sql: string,
    values: readonly DuckDBValue[] | undefined,
    lifted?: readonly BoundParameter[],
  ): DuckDBPreparedStatement | undefined {
    if (this.#epoch !== sessionEpoch) return undefined;
    const entry = this.#entries.get(sql);
    if (entry === undefined || entry.parameterCount !== ((lifted ?? values)?.length ?? 0)) return undefined;
    this.#touch(sql, entry);
    return this.#bind(entry, values, lifted);
  }

  /**
   * The statement for `sql` prepared now (one kept before is dropped), unbound; undefined as for
   * `bound`. For reading its parameter types: DuckDB binds a kept statement again after a catalog
   * change, but it keeps reporting (and the entry keeps binding for) the types of its first prepare
   * (a BIGINT column redefined as DECIMAL(10,1): still BIGINT). A fresh prepare reports the types
   * the statement runs with now, and its binders are made from those.
   */
  async preparedAfresh(sql: string): Promise<DuckDBPreparedStatement | undefined> {
    this.forget(sql);
    return (await this.#entry(sql))?.statement;
  }

  /**
   * The parameter types DuckDB resolves for `sql` now (SqlSession.parameterTypes: asked once per shape
   * and catalog generation): from its statement prepared afresh (`preparedAfresh`) and kept for the
   * run; undefined when DuckDB cannot prepare it or type a parameter.
   */
  async parameterTypes(sql: string): Promise<string[] | undefined> {
    const cached = await this.preparedAfresh(sql);
    const statement = cached ?? (await this.#connection.prepare(sql).catch(() => undefined));
    if (statement === undefined) return undefined;
    try {
      return parameterTypesOf(statement).map((type) => type.toString());
    } catch {
      return undefined; // a parameter DuckDB could not type
    } finally {
      if (cached === undefined) statement.destroySync();
    }
  }

  async #entry(sql: string): Promise<Entry | undefined> {
    if (this.#epoch !== sessionEpoch) this.clear();
    let entry = this.#entries.get(sql);
    if (entry === undefined) {
      const bytes = Buffer.byteLength(sql);
      // Too big to keep, or carrying a value: run it uncached (prepared and destroyed by the caller).
      if (bytes > this.#maxBytes || carriesLongLiteral(sql, this.#maxLiteral)) return undefined;
      const epoch = this.#epoch;
      let statement: DuckDBPreparedStatement;
      try {
        statement = await this.#connection.prepare(sql);
        processPrepares++;
      } catch {
        return undefined;
      }
      entry = { statement, parameterCount: statement.parameterCount, bytes };
      notePreparedText(statement, sql); // its results may start from the plan of this text on another connection
      // A session change while preparing: the statement may be bound to the old session.
      if (epoch !== sessionEpoch) {
        statement.destroySync();
        return undefined;
      }
      this.#entries.set(sql, entry);
      this.#newest = sql;
      this.#bytes += bytes;
      processBytes += bytes;
      while (this.#entries.size > this.#capacity || this.#bytes > this.#maxBytes) this.#evictOldest();
    } else this.#touch(sql, entry);
    return entry;
  }

  /**
   * Most recently used last (a Map iterates in insertion order). Not moved when it is last already
   * (a query run again): a delete and set per query would make V8 rebuild the table every few queries.
   */
  #touch(sql: string, entry: Entry): void {
    if (this.#newest === sql) return;
    this.#entries.delete(sql);
    this.#entries.set(sql, entry);
    this.#newest = sql;
  }

  /** Drops the statement for `sql` (its execution failed: prepare it afresh next time). */
  forget(sql: string): void {
    const entry = this.#entries.get(sql);
    if (entry === undefined) return;
    this.#entries.delete(sql);
    if (this.#newest === sql) this.#newest = undefined;
    this.#bytes -= entry.bytes;
    processBytes -= entry.bytes;
    entry.statement.destroySync();
  }

  clear(): void {
    for (const entry of this.#entries.values()) entry.statement.destroySync();
    this.#entries.clear();
    this.#newest = undefined;
    processBytes -= this.#bytes;
    this.#bytes = 0;
    this.#epoch = sessionEpoch;
  }

  #evictOldest(): void {
    const oldest = this.#entries.keys().next();
    if (oldest.done !== true) this.forget(oldest.value);
  }
}
