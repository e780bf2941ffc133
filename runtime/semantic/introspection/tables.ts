/**
 * The introspection relations (column names as the extension's table functions), computed from
 * stored definitions. Every column is VARCHAR; absent values are `''`, as in the extension.
 */
import { shownName, type MemberDef, type SemanticViewDefinition, type TableDef } from "../view-definition.js";
import { renderDdl } from "../ddl/render.js";
import type { QualifiedName } from "../sql/parse-qualified-name.js";
import { analyzeExpression } from "../ddl/expression-refs.js";
import { splitTableReference } from "../sql/quote.js";
import { renderNonAdditiveBy, renderWindow } from "../ddl/render-metric-modes.js";
import { requiredWindowDimensions } from "../expand/window-metrics.js";
import { refersTo } from "../sql/member-reference.js";

export interface Relation {
  readonly columns: readonly string[];
  /** Rows as text; a BOOLEAN column holds "true" / "false". */
  readonly rows: string[][];
  /** DuckDB column types (default: all VARCHAR). */
  readonly types?: readonly ("VARCHAR" | "BOOLEAN")[] | undefined;
}

/** Byte-order comparison (the extension sorts with Rust's `String` order, not a locale). */
export const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const LIST_COLUMNS = ["created_on", "name", "kind", "database_name", "schema_name", "comment"] as const;
export const DESCRIBE_COLUMNS = ["object_kind", "object_name", "parent_entity", "property", "property_value"] as const;
export const SHOW_COLUMNS_COLUMNS = [
  "database_name",
  "schema_name",
  "semantic_view_name",
  "column_name",
  "data_type",
  "kind",
  "expression",
  "comment",
] as const;
export const MEMBER_COLUMNS = [
  "database_name",
  "schema_name",
  "semantic_view_name",
  "table_name",
  "name",
  "data_type",
  "synonyms",
  "comment",
] as const;

/** `list_semantic_views()` / SHOW SEMANTIC VIEWS: sorted by name (byte order), then schema. */
export function listViews(defs: readonly SemanticViewDefinition[], terse = false): Relation {
  const columns = terse ? LIST_COLUMNS.slice(0, 5) : [...LIST_COLUMNS];
  const sorted = [...defs].sort((a, b) => byteOrder(a.name, b.name) || byteOrder(a.schemaName, b.schemaName));
  const rows = sorted.map((d) => {
    const row = [d.createdOn, d.name, "SEMANTIC_VIEW", d.databaseName, d.schemaName, d.comment ?? ""];
    return terse ? row.slice(0, 5) : row;
  });
  return { columns, rows };
}

/** Physical database, schema and table name of a TABLES entry. */
export function physicalTable(
  def: SemanticViewDefinition,
  t: TableDef,
): { database: string; schema: string; name: string } {
  if (t.resolved !== undefined) return t.resolved;
  const parts = splitTableReference(t.table);
  const name = parts[parts.length - 1]!;
  if (parts.length === 3) return { database: parts[0]!, schema: parts[1]!, name };
  if (parts.length === 2) return { database: def.databaseName, schema: parts[0]!, name };
  return { database: def.databaseName, schema: def.resolutionSchemaName ?? def.schemaName, name };
}

function tableName(def: SemanticViewDefinition, alias: string | undefined): string {
  if (alias === undefined) return "";
  const t = def.tables.find((x) => x.alias.toLowerCase() === alias.toLowerCase());
  return t === undefined ? alias : physicalTable(def, t).name;
}

/** A JSON array without spaces (`["a","b"]`, `[]`), as the extension formats lists. */
export const json = (value: readonly unknown[]): string => JSON.stringify(value);

