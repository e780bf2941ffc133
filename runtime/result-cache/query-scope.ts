/**
 * Scope attributes of a request: what makes two otherwise identical queries different answers for
 * the result cache (a tenant, a user's row-level-security role). They are part of every cache key,
 * so two scopes never share an entry. A caller passes them per query (`execute({ scope })`) or for
 * everything run inside a callback (`withQueryScope(scope, fn)`, an `AsyncLocalStorage`), which is
 * how a request front door scopes every query a handler runs without threading an argument.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ValidationError } from "../errors.js";

/** One attribute's value: a primitive, compared exactly (`1` and `"1"` are different scopes). */
export type QueryScopeValue = string | number | boolean | bigint | null;

/** Attribute name → value, e.g. `{ tenant: "acme", role: "analyst" }`. */
export type QueryScope = Readonly<Record<string, QueryScopeValue>>;

const storage = new AsyncLocalStorage<QueryScope>();

/**
 * Runs `fn` with `scope` added to every query it executes (also in its awaited continuations).
 * Nested calls add to the outer scope; an inner attribute of the same name replaces the outer one.
 */
export function withQueryScope<T>(scope: QueryScope, fn: () => T): T {
  const checked = checkScope(scope, "withQueryScope(scope)");
  const outer = storage.getStore();
  return storage.run(outer === undefined ? checked : Object.freeze({ ...outer, ...checked }), fn);
}

/** The scope `withQueryScope` set for the running code, if any. */
export function currentQueryScope(): QueryScope | undefined {
  return storage.getStore();
}

/** A frozen copy of `scope` once every attribute is a primitive; else a ValidationError naming it. */
export function checkScope(scope: unknown, where: string): QueryScope {
  if (typeof scope !== "object" || scope === null || Array.isArray(scope)) {
    throw new ValidationError(`${where}: scope must be an object of attributes such as { tenant: "acme" }`, {
      field: "scope",
    });
  }
  const out: Record<string, QueryScopeValue> = {};
  for (const [name, value] of Object.entries(scope)) {
    if (value === undefined) continue;
    const type = typeof value;
    if (value !== null && type !== "string" && type !== "number" && type !== "boolean" && type !== "bigint") {
      throw new ValidationError(
        `${where}: scope.${name} must be a string, number, boolean, bigint or null, got ${Array.isArray(value) ? "an array" : `a ${type}`}`,
        { field: `scope.${name}` },
      );
    }
    out[name] = value as QueryScopeValue;
  }
  return Object.freeze(out);
}
