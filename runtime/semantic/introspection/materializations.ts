/** `SHOW SEMANTIC MATERIALIZATIONS` / `show_semantic_materializations[_all]()`: 7 VARCHAR columns. */
import type { SemanticViewDefinition } from "../view-definition.js";
import { byteOrder, json, type Relation } from "./tables.js";

export const MATERIALIZATION_COLUMNS = [
  "database_name",
  "schema_name",
  "semantic_view_name",
  "name",
  "table",
  "dimensions",
  "metrics",
] as const;

/** One row per materialization, sorted by view name, then materialization name. */
export function showMaterializations(defs: readonly SemanticViewDefinition[]): Relation {
  const rows: string[][] = [];
  for (const def of defs) {
    for (const m of def.materializations ?? []) {
      rows.push([def.databaseName, def.schemaName, def.name, m.name, m.table, json(m.dimensions), json(m.metrics)]);
    }
  }
  rows.sort((a, b) => byteOrder(a[2]!, b[2]!) || byteOrder(a[3]!, b[3]!));
  return { columns: [...MATERIALIZATION_COLUMNS], rows };
}
