/**
 * Rewrites the subset of Snowflake SQL that backend A's compiler emits into DuckDB SQL:
 * `SEMANTIC_VIEW(v DIMENSIONS d AS a, ... METRICS m AS a, ... FACTS f, ... WHERE pred)` becomes a
 * grouped subquery over the view's base table, `NUMBER(p,s)` becomes `DECIMAL(p,s)` and the integer
 * types (NUMBER(38,0) in Snowflake) `DECIMAL(38,0)`. Like
 * Snowflake it refuses an alias on a FACTS item (001003).
 * Semantic views are registered as a map from member name to a DuckDB expression.
 */
import { checkGrain } from "./semantic-view-grain.js";
import {
  backslashStringToDuckDB,
  identifierOf,
  isKeyword,
  quoteIdentifier,
  tokenize,
  untokenize,
  type Token,
} from "./sql-tokens.js";
import {
  resolveVariables,
  splitVariables,
  substituteVariables,
  type StandInVariable,
} from "./semantic-view-variables.js";

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
  /** Variable name (upper case unless created quoted) → its type and default (semantic-view-variables.ts). */
  readonly variables?: Readonly<Record<string, StandInVariable>>;
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

/** How the stand-in's account answers what Snowflake answers differently by account. */
export interface SnowflakeBehaviour {
  /**
   * FACTS with DIMENSIONS: `"reject"` (default) as accounts with the 2026_07 behaviour change bundle do
   * ("Querying FACTS with DIMENSIONS in a semantic view is not supported"), or `"group"` as accounts
   * without it: grouped by the dimensions, one arbitrary fact value per group (SEMANTIC_VIEW usage notes).
   */
  readonly factsWithDimensions?: "reject" | "group";
}

export function translateSnowflakeSql(
  sql: string,
  views: ReadonlyMap<string, StandInSemanticView>,
  behaviour: SnowflakeBehaviour = {},
): string {
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
      const query = semanticViewQuery(tokens.slice(next + 1, close), views, behaviour);
      refuseAmbiguousReferences(tokens, next, close, query.columns);
      out.push({ kind: "punct", text: `(${query.sql})` });
      i = close;
    } else if (isKeyword(token, "NUMBER") && next !== undefined && tokens[next]!.text === "(") {
      out.push({ kind: "word", text: "DECIMAL" });
    } else if (isKeyword(token, "TO_TIMESTAMP_NTZ") && next !== undefined && tokens[next]!.text === "(") {
      const close = matchingParen(tokens, next);
      out.push({ kind: "punct", text: epochTimestamp(tokens.slice(next + 1, close), views, behaviour) });
      i = close;
    } else if (token.kind === "string") {
      out.push({ kind: "string", text: backslashStringToDuckDB(token.text) });
    } else if (token.kind === "word" && SNOWFLAKE_INTEGER_TYPES.has(token.text.toUpperCase())) {
      out.push({ kind: "word", text: "DECIMAL(38,0)" });
    } else {
      out.push(token);
    }
  }
  return untokenize(out);
}

/** `TO_TIMESTAMP_NTZ(<epoch>, 3)` (milliseconds) as DuckDB; other forms are not needed by the compiler. */
function epochTimestamp(
  args: readonly Token[],
  views: ReadonlyMap<string, StandInSemanticView>,
  behaviour: SnowflakeBehaviour,
): string {
  const text = untokenize(args);
  const m = /^([\s\S]*),\s*3\s*$/.exec(text);
  if (m === null) throw syntax(`TO_TIMESTAMP_NTZ(${text}) is not supported by the stand-in`);
  return `epoch_ms(CAST((${translateSnowflakeSql(m[1]!, views, behaviour)}) AS BIGINT))`;
}

/**
 * The output columns of SEMANTIC_VIEW take the aliases, or a fact's unqualified name; two facts of
 * different logical tables can share it (`SUPPLIER.NAME`, `CUSTOMER.NAME`), and a reference to the
 * shared name outside the construct is ambiguous in Snowflake (DuckDB would silently pick the first).
 */
function refuseAmbiguousReferences(tokens: readonly Token[], open: number, close: number, columns: readonly string[]) {
  const shared = new Set(columns.filter((c, i) => columns.indexOf(c) !== i));
  if (shared.size === 0) return;
  tokens.forEach((token, i) => {
    const name = i > open && i < close ? undefined : identifierOf(token);
    if (name !== undefined && shared.has(name)) {
      throw new StandInSqlError(`SQL compilation error:\nambiguous column name '${name}'`, "002028", "42000");
    }
  });
}

