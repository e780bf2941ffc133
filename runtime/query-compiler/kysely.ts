/**
 * Kysely, loaded by the first query compiled rather than by `import "lib"` (../packages/on-first-use.ts).
 * Node factories are taken from `kysely()` where they are used. The compilers extend Kysely's
 * `DefaultQueryCompiler` through {@link KyselyQueryCompiler}, a stand-in base whose constructor loads
 * Kysely and builds the instance with the real class (its private fields included); from then on the
 * stand-in's prototype inherits from the real one, so every inherited method is Kysely's own.
 */
import type * as Kysely from "kysely";
import type { DefaultQueryCompiler } from "kysely";
import { onFirstUse } from "../packages/on-first-use.js";

export const kysely = onFirstUse<typeof Kysely>("kysely");

class DeferredDefaultQueryCompiler {
  constructor() {
    const { DefaultQueryCompiler: Real } = kysely();
    if (Object.getPrototypeOf(DeferredDefaultQueryCompiler.prototype) !== Real.prototype) {
      Object.setPrototypeOf(DeferredDefaultQueryCompiler.prototype, Real.prototype);
      Object.setPrototypeOf(DeferredDefaultQueryCompiler, Real);
    }
    // A constructor returning an object makes it `this` of the subclass: built by Kysely's
    // constructor, with the subclass's prototype.
    return Reflect.construct(Real, [], new.target) as DeferredDefaultQueryCompiler;
  }
}

/** Kysely's `DefaultQueryCompiler`, for `extends`, without loading Kysely until the first `new`. */
export const KyselyQueryCompiler = DeferredDefaultQueryCompiler as unknown as typeof DefaultQueryCompiler;
