/**
 * Spark SQL member expressions (metric-view YAML) rewritten for DuckDB, with every construct whose
 * answer could differ named instead of copied silently:
 * - lexically: `` `name` `` identifiers become `"name"`, `'...'` and `"..."` strings (backslash
 *   escapes) become DuckDB `'...'` literals;
 * - array subscripts with a literal index move from 0-based (Spark) to 1-based (DuckDB); any other
 *   index is listed;
 * - calls are kept only for functions whose DuckDB result equals Spark's (value and value kind);
 *   others are listed. `CAST` is kept when its target type has an exact DuckDB equivalent;
 * - `/` is listed: Spark divides DECIMALs into a DECIMAL, DuckDB into a DOUBLE.
 */
import { isKeyword, isOp, isPunct } from "../../semantic/sql/tokens.js";
import { commonDuckdbTypeOf } from "../fixture/base-tables.js";
import { tokensOf, type Token } from "../fixture/token-cursor.js";

/** Functions with the same result (and the same value kind in lib) in Spark and DuckDB. */
const SAME_FUNCTIONS = new Set(["COUNT", "SUM", "MIN", "MAX", "COALESCE", "ABS", "UPPER", "LOWER", "NULLIF"]);
/** Words that may precede `(` without being a function call. */
const NOT_CALLS = new Set([
  "IN",
  "EXISTS",
  "AND",
  "OR",
  "NOT",
  "WHEN",
  "THEN",
  "ELSE",
  "IS",
  "AS",
  "ON",
  "BETWEEN",
  "LIKE",
  "DISTINCT",
  "CAST",
  "FILTER",
  "MEASURE",
]);

/** Reads a Spark string literal body from `open` (a quote); returns the value and the index after it. */
function sparkString(text: string, open: number): { value: string; end: number } {
  const quote = text[open]!;
  let value = "";
  let i = open + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const e = text[i + 1]!;
      value += ({ n: "\n", t: "\t", r: "\r", "0": "\0" } as Record<string, string>)[e] ?? e;
      i += 2;
    } else if (c === quote) {
      if (text[i + 1] === quote) {
        value += quote;
        i += 2;
      } else return { value, end: i + 1 };
    } else {
      value += c;
      i++;
    }
  }
  throw new Error(`unterminated string in ${JSON.stringify(text)}`);
}

/** Spark text with DuckDB quoting: backtick identifiers → double-quoted, strings → single-quoted. */
export function sparkToDuckdbText(expr: string): string {
  let out = "";
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (c === "'" || c === '"') {
      const { value, end } = sparkString(expr, i);
      out += `'${value.replaceAll("'", "''")}'`;
      i = end;
    } else if (c === "`") {
      let name = "";
      let j = i + 1;
      for (; j < expr.length; j++) {
        if (expr[j] === "`") {
          if (expr[j + 1] !== "`") break;
          j++;
        }
        name += expr[j];
      }
      if (j >= expr.length) throw new Error(`unterminated identifier in ${JSON.stringify(expr)}`);
      out += `"${name.replaceAll('"', '""')}"`;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const endsOperand = (t: Token | undefined) =>
  t !== undefined && (t.kind === "ident" || t.kind === "quoted_ident" || isPunct(t, ")") || isPunct(t, "]"));

/** Rewrites DuckDB-quoted text of a Spark expression; `issues` names what could answer differently. */
export function translateSparkSemantics(text: string): { text: string; issues: string[] } {
  const tokens = tokensOf(text);
  const issues: string[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  tokens.forEach((t, i) => {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (isPunct(t, "[") && endsOperand(prev)) {
      const close = tokens[i + 2];
      if (next?.kind === "number" && /^\d+$/.test(next.text) && isPunct(close, "]")) {
        edits.push({ start: next.start, end: next.end, text: String(Number(next.text) + 1) });
      } else
        issues.push(`array index [${text.slice(t.end, close?.start ?? t.end)}] (0-based in Spark, 1-based in DuckDB)`);
    } else if (t.kind === "ident" && isPunct(next, "(") && !isOp(prev, "::") && !isPunct(prev, ".")) {
      const word = t.value.toUpperCase();
      if (word === "CAST") castIssue(tokens, i, edits, issues);
      else if (word === "SPLIT" && literalSplit(tokens, i))
        edits.push({ start: t.start, end: t.end, text: "string_split" });
      else if (!NOT_CALLS.has(word) && !SAME_FUNCTIONS.has(word)) {
        issues.push(`function ${t.value}() (no DuckDB function checked to answer as Spark's does)`);
      }
    } else if (isOp(t, "/")) {
      issues.push("division (Spark divides DECIMALs into a DECIMAL, DuckDB into a DOUBLE)");
    } else if (isOp(t, "::")) {
      issues.push(`cast ::${next?.text ?? ""} (write CAST(... AS type) to have it translated)`);
    }
  });
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out, issues: [...new Set(issues)] };
}

/**
 * `split(s, 'sep')`: Spark splits on a regular expression, DuckDB's `string_split` on the text;
 * the same when `sep` is a literal without regex metacharacters and no limit is given.
 */
function literalSplit(tokens: readonly Token[], at: number): boolean {
  let depth = 0;
  const args: Token[][] = [[]];
  for (let j = at + 1; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (isPunct(t, "(") && depth++ === 0) continue;
    if (isPunct(t, ")") && --depth === 0) break;
    if (depth === 1 && isPunct(t, ",")) args.push([]);
    else args.at(-1)!.push(t);
  }
  const sep = args[1];
  return (
    args.length === 2 && sep?.length === 1 && sep[0]!.kind === "string" && !/[.\\+*?()[\]{}|^$]/.test(sep[0]!.value)
  );
}

/** `CAST(x AS type)`: the type mapped to DuckDB's, or an issue when it has no exact equivalent. */
function castIssue(
  tokens: readonly Token[],
  at: number,
  edits: { start: number; end: number; text: string }[],
  issues: string[],
): void {
  let depth = 0;
  let as: number | undefined;
  let close: number | undefined;
  for (let j = at + 1; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (isPunct(t, "(")) depth++;
    else if (isPunct(t, ")") && --depth === 0) {
      close = j;
      break;
    } else if (depth === 1 && isKeyword(t, "AS")) as = j;
  }
  if (as === undefined || close === undefined) return;
  const typeText = tokens
    .slice(as + 1, close)
    .map((t) => t.text)
    .join("");
  const duckdb = commonDuckdbTypeOf(typeText);
  if (duckdb === undefined) issues.push(`CAST(... AS ${typeText}) (no exact DuckDB type)`);
  else edits.push({ start: tokens[as + 1]!.start, end: tokens[close - 1]!.end, text: duckdb });
}
