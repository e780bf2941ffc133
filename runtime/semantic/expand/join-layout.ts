/**
 * How the LEFT JOINs of one SELECT are written.
 *
 * `chain` is the extension's layout (`explain_semantic_view` prints it): every table joined at the
 * top level in breadth-first order. DuckDB joins a chain in the order written and does not reorder
 * across LEFT JOINs, so a filter on a table two hops away is applied only after the fact table has
 * been joined to every table on the way.
 *
 * `tree` (what `semantic_view()` runs) nests each table's subtree in parentheses, so the small
 * tables are joined among themselves first and a filter on a far table reaches the fact table as
 * one join:
 *
 *   FROM "o" LEFT JOIN ("c" LEFT JOIN "r" ON "c"."region_id" = "r"."id") ON "o"."customer_id" = "c"."id"
 *
 * Identity: (A ⟕p B) ⟕q C = A ⟕p (B ⟕q C) whenever q names only B and C and rejects a NULL-extended
 * B row (the associativity of outer joins, Galindo-Legaria & Rosenthal 1997; it holds for multisets, so
 * one-to-many steps too).
 * Every relationship joins on equalities between the parent's and the child's columns, which are
 * never true for NULLs, so the rows before WHERE are the same multiset in both layouts, and so is
 * everything computed from them (WHERE, the phantom-row guard, GROUP BY, snapshots). A step whose ON
 * were not such an equality (none exists today: ASOF and range joins are not relationships) would
 * keep the whole SELECT in the chain layout (`nestable`).
 *
 * Siblings are joined filtered subtree first: a subtree holding a table the WHERE restricts (the
 * where_clause's tables, the phantom-row guard's grain) comes before the others, so a selective
 * filter shrinks the rows before the unfiltered joins (DuckDB does not reorder LEFT JOINs). Two
 * siblings' ON conditions each name only their common parent and their own table, and for such joins
 * (A ⟕p B) ⟕q C = (A ⟕q C) ⟕p B (the same identity), so the order of siblings never changes the answer.
 */
import type { RelationshipDef } from "../view-definition.js";
import type { JoinTree } from "./join-graph.js";
import { onLine } from "./sql-layout.js";

export type JoinLayout = "tree" | "chain";

export interface JoinedTables {
  readonly tree: JoinTree;
  /** The joined table keys, anchor first, every parent before its children. */
  readonly order: readonly string[];
  /** `<table reference> AS "alias"` of a table key. */
  readonly source: (key: string) => string;
  /** The ON condition joining a table key to its parent. */
  readonly on: (key: string) => string;
  /** Keys of the tables the WHERE restricts: their subtrees are joined before their siblings. */
  readonly filtered: readonly string[];
}

/** Nested lines are indented one level per nesting, up to this depth (keeps the text linear). */
const MAX_INDENT_DEPTH = 4;
const INDENT = "    ";

/** True when nesting the step's subtree leaves the answer unchanged (see the module comment). */
export function nestable(rel: RelationshipDef): boolean {
  return rel.fkColumns.length > 0;
}

/** `FROM ...` and its `LEFT JOIN`s, in the given layout. */
export function fromLines(joined: JoinedTables, layout: JoinLayout): string[] {
  const { tree, order, source, on, filtered } = joined;
  const first = `FROM ${source(tree.anchor)}`;
  const rest = order.filter((k) => k !== tree.anchor);
  const nests = layout === "tree" && rest.every((k) => nestable(tree.steps.get(k)!.rel));
  if (!nests) return [first, ...rest.flatMap((k) => [`LEFT JOIN ${source(k)}`, onLine(on(k))])];
  const children = childrenOf(tree, rest, filtered);
  const lines = [first];
  const join = (key: string, depth: number): void => {
    const pad = INDENT.repeat(Math.min(depth, MAX_INDENT_DEPTH));
    const kids = children.get(key);
    if (kids === undefined) {
      lines.push(`${pad}LEFT JOIN ${source(key)}`, pad + onLine(on(key)));
      return;
    }
    const inner = INDENT.repeat(Math.min(depth + 1, MAX_INDENT_DEPTH));
    lines.push(`${pad}LEFT JOIN (`, inner + source(key));
    for (const k of kids) join(k, depth + 1);
    lines.push(`${pad})`, pad + onLine(on(key)));
  };
  for (const k of children.get(tree.anchor) ?? []) join(k, 0);
  return lines;
}

/**
 * Each joined table's joined children, in `order`, except that children whose subtree holds a
 * filtered table come first (stable within each group).
 */
function childrenOf(tree: JoinTree, rest: readonly string[], filtered: readonly string[]): Map<string, string[]> {
  const holdsFilter = new Set<string>();
  for (const t of filtered) {
    let cur: string | undefined = t;
    while (cur !== undefined && !holdsFilter.has(cur)) {
      holdsFilter.add(cur);
      cur = tree.steps.get(cur)?.parent;
    }
  }
  const children = new Map<string, string[]>();
  for (const first of [true, false]) {
    for (const k of rest) {
      if (holdsFilter.has(k) !== first) continue;
      const parent = tree.steps.get(k)!.parent;
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [k]);
      else list.push(k);
    }
  }
  return children;
}
