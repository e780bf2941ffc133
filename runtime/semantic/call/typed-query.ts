/**
 * Output typing, as the extension does it: probe `<expanded> LIMIT 0` for the column types (read
 * from the prepared probe where the session can, without running it: SqlSession.describe), then
 * cast HUGEINT → BIGINT and UHUGEINT → UBIGINT (so `SUM(INTEGER)` arrives as BIGINT) and
 * ENUM/STRUCT/MAP → VARCHAR; DECIMAL keeps its width and scale. Probes are cached per session
 * (the driver keeps one session object per connection; the connections of one engine in its own
 * session state share theirs: SqlSession.sharedMemo) and (definition, request), so repeated
 * queries, and a new connection's first, skip the round trip. A definition is keyed by identity (definition-key.ts): the shared
 * definition cache hands out the same frozen object until a commit may have changed it. Keying by
 * session keeps two databases with the same definition but different column types apart (and each
 * database's definition is its own object); a table re-created with other types under an unchanged
 * view on the same connection would need clearSemanticQueryCache().
 *
 * A where_clause whose values were lifted into `$k` parameters (lift-where-values.ts) is probed with
 * every parameter NULL: the output columns never depend on the filter's values, so one probe serves
 * every value of the shape.
 */
import { expandSemanticQuery, type SemanticQueryRequest } from "../expand/expand.js";
import { routeToMaterialization } from "../expand/materialization.js";
import type { SemanticViewDefinition } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import type { RawColumn, SqlSession } from "../semantic-layer.js";
import { quoteIdent } from "../sql/quote.js";
import { LruCache, stringBytes } from "../lru-cache.js";
import { tokensOf } from "../sql/references.js";
import { definitionKey } from "./definition-key.js";

export interface TypedSemanticQuery {
  /** Plain DuckDB SQL producing the typed output columns. */
  readonly sql: string;
  /** The expansion before the output casts. */
  readonly expandedSql: string;
  /** Output columns with their final DuckDB types. */
  readonly columns: readonly RawColumn[];
  /** Per column, the type `sql` casts it to from `expandedSql`'s; undefined: kept. */
  readonly casts: readonly (string | undefined)[];
}

/**
 * Per session: at most 128 probes and 8 MB of text (key, typed and expanded SQL). A request whose
 * entry alone is over 8 MB (a huge where_clause) is not cached; its probe runs each time.
 */
const PER_SESSION = { maxEntries: 128, maxBytes: 8 * 1024 * 1024 } as const;
const entryBytes = (key: string, value: TypedSemanticQuery): number =>
  stringBytes(key) +
  stringBytes(value.sql) +
  (value.expandedSql === value.sql ? 0 : stringBytes(value.expandedSql)) +
  64 * value.columns.length;
let caches = new WeakMap<object, LruCache<string, TypedSemanticQuery>>();
const stats = { size: 0, hits: 0, misses: 0 };

/** The session's probes: shared by the sessions in one state (SqlSession.sharedMemo), else its own. */
function cacheFor(session: SqlSession): LruCache<string, TypedSemanticQuery> {
  const owner = session.sharedMemo ?? session;
  let cache = caches.get(owner);
  if (cache === undefined) caches.set(owner, (cache = new LruCache({ ...PER_SESSION, sizeOf: entryBytes })));
  return cache;
}

/** Probe-cache statistics since the last clear, over all sessions (for the benchmark and tests). */
export function semanticQueryCacheStats(): { size: number; hits: number; misses: number } {
  return { ...stats };
}

/** Forgets every cached probe. */
export function clearSemanticQueryCache(): void {
  caches = new WeakMap();
  stats.size = 0;
  stats.hits = 0;
  stats.misses = 0;
}

/** Forgets the probes cached for a session whose connection is closing (the engine's memory goes with it). */
export function releaseSemanticQueryCache(session: SqlSession): void {
  const cache = caches.get(session);
  if (cache === undefined) return;
  stats.size -= cache.size;
  caches.delete(session);
}