export function describeView(def: SemanticViewDefinition): Relation {
  const rows: string[][] = [];
  const add = (kind: string, name: string, parent: string, property: string, value: string): void => {
    rows.push([kind, name, parent, property, value]);
  };
  const optional = (
    kind: string,
    name: string,
    parent: string,
    m: { comment?: string | undefined; synonyms: readonly string[] },
  ): void => {
    if (m.comment !== undefined) add(kind, name, parent, "COMMENT", m.comment);
    if (m.synonyms.length > 0) add(kind, name, parent, "SYNONYMS", json(m.synonyms));
  };
  if (def.comment !== undefined) add("SEMANTIC_VIEW", def.name, "", "COMMENT", def.comment);
  for (const t of def.tables) {
    const p = physicalTable(def, t);
    add("TABLE", p.name, "", "BASE_TABLE_DATABASE_NAME", p.database);
    add("TABLE", p.name, "", "BASE_TABLE_SCHEMA_NAME", p.schema);
    add("TABLE", p.name, "", "BASE_TABLE_NAME", p.name);
    if (t.primaryKey.length > 0) add("TABLE", p.name, "", "PRIMARY_KEY", json(t.primaryKey));
    optional("TABLE", p.name, "", t);
  }
  for (const r of def.relationships) {
    const from = tableName(def, r.fromAlias);
    add("RELATIONSHIP", r.name, from, "TABLE", from);
    add("RELATIONSHIP", r.name, from, "REF_TABLE", tableName(def, r.toAlias));
    add("RELATIONSHIP", r.name, from, "FOREIGN_KEY", json(r.fkColumns));
    add("RELATIONSHIP", r.name, from, "REF_KEY", json(r.refColumns));
  }
  const rowLevel = (kind: "FACT" | "DIMENSION", members: SemanticViewDefinition["facts"]): void => {
    for (const m of members) {
      const parent = tableName(def, m.table);
      const name = shownName(m);
      add(kind, name, parent, "TABLE", parent);
      add(kind, name, parent, "EXPRESSION", m.expr);
      add(kind, name, parent, "DATA_TYPE", m.outputType ?? "");
      optional(kind, name, parent, m);
      if (m.isFilter === true) add(kind, name, parent, "LABELS", json(["FILTER"]));
      if (kind === "FACT") add(kind, name, parent, "ACCESS_MODIFIER", m.access.toUpperCase());
    }
  };
  rowLevel("FACT", def.facts);
  rowLevel("DIMENSION", def.dimensions);
  for (const m of def.metrics) {
    const name = shownName(m);
    if (m.table === undefined) {
      add("DERIVED_METRIC", name, "", "EXPRESSION", m.expr);
      add("DERIVED_METRIC", name, "", "DATA_TYPE", m.outputType ?? "");
      optional("DERIVED_METRIC", name, "", m);
      add("DERIVED_METRIC", name, "", "ACCESS_MODIFIER", m.access.toUpperCase());
    } else {
      const parent = tableName(def, m.table);
      add("METRIC", name, parent, "TABLE", parent);
      add("METRIC", name, parent, "EXPRESSION", m.expr);
      add("METRIC", name, parent, "DATA_TYPE", m.outputType ?? "");
      optional("METRIC", name, parent, m);
      add("METRIC", name, parent, "ACCESS_MODIFIER", m.access.toUpperCase());
      if (m.nonAdditiveBy !== undefined && m.nonAdditiveBy.length > 0)
        add("METRIC", name, parent, "NON_ADDITIVE_BY", renderNonAdditiveBy(m.nonAdditiveBy));
      if (m.window !== undefined) add("METRIC", name, parent, "WINDOW_SPEC", renderWindow(m.window));
    }
  }
  for (const m of def.materializations ?? []) {
    add("MATERIALIZATION", m.name, "", "TABLE", m.table);
    add("MATERIALIZATION", m.name, "", "DIMENSIONS", json(m.dimensions));
    add("MATERIALIZATION", m.name, "", "METRICS", json(m.metrics));
  }
  return { columns: [...DESCRIBE_COLUMNS], rows };
}

/**
 * `show_columns_in_semantic_view`: public members sorted by kind (DERIVED_METRIC, DIMENSION, FACT,
 * METRIC), then name, as the extension sorts them.
 */
export function showColumns(def: SemanticViewDefinition): Relation {
  const rows: string[][] = [];
  const base = [def.databaseName, def.schemaName, def.name];
  for (const f of def.facts)
    if (f.access === "public") rows.push([...base, shownName(f), f.outputType ?? "", "FACT", f.expr, f.comment ?? ""]);
  for (const d of def.dimensions)
    rows.push([...base, shownName(d), d.outputType ?? "", "DIMENSION", d.expr, d.comment ?? ""]);
  for (const m of def.metrics) {
    if (m.access !== "public") continue;
    rows.push([
      ...base,
      shownName(m),
      m.outputType ?? "",
      m.table === undefined ? "DERIVED_METRIC" : "METRIC",
      m.expr,
      m.comment ?? "",
    ]);
  }
  rows.sort((a, b) => byteOrder(a[5]!, b[5]!) || byteOrder(a[3]!, b[3]!));
  return { columns: [...SHOW_COLUMNS_COLUMNS], rows };
}

export type MemberKindPlural = "dimensions" | "metrics" | "facts";