function semanticViewQuery(
  allTokens: readonly Token[],
  views: ReadonlyMap<string, StandInSemanticView>,
  behaviour: SnowflakeBehaviour,
): { sql: string; columns: string[] } {
  const { body, assigned } = splitVariables(allTokens);
  const inner = body;
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
  const values = new Map(
    [...resolveVariables(view.variables, assigned, view.name)].map(([name, value]) => [
      name,
      translateSnowflakeSql(value, views, behaviour),
    ]),
  );
  const select: { clause: Clause; expression: string; alias: string }[] = [];
  const selected: Record<"DIMENSIONS" | "METRICS", string[]> = { DIMENSIONS: [], METRICS: [] };
  let where = "";
  while (i < tokens.length) {
    const keyword = tokens[i]!.text.toUpperCase() as Clause | "WHERE";
    if (tokens[i]!.kind === "word" && keyword === "WHERE") {
      // The predicate keeps its original spacing: rewrite member references in the raw tokens.
      const whereAt = inner.indexOf(tokens[i]!);
      const predicate = substituteVariables(memberSubstituted(inner.slice(whereAt + 1), view), values);
      where = ` WHERE ${translateSnowflakeSql(predicate, views, behaviour)}`;
      break;
    }
    if (tokens[i]!.kind !== "word" || !(CLAUSES as readonly string[]).includes(keyword)) {
      throw syntax(`unexpected '${tokens[i]!.text}' in SEMANTIC_VIEW`);
    }
    const members =
      keyword === "DIMENSIONS" ? view.dimensions : keyword === "METRICS" ? view.metrics : (view.facts ?? {});
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
      if (keyword === "DIMENSIONS" || keyword === "METRICS") selected[keyword].push(member);
      i++;
      if (isKeyword(tokens[i], "AS")) {
        // Snowflake's grammar: `FACTS <fact_expr> [, ...]`, aliases only on DIMENSIONS and METRICS.
        if (keyword === "FACTS") throw syntax("unexpected 'AS' in FACTS");
        const aliasName = tokens[i + 1] && identifierOf(tokens[i + 1]!);
        if (aliasName === undefined) throw syntax("expected an alias after AS");
        alias = aliasName;
        i += 2;
      }
      select.push({ clause: keyword as Clause, expression: substituteVariables(expression, values), alias });
      if (tokens[i]?.text !== ",") break;
      i++;
    }
  }
  checkGrain(view, selected.METRICS, selected.DIMENSIONS);
  return { sql: groupedSelect(select, view.table, where, behaviour), columns: select.map((c) => c.alias) };
}

/**
 * What SEMANTIC_VIEW returns, as DuckDB SQL: metrics grouped by the dimensions; dimensions alone, their
 * distinct values; facts alone, one row per source row (not grouped: duplicate rows stay); facts with
 * dimensions as `behaviour` says.
 */
function groupedSelect(
  select: readonly { clause: Clause; expression: string; alias: string }[],
  table: string,
  where: string,
  behaviour: SnowflakeBehaviour,
): string {
  const has = (clause: Clause) => select.some((c) => c.clause === clause);
  if (select.length === 0) throw syntax("SEMANTIC_VIEW needs DIMENSIONS, METRICS or FACTS");
  if (has("METRICS") && has("FACTS")) throw syntax("unexpected 'FACTS' (METRICS and FACTS cannot be combined)");
  const columns = (wrapFacts: boolean) =>
    select
      .map(
        (c) =>
          `${wrapFacts && c.clause === "FACTS" ? `ANY_VALUE(${c.expression})` : c.expression} AS ${quoteIdentifier(c.alias)}`,
      )
      .join(", ");
  if (has("FACTS") && has("DIMENSIONS")) {
    if ((behaviour.factsWithDimensions ?? "reject") === "reject") {
      throw new StandInSqlError(
        "SQL compilation error:\nQuerying FACTS with DIMENSIONS in a semantic view is not supported.",
        "001003",
        "42000",
      );
    }
    return `SELECT ${columns(true)} FROM ${table}${where} GROUP BY ALL`;
  }
  if (has("FACTS")) return `SELECT ${columns(false)} FROM ${table}${where}`;
  if (has("METRICS")) return `SELECT ${columns(false)} FROM ${table}${where} GROUP BY ALL`;
  return `SELECT DISTINCT ${columns(false)} FROM ${table}${where}`;
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
