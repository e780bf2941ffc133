/**
 * Who hears that a DuckDB database may have changed through the library: a commit (data or DDL,
 * semantic DDL included), a statement that changes the session (SET, USE, ATTACH, ...), a database
 * file replaced under the engine. Result caches subscribe (`Driver.watchChanges`). A database file
 * has one feed per resolved path, shared by every engine on it, so a commit through one engine
 * invalidates another's cache; an in-memory database is private to its engine's driver.
 */
import { resolve } from "node:path";

export class ChangeFeed {
  readonly #listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    const entry = (): void => listener(); // one entry per subscription, even for the same function
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** Tells every listener; a listener's own failure never fails the commit that caused it. */
  notify(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // a cache that cannot invalidate must not break the statement
      }
    }
  }
}

const fileFeeds = new Map<string, ChangeFeed>();

/** The feed of the database file at `path` (resolved, so `./a.duckdb` and its absolute path share one). */
export function fileChangeFeed(path: string): ChangeFeed {
  const key = resolve(path);
  let feed = fileFeeds.get(key);
  if (feed === undefined) fileFeeds.set(key, (feed = new ChangeFeed()));
  return feed;
}