/**
 * `show_semantic_dimensions|metrics|facts`: public members of the given views, sorted by view
 * name then member name. `synonyms` is always a JSON array (`[]` when none); `data_type` is the
 * declared YAML `output_type` or empty (nothing infers a type).
 */
export function showMembers(defs: readonly SemanticViewDefinition[], kind: MemberKindPlural): Relation {
  const rows: string[][] = [];
  for (const def of defs) {
    const members = kind === "dimensions" ? def.dimensions : kind === "facts" ? def.facts : def.metrics;
    for (const m of members) {
      if (m.access !== "public") continue;
      rows.push([
        def.databaseName,
        def.schemaName,
        def.name,
        tableName(def, m.table),
        shownName(m),
        m.outputType ?? "",
        json(m.synonyms),
        m.comment ?? "",
      ]);
    }
  }
  rows.sort((a, b) => byteOrder(a[2]!, b[2]!) || byteOrder(a[4]!, b[4]!));
  return { columns: [...MEMBER_COLUMNS], rows };
}

/**
 * `get_ddl('SEMANTIC_VIEW', reference[, fully_qualified])`: the view named as the reference named it
 * (`analytics.sales` keeps its schema, `"my schema"."my view"` its quotes), or fully qualified.
 */
export function getDdl(def: SemanticViewDefinition, reference: QualifiedName, fullyQualified = false): string {
  const qualifiers =
    fullyQualified || reference.database !== undefined
      ? "database"
      : reference.schema !== undefined
        ? "schema"
        : "none";
  return renderDdl(def, qualifiers);
}

/**
 * `show_semantic_dimensions_for_metric('v', 'm')`: the dimensions a metric can be grouped by without
 * a fan trap, i.e. on tables at the metric's grain or coarser: reached from the metric's table along
 * relationships (many-to-one or one-to-one), or backwards over one-to-one relationships. A derived
 * metric gets the dimensions reachable from any base metric it uses (the union, as documented); a
 * window metric every dimension (the extension skips the filter for them). `required` is true for the
 * dimensions a window metric's OVER clause names. Rows are sorted by table name, then dimension name.
 */
export function dimensionsForMetric(def: SemanticViewDefinition, metricName: string): Relation {
  const lower = (s: string) => s.toLowerCase();
  const metric = def.metrics.find((m) => lower(m.name) === lower(metricName));
  if (metric === undefined) return { columns: FOR_METRIC_COLUMNS, rows: [], types: FOR_METRIC_TYPES };
  const reachableFrom = (alias: string): Set<string> => {
    const seen = new Set([lower(alias)]);
    const queue = [lower(alias)];
    while (queue.length > 0) {
      const a = queue.shift()!;
      for (const r of def.relationships) {
        const next =
          lower(r.fromAlias) === a
            ? lower(r.toAlias)
            : r.cardinality === "one_to_one" && lower(r.toAlias) === a
              ? lower(r.fromAlias)
              : undefined;
        if (next !== undefined && !seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return seen;
  };
  const tablesFor = (m: typeof metric, visiting: Set<string>): Set<string> | undefined => {
    // Window metrics skip the fan-trap filter: every table of the (connected) graph.
    if (m.window !== undefined) return new Set(def.tables.map((t) => lower(t.alias)));
    if (m.table !== undefined) return reachableFrom(m.table);
    if (visiting.has(lower(m.name))) return undefined;
    visiting.add(lower(m.name));
    let out: Set<string> | undefined;
    const referenced = new Set(analyzeExpression(m.expr).refs.map((r) => lower(r.name)));
    for (const other of def.metrics) {
      if (other === m || !referenced.has(lower(other.name))) continue;
      const t = tablesFor(other, visiting);
      if (t === undefined) continue;
      out = new Set([...(out ?? []), ...t]);
    }
    return out;
  };
  const tables = tablesFor(metric, new Set()) ?? new Set<string>();
  const required = metric.window === undefined ? [] : requiredWindowDimensions(metric.window);
  const isRequired = (d: MemberDef): boolean => required.some((r) => refersTo(r.dimension, d));
  const rows = def.dimensions
    .filter((d) => tables.has(lower(d.table)))
    .map((d) => [tableName(def, d.table), shownName(d), d.outputType ?? "", String(isRequired(d))])
    .sort((a, b) => byteOrder(a[0]!, b[0]!) || byteOrder(a[1]!, b[1]!));
  return { columns: FOR_METRIC_COLUMNS, rows, types: FOR_METRIC_TYPES };
}

export const FOR_METRIC_COLUMNS = ["table_name", "name", "data_type", "required"] as const;
const FOR_METRIC_TYPES = ["VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN"] as const;
