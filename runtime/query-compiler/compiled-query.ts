import type { SemanticQueryNode } from "../operation-node/semantic-query-node.js";

/** A query compiled for one dialect: SQL text plus its bound parameters (frozen). */
export interface CompiledQuery {
  readonly sql: string;
  /**
   * Positional `?` parameters (backends A and B); always empty on backend C, which inlines literals.
   * Typed `unknown[]` as the public API documents it (so it can be handed to drivers that take a mutable array);
   * the array is frozen at runtime.
   */
  readonly parameters: unknown[];
  /** The backend name it was compiled for (a key of DIALECTS). */
  readonly dialect: string;
  /** The semantic query it was compiled from. */
  readonly query: SemanticQueryNode;
}

/** Shared by every query without parameters (backend C's): it is frozen. */
const NO_PARAMETERS = Object.freeze([] as unknown[]) as unknown[];

/**
 * compile() is `{ sql, parameters }` (README "Build a query"). `dialect` and `query` stay readable but
 * are getters of the class, not own properties, so `deep.equal({ sql, parameters })`, spreading and
 * JSON see exactly those two. A class rather than two `Object.defineProperty` calls per query: a
 * query with a new filter value is compiled per request, and those calls were most of its cost.
 */
class FrozenCompiledQuery implements CompiledQuery {
  readonly sql: string;
  readonly parameters: unknown[];
  readonly #dialect: string;
  readonly #query: SemanticQueryNode;

  constructor(dialect: string, query: SemanticQueryNode, sql: string, parameters: unknown[]) {
    this.sql = sql;
    this.parameters = parameters;
    this.#dialect = dialect;
    this.#query = query;
    Object.freeze(this);
  }

  get dialect(): string {
    return this.#dialect;
  }

  get query(): SemanticQueryNode {
    return this.#query;
  }
}

export const CompiledQuery = Object.freeze({
  create(dialect: string, query: SemanticQueryNode, sql: string, parameters: readonly unknown[]): CompiledQuery {
    const frozen = parameters.length === 0 ? NO_PARAMETERS : (Object.freeze([...parameters]) as unknown[]);
    return new FrozenCompiledQuery(dialect, query, sql, frozen);
  },
});