/** The type the extension hands out for a probed type, or undefined when it is kept. */
export function outputType(type: string): string | undefined {
  const t = type.trim();
  const upper = t.toUpperCase();
  if (upper === "HUGEINT" || upper === "INT128") return "BIGINT";
  if (upper === "UHUGEINT" || upper === "UINT128") return "UBIGINT";
  if (
    upper.startsWith("ENUM(") ||
    upper.startsWith("STRUCT(") ||
    upper.startsWith("MAP(") ||
    upper.startsWith("UNION(")
  ) {
    return "VARCHAR";
  }
  // LIST keeps its child type, with the same integer narrowing.
  const list = /^(HUGEINT|UHUGEINT)((?:\[\d*\])+)$/.exec(upper);
  if (list) return `${list[1] === "HUGEINT" ? "BIGINT" : "UBIGINT"}${list[2]}`;
  return undefined;
}

/** A member's YAML `output_type`, which overrides the probed type. */
function declaredType(def: SemanticViewDefinition, column: string | undefined): string | undefined {
  if (column === undefined) return undefined;
  const lower = column.toLowerCase();
  return [...def.dimensions, ...def.metrics, ...def.facts].find((m) => m.name.toLowerCase() === lower)?.outputType;
}

export async function typedSemanticQuery(
  session: SqlSession,
  def: SemanticViewDefinition,
  request: SemanticQueryRequest,
): Promise<TypedSemanticQuery> {
  const key =
    definitionKey(def) +
    "\u0000" +
    JSON.stringify([request.dimensions, request.metrics, request.facts, request.whereClause ?? ""]);
  const cache = cacheFor(session);
  const cached = cache.get(key);
  if (cached !== undefined) {
    stats.hits++;
    return cached;
  }
  stats.misses++;
  await session.checkpoint?.();
  const expanded = routeToMaterialization(def, request) ?? expandSemanticQuery(def, request);
  let probed: readonly RawColumn[];
  try {
    const probe = `SELECT * FROM (\n${expanded.sql}\n) AS __sv_probe LIMIT 0`;
    // The prepared probe's columns, without running it; run where it cannot be prepared on its own.
    const described = await session.describe?.(probe);
    if (described !== undefined) probed = described;
    else {
      const parameters = new Array<null>(placeholderCount(request.whereClause)).fill(null);
      probed = (await session.query(probe, parameters)).columns;
    }
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SemanticViewError(
      "execution",
      `semantic_view: type inference failed for query on semantic view '${def.name}': ${detail}\n(expanded SQL: ${expanded.sql})`,
      { cause: error },
    );
  }
  const casts = probed.map((c, i) => declaredType(def, expanded.columns[i]) ?? outputType(c.type));
  const columns = probed.map((c, i) => ({ name: expanded.columns[i] ?? c.name, type: casts[i] ?? c.type }));
  const sql = casts.every((c) => c === undefined)
    ? expanded.sql
    : `SELECT ${columns
        .map((c, i) =>
          casts[i] === undefined ? quoteIdent(c.name) : `${quoteIdent(c.name)}::${casts[i]} AS ${quoteIdent(c.name)}`,
        )
        .join(", ")}\nFROM (\n${expanded.sql}\n) AS __sv_inner`;
  const result: TypedSemanticQuery = Object.freeze({
    sql,
    expandedSql: expanded.sql,
    columns: Object.freeze(columns),
    casts: Object.freeze(casts),
  });
  const before = cache.size;
  cache.set(key, result);
  stats.size += cache.size - before;
  return result;
}

/** The highest `$k` in a where_clause (its lifted values), 0 when it has none. */
function placeholderCount(whereClause: string | undefined): number {
  if (whereClause === undefined || !whereClause.includes("$")) return 0;
  let count = 0;
  for (const t of tokensOf(whereClause)) {
    if (t.kind === "op" && /^\$\d+$/.test(t.text)) count = Math.max(count, Number(t.text.slice(1)));
  }
  return count;
}
