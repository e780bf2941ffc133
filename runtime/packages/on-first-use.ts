/**
 * Dependencies that only some calls need are loaded by the first such call, not by `import "lib"`
 * (TypeBox by `into()` and the schema helpers, Kysely by the first query compiled): an application
 * that only runs queries, or only compiles them, does not pay for the rest at startup. The load is
 * synchronous because those calls are (`toSql()`, `DecimalType()`). The package is resolved as
 * `import` resolves it and then required: `require` of an ES module (Node 20.19 and 22.12 onwards, the
 * versions `engines` names) returns the very instance `import` returns, so the application's own
 * `import "typebox"` or `import "kysely"` shares it (no second copy of a dual package).
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/**
 * The file `import` would load for `name`. Without `import.meta.resolve` (this module compiled to
 * CommonJS, as a test runner may do, where the runner's own imports are `require` too) the name
 * itself, so `require` picks what the other modules get.
 */
function entryOf(name: string): string {
  return typeof import.meta.resolve === "function" ? fileURLToPath(import.meta.resolve(name)) : name;
}

/** A function that returns the package `name`, requiring its entry on the first call. */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(entryOf(name)) as T);
}
