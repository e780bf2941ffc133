/**
 * The shape of the relationship graph (v0.12 rules). Relationships point from the FK side to the
 * referenced side; the base table (first in TABLES) may sit on either side. Rejected: directed
 * cycles, a non-base table referenced from two different tables (a diamond; several named
 * relationships from one table are role-playing), tables no relationship mentions (orphans), and
 * referenced columns that are not a declared key of the target. Fan-in onto the base table is not
 * a diamond: the join tree is walked outward from it over undirected edges.
 */
import type { RelationshipDef, TableDef } from "../view-definition.js";
import { closestName } from "../../text/suggest.js";
import { lower, sameColumns, type ValidationContext } from "./validate-context.js";

export function checkRelationshipGraph(
  ctx: ValidationContext,
  tables: readonly TableDef[],
  rels: readonly RelationshipDef[],
): void {
  const position = (r: RelationshipDef): number =>
    ctx.stmt.relationships.find((d) => lower(d.name) === lower(r.name))?.position ?? -1;
  checkCycles(ctx, tables, rels, position);
  checkDiamonds(ctx, tables, rels, position);
  checkOrphans(ctx, rels);
  checkReferencedKeys(ctx, tables, rels, position);
}

/** Directed cycles (a references b, b references a). */
function checkCycles(
  ctx: ValidationContext,
  tables: readonly TableDef[],
  rels: readonly RelationshipDef[],
  position: (r: RelationshipDef) => number,
): void {
  const state = new Map<string, "visiting" | "done">();
  const visit = (alias: string, path: string[]): void => {
    const key = lower(alias);
    if (state.get(key) === "done") return;
    if (state.get(key) === "visiting") {
      const cycle = [...path.slice(path.findIndex((p) => lower(p) === key)), alias].join(" -> ");
      const edge = rels.find((r) => lower(r.toAlias) === key && lower(r.fromAlias) === lower(path[path.length - 1]!));
      // The v0.12 wording, then the older docs' phrase.
      ctx.fail(
        `cycle detected in relationships: ${cycle} (Relationship graph contains a cycle)`,
        edge === undefined ? undefined : position(edge),
      );
    }
    state.set(key, "visiting");
    for (const r of rels) if (lower(r.fromAlias) === key) visit(r.toAlias, [...path, alias]);
    state.set(key, "done");
  };
  for (const t of tables) visit(t.alias, []);
}

/** A non-base table referenced from two different tables has two join paths. */
function checkDiamonds(
  ctx: ValidationContext,
  tables: readonly TableDef[],
  rels: readonly RelationshipDef[],
  position: (r: RelationshipDef) => number,
): void {
  const base = lower(tables[0]!.alias);
  for (const t of tables) {
    if (lower(t.alias) === base) continue;
    const incoming = rels.filter((r) => lower(r.toAlias) === lower(t.alias));
    const other = incoming.find((r) => lower(r.fromAlias) !== lower(incoming[0]!.fromAlias));
    if (other === undefined) continue;
    const first = incoming[0]!;
    const sources = [...new Set(incoming.map((r) => r.fromAlias))].sort();
    ctx.fail(
      `diamond: '${t.alias}' is reachable from multiple tables (${sources.map((a) => `'${a}'`).join(", ")}); the join path is ambiguous. Declare the target under a second table alias so it is joined once per path. (Diamond detected: table '${t.alias}' is reachable via multiple paths: '${first.fromAlias}' via '${first.name}' and '${other.fromAlias}' via '${other.name}'. Several relationships from one table to it are role-playing and allowed.)`,
      position(other),
    );
  }
}

/** Every table other than the base table must be mentioned by some relationship. */
function checkOrphans(ctx: ValidationContext, rels: readonly RelationshipDef[]): void {
  for (const [i, t] of ctx.stmt.tables.entries()) {
    if (i === 0) continue;
    const key = lower(t.alias);
    if (rels.some((r) => lower(r.fromAlias) === key || lower(r.toAlias) === key)) continue;
    const suggestion = closestName(
      t.alias,
      ctx.aliases().filter((a) => lower(a) !== key),
    );
    ctx.fail(
      `orphan table '${t.alias}' is not connected by any relationship${suggestion === undefined ? "" : `; did you mean '${suggestion}'?`}`,
      t.position,
    );
  }
}

/** The referenced columns must be the target's PRIMARY KEY or one of its UNIQUE keys. */
function checkReferencedKeys(
  ctx: ValidationContext,
  tables: readonly TableDef[],
  rels: readonly RelationshipDef[],
  position: (r: RelationshipDef) => number,
): void {
  for (const r of rels) {
    const target = tables.find((t) => lower(t.alias) === lower(r.toAlias))!;
    const keys = [target.primaryKey, ...target.unique].filter((k) => k.length > 0);
    if (keys.some((k) => sameColumns(k, r.refColumns))) continue;
    const available = [
      ...(target.primaryKey.length > 0 ? [`PK(${target.primaryKey.join(", ")})`] : []),
      ...target.unique.map((u) => `UNIQUE(${u.join(", ")})`),
    ];
    ctx.fail(
      `FK (${r.refColumns.join(", ")}) in relationship '${r.name}' does not match any PRIMARY KEY or UNIQUE constraint on table '${target.alias}'. Available: ${available.length > 0 ? available.join(", ") : "none declared"}.`,
      position(r),
    );
  }
}

/** True when `to` is `from` or below it along the relationships (FK side to referenced side). */
export function reachable(from: string, to: string, rels: readonly RelationshipDef[]): boolean {
  const seen = new Set<string>([lower(from)]);
  const queue = [lower(from)];
  while (queue.length > 0) {
    const a = queue.shift()!;
    if (a === lower(to)) return true;
    for (const r of rels) {
      if (lower(r.fromAlias) === a && !seen.has(lower(r.toAlias))) {
        seen.add(lower(r.toAlias));
        queue.push(lower(r.toAlias));
      }
    }
  }
  return false;
}
