/**
 * A connection's rewritten semantic statements (statement text → plain SQL, with the where_clause
 * values bound when they were lifted, and for a streamed one whether a materialization answers it:
 * the one per-text cache of a connection) and where_clause shapes (shape text → its SQL and the types
 * DuckDB resolved for its parameters; null: a shape that cannot be bound). Valid while the committed
 * catalog is unchanged (the definitions' generation); released on close with the connection's memo.
 */
import type { DefinitionCache } from "./definition-cache.js";
import { LruCache, stringBytes } from "./lru-cache.js";
import type { BoundParameter, LiftedBinder, LiftedStatement, SemanticRequest } from "./semantic-layer.js";

export interface RewrittenStatement {
  readonly kind: "rewritten";
  readonly sql: string;
  readonly parameters?: readonly BoundParameter[];
  readonly servedFrom?: "materialization";
}

interface Entry {
  readonly generation: number;
  readonly statement: RewrittenStatement;
  /** The request its routing (`servedFrom`) was decided for; undefined: not routed. */
  readonly request: SemanticRequest | undefined;
}

/** The same request (a query compiled again gives an equal, not the same, object). */
function sameRequest(a: SemanticRequest | undefined, b: SemanticRequest | undefined): boolean {
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

/** A where_clause shape's rewrite, its parameters' types, and its binding plan (a binder per parameter, made once). */
export interface StatementShape {
  readonly sql: string;
  readonly types: readonly string[];
  readonly binders: readonly LiftedBinder[];
  /**
   * The lifted form bound into it last, with its statement: a compiled query run again binds nothing
   * anew (one slot per shape, no entry per new value).
   */
  last?: { readonly lifted: LiftedStatement; readonly statement: RewrittenStatement };
}

/** What a shape's remembered value lists may keep (call/literal-form.ts stays within it). */
export const SIGHTING_BYTES = 18 * 1024;

const parameterBytes = (parameters: readonly BoundParameter[] | undefined): number =>
  (parameters ?? []).reduce((sum, p) => sum + 32 + (p.kind === "varchar" ? stringBytes(p.value) : 0), 0);

export class RewriteCache {
  // Statements carry their filter values: bounded by bytes too (8 MB per connection, shapes 4 MB).
  readonly #entries = new LruCache<string, Entry>({
    maxEntries: 256,
    maxBytes: 8 * 1024 * 1024,
    sizeOf: (text, entry) =>
      stringBytes(text) + stringBytes(entry.statement.sql) + parameterBytes(entry.statement.parameters),
  });
  readonly #shapes = new LruCache<string, { readonly generation: number; readonly shape: StatementShape | null }>({
    maxEntries: 128,
    maxBytes: 4 * 1024 * 1024,
    // A shape's SQL is kept twice: as itself and cut into its literal form (call/literal-form.ts); per
    // parameter its type text and binder.
    sizeOf: (text, { shape }) =>
      stringBytes(text) + (shape === null ? 0 : 2 * stringBytes(shape.sql) + 64 * shape.types.length + SIGHTING_BYTES),
  });

  constructor(readonly definitions: DefinitionCache) {}

  /** The statement's rewrite, however it was routed. */
  get(statement: string): RewrittenStatement | undefined {
    const entry = this.#entries.get(statement);
    return entry !== undefined && entry.generation === this.definitions.generation ? entry.statement : undefined;
  }

  /** The statement's rewrite routed for `request` (undefined: a statement streamed without one). */
  getRouted(statement: string, request: SemanticRequest | undefined): RewrittenStatement | undefined {
    const entry = this.#entries.get(statement);
    if (entry === undefined || entry.generation !== this.definitions.generation) return undefined;
    return sameRequest(entry.request, request) ? entry.statement : undefined;
  }

  set(statement: string, rewritten: RewrittenStatement, readAt: number, routedFor?: SemanticRequest): void {
    if (readAt === this.definitions.generation)
      this.#entries.set(statement, { generation: readAt, statement: rewritten, request: routedFor });
  }

  /** The shape's SQL and parameter types; null: known not to bind; undefined: not seen. */
  shape(text: string): StatementShape | null | undefined {
    const entry = this.#shapes.get(text);
    return entry !== undefined && entry.generation === this.definitions.generation ? entry.shape : undefined;
  }

  setShape(text: string, shape: StatementShape | null, readAt: number): void {
    if (readAt === this.definitions.generation) this.#shapes.set(text, { generation: readAt, shape });
  }
}
