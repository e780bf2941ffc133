/**
 * Rewrites the subset of Snowflake SQL that backend A's compiler emits into DuckDB SQL:
 * `SEMANTIC_VIEW(v DIMENSIONS d AS a, ... METRICS m AS a, ... FACTS f, ... WHERE pred)` becomes a
 * grouped subquery over the view's base table, `NUMBER(p,s)` becomes `DECIMAL(p,s)` and the integer
 * types (NUMBER(38,0) in Snowflake) `DECIMAL(38,0)`. Like
 * Snowflake it refuses an alias on a FACTS item (001003).
 * Semantic views are registered as a map from member name to a DuckDB expression.
 */
import { checkGrain } from "./semantic-view-grain.js";
import { identifierOf, isKeyword, quoteIdentifier, tokenize, untokenize, type Token } from "./sql-tokens.js";

export interface StandInSemanticView {
  /** Upper-case Snowflake name, e.g. `SALES`. */
  readonly name: string;
  /** The DuckDB table (or subquery text) the view reads. */
  readonly table: string;
  /** Member name (upper case) → DuckDB expression over the table's columns. */
  readonly dimensions: Readonly<Record<string, string>>;
  readonly metrics: Readonly<Record<string, string>>;
  readonly facts?: Readonly<Record<string, string>>;
  readonly comment?: string;
  /** Member name → Snowflake DATA_TYPE reported by DESCRIBE (default NUMBER(38,0) for metrics, VARCHAR(16777216) otherwise). */
  readonly dataTypes?: Readonly<Record<string, string>>;
  /** Many-to-one relationships between logical tables (`[ORDERS, CUSTOMERS]`): see semantic-view-grain.ts. */
  readonly relationships?: readonly (readonly [from: string, to: string])[];
}

/** A statement the stand-in refuses, with Snowflake's code and SQLSTATE. */
export class StandInSqlError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly sqlState: string,
  ) {
    super(message);
  }
}

/** Snowflake's integer type names: all synonyms of NUMBER(38,0). */
const SNOWFLAKE_INTEGER_TYPES = new Set(["INTEGER", "INT", "BIGINT", "SMALLINT", "TINYINT", "BYTEINT"]);

const CLAUSES = ["DIMENSIONS", "METRICS", "FACTS"] as const;
type Clause = (typeof CLAUSES)[number];

export function translateSnowflakeSql(sql: string, views: ReadonlyMap<string, StandInSemanticView>): string {
  let tokens: Token[];
  try {
    tokens = tokenize(sql);
  } catch (error) {
    throw new StandInSqlError(`SQL compilation error:\n${(error as Error).message}`, "001003", "42000");
  }
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = nextSignificant(tokens, i + 1);
    if (isKeyword(token, "SEMANTIC_VIEW") && next !== undefined && tokens[next]!.text === "(") {
      const close = matchingParen(tokens, next);
      out.push({ kind: "punct", text: `(${semanticViewQuery(tokens.slice(next + 1, close), views)})` });
      i = close;
    } else if (isKeyword(token, "NUMBER") && next !== undefined && tokens[next]!.text === "(") {
      out.push({ kind: "word", text: "DECIMAL" });
    } else if (isKeyword(token, "TO_TIMESTAMP_NTZ") && next !== undefined && tokens[next]!.text === "(") {
      const close = matchingParen(tokens, next);
      out.push({ kind: "punct", text: epochTimestamp(tokens.slice(next + 1, close), views) });
      i = close;
    } else if (token.kind === "word" && SNOWFLAKE_INTEGER_TYPES.has(token.text.toUpperCase())) {
      out.push({ kind: "word", text: "DECIMAL(38,0)" });
    } else {
      out.push(token);
    }
  }
  return untokenize(out);
}

/** `TO_TIMESTAMP_NTZ(<epoch>, 3)` (milliseconds) as DuckDB; other forms are not needed by the compiler. */
function epochTimestamp(args: readonly Token[], views: ReadonlyMap<string, StandInSemanticView>): string {
  const text = untokenize(args);
  const m = /^([\s\S]*),\s*3\s*$/.exec(text);
  if (m === null) throw syntax(`TO_TIMESTAMP_NTZ(${text}) is not supported by the stand-in`);
  return `epoch_ms(CAST((${translateSnowflakeSql(m[1]!, views)}) AS BIGINT))`;
}

