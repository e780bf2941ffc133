/** TABLES and RELATIONSHIPS entries: aliases, keys, referenced columns and inferred cardinality. */
import type { RelationshipDef, TableDef } from "../view-definition.js";
import { lower, sameColumns, type ValidationContext } from "./validate-context.js";

export function validateTables(ctx: ValidationContext): TableDef[] {
  const out: TableDef[] = [];
  for (const t of ctx.stmt.tables) {
    const key = lower(t.alias);
    if (ctx.tableByAlias.has(key)) ctx.fail(`duplicate table alias '${t.alias}' in TABLES`, t.position);
    ctx.tableByAlias.set(key, t);
    if (t.primaryKey.length > 0)
      ctx.checkColumns(t.alias, t.primaryKey, `PRIMARY KEY of table '${t.alias}'`, t.position);
    for (const u of t.unique) ctx.checkColumns(t.alias, u, `UNIQUE of table '${t.alias}'`, t.position);
    const p = ctx.physicalOf(t.alias);
    out.push({
      alias: t.alias,
      table: t.table,
      primaryKey: [...t.primaryKey],
      unique: t.unique.map((u) => [...u]),
      comment: t.comment,
      synonyms: [...t.synonyms],
      resolved: p === undefined ? undefined : { database: p.database, schema: p.schema, name: p.name },
    });
  }
  return out;
}

/** Each relationship on its own; the shape of the whole graph is checked in validate-graph.ts. */
export function validateRelationships(ctx: ValidationContext): RelationshipDef[] {
  const out: RelationshipDef[] = [];
  const names = new Set<string>();
  for (const r of ctx.stmt.relationships) {
    if (names.has(lower(r.name))) ctx.fail(`duplicate relationship name '${r.name}'`, r.position);
    names.add(lower(r.name));
    const from = ctx.requireAlias(r.fromAlias, `relationship '${r.name}'`, r.position);
    const to = ctx.requireAlias(r.toAlias, `relationship '${r.name}'`, r.position);
    if (lower(from.alias) === lower(to.alias)) {
      ctx.fail(`table '${from.alias}' cannot reference itself (relationship '${r.name}')`, r.position);
    }
    if (to.primaryKey.length === 0 && to.unique.length === 0) {
      // Even explicit referenced columns need a declared key on the target, as in the extension.
      ctx.fail(
        `Table '${to.alias}' has no PRIMARY KEY declared but is referenced by FK in '${from.alias}'. Add PRIMARY KEY (cols) or UNIQUE (cols) to the TABLES clause for ${to.alias}. (v0.10.0: physical-catalog PK auto-inference removed -- see CHANGELOG.)`,
        r.position,
      );
    }
    let refColumns = [...r.refColumns];
    if (refColumns.length === 0) {
      if (to.primaryKey.length === 0) {
        ctx.fail(
          `Table '${to.alias}' has no PRIMARY KEY. Specify referenced columns explicitly in relationship '${r.name}'`,
          r.position,
        );
      }
      refColumns = [...to.primaryKey];
    }
    if (refColumns.length !== r.fkColumns.length) {
      ctx.fail(
        `relationship '${r.name}' has ${r.fkColumns.length} foreign key column(s) but ${refColumns.length} referenced column(s)`,
        r.position,
      );
    }
    ctx.checkColumns(from.alias, r.fkColumns, `relationship '${r.name}'`, r.position);
    ctx.checkColumns(to.alias, refColumns, `relationship '${r.name}'`, r.position);
    // One-to-one when the FK columns are a key of the from table.
    const fromKeys = [from.primaryKey, ...from.unique].filter((k) => k.length > 0);
    const cardinality = fromKeys.some((k) => sameColumns(k, r.fkColumns)) ? "one_to_one" : "many_to_one";
    out.push({
      name: r.name,
      fromAlias: from.alias,
      fkColumns: [...r.fkColumns],
      toAlias: to.alias,
      refColumns,
      cardinality,
    });
  }
  return out;
}
