/**
 * apache-arrow, loaded by the first `fetchArrow()` rather than at `import "lib"` (it is a large
 * module graph that most callers never use). `loadArrow()` loads it; `arrow()` is the loaded module
 * for the synchronous table-building code that runs after that.
 */
import type * as ArrowModule from "apache-arrow";

export type ArrowApi = typeof ArrowModule;

let loading: Promise<ArrowApi> | undefined;
let loaded: ArrowApi | undefined;

/**
 * Loads the copy of apache-arrow the caller's own `import "apache-arrow"` sees (Arrow ships separate
 * ESM and CommonJS builds, and a `Table` of one fails `instanceof` against the other): `import()` in
 * an ES module (the published build), `require` where the code runs transformed to CommonJS (the
 * test suite's tsx).
 */
export function loadArrow(): Promise<ArrowApi> {
  loading ??= (
    typeof require === "function" ? Promise.resolve(require("apache-arrow") as ArrowApi) : import("apache-arrow")
  ).then((api) => (loaded = api));
  return loading;
}

/** The module `loadArrow()` loaded. */
export function arrow(): ArrowApi {
  if (loaded === undefined) throw new Error("apache-arrow is used before loadArrow() resolved");
  return loaded;
}
