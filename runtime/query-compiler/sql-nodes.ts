/** Small helpers to assemble Kysely operation nodes around fixed SQL keywords. */
import type { OperationNode, RawNode } from "kysely";
import { kysely } from "./kysely.js";

/** `sql\`SELECT ${node} FROM ...\`` as a Kysely RawNode (fragments are our own constant SQL). */
export function sqlNode(fragments: TemplateStringsArray, ...nodes: OperationNode[]): RawNode {
  return kysely().RawNode.create([...fragments], nodes);
}

/** The nodes separated by `separator` (e.g. `, `). */
export function joinNodes(nodes: readonly OperationNode[], separator: string): RawNode {
  const { RawNode } = kysely();
  if (nodes.length === 0) return RawNode.createWithSql("");
  const fragments = ["", ...nodes.slice(1).map(() => separator), ""];
  return RawNode.create(fragments, nodes);
}

export function keyword(sql: string): RawNode {
  return kysely().RawNode.createWithSql(sql);
}
