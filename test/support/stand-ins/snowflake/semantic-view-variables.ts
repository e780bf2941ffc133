/**
 * Semantic-view variables in the Snowflake stand-in (docs.snowflake.com/en/user-guide/views-semantic/variables,
 * GA 2026-06-26): a view declares `VARIABLES (<name> [<type>] [DEFAULT <expr>])`, member expressions refer to
 * a variable by name, and a query sets values with `SEMANTIC_VIEW(... VARIABLES <name> { = | => } <value>, ...)`.
 * A variable without a default that the query does not set makes the query fail; setting a name the view
 * does not declare is an invalid identifier. Values are substituted into the member expressions
 * (cast to the declared type), binds included: the statement's `?` are numbered beforehand so a
 * value used in several expressions keeps its bind.
 */
import { StandInSqlError } from "./semantic-view-sql.js";
import { identifierOf, isKeyword, tokenize, untokenize, type Token } from "./sql-tokens.js";

export interface StandInVariable {
  /** Snowflake type, e.g. `NUMBER(38,0)`. */
  readonly type: string;
  /** Default expression; none: a query must set the variable. */
  readonly default?: string;
}

/** `?` placeholders as `$1`, `$2`, ... in statement order (the Snowflake binds, in DuckDB's numbered form). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return untokenize(tokenize(sql).map((t) => (t.kind === "punct" && t.text === "?" ? { ...t, text: `$${++n}` } : t)));
}

/** Splits `... VARIABLES a => 1, b = $2` off the SEMANTIC_VIEW arguments: the rest, and name → value text. */
export function splitVariables(inner: readonly Token[]): { body: Token[]; assigned: Map<string, string> } {
  let depth = 0;
  const at = inner.findIndex((t) => {
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    return depth === 0 && isKeyword(t, "VARIABLES");
  });
  if (at < 0) return { body: [...inner], assigned: new Map() };
  const rest = inner.slice(at + 1);
  const significant = (from: number) => {
    let i = from;
    while (i < rest.length && (rest[i]!.kind === "space" || rest[i]!.kind === "comment")) i++;
    return i;
  };
  const assigned = new Map<string, string>();
  let i = significant(0);
  while (i < rest.length) {
    const name = identifierOf(rest[i]!);
    const equals = significant(i + 1);
    if (name === undefined || rest[equals]?.text !== "=") throw syntax(`unexpected '${rest[i]!.text}' in VARIABLES`);
    i = rest[equals + 1]?.text === ">" ? equals + 2 : equals + 1;
    const value: Token[] = [];
    let nested = 0;
    for (; i < rest.length && !(nested === 0 && rest[i]!.text === ","); i++) {
      if (rest[i]!.text === "(") nested++;
      else if (rest[i]!.text === ")") nested--;
      value.push(rest[i]!);
    }
    const text = untokenize(value).trim();
    if (text === "") throw syntax(`VARIABLES ${name} has no value`);
    assigned.set(name, text);
    i = significant(i + 1);
  }
  return { body: inner.slice(0, at), assigned };
}

/** Every declared variable's value for this query (Snowflake SQL text, cast to its type), or the error Snowflake gives. */
export function resolveVariables(
  declared: Readonly<Record<string, StandInVariable>> | undefined,
  assigned: ReadonlyMap<string, string>,
  viewName: string,
): Map<string, string> {
  const values = new Map<string, string>();
  for (const name of assigned.keys()) {
    if (declared?.[name] === undefined) {
      throw new StandInSqlError(`SQL compilation error:\ninvalid identifier '${name}'`, "000904", "42000");
    }
  }
  for (const [name, variable] of Object.entries(declared ?? {})) {
    const value = assigned.get(name) ?? variable.default;
    if (value === undefined) {
      throw new StandInSqlError(
        `SQL compilation error:\nVariable '${name}' of semantic view '${viewName}' has no default value and was not set in the query.`,
        "001003",
        "42000",
      );
    }
    values.set(name, `CAST((${value}) AS ${variable.type})`);
  }
  return values;
}

/** `expression` with each reference to a variable replaced by its value. */
export function substituteVariables(expression: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0) return expression;
  return untokenize(
    tokenize(expression).map((t) => {
      const name = t.kind === "word" || t.kind === "quoted" ? identifierOf(t) : undefined;
      const value = name === undefined ? undefined : values.get(name);
      return value === undefined ? t : { kind: "punct" as const, text: `(${value})` };
    }),
  );
}

function syntax(detail: string): StandInSqlError {
  return new StandInSqlError(`SQL compilation error:\nsyntax error: ${detail}`, "001003", "42000");
}
