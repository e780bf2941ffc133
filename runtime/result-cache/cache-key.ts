/**
 * The result cache's key: every input that can change a result. The cache is the engine's own, so
 * the engine is implied; the key adds the dialect, the compiled SQL, its parameters (typed: `1`,
 * `1n`, `"1"` and a Decimal `1` are four keys), the result mode (how the statement's columns become
 * the cursor's: their names by position) and the request's scope attributes (sorted, typed), so two
 * tenants never share an entry. Read modes (rows, `into`, Arrow) share one entry: they read the
 * same normalized values.
 */
import { Decimal } from "../values/decimal.js";
import type { QueryScope } from "./query-scope.js";

export interface CacheKeyParts {
  readonly dialect: string;
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /** The result's column names by position, when the request names them. */
  readonly columnNames?: readonly string[] | undefined;
  readonly scope?: QueryScope | undefined;
}

const SEPARATOR = "\u0000";

export function cacheKey(parts: CacheKeyParts): string {
  return queryKey(parts) + scopeKey(parts.scope);
}

/** The key's part that one compiled query always gives (everything but the scope). */
export function queryKey(parts: Omit<CacheKeyParts, "scope">): string {
  let key = parts.dialect + SEPARATOR + parts.sql + SEPARATOR;
  for (const parameter of parts.parameters) key += typed(parameter) + SEPARATOR;
  return key + SEPARATOR + (parts.columnNames === undefined ? "" : JSON.stringify(parts.columnNames)) + SEPARATOR;
}

/** The key's part that the request's scope adds (empty without one). */
export function scopeKey(scope: QueryScope | undefined): string {
  if (scope === undefined) return "";
  let key = "";
  for (const name of Object.keys(scope).sort()) key += JSON.stringify(name) + "=" + typed(scope[name]) + SEPARATOR;
  return key;
}

/**
 * Whether a parameter can never change after the query was compiled: a primitive or a Decimal. A
 * Date, a byte array, a list or an object can be changed in place by the caller, and the next run
 * of the same compiled query then binds the new value, so its key must be read again.
 */
export function isImmutableParameter(value: unknown): boolean {
  return (typeof value !== "object" && typeof value !== "function") || value === null || Decimal.isDecimal(value);
}

/** A value with its type, so values that print alike stay apart. */
function typed(value: unknown): string {
  switch (typeof value) {
    case "string":
      return "s" + JSON.stringify(value);
    case "number":
      return "n" + (Object.is(value, -0) ? "-0" : String(value));
    case "bigint":
      return "b" + String(value);
    case "boolean":
      return value ? "t" : "f";
    case "undefined":
      return "u";
    default:
      break;
  }
  if (value === null) return "z";
  if (value instanceof Date) return "d" + String(value.getTime());
  if (Decimal.isDecimal(value)) return "m" + value.toString();
  if (ArrayBuffer.isView(value))
    return "x" + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  if (Array.isArray(value)) return "[" + value.map(typed).join(",") + "]";
  return "o" + JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}
