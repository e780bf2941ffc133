/**
 * The shape of a warehouse's type table (one per dialect, `<warehouse>/<warehouse>-types.ts`): type
 * name → the `ValueKind` its values arrive as (README "How values arrive"). The driver classifies
 * result columns with it, codegen classifies introspected columns with it, and the kind decides what
 * codegen emits and what `into()` agrees with (`KIND_TYPINGS`, `mapping/kind-typings.ts`). Written down once, so the three
 * cannot drift apart again (issue 11: codegen typed a DuckDB UUID `string`, the driver `other`).
 */
import type { ValueKind } from "../driver/query-result.js";

/**
 * A fixed-point type such as NUMBER(p,s) or DECIMAL(p,s): scale > 0 arrives as `Decimal`; scale 0
 * as `number` up to `narrowPrecision` digits, else `bigint`. Without parameters the warehouse's
 * default precision and scale apply; with a precision only, the scale is 0 (as in SQL).
 */
export interface FixedPointRule {
  readonly precision: number;
  readonly scale: number;
  readonly narrowPrecision: number;
}

export type TypeRule = ValueKind | { readonly fixedPoint: FixedPointRule };

export interface TypeTableInput {
  /** The warehouse, for messages and tests (`snowflake`, `databricks`, `duckdb`). */
  readonly warehouse: string;
  /** Upper-case type names and synonyms, without parameters. A name not listed arrives as `other`. */
  readonly types: Readonly<Record<string, TypeRule>>;
  /** Trailing words that do not change the type (backend B describes measures as `bigint measure`). */
  readonly ignoredSuffixes?: readonly string[];
}

export interface TypeTable extends TypeTableInput {
  /** How a column of this type text (`DECIMAL(38,2)`, `TIMESTAMP_NTZ(9)`, `INTEGER[]`) arrives. */
  kindOf(typeText: string): ValueKind;
}

/** A type text split into its upper-case base name (suffix words kept) and numeric parameters. */
export interface ParsedType {
  readonly base: string;
  readonly params: readonly number[];
}

/**
 * `DECIMAL(38, 2)` → `DECIMAL` [38, 2]; `TIMESTAMP WITH TIME ZONE` stays whole; `INTEGER[]` becomes
 * `INTEGER []`, which no table lists, so arrays are `other` like structs, maps and lists.
 */
export function parseTypeText(text: string): ParsedType {
  const trimmed = text.trim().toUpperCase();
  const match = /^([A-Z_][A-Z0-9_ ]*)\s*(?:\(([^)]*)\))?\s*(.*)$/.exec(trimmed);
  if (!match) return { base: trimmed, params: [] };
  const parts = (match[2] ?? "").split(",").map((p) => p.trim());
  // Numeric parameters only (`ENUM('a', 'b')` and `STRUCT(a INT)` have none worth reading).
  const params = parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : [];
  const base = [match[1]!, match[3]!]
    .map((s) => s.trim().replace(/\s+/g, " "))
    .filter((s) => s !== "")
    .join(" ");
  return { base, params };
}

function fixedPointKind(rule: FixedPointRule, params: readonly number[]): ValueKind {
  const precision = params[0] ?? rule.precision;
  const scale = params.length === 0 ? rule.scale : (params[1] ?? 0);
  if (scale > 0) return "decimal";
  return precision <= rule.narrowPrecision ? "integer" : "bigint";
}

function withoutSuffix(base: string, suffixes: readonly string[]): string {
  for (const suffix of suffixes) if (base.endsWith(` ${suffix}`)) return base.slice(0, -suffix.length - 1);
  return base;
}

/** Distinct type texts remembered per table (forgotten all at once beyond it: struct types can vary without end). */
const MAX_REMEMBERED_TYPES = 1_000;

export function defineTypeTable(input: TypeTableInput): TypeTable {
  const types = Object.freeze({ ...input.types });
  const suffixes = Object.freeze([...(input.ignoredSuffixes ?? [])]);
  const known = new Map<string, ValueKind>();
  const parsedKind = (typeText: string): ValueKind => {
    const { base, params } = parseTypeText(typeText);
    const name = withoutSuffix(base, suffixes);
    const rule = Object.hasOwn(types, name) ? types[name] : undefined;
    if (rule === undefined) return "other";
    return typeof rule === "string" ? rule : fixedPointKind(rule.fixedPoint, params);
  };
  return Object.freeze({
    warehouse: input.warehouse,
    types,
    ignoredSuffixes: suffixes,
    kindOf(typeText: string): ValueKind {
      // Every result asks for each of its columns; a handful of distinct texts covers an application.
      let kind = known.get(typeText);
      if (kind === undefined) {
        kind = parsedKind(typeText);
        if (known.size >= MAX_REMEMBERED_TYPES) known.clear();
        known.set(typeText, kind);
      }
      return kind;
    },
  });
}
