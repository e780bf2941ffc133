/**
 * The built-in semantic layer's side of one DuckDB connection: the `SqlSession` the layer reads
 * the catalog through (same connection, same transaction, DuckDB values un-normalized), and the
 * routing of semantic-view statements to the layer for `execute()` and `stream()`.
 */
import type { DuckDBResultReader, DuckDBValue } from "@duckdb/node-api";
import type { QueryResult } from "../../driver/query-result.js";
import type { SemanticRequestInfo } from "../../driver/database-connection.js";
import { loadDefinition } from "../../semantic/catalog.js";
import { routeToMaterialization } from "../../semantic/expand/materialization.js";
import { ProgrammingError } from "../../errors.js";
import type { DefinitionCache } from "../../semantic/definition-cache.js";
import type {
  BoundParameter,
  LiftedStatement,
  RawColumn,
  SemanticLayer,
  SqlSession,
} from "../../semantic/semantic-layer.js";
import { EMPTY_RESULT, normalizeRawResult } from "./duckdb-results.js";
import { isReadOnlyStatement } from "./duckdb-statements.js";
import type { DuckDBTransaction } from "./duckdb-transaction.js";
import { toDuckDBParameters } from "./duckdb-values.js";
import { LruCache, stringBytes } from "../../semantic/lru-cache.js";

/** What the session needs from its connection. */
export interface SemanticSessionHost {
  readonly transaction: DuckDBTransaction;
  /** The layer's per-connection memo (see SqlSession.memo). */
  readonly memo: Map<string, unknown>;
  readonly definitions: DefinitionCache;
  /**
   * Runs the layer's own SQL, exactly one statement (it carries user-influenced text: never through a
   * multi-statement call), and reads its whole result (an autocommit read may reuse a prepared statement).
   */
  readAll(sql: string, values: DuckDBValue[] | undefined, autocommitRead: boolean): Promise<DuckDBResultReader>;
  /** Runs plain DuckDB SQL with the connection's transaction bookkeeping. */
  executePlain(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult>;
  /**
   * Runs a rewritten semantic statement: exactly one statement, never split or run as a script; with
   * `bound` (the where_clause values the layer lifted) instead of the caller's parameters when given.
   */
  executeRewritten(
    sql: string,
    parameters: readonly unknown[] | undefined,
    bound: readonly BoundParameter[] | undefined,
  ): Promise<QueryResult>;
  /** SqlSession.parameterTypes, answered by preparing `sql` (kept for its run). */
  parameterTypes(sql: string): Promise<readonly string[] | undefined>;
  assertOpen(): void;
  throwIfInterrupted(): void;
}

/** The one statement `stream()` runs for a semantic query, and whether a materialization answers it. */
export interface StreamRoute {
  readonly statement: string;
  /** A rewritten call: it must run as exactly one statement (duckdb-one-statement.ts). */
  readonly single: boolean;
  readonly servedFrom?: "materialization" | undefined;
  /** The where_clause values the layer lifted out of the statement, to bind with their own types. */
  readonly bound?: readonly BoundParameter[] | undefined;
}

interface RouteEntry {
  /** The committed catalog's generation it was read under. */
  readonly generation: number;
  readonly request: SemanticRequestInfo | undefined;
  readonly route: StreamRoute;
}

const STREAM_ROUTES = "duckdb.stream-routes";

/** The same request (a query compiled again gives an equal, not the same, object). */
function sameRequest(a: SemanticRequestInfo | undefined, b: SemanticRequestInfo | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.view === b.view &&
    a.filtered === b.filtered &&
    same(a.dimensions, b.dimensions) &&
    same(a.metrics, b.metrics) &&
    same(a.facts, b.facts)
  );
}

export class DuckDBSemanticSession {
  readonly #layer: SemanticLayer;
  readonly #host: SemanticSessionHost;
  readonly #session: SqlSession;

