/**
 * Builds SemanticViewDefinition objects directly (no DDL parser), for expander and rewriter tests.
 * Members are written `alias.name AS expr` style: { "s.revenue": "SUM(s.revenue)" }.
 */
import type {
  MemberDef,
  MetricDef,
  RelationshipDef,
  SemanticViewDefinition,
  TableDef,
} from "../../../runtime/semantic/view-definition.js";

export interface TableSpec {
  alias: string;
  table?: string;
  primaryKey?: string[];
  unique?: string[][];
}

export interface RelationshipSpec {
  name: string;
  from: string;
  fk: string[];
  to: string;
  ref?: string[];
  oneToOne?: boolean;
}

export interface MetricSpec {
  expr: string;
  private?: boolean;
  using?: string[];
}

export interface ViewSpec {
  name: string;
  tables: TableSpec[];
  relationships?: RelationshipSpec[];
  facts?: Record<string, string | { expr: string; private?: boolean }>;
  dimensions?: Record<string, string>;
  metrics?: Record<string, string | MetricSpec>;
}

function split(qualified: string): { table: string | undefined; name: string } {
  const dot = qualified.indexOf(".");
  return dot < 0
    ? { table: undefined, name: qualified }
    : { table: qualified.slice(0, dot), name: qualified.slice(dot + 1) };
}

export function defineView(spec: ViewSpec): SemanticViewDefinition {
  const tables: TableDef[] = spec.tables.map((t) => ({
    alias: t.alias,
    table: t.table ?? t.alias,
    primaryKey: t.primaryKey ?? [],
    unique: t.unique ?? [],
    synonyms: [],
  }));
  const relationships: RelationshipDef[] = (spec.relationships ?? []).map((r) => {
    const target = tables.find((t) => t.alias === r.to)!;
    return {
      name: r.name,
      fromAlias: r.from,
      fkColumns: r.fk,
      toAlias: r.to,
      refColumns: r.ref ?? [...target.primaryKey],
      cardinality: r.oneToOne ? "one_to_one" : "many_to_one",
    };
  });
  const member = (key: string, value: string | { expr: string; private?: boolean }): MemberDef => {
    const { table, name } = split(key);
    const expr = typeof value === "string" ? value : value.expr;
    const access = typeof value !== "string" && value.private ? "private" : "public";
    return { name, table: table!, expr, access, synonyms: [] };
  };
  const metrics: MetricDef[] = Object.entries(spec.metrics ?? {}).map(([key, value]) => {
    const { table, name } = split(key);
    const m = typeof value === "string" ? { expr: value } : value;
    return {
      name,
      table,
      expr: m.expr,
      access: m.private ? "private" : "public",
      using: m.using ?? [],
      synonyms: [],
    };
  });
  return {
    name: spec.name,
    databaseName: "memory",
    schemaName: "main",
    createdOn: "2026-01-01T00:00:00Z",
    tables,
    relationships,
    facts: Object.entries(spec.facts ?? {}).map(([k, v]) => member(k, v)),
    dimensions: Object.entries(spec.dimensions ?? {}).map(([k, v]) => member(k, v)),
    metrics,
  };
}

/** An in-memory catalog over fixed definitions (what the rewriter needs from the real one). */
export function fixedCatalog(...defs: SemanticViewDefinition[]): {
  load(name: string): Promise<SemanticViewDefinition | undefined>;
  names(): Promise<string[]>;
} {
  return {
    async load(name: string) {
      return defs.find((d) => d.name.toLowerCase() === name.toLowerCase());
    },
    async names() {
      return defs.map((d) => d.name);
    },
  };
}
