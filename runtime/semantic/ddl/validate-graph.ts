/** The shape of the relationship graph: cycles, the base table, diamonds and orphans. */
import type { RelationshipDef, TableDef } from "../model.js";
import { lower, type ValidationContext } from "./validate-context.js";

/** The relationship graph must be a tree rooted at the first table (role-playing edges allowed). */
export function checkRelationshipGraph(ctx: ValidationContext, tables: readonly TableDef[], rels: readonly RelationshipDef[]): void {
  const root = tables[0]!;
  const position = (r: RelationshipDef): number =>
    ctx.stmt.relationships.find((d) => lower(d.name) === lower(r.name))?.position ?? 0;
  const parents = new Map<string, RelationshipDef[]>();
  for (const r of rels) {
    const list = parents.get(lower(r.toAlias)) ?? [];
    list.push(r);
    parents.set(lower(r.toAlias), list);
  }
  // Cycles (directed).
  const children = (alias: string): RelationshipDef[] => rels.filter((r) => lower(r.fromAlias) === lower(alias));
  const state = new Map<string, "visiting" | "done">();
  const visit = (alias: string, path: string[]): void => {
    const key = lower(alias);
    if (state.get(key) === "done") return;
    if (state.get(key) === "visiting") {
      const from = path.findIndex((p) => lower(p) === key);
      const cycle = [...path.slice(from), alias].join(" -> ");
      const edge = rels.find((r) => lower(r.toAlias) === key && lower(r.fromAlias) === lower(path[path.length - 1]!));
      ctx.fail(`relationship cycle detected: ${cycle}; relationships must form a tree rooted at the base table '${root.alias}'`, edge ? position(edge) : undefined);
    }
    state.set(key, "visiting");
    for (const r of children(alias)) visit(r.toAlias, [...path, alias]);
    state.set(key, "done");
  };
  for (const t of tables) visit(t.alias, []);
  const rootParents = parents.get(lower(root.alias));
  if (rootParents !== undefined) {
    const r = rootParents[0]!;
    ctx.fail(
      `relationship '${r.name}' references the base table '${root.alias}'; the first table in TABLES is the root of the relationship tree and cannot be referenced (list '${r.fromAlias}' first or reverse the relationship)`,
      position(r),
    );
  }
  // Diamonds: a table reached from two different tables (several named edges from one table are role-playing).
  for (const [, list] of parents) {
    const sources = new Set(list.map((r) => lower(r.fromAlias)));
    if (sources.size > 1) {
      const [a, b] = [list[0]!, list.find((r) => lower(r.fromAlias) !== lower(list[0]!.fromAlias))!];
      ctx.fail(
        `table '${a.toAlias}' is reachable through more than one path ('${a.fromAlias}' via '${a.name}' and '${b.fromAlias}' via '${b.name}'); relationships must form a tree (a diamond is ambiguous)`,
        position(b),
      );
    }
  }
  // Orphans: every table must be reachable from the root.
  const reached = new Set<string>([lower(root.alias)]);
  const queue = [root.alias];
  while (queue.length > 0) {
    const a = queue.shift()!;
    for (const r of children(a)) {
      if (!reached.has(lower(r.toAlias))) {
        reached.add(lower(r.toAlias));
        queue.push(r.toAlias);
      }
    }
  }
  for (const t of ctx.stmt.tables) {
    if (!reached.has(lower(t.alias))) {
      ctx.fail(
        `table '${t.alias}' is not connected to the base table '${root.alias}'; add a relationship that reaches it from '${root.alias}' (relationships go from the referencing table to the referenced one)`,
        t.position,
      );
    }
  }
}

/** True when `to` is `from` or below it along the relationships. */
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
