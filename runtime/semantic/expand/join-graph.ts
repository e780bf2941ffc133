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
  /** Steps from the anchor to each table it reaches (0 for the anchor itself). */
  readonly depth: ReadonlyMap<string, number>;
}

/** Per tree: table key → the first fanning step on the way from the anchor (null: none). Filled lazily. */
const firstFans = new WeakMap<JoinTree, Map<string, TreeStep | null>>();

/**
 * The first step on the way from the tree's anchor to `key` that can multiply the anchor's rows, or
 * undefined when there is none (or `key` is not reached). Memoized per tree, so asking it of every
 * table costs the size of the tree, not tables × depth.
 */
export function firstFan(tree: JoinTree, key: string): TreeStep | undefined {
  let memo = firstFans.get(tree);
  if (memo === undefined) firstFans.set(tree, (memo = new Map()));
  const pending: string[] = [];
  let cur = key;
  let found: TreeStep | null = null;
  for (;;) {
    const known = memo.get(cur);
    if (known !== undefined) {
      found = known;
      break;
    }
    if (cur === tree.anchor) break;
    const step = tree.steps.get(cur);
    if (step === undefined) return undefined;
    pending.push(cur);
    cur = step.parent;
  }
  for (let i = pending.length - 1; i >= 0; i--) {
    const step = tree.steps.get(pending[i]!)!;
    if (found === null && step.fans) found = step;
    memo.set(pending[i]!, found);
  }
  return found ?? undefined;
}

export class JoinGraph {
  readonly tables = new Map<string, TableDef>();
  /** Role-played table key → the relationships pointing at it. */
  readonly roleTables = new Map<string, RelationshipDef[]>();
  /** Relationships per table where it holds the FK, and where it is referenced. */
  private readonly outgoing = new Map<string, RelationshipDef[]>();
  private readonly incoming = new Map<string, RelationshipDef[]>();
  /** The base-anchored tree taking any role, and each table's role-played ancestor in it (memo). */
  private anyRoleTree: JoinTree | undefined;
  private readonly roleAncestors = new Map<string, string | undefined>();

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
    const depth = new Map([[anchor, 0]]);
    const queue = [anchor];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const rel of [...(this.outgoing.get(node) ?? []), ...(this.incoming.get(node) ?? [])]) {
        if (!this.usable(rel, choices)) continue;
        const forward = keyOf(rel.fromAlias) === node;
        const other = forward ? keyOf(rel.toAlias) : keyOf(rel.fromAlias);
        if (depth.has(other)) continue;
        depth.set(other, depth.get(node)! + 1);
        steps.set(other, { parent: node, rel, fans: !forward && rel.cardinality !== "one_to_one" });
        queue.push(other);
      }
    }
    return { anchor, steps, depth };
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
    const known = this.roleAncestors.get(key);
    if (known !== undefined || this.roleAncestors.has(key)) return known;
    if (this.anyRoleTree === undefined) {
      const anyRole = new Map([...this.roleTables].map(([k, rels]) => [k, rels[0]!.name]));
      this.anyRoleTree = this.tree(this.baseKey, anyRole);
    }
    const parent = this.anyRoleTree.steps.get(key)?.parent;
    const found =
      parent === undefined || parent === this.anyRoleTree.anchor
        ? undefined
        : this.roleTables.has(parent)
          ? parent
          : this.roleAncestor(parent);
    this.roleAncestors.set(key, found);
    return found;
  }
}
