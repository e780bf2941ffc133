/**
 * `read_yaml_from_semantic_view('v')`: the definition in the extension's YAML key layout (the
 * body `CREATE SEMANTIC VIEW ... FROM YAML $$ ... $$` accepts), without the stamped
 * created_on / database_name / schema_name.
 */
import { stringify } from "yaml";
import type { SemanticViewDefinition } from "../model.js";
import { nonAdditiveToYaml, windowToYaml } from "../ddl/yaml-metric-modes.js";

const optional = <T>(value: T | undefined, empty: (v: T) => boolean = () => false): T | undefined =>
  value === undefined || empty(value) ? undefined : value;
const nonEmpty = (v: readonly unknown[]): boolean => v.length === 0;

export function definitionToYaml(def: SemanticViewDefinition): string {
  const doc = {
    comment: def.comment,
    tables: def.tables.map((t) => ({
      alias: t.alias,
      table: t.table,
      pk_columns: optional(t.primaryKey, nonEmpty),
      unique_constraints: optional(t.unique, nonEmpty),
      comment: t.comment,
      synonyms: optional(t.synonyms, nonEmpty),
    })),
    joins: optional(
      def.relationships.map((r) => ({
        name: r.name,
        from_alias: r.fromAlias,
        table: r.toAlias,
        fk_columns: r.fkColumns,
        ref_columns: r.refColumns,
        cardinality: r.cardinality,
      })),
      nonEmpty,
    ),
    facts: optional(
      def.facts.map((f) => ({
        name: f.name,
        expr: f.expr,
        source_table: f.table,
        comment: f.comment,
        synonyms: optional(f.synonyms, nonEmpty),
        access: f.access === "private" ? "private" : undefined,
        is_filter: f.isFilter === true ? true : undefined,
      })),
      nonEmpty,
    ),
    dimensions: optional(
      def.dimensions.map((d) => ({
        name: d.name,
        expr: d.expr,
        source_table: d.table,
        comment: d.comment,
        synonyms: optional(d.synonyms, nonEmpty),
        is_filter: d.isFilter === true ? true : undefined,
      })),
      nonEmpty,
    ),
    metrics: optional(
      def.metrics.map((m) => ({
        name: m.name,
        expr: m.expr,
        source_table: m.table,
        comment: m.comment,
        synonyms: optional(m.synonyms, nonEmpty),
        access: m.access === "private" ? "private" : undefined,
        using_relationships: optional(m.using, nonEmpty),
        non_additive_by: nonAdditiveToYaml(m.nonAdditiveBy),
        window_spec: windowToYaml(m.window),
      })),
      nonEmpty,
    ),
  };
  return stringify(doc);
}
