/**
 * The built-in semantic layer for DuckDB: executes semantic DDL, INSTALL/LOAD semantic_views,
 * SHOW and DESCRIBE itself; rewrites introspection function calls and `semantic_view(...)` calls
 * into plain SQL; passes everything else through untouched.
 *
 * Unlike the extension (which reads on a fresh connection), every read here runs on the caller's
 * session, so it sees the caller's uncommitted DDL and rows.
 */
import { sessionCatalog } from "./catalog.js";
import {
  executeAlter,
  executeCreate,
  executeCreateFromYamlFile,
  executeDrop,
  type StatementResult,
} from "./ddl/execute-ddl.js";
import { NEAR_MISS_CANDIDATE } from "./ddl/near-miss.js";
import { parseSemanticStatement } from "./ddl/parse-statement.js";
import type { SemanticStatement } from "./ddl/statements.js";
import {
  executeDescribe,
  executeShowColumns,
  executeShowMembers,
  executeShowViews,
} from "./introspection/execute-introspection.js";
import { rewriteIntrospectionCalls } from "./introspection/rewrite-introspection-calls.js";
import { rewriteSemanticViewCalls } from "./call/rewrite-semantic-view-calls.js";
import { releaseSemanticQueryCache } from "./call/typed-query.js";
import type { HandledStatement, SemanticLayer, SqlSession } from "./semantic-layer.js";
import { mayHandle, splitStatements } from "./sql/split.js";
import type { DefinitionCache } from "./definition-cache.js";
import { LruCache, stringBytes } from "./lru-cache.js";

/** Executes a parsed semantic statement. */
export async function executeSemanticStatement(session: SqlSession, stmt: SemanticStatement): Promise<StatementResult> {
  switch (stmt.type) {
    case "create":
      return executeCreate(session, stmt);
    case "create_from_yaml_file":
      return executeCreateFromYamlFile(session, stmt);
    case "drop":
      return executeDrop(session, stmt);
    case "alter":
      return executeAlter(session, stmt);
    case "extension":
      // The engine is built in: nothing to install or load.
      return { columns: [], rows: [] };
    case "show_views":
      return executeShowViews(session, stmt);
    case "show_members":
      return executeShowMembers(session, stmt);
    case "show_columns":
      return executeShowColumns(session, stmt);
    case "describe":
      return executeDescribe(session, stmt);
  }
}

const SEMANTIC_VIEW_CALL = /\bsemantic_view\s*\(/i;

/** Semantic SQL, or a statement that may be misspelled semantic DDL (answered with "Did you mean"). */
const mayHandleAny = (sql: string): boolean => mayHandle(sql) || NEAR_MISS_CANDIDATE.test(sql);

async function handle(session: SqlSession, statement: string): Promise<HandledStatement> {
  if (!mayHandleAny(statement)) return { kind: "passthrough" };
  const rewrites = rewriteCacheOf(session);
  const cached = rewrites?.get(statement);
  if (cached !== undefined) return { kind: "rewritten", sql: cached };
  const readAt = session.definitions?.generation;
  const parsed = parseSemanticStatement(statement);
  if (parsed !== null) {
    const result = await executeSemanticStatement(session, parsed);
    return { kind: "result", columns: result.columns, rows: result.rows };
  }
  let sql = statement;
  let changed = false;
  if (SEMANTIC_VIEW_CALL.test(sql)) {
    const rewritten = await rewriteSemanticViewCalls(session, sql, sessionCatalog(session));
    if (rewritten !== null) {
      sql = rewritten;
      changed = true;
    }
  }
  const introspected = await rewriteIntrospectionCalls(session, sql);
  if (introspected !== null) {
    sql = introspected;
    changed = true;
  }
  if (!changed) return { kind: "passthrough" };
  if (readAt !== undefined) rewrites?.set(statement, sql, readAt);
  return { kind: "rewritten", sql };
}

const REWRITES = "semantic_layer.rewrites";

/**
 * Rewritten statements of this connection (the memo: temp tables and the session context are the
 * connection's own; USE/SET clear it), valid while the committed catalog is unchanged: usable only
 * outside a transaction, and dropped by any commit in the process (the definitions' generation).
 */
function rewriteCacheOf(session: SqlSession): RewriteCache | undefined {
  const definitions = session.definitions;
  if (definitions === undefined || session.memo === undefined) return undefined;
  let cache = session.memo.get(REWRITES) as RewriteCache | undefined;
  if (cache === undefined) session.memo.set(REWRITES, (cache = new RewriteCache(definitions)));
  return cache;
}

class RewriteCache {
  // Statements carry their filter values: bounded by bytes too (8 MB per connection; released on close with the memo).
  readonly #entries = new LruCache<string, { readonly generation: number; readonly sql: string }>({
    maxEntries: 256,
    maxBytes: 8 * 1024 * 1024,
    sizeOf: (statement, entry) => stringBytes(statement) + stringBytes(entry.sql),
  });
  constructor(readonly definitions: DefinitionCache) {}
  get(statement: string): string | undefined {
    const entry = this.#entries.get(statement);
    return entry !== undefined && entry.generation === this.definitions.generation ? entry.sql : undefined;
  }
  set(statement: string, sql: string, readAt: number): void {
    if (readAt === this.definitions.generation) this.#entries.set(statement, { generation: readAt, sql });
  }
}

export function createBuiltinSemanticLayer(): SemanticLayer {
  return { splitStatements, mayHandle: mayHandleAny, handle, release: releaseSemanticQueryCache };
}
