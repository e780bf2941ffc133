/**
 * Comments blanked out of SQL text, byte length kept (`/* x *\/` → spaces), as the extension's DDL
 * front door does before parsing: a member expression is stored without the comments written
 * inside it, and every offset still points at the same place.
 */
import { tokenize } from "./lexer.js";

export function blankComments(sql: string): string {
  if (!sql.includes("--") && !sql.includes("/*")) return sql;
  let out = "";
  for (const t of tokenize(sql)) out += t.kind === "comment" ? " ".repeat(Buffer.byteLength(t.text, "utf8")) : t.text;
  return out;
}
