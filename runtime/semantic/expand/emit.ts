/** SQL emission: one SELECT over a join tree, LEFT JOINed outward from its anchor (`join-layout.ts`). */
import { significant } from "../sql/lexer.js";
import { quoteIdent } from "../sql/quote.js";
import { isName, isPunct } from "../sql/tokens.js";
import type { ExpandContext } from "./context.js";
import { tokensOf } from "../sql/references.js";
import { lateralLines, layeredTable } from "./fact-layers.js";
import { keyOf, type JoinTree } from "./join-graph.js";
import type { LateralColumn, LayerColumn } from "./members.js";
import { fromLines } from "./join-layout.js";
import { groupByLines, selectLines } from "./sql-layout.js";

export interface SelectSpec {
  readonly tree: JoinTree;
  readonly aliasOf: (key: string) => string;
  readonly items: readonly { sql: string; name: string }[];
  /** Keys of the tables the items and conditions need; the tables on the way are joined too. */
  readonly needed: readonly string[];
  readonly filter: RowFilter;
  readonly distinct: boolean;
  /** The first `groupCount` items are the GROUP BY keys (by ordinal). */
  readonly groupCount: number;
  /** Shared facts (`MemberSql` in shared mode; empty when members are inlined). */
  readonly shared: SharedColumns;
  /** An expression with role-played qualifiers re-pointed at their scoped aliases. */
  readonly scoped: (sql: string) => string;
}

/** WHERE conditions (joined by AND) and the keys of the tables they restrict. */
export interface RowFilter {
  readonly conditions: readonly string[];
  readonly tables: readonly string[];
}

export const NO_FILTER: RowFilter = Object.freeze({ conditions: [], tables: [] });

export interface SharedColumns {
  /** Table key → the fact columns its layered projection adds. */
  readonly layers: ReadonlyMap<string, readonly LayerColumn[]>;
  /** Facts over several tables, computed after the joins. */
  readonly laterals: readonly LateralColumn[];
}

/** `"alias"."pk"` for a table's first key column, or undefined when it has no key. */
export function keySql(ctx: ExpandContext, key: string, sqlAlias: string): string | undefined {
  const t = ctx.graph.table(key);
  const column = t.primaryKey[0] ?? t.unique[0]?.[0];
  return column === undefined ? undefined : `${quoteIdent(sqlAlias)}.${quoteIdent(column)}`;
}

/**
 * Tables on the tree paths from the anchor to each needed table (an unreachable one adds nothing),
 * each path in order from the anchor down. A path is walked up only until a table already joined.
 */
export function joinedTables(tree: JoinTree, needed: readonly string[]): Set<string> {
  const out = new Set<string>([tree.anchor]);
  const pending: string[] = [];
  for (const t of needed) {
    pending.length = 0;
    let cur = t;
    while (!out.has(cur)) {
      const step = tree.steps.get(cur);
      if (step === undefined) break;
      pending.push(cur);
      cur = step.parent;
    }
    if (!out.has(cur)) continue;
    for (let i = pending.length - 1; i >= 0; i--) out.add(pending[i]!);
  }
  return out;
}

export function emitSelect(ctx: ExpandContext, spec: SelectSpec): string {
  const { tree, aliasOf } = spec;
  const joined = joinedTables(tree, spec.needed);
  // Emit joins in breadth-first order so every ON refers to an already joined table.
  const depth = (k: string): number => tree.depth.get(k) ?? Number.MAX_SAFE_INTEGER;
  const order = [...joined].sort((a, b) => depth(a) - depth(b));
  const source = (k: string): string =>
    layeredTable(tableRef(ctx, k), ctx.graph.table(k).alias, spec.shared.layers.get(k));
  const onOf = (k: string): string => {
    const rel = tree.steps.get(k)!.rel;
    const fromAlias = quoteIdent(aliasOf(keyOf(rel.fromAlias)));
    const toAlias = quoteIdent(aliasOf(keyOf(rel.toAlias)));
    return rel.fkColumns
      .map((fk, i) => `${fromAlias}.${quoteIdent(fk)} = ${toAlias}.${quoteIdent(rel.refColumns[i] ?? fk)}`)
      .join(" AND ");
  };
  const lines = [
    ...selectLines(
      spec.items.map((i) => `${i.sql} AS ${quoteIdent(i.name)}`),
      spec.distinct,
    ),
    ...fromLines(
      {
        tree,
        order,
        source: (k) => `${source(k)} AS ${quoteIdent(aliasOf(k))}`,
        on: onOf,
        filtered: spec.filter.tables,
      },
      ctx.joinLayout,
    ),
    ...lateralLines(spec.shared.laterals, joined, spec.scoped),
  ];
  const { conditions } = spec.filter;
  if (conditions.length > 0) lines.push(`WHERE ${conditions.join(" AND ")}`);
  lines.push(...groupByLines(spec.groupCount));
  return lines.join("\n");
}

/**
 * The physical table, qualified as the definition resolved it: a reference written with a schema
 * (or database) keeps its parts; a bare name gets the database and schema it was found in at CREATE
 * (else the view's database and resolution schema), so the view answers from any session context.
 */
function tableRef(ctx: ExpandContext, key: string): string {
  const t = ctx.graph.table(key);
  const unsupported = (): never => ctx.fail(`table '${t.alias}' has an unsupported table reference '${t.table}'`);
  const tokens = significant(tokensOf(t.table));
  const parts: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (i % 2 === 1) {
      if (isPunct(tok, ".")) continue;
      unsupported();
    }
    if (!isName(tok)) unsupported();
    parts.push(quoteIdent(tok.value));
  }
  if (parts.length === 0 || tokens.length % 2 === 0) unsupported();
  if (parts.length > 1) return parts.join(".");
  const def = ctx.def;
  const database = t.resolved?.database ?? def.databaseName;
  const schema = t.resolved?.schema ?? def.resolutionSchemaName ?? def.schemaName;
  return [quoteIdent(database), quoteIdent(schema), parts[0]!].join(".");
}
