/**
 * The VARIABLES clause of a semantic view's DDL (`GET_DDL('SEMANTIC_VIEW', ...)`), read for codegen.
 * CREATE SEMANTIC VIEW's grammar (docs.snowflake.com/en/user-guide/views-semantic/variables):
 * `VARIABLES ( <name> [ <data_type> ] [ { DEFAULT | := } <default_expr> ] [ COMMENT '<description>' ] [ , ... ] )`,
 * after RELATIONSHIPS and before FACTS. A variable without a default must be set by every query.
 */
import type { VariableMetadata } from "../introspect/metadata.js";

/** The variables the DDL declares, in order; none when it has no VARIABLES clause. */
export function variablesOfDdl(ddl: string): VariableMetadata[] {
  const clause = topLevelClause(ddl, "variables");
  return clause === undefined ? [] : splitTopLevel(clause).map(variableOf);
}

const NAME = /^\s*("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)\s*/;

function variableOf(entry: string): VariableMetadata {
  const m = NAME.exec(entry);
  if (m === null) throw new Error(`cannot read variables entry "${entry}"`);
  const written = m[1]!;
  const name = written.startsWith('"') ? written.slice(1, -1).replaceAll('""', '"') : written.toUpperCase();
  let rest = entry.slice(m[0].length);
  let comment: string | undefined;
  const trailing = /\s*\bcomment\s*=?\s*'((?:[^']|'')*)'\s*$/i.exec(rest);
  if (trailing) {
    comment = trailing[1]!.replaceAll("''", "'");
    rest = rest.slice(0, trailing.index);
  }
  const defaultAt = /(?:^|\s)(?:default\b|:=)/i.exec(rest);
  const type = (defaultAt === null ? rest : rest.slice(0, defaultAt.index)).trim();
  return { name, type, hasDefault: defaultAt !== null, ...(comment === undefined ? {} : { comment }) };
}

/** The text inside `<keyword> ( ... )` at the top level of `ddl` (outside quotes and parentheses). */
function topLevelClause(ddl: string, keyword: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < ddl.length; i++) {
    const ch = ddl[i]!;
    if (ch === "'" || ch === '"') i = closingQuote(ddl, i);
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (
      depth === 0 &&
      ddl.slice(i, i + keyword.length).toLowerCase() === keyword &&
      /\W/.test(ddl[i - 1] ?? " ")
    ) {
      const open = /^\s*\(/.exec(ddl.slice(i + keyword.length));
      if (open === null) continue;
      const start = i + keyword.length + open[0].length;
      let nested = 1;
      for (let j = start; j < ddl.length; j++) {
        const c = ddl[j]!;
        if (c === "'" || c === '"') j = closingQuote(ddl, j);
        else if (c === "(") nested++;
        else if (c === ")" && --nested === 0) return ddl.slice(start, j);
      }
      return undefined;
    }
  }
  return undefined;
}

function splitTopLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i]!;
    if (ch === "'" || ch === '"') i = closingQuote(list, i);
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out.map((e) => e.trim()).filter((e) => e !== "");
}

/** The index of the quote closing the one at `open` (a doubled quote stays inside). */
function closingQuote(text: string, open: number): number {
  const q = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === q) {
      if (text[i + 1] === q) i++;
      else return i;
    }
  }
  return text.length;
}
