/**
 * Metric-view parameters in the Databricks stand-in (docs.databricks.com .../metric-views/use-parameters,
 * DBR 18.2+): a view declares `parameters:` (name, type, optional default), expressions refer to a parameter
 * by name, and a caller passes values by calling the view as a table-valued function, by name
 * (`FROM mv(discount => 0.15)`) or by position; omitted parameters take their default. Errors as Spark
 * reports named-argument mistakes: a parameter without a default that is not passed
 * (REQUIRED_PARAMETER_NOT_FOUND), an unknown name (UNRECOGNIZED_PARAMETER_NAME), a name passed twice
 * (METRIC_VIEW_DUPLICATE_PARAMETER_ASSIGNMENT, documented for metric views), all SQLSTATE 4274K.
 */
import { StandInSqlError } from "./metric-view-sql.js";

export interface MetricViewParameter {
  readonly name: string;
  /** A Databricks type, e.g. `DOUBLE`, `DECIMAL(3,2)`, `INT`. */
  readonly type: string;
  /** A constant SQL expression; none: every call must pass the parameter. */
  readonly default?: string;
}

/** `?` placeholders as `$1`, `$2`, ... (outside string literals): a value may be substituted in several places. */
export function numberOrdinalParameters(sql: string): string {
  let n = 0;
  let out = "";
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === ch && sql[j + 1] !== ch)) j += sql[j] === ch ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j;
    } else out += ch === "?" ? `$${++n}` : ch;
  }
  return out;
}

/** The arguments text between the call's parentheses, split at top-level commas. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === ch && text[j + 1] !== ch)) j += text[j] === ch ? 2 : 1;
      i = j;
    } else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((a) => a.trim()).filter((a) => a !== "");
}

/** Each declared parameter's value for this call (DuckDB SQL, cast to its type). */
export function parameterValues(
  viewName: string,
  declared: readonly MetricViewParameter[],
  args: readonly string[],
): Map<string, string> {
  const given = new Map<string, string>();
  args.forEach((arg, i) => {
    const named = /^(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_]*))\s*=>\s*([\s\S]+)$/.exec(arg);
    const name = named === null ? declared[i]?.name : (named[1]?.replaceAll('""', '"') ?? named[2]!);
    const parameter = declared.find((p) => p.name.toLowerCase() === name?.toLowerCase());
    if (parameter === undefined) {
      throw new StandInSqlError(
        "UNRECOGNIZED_PARAMETER_NAME",
        "4274K",
        `Cannot invoke routine \`${viewName}\` because the routine call included a named argument reference for the argument named \`${name ?? `#${i + 1}`}\`, but this routine does not include any signature containing an argument with this name.`,
      );
    }
    if (given.has(parameter.name)) {
      throw new StandInSqlError(
        "METRIC_VIEW_DUPLICATE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE",
        "4274K",
        `Call to metric view ${viewName} is invalid because it includes multiple argument assignments to the same parameter name ${parameter.name}.`,
      );
    }
    given.set(parameter.name, named === null ? arg : named[3]!);
  });
  const values = new Map<string, string>();
  for (const parameter of declared) {
    const value = given.get(parameter.name) ?? parameter.default;
    if (value === undefined) {
      throw new StandInSqlError(
        "REQUIRED_PARAMETER_NOT_FOUND",
        "4274K",
        `Cannot invoke routine \`${viewName}\` because the parameter named \`${parameter.name}\` is required, but the routine call did not supply a value.`,
      );
    }
    values.set(parameter.name.toLowerCase(), `CAST((${value}) AS ${parameter.type})`);
  }
  return values;
}

/** `expression` with each reference to a parameter (a bare or quoted name outside strings) replaced by its value. */
export function substituteParameters(expression: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0) return expression;
  return expression.replace(/'(?:[^']|'')*'|"((?:[^"]|"")+)"|\b([A-Za-z_][A-Za-z0-9_]*)\b/g, (match, quoted, bare) => {
    const name = (quoted as string | undefined)?.replaceAll('""', '"') ?? (bare as string | undefined);
    const value = name === undefined ? undefined : values.get(name.toLowerCase());
    return value === undefined ? match : `(${value})`;
  });
}
