/**
 * Turns the Databricks metric-view SQL our compiler emits into DuckDB SQL for the stand-in:
 * backtick identifiers become double-quoted, `FROM \`view\`` becomes a subquery exposing the
 * view's dimensions over its source table, and `MEASURE(\`m\`)` becomes the measure's aggregate.
 * `GROUP BY ALL`, `NULLS LAST`, `LIMIT`/`OFFSET` and `?` parameters are valid DuckDB as they are.
 */

import { checkMetricViewRead } from "./metric-view-reads.js";
import { backslashStringToDuckDB } from "../snowflake/sql-tokens.js";
import {
  numberOrdinalParameters,
  parameterValues,
  splitArguments,
  substituteParameters,
  type MetricViewParameter,
} from "./metric-view-parameters.js";

/** A metric view as the stand-in knows it: dimensions and measures over one DuckDB source table. */
export interface MetricViewDefinition {
  /** The view name as queried (`sales`). */
  readonly name: string;
  /** A DuckDB table (or parenthesized query) holding the rows. */
  readonly source: string;
  /** Dimension name → SQL expression over the source's columns. */
  readonly dimensions: Readonly<Record<string, string>>;
  /** Measure name → aggregate SQL expression over the source's columns. */
  readonly measures: Readonly<Record<string, string>>;
  /** The view's comment, reported by `information_schema.tables` and `DESCRIBE TABLE EXTENDED`. */
  readonly comment?: string;
  /**
   * The YAML key the definition lists its fields under: `fields` (the YAML reference's preferred key)
   * or `dimensions` (accepted as a synonym; the default here).
   */
  readonly fieldsKey?: "fields" | "dimensions";
  /**
   * A wildcard field entry (`expr: source.*`, or `source.* EXCEPT (id)`; spec 1.1, DBR 18.2): every source
   * column not named otherwise becomes a field. Such an entry has no `name` in the YAML; the imported
   * columns appear only in `DESCRIBE ... AS JSON` `columns[]`.
   */
  readonly wildcard?: { readonly except?: readonly string[] };
  /** Filled in at start: the source columns the wildcard imported, as fields. */
  readonly importedFields?: readonly string[];
  /** The `parameters:` block (metric-view-parameters.ts): callers pass values as a table-valued call. */
  readonly parameters?: readonly MetricViewParameter[];
}

/** The view with its wildcard expanded into fields over `sourceColumns` (in source order). */
export function expandWildcard(view: MetricViewDefinition, sourceColumns: readonly string[]): MetricViewDefinition {
  if (view.wildcard === undefined) return view;
  const except = new Set((view.wildcard.except ?? []).map((c) => c.toLowerCase()));
  const named = new Set([...Object.keys(view.dimensions), ...Object.keys(view.measures)].map((n) => n.toLowerCase()));
  const imported = sourceColumns.filter((c) => !except.has(c.toLowerCase()) && !named.has(c.toLowerCase()));
  return {
    ...view,
    dimensions: { ...view.dimensions, ...Object.fromEntries(imported.map((c) => [c, quote(c)])) },
    importedFields: imported,
  };
}

/** `DESCRIBE TABLE EXTENDED \`name\` AS JSON`: the view name, or undefined for another statement. */
export function describeTarget(sql: string): string | undefined {
  const match = /^\s*DESCRIBE\s+(?:TABLE\s+)?EXTENDED\s+`((?:[^`]|``)+)`\s+AS\s+JSON\s*;?\s*$/i.exec(sql);
  return match?.[1]?.replaceAll("``", "`");
}

/** The codegen's listing of metric views in the current catalog and schema. */
export function isMetricViewListing(sql: string): boolean {
  return /\binformation_schema\.tables\b/i.test(sql) && /METRIC_VIEW/i.test(sql);
}

/**
 * The document Databricks returns for `DESCRIBE TABLE EXTENDED ... AS JSON` on a metric view:
 * columns with JSON types, and the view's YAML definition in `view_text` (written as JSON, which
 * is YAML too).
 */
export function describeJson(view: MetricViewDefinition, columnTypes: ReadonlyMap<string, unknown>): string {
  const columns = [...Object.keys(view.dimensions), ...Object.keys(view.measures)].map((name) => ({
    name,
    type: columnTypes.get(name) ?? "string",
    nullable: true,
  }));
  const imported = new Set(view.importedFields ?? []);
  const wildcard = view.wildcard?.except?.length ? `source.* EXCEPT (${view.wildcard.except.join(", ")})` : "source.*";
  const fields = [
    ...Object.entries(view.dimensions)
      .filter(([name]) => !imported.has(name))
      .map(([name, expr]) => ({ name, expr })),
    ...(view.wildcard === undefined ? [] : [{ expr: wildcard }]),
  ];
  const yaml = {
    version: view.wildcard === undefined ? "0.1" : "1.1",
    source: view.source,
    ...(view.comment === undefined ? {} : { comment: view.comment }),
    ...(view.parameters === undefined
      ? {}
      : {
          parameters: view.parameters.map((p) => ({
            name: p.name,
            type: p.type,
            ...(p.default === undefined ? {} : { default: p.default }),
          })),
        }),
    [view.fieldsKey ?? "dimensions"]: fields,
    measures: Object.entries(view.measures).map(([name, expr]) => ({ name, expr })),
  };
  return JSON.stringify({
    table_name: view.name,
    type: "METRIC_VIEW",
    ...(view.comment === undefined ? {} : { comment: view.comment }),
    columns,
    view_text: JSON.stringify(yaml, null, 2),
  });
}

