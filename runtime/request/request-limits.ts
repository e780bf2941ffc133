/**
 * What one request may ask for. Every bound has a default, so a front door is safe without
 * configuration; each can be raised or lowered per server. A request over a bound is refused
 * (naming the bound) before any SQL exists.
 */
import { ValidationError } from "../errors.js";
import { closestName } from "../text/suggest.js";

export interface RequestLimits {
  /** Largest request body in bytes (HTTP POST, MCP arguments). Default 64 KiB. */
  readonly maxBodyBytes: number;
  /** Most metrics + dimensions + facts in one request. Default 50. */
  readonly maxMembers: number;
  /** Deepest nesting of `and`/`or`/`not` in `where`. Default 8. */
  readonly maxConditionDepth: number;
  /** Most comparisons in `where` (leaves of the tree, scope conditions not counted). Default 100. */
  readonly maxConditions: number;
  /** Longest `in`/`notIn` list. Default 1,000. */
  readonly maxInList: number;
  /** Most `orderBy` entries. Default 10. */
  readonly maxOrderBy: number;
  /**
   * Most rows in one JSON answer (and the largest `limit` a JSON request may give); a result with more
   * rows is cut there with `truncated: true` and a `next` request that continues. Default 10,000.
   */
  readonly maxRows: number;
  /**
   * Most rows a streamed answer (NDJSON, Arrow) carries; streams keep memory flat, so the default is
   * no bound (`Infinity`). A stream cut by it says so in its trailer.
   */
  readonly maxStreamRows: number;
  /** Largest `offset`. Default 10,000,000. */
  readonly maxOffset: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = Object.freeze({
  maxBodyBytes: 64 * 1024,
  maxMembers: 50,
  maxConditionDepth: 8,
  maxConditions: 100,
  maxInList: 1_000,
  maxOrderBy: 10,
  maxRows: 10_000,
  maxStreamRows: Number.POSITIVE_INFINITY,
  maxOffset: 10_000_000,
});

/** The defaults with `overrides` applied; each override must be a positive integer (`maxStreamRows` may be Infinity). */
export function resolveLimits(overrides: Partial<RequestLimits> = {}): RequestLimits {
  const limits: Record<string, number> = { ...DEFAULT_REQUEST_LIMITS };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_REQUEST_LIMITS, name)) {
      const suggestion = closestName(name, Object.keys(DEFAULT_REQUEST_LIMITS));
      throw new ValidationError(
        `limits: unknown limit "${name}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (known: ${Object.keys(DEFAULT_REQUEST_LIMITS).join(", ")})`,
        {
          source: "limits",
          field: name,
        },
      );
    }
    const infinite = name === "maxStreamRows" && value === Number.POSITIVE_INFINITY;
    if (!infinite && (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)) {
      throw new ValidationError(`limits.${name}: expected a positive integer, got ${String(value)}`, {
        source: "limits",
        field: name,
      });
    }
    limits[name] = value;
  }
  return Object.freeze(limits) as unknown as RequestLimits;
}

/** `{ name, value }` of one limit, for an issue that names it. */
export function limitOf(limits: RequestLimits, name: keyof RequestLimits): { name: string; value: number } {
  return { name, value: limits[name] };
}