function semanticViewQuery(inner: readonly Token[], views: ReadonlyMap<string, StandInSemanticView>): string {
  const tokens = inner.filter((t) => t.kind !== "space" && t.kind !== "comment");
  let i = 0;
  const nameParts: string[] = [];
  for (;;) {
    const part = tokens[i] && identifierOf(tokens[i]!);
    if (part === undefined) throw syntax("expected a semantic view name");
    nameParts.push(part);
    i++;
    if (tokens[i]?.text !== ".") break;
    i++;
  }
  const viewName = nameParts.at(-1)!;
  const view = views.get(viewName);
  if (view === undefined) {
    throw new StandInSqlError(
      `SQL compilation error:\nSemantic view '${nameParts.join(".")}' does not exist or not authorized.`,
      "002003",
      "42S02",
    );
  }
  const select: string[] = [];
  const selected: Record<"DIMENSIONS" | "METRICS", string[]> = { DIMENSIONS: [], METRICS: [] };
  let hasMetrics = false;
  let where = "";
  while (i < tokens.length) {
    const keyword = tokens[i]!.text.toUpperCase() as Clause | "WHERE";
    if (tokens[i]!.kind === "word" && keyword === "WHERE") {
      // The predicate keeps its original spacing: rewrite member references in the raw tokens.
      const whereAt = inner.indexOf(tokens[i]!);
      where = ` WHERE ${translateSnowflakeSql(memberSubstituted(inner.slice(whereAt + 1), view), views)}`;
      break;
    }
    if (tokens[i]!.kind !== "word" || !(CLAUSES as readonly string[]).includes(keyword)) {
      throw syntax(`unexpected '${tokens[i]!.text}' in SEMANTIC_VIEW`);
    }
    const members =
      keyword === "DIMENSIONS" ? view.dimensions : keyword === "METRICS" ? view.metrics : (view.facts ?? {});
    if (keyword === "METRICS") hasMetrics = true;
    i++;
    for (;;) {
      let member = tokens[i] && identifierOf(tokens[i]!);
      if (member === undefined) throw syntax(`expected a member name after ${keyword}`);
      let alias = member;
      // `table.member`: a member that several logical tables share, registered under its qualified key.
      const qualifiedPart = tokens[i + 1]?.text === "." && tokens[i + 2] ? identifierOf(tokens[i + 2]!) : undefined;
      if (qualifiedPart !== undefined) {
        member = `${member}.${qualifiedPart}`;
        alias = qualifiedPart;
        i += 2;
      }
      const expression = members[member];
      if (expression === undefined) {
        throw new StandInSqlError(`SQL compilation error:\ninvalid identifier '${member}'`, "000904", "42000");
      }
      if (keyword !== "FACTS") selected[keyword].push(member);
      i++;
      if (isKeyword(tokens[i], "AS")) {
        // Snowflake's grammar: `FACTS <fact_expr> [, ...]`, aliases only on DIMENSIONS and METRICS.
        if (keyword === "FACTS") throw syntax("unexpected 'AS' in FACTS");
        const aliasName = tokens[i + 1] && identifierOf(tokens[i + 1]!);
        if (aliasName === undefined) throw syntax("expected an alias after AS");
        alias = aliasName;
        i += 2;
      }
      select.push(`${expression} AS ${quoteIdentifier(alias)}`);
      if (tokens[i]?.text !== ",") break;
      i++;
    }
  }
  if (select.length === 0) throw syntax("SEMANTIC_VIEW needs DIMENSIONS, METRICS or FACTS");
  checkGrain(view, selected.METRICS, selected.DIMENSIONS);
  const distinct = hasMetrics ? "" : "DISTINCT ";
  const groupBy = hasMetrics ? " GROUP BY ALL" : "";
  return `SELECT ${distinct}${select.join(", ")} FROM ${view.table}${where}${groupBy}`;
}

function memberSubstituted(tokens: readonly Token[], view: StandInSemanticView): string {
  const nameOf = (token: Token | undefined) =>
    token !== undefined && (token.kind === "quoted" || token.kind === "word") ? identifierOf(token) : undefined;
  const merged: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    // `"TABLE"."MEMBER"` of a qualified member becomes one token naming its key.
    const table = nameOf(tokens[i]);
    const member = tokens[i + 1]?.text === "." ? nameOf(tokens[i + 2]) : undefined;
    const key = table !== undefined && member !== undefined ? `${table}.${member}` : undefined;
    if (key !== undefined && (view.dimensions[key] ?? view.facts?.[key]) !== undefined) {
      merged.push({ kind: "quoted", text: quoteIdentifier(key) });
      i += 2;
    } else {
      merged.push(tokens[i]!);
    }
  }
  return merged
    .map((token) => {
      const name = nameOf(token);
      if (name === undefined) return token.text;
      const expression = view.dimensions[name] ?? view.facts?.[name];
      if (expression !== undefined) return `(${expression})`;
      if (token.kind === "quoted" && view.metrics[name] !== undefined) {
        throw new StandInSqlError(
          "SQL compilation error:\nmetrics cannot be used in the WHERE clause of a semantic view query",
          "002262",
          "42601",
        );
      }
      if (isKeyword(token, "NUMBER")) return "DECIMAL";
      return token.text;
    })
    .join("");
}

function nextSignificant(tokens: readonly Token[], from: number): number | undefined {
  for (let i = from; i < tokens.length; i++) if (tokens[i]!.kind !== "space" && tokens[i]!.kind !== "comment") return i;
  return undefined;
}

function matchingParen(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i]!.text === "(") depth++;
    else if (tokens[i]!.text === ")" && --depth === 0) return i;
  }
  throw syntax("unbalanced parentheses in SEMANTIC_VIEW");
}

function syntax(detail: string): StandInSqlError {
  return new StandInSqlError(`SQL compilation error:\nsyntax error: ${detail}`, "001003", "42000");
}
