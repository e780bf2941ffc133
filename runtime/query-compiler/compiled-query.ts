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

export const CompiledQuery = Object.freeze({
  create(dialect: string, query: SemanticQueryNode, sql: string, parameters: readonly unknown[]): CompiledQuery {
    // compile() is `{ sql, parameters }` (README "Build a query"). `dialect` and `query` stay readable but are not
    // enumerable, so `deep.equal({ sql, parameters })`, spreading and JSON see exactly those two.
    const frozen = parameters.length === 0 ? NO_PARAMETERS : (Object.freeze([...parameters]) as unknown[]);
    const compiled = { sql, parameters: frozen } as CompiledQuery;
    // Two defineProperty calls: a third of defineProperties' cost (no descriptor map to walk).
    Object.defineProperty(compiled, "dialect", { value: dialect });
    Object.defineProperty(compiled, "query", { value: query });
    return Object.freeze(compiled);
  },
});