/** An error the stand-in reports like Databricks does: error class, message, SQLSTATE. */
export class StandInSqlError extends Error {
  constructor(
    readonly errorClass: string,
    readonly sqlState: string,
    detail: string,
  ) {
    super(`[${errorClass}] ${detail} SQLSTATE: ${sqlState}`);
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Backticks → double quotes, leaving string literals and existing double-quoted names alone. */
export function backticksToDoubleQuotes(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      const end = closing(sql, i, ch);
      // Spark string literals read backslash escapes; DuckDB's do not.
      out += ch === "'" ? backslashStringToDuckDB(sql.slice(i, end)) : sql.slice(i, end);
      i = end;
    } else if (ch === "`") {
      let name = "";
      let j = i + 1;
      for (;;) {
        if (j >= sql.length)
          throw new StandInSqlError("PARSE_SYNTAX_ERROR", "42601", "Unterminated quoted identifier.");
        if (sql[j] === "`") {
          if (sql[j + 1] === "`") {
            name += "`";
            j += 2;
            continue;
          }
          break;
        }
        name += sql[j];
        j++;
      }
      out += quote(name);
      i = j + 1;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Databricks' LIKE escapes with a backslash unless told otherwise; DuckDB's LIKE has no default escape. */
function withDefaultLikeEscape(sql: string): string {
  return sql.replace(/\bLIKE\s+(\?|'(?:[^']|'')*')(?!\s*ESCAPE\b)/gi, (like) => `${like} ESCAPE '\\'`);
}

/**
 * Replaces each `FROM "view"` or table-valued call `FROM "view"(args)` that `rewrite` recognizes (it
 * returns the replacement, or undefined to leave the text alone).
 */
function rewriteViewReferences(
  sql: string,
  rewrite: (name: string, args: readonly string[]) => string | undefined,
): string {
  const reference = /\bFROM\s+"((?:[^"]|"")+)"/gi;
  let out = "";
  let from = 0;
  for (let m = reference.exec(sql); m !== null; m = reference.exec(sql)) {
    let end = m.index + m[0].length;
    let args: string[] = [];
    const call = /^\s*\(/.exec(sql.slice(end));
    if (call !== null) {
      const open = end + call[0].length - 1;
      const close = matchingParen(sql, open);
      args = splitArguments(sql.slice(open + 1, close));
      end = close + 1;
    }
    const replacement = rewrite(m[1]!.replaceAll('""', '"'), args);
    if (replacement === undefined) continue;
    out += sql.slice(from, m.index) + replacement;
    from = end;
    reference.lastIndex = end;
  }
  return out + sql.slice(from);
}

function matchingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') i = closing(sql, i, ch) - 1;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  throw new StandInSqlError("PARSE_SYNTAX_ERROR", "42601", "Syntax error: unbalanced parentheses.");
}

/** `sql` with the contents of its string literals blanked (so keywords inside them do not count). */
function withoutStrings(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    if (sql[i] === "'") {
      const end = closing(sql, i, "'");
      out += "''";
      i = end;
    } else out += sql[i++];
  }
  return out;
}

function closing(sql: string, start: number, q: string): number {
  let j = start + 1;
  while (j < sql.length) {
    if (sql[j] === q) {
      if (sql[j + 1] === q) j += 2;
      else return j + 1;
    } else j++;
  }
  return j;
}

/**
 * Rewrites a query over metric views into DuckDB SQL. `sourceColumns(view)` lists the columns of
 * the view's source (so dimension names that shadow a source column do not collide).
 */
export function translateMetricViewSql(
  sql: string,
  views: ReadonlyMap<string, MetricViewDefinition>,
  sourceColumns: (view: MetricViewDefinition) => readonly string[],
): string {
  let text = numberOrdinalParameters(withDefaultLikeEscape(backticksToDoubleQuotes(sql)));
  const used: { view: MetricViewDefinition; values: Map<string, string> }[] = [];
  text = rewriteViewReferences(text, (quoted, args) => {
    const view = views.get(quoted.toLowerCase());
    if (view === undefined) return undefined;
    const values = parameterValues(view.name, view.parameters ?? [], args);
    used.push({ view, values });
    const dims = Object.entries(view.dimensions).map(
      ([name, expr]) => `${substituteParameters(expr, values)} AS ${quote(name)}`,
    );
    const dimNames = new Set(Object.keys(view.dimensions).map((n) => n.toLowerCase()));
    const rest = sourceColumns(view)
      .filter((c) => !dimNames.has(c.toLowerCase()))
      .map(quote);
    return `FROM (SELECT ${[...dims, ...rest].join(", ")} FROM ${view.source}) AS ${quote(view.name)}`;
  });
  if (used.length > 0) checkMetricViewRead(withoutStrings(sql));
  return text.replace(/\bMEASURE\s*\(\s*"((?:[^"]|"")+)"\s*\)/gi, (match, quoted: string) => {
    const name = quoted.replaceAll('""', '"');
    for (const { view, values } of used) {
      const entry = Object.entries(view.measures).find(([m]) => m.toLowerCase() === name.toLowerCase());
      if (entry) return `(${substituteParameters(entry[1], values)})`;
    }
    if (used.length === 0) return match; // not over a metric view: DuckDB reports the missing table (or function)
    throw new StandInSqlError(
      "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
      "42703",
      `A column, variable, or function parameter with name \`${name}\` cannot be resolved.`,
    );
  });
}