  constructor(layer: SemanticLayer, host: SemanticSessionHost) {
    this.#layer = layer;
    this.#host = host;
    this.#session = {
      query: (sql, parameters) => this.#rawQuery(sql, parameters),
      memo: host.memo,
      // Committed definitions serve only a session that sees exactly the committed state.
      get definitions() {
        return host.transaction.open ? undefined : host.definitions;
      },
      parameterTypes: (sql) => host.parameterTypes(sql),
      checkpoint: async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        host.throwIfInterrupted();
      },
    };
  }

  /** Whether `sql` may be a semantic-view statement (a cheap check before the layer parses it). */
  mayHandle(sql: string): boolean {
    return this.#layer.mayHandle(sql);
  }

  async execute(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    const statements = this.#layer.splitStatements(sql);
    if (parameters !== undefined && parameters.length > 0 && statements.length > 1) {
      throw new ProgrammingError(`Parameters are only allowed with a single statement (got ${statements.length})`);
    }
    let last = EMPTY_RESULT;
    const bindValues = parameters === undefined || parameters.length === 0;
    for (const statement of statements) {
      const handled = await this.#layer.handle(this.#session, statement, { bindValues });
      switch (handled.kind) {
        case "passthrough":
          last = await this.#host.executePlain(statement, parameters);
          break;
        case "rewritten":
          last = await this.#host.executeRewritten(handled.sql, parameters, handled.parameters);
          break;
        case "result":
          last = normalizeRawResult(handled.columns, handled.rows);
          break;
      }
    }
    return last;
  }

  /**
   * What `stream()` reads: the layer's whole answer, or the one statement to stream from DuckDB
   * (`single` when the layer rewrote it: it must run as exactly one statement); with the semantic
   * request it was compiled from, whether the layer answers it from a materialization. `bindValues`:
   * the caller has no parameters of its own (see SemanticLayer.handle).
   */
  async forStream(
    sql: string,
    request: SemanticRequestInfo | undefined,
    bindValues: boolean,
    lifted?: LiftedStatement,
  ): Promise<{ readonly result: QueryResult } | StreamRoute> {
    if (lifted !== undefined && bindValues) {
      // A compiled query (one statement) whose values its compiler lifted: the layer looks its shape up.
      const handled = await this.#layer.handle(this.#session, sql, { bindValues, lifted });
      if (handled.kind === "rewritten" && handled.parameters !== undefined) {
        return { statement: handled.sql, single: true, servedFrom: undefined, bound: handled.parameters };
      }
    }
    // Routes are remembered only for statements whose where_clause values the layer may bind (the
    // caller has no parameters of its own): then the route, bound values included, follows from the text.
    const routes = bindValues ? this.#routes() : undefined;
    const known = routes?.get(sql);
    const readAt = this.#host.definitions.generation;
    if (known !== undefined && known.generation === readAt && sameRequest(known.request, request)) return known.route;
    const statements = this.#layer.splitStatements(sql);
    if (statements.length !== 1) {
      throw new ProgrammingError(`stream() takes exactly one statement, got ${statements.length}`);
    }
    const handled = await this.#layer.handle(this.#session, statements[0]!, { bindValues });
    if (handled.kind === "result") return { result: normalizeRawResult(handled.columns, handled.rows) };
    if (handled.kind === "passthrough") return { statement: statements[0]!, single: false };
    const routed = request !== undefined && (await this.#routesToMaterialization(request));
    const route: StreamRoute = Object.freeze({
      statement: handled.sql,
      single: true,
      servedFrom: routed ? "materialization" : undefined,
      bound: handled.parameters,
    });
    routes?.set(sql, { generation: readAt, request, route });
    return route;
  }

  /**
   * What a semantic query streamed on this connection was rewritten to and where it is answered
   * from, so running it again skips splitting, the layer's lookups and the routing. Kept in the
   * connection's memo (cleared by USE/SET and the like, as the layer's own rewrite cache is) and
   * only outside a transaction; an entry counts only under the committed catalog it was read from.
   */
  #routes(): LruCache<string, RouteEntry> | undefined {
    const host = this.#host;
    if (host.transaction.open) return undefined;
    let routes = host.memo.get(STREAM_ROUTES) as LruCache<string, RouteEntry> | undefined;
    if (routes === undefined) {
      routes = new LruCache<string, RouteEntry>({
        maxEntries: 256,
        maxBytes: 8 * 1024 * 1024,
        // Bound values come from the literals of the key's text: counting the key again bounds them.
        sizeOf: (sql, entry) =>
          stringBytes(sql) * (entry.route.bound === undefined ? 1 : 2) + stringBytes(entry.route.statement),
      });
      host.memo.set(STREAM_ROUTES, routes);
    }
    return routes;
  }

  /**
   * Whether the layer answered `request` from a declared materialization: the layer's own routing
   * rule, asked of the same definition it expanded (read from the shared, committed definitions).
   */
  async #routesToMaterialization(request: SemanticRequestInfo): Promise<boolean> {
    if (request.filtered || request.facts.length > 0) return false;
    const def = await loadDefinition(this.#session, request.view).catch(() => undefined);
    if (def === undefined || (def.materializations ?? []).length === 0) return false;
    const { dimensions, metrics, facts } = request;
    return routeToMaterialization(def, { dimensions, metrics, facts }) !== undefined;
  }

  /** The layer's caches for this session (probes holding whole statements) go with the connection. */
  release(): void {
    this.#layer.release?.(this.#session);
  }

  /** The layer's raw access: same connection, same transaction, DuckDB values un-normalized. */
  async #rawQuery(sql: string, parameters?: readonly unknown[]): Promise<{ columns: RawColumn[]; rows: unknown[][] }> {
    const host = this.#host;
    host.assertOpen();
    host.throwIfInterrupted();
    const values = toDuckDBParameters(parameters);
    const reader =
      !host.transaction.open && isReadOnlyStatement(sql)
        ? await host.readAll(sql, values, true)
        : await host.transaction.withTransaction(() => host.readAll(sql, values, false));
    const columns = reader.columnTypes().map((type, i) => ({ name: reader.columnName(i), type: type.toString() }));
    return { columns, rows: reader.getRows() };
  }
}
