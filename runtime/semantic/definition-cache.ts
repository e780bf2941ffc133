/**
 * Committed semantic-view definitions, shared by every connection to one database instance, so a
 * semantic query does not read `semantic_layer._definitions` each time.
 *
 * Validity rests on two rules the DuckDB connection keeps:
 * - only a session outside a transaction uses the cache (it sees exactly the committed state; a
 *   session inside a transaction may hold uncommitted DDL or an older snapshot and reads the table);
 * - every connection on the instance calls `invalidate()` just before and just after each COMMIT
 *   (any committed write may have changed the catalog), so an entry read before a commit finished
 *   is never stored under the generation that follows it.
 * A DuckDB file is opened by one process for writing (readers in other processes cannot coexist
 * with a writer), so writes made by other processes cannot go unseen. Writes made outside lib (a raw
 * driver connection on the same instance) are not seen until the next commit through lib.
 */
import type { SemanticViewDefinition } from "./view-definition.js";
import { LruCache } from "./lru-cache.js";

/** One stored row for a view name: its schema and the parsed definition (undefined: foreign JSON). */
export interface StoredCandidate {
  readonly schema: string;
  readonly name: string;
  readonly definition: SemanticViewDefinition | undefined;
}

/** Distinct (database, view name) keys kept; a miss costs one catalog read. */
const CAPACITY = 512;

export class DefinitionCache {
  #generation = 0;
  readonly #entries = new LruCache<
    string,
    { readonly generation: number; readonly candidates: readonly StoredCandidate[] }
  >(CAPACITY);

  /** Read this before reading the catalog and pass it to `set()`. */
  get generation(): number {
    return this.#generation;
  }

  get(key: string): readonly StoredCandidate[] | undefined {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.generation === this.#generation ? entry.candidates : undefined;
  }

  /** Stores what was read at `readAt`; dropped when a commit happened since. */
  set(key: string, candidates: readonly StoredCandidate[], readAt: number): void {
    if (readAt !== this.#generation) return;
    this.#entries.set(key, { generation: readAt, candidates: Object.freeze(candidates.map(freezeCandidate)) });
  }

  /** Something may have changed the committed catalog. */
  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

const caches = new WeakMap<object, DefinitionCache>();

/** The cache of one database instance (any object that identifies it, e.g. the `DuckDBInstance`). */
export function definitionCacheFor(instance: object): DefinitionCache {
  let cache = caches.get(instance);
  if (cache === undefined) caches.set(instance, (cache = new DefinitionCache()));
  return cache;
}

/** Shared between connections, so nobody may change a cached definition in place. */
function freezeCandidate(candidate: StoredCandidate): StoredCandidate {
  return Object.freeze({
    ...candidate,
    definition: candidate.definition === undefined ? undefined : deepFreeze(candidate.definition),
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
