/**
 * `read_yaml_from_semantic_view('v')`: the definition in the extension's YAML key layout (the
 * body `CREATE SEMANTIC VIEW ... FROM YAML $$ ... $$` accepts), without the stamped
 * created_on / database_name / schema_name.
 */
import { stringify } from "yaml";
import { shownName, type SemanticViewDefinition } from "../view-definition.js";
import { nonAdditiveToYaml, windowToYaml } from "../ddl/yaml-metric-modes.js";

const optional = <T>(value: T | undefined, empty: (v: T) => boolean = () => false): T | undefined =>
  value === undefined || empty(value) ? undefined : value;
const nonEmpty = (v: readonly unknown[]): boolean => v.length === 0;

export function definitionToYaml(def: SemanticViewDefinition): string {
  const doc = {
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
        // serde's enum spelling, as the extension exports it.
        cardinality: r.cardinality === "one_to_one" ? "OneToOne" : "ManyToOne",
      })),
      nonEmpty,
    ),
    facts: optional(
      def.facts.map((f) => ({
        name: shownName(f),
        expr: f.expr,
        source_table: f.table,
        comment: f.comment,
        synonyms: optional(f.synonyms, nonEmpty),
        output_type: f.outputType,
        access: f.access === "private" ? "Private" : undefined,
        is_filter: f.isFilter === true ? true : undefined,
      })),
      nonEmpty,
    ),
    // Always written, `[]` when empty: the import schema requires both keys.
    dimensions: def.dimensions.map((d) => ({
      name: shownName(d),
      expr: d.expr,
      source_table: d.table,
      comment: d.comment,
      synonyms: optional(d.synonyms, nonEmpty),
      output_type: d.outputType,
      is_filter: d.isFilter === true ? true : undefined,
    })),
    metrics: def.metrics.map((m) => ({
      name: shownName(m),
      expr: m.expr,
      source_table: m.table,
      comment: m.comment,
      synonyms: optional(m.synonyms, nonEmpty),
      output_type: m.outputType,
      access: m.access === "private" ? "Private" : undefined,
      using_relationships: optional(m.using, nonEmpty),
      non_additive_by: nonAdditiveToYaml(m.nonAdditiveBy),
      window_spec: windowToYaml(m.window),
    })),
    materializations: optional(
      (def.materializations ?? []).map((m) => ({
        name: m.name,
        table: m.table,
        dimensions: optional(m.dimensions, nonEmpty),
        metrics: optional(m.metrics, nonEmpty),
      })),
      nonEmpty,
    ),
    comment: def.comment,
  };
  return stringify(doc);
}
