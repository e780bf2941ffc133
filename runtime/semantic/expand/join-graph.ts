/**
 * The relationship graph of a definition, seen from an anchor table. Relationships point from the
 * many side (`fromAlias`, holding the foreign key) to the one side (`toAlias`); stepping along that
 * direction never duplicates anchor rows, stepping against it does (unless one-to-one). The tree
 * is walked over the edges taken as undirected, so the base table may sit on either side.
 * A table one source table points at through several relationships is role-played: it is
 * reachable only through the relationship a metric picked with `USING`, under the scoped alias
 * `<alias>__<rel>`.
 */
import type { RelationshipDef, SemanticViewDefinition, TableDef } from "../view-definition.js";

export const keyOf = (name: string): string => name.toLowerCase();

export interface TreeStep {
  readonly parent: string;
  readonly rel: RelationshipDef;
  /** True when stepping parent → child can multiply the parent's rows. */
  readonly fans: boolean;
}

/** A spanning tree rooted at the anchor: child key → step from its parent. */
export interface JoinTree {
  readonly anchor: string;
  readonly steps: ReadonlyMap<string, TreeStep>;
}

export class JoinGraph {
  readonly tables = new Map<string, TableDef>();
  /** Role-played table key → the relationships pointing at it. */
  readonly roleTables = new Map<string, RelationshipDef[]>();
  /** Relationships per table where it holds the FK, and where it is referenced. */
  private readonly outgoing = new Map<string, RelationshipDef[]>();
  private readonly incoming = new Map<string, RelationshipDef[]>();

  constructor(readonly def: SemanticViewDefinition) {
    for (const t of def.tables) {
      this.tables.set(keyOf(t.alias), t);
      this.outgoing.set(keyOf(t.alias), []);
      this.incoming.set(keyOf(t.alias), []);
    }
    for (const r of def.relationships) {
      this.outgoing.get(keyOf(r.fromAlias))?.push(r);
      this.incoming.get(keyOf(r.toAlias))?.push(r);
    }
    // Role-playing: several relationships from one source table to the same target.
    for (const [k, rels] of this.incoming) {
      const group = rels.filter((r) => rels.some((o) => o !== r && keyOf(o.fromAlias) === keyOf(r.fromAlias)));
      if (group.length > 1) this.roleTables.set(k, group);
    }
  }

  get baseKey(): string {
    return keyOf(this.def.tables[0]!.alias);
  }

  /**
   * True when `key` sits below `target`: following foreign keys (referencing side to referenced
   * side) from `key` reaches `target`, so `key` is at a finer grain.
   */
  below(key: string, target: string): boolean {
    const seen = new Set<string>();
    const queue = [key];
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (seen.has(current)) continue;
      seen.add(current);
      for (const r of this.outgoing.get(current) ?? []) {
        const next = keyOf(r.toAlias);
        if (next === target) return true;
        queue.push(next);
      }
    }
    return false;
  }

  table(key: string): TableDef {
    const t = this.tables.get(key);
    if (t === undefined) throw new Error(`unknown table alias '${key}'`);
    return t;
  }

  /**
   * Breadth-first spanning tree over undirected edges: from each table, first the tables it
   * references, then the tables referencing it, each in declaration order. Role-played tables
   * only through their chosen relationship.
   */
  tree(anchor: string, choices: ReadonlyMap<string, string>): JoinTree {
    const steps = new Map<string, TreeStep>();
    const visited = new Set([anchor]);
    const queue = [anchor];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const rel of [...(this.outgoing.get(node) ?? []), ...(this.incoming.get(node) ?? [])]) {
        if (!this.usable(rel, choices)) continue;
        const forward = keyOf(rel.fromAlias) === node;
        const other = forward ? keyOf(rel.toAlias) : keyOf(rel.fromAlias);
        if (visited.has(other)) continue;
        visited.add(other);
        steps.set(other, { parent: node, rel, fans: !forward && rel.cardinality !== "one_to_one" });
        queue.push(other);
      }
    }
    return { anchor, steps };
  }

  private usable(rel: RelationshipDef, choices: ReadonlyMap<string, string>): boolean {
    const target = keyOf(rel.toAlias);
    if (!this.roleTables.get(target)?.includes(rel)) return true;
    const chosen = choices.get(target);
    return chosen !== undefined && keyOf(chosen) === keyOf(rel.name);
  }

  /**
   * The role-played table that `key` is reached through from the base table (a table beyond it,
   * not the role-played table itself), whichever role is taken; undefined when there is none.
   */
  roleAncestor(key: string): string | undefined {
    if (this.roleTables.size === 0) return undefined;
    const anyRole = new Map([...this.roleTables].map(([k, rels]) => [k, rels[0]!.name]));
    const tree = this.tree(this.baseKey, anyRole);
    let cur = tree.steps.get(key)?.parent;
    while (cur !== undefined && cur !== tree.anchor) {
      if (this.roleTables.has(cur)) return cur;
      cur = tree.steps.get(cur)?.parent;
    }
    return undefined;
  }

  /** Steps from the anchor down to `key` (empty for the anchor), or undefined if unreachable. */
  path(tree: JoinTree, key: string): TreeStep[] | undefined {
    const out: TreeStep[] = [];
    let cur = key;
    while (cur !== tree.anchor) {
      const step = tree.steps.get(cur);
      if (step === undefined) return undefined;
      out.unshift(step);
      cur = step.parent;
    }
    return out;
  }
}
