/**
 * `SHOW SEMANTIC VIEWS [IN SCHEMA]`, `DESCRIBE SEMANTIC VIEW v` and `GET_DDL(...)` answered from the registered
 * views, in Snowflake's row shapes (lower-case column names; DESCRIBE rows are
 * object_kind/object_name/parent_entity/property/property_value, view-level rows with NULL kind).
 */
import { answerDimensionsForMetric } from "./semantic-view-grain.js";
import type { StandInSemanticView } from "./semantic-view-sql.js";
import { StandInSqlError } from "./semantic-view-sql.js";
import { identifierOf, tokenize } from "./sql-tokens.js";

interface TextResult {
  readonly rowtype: unknown[];
  readonly rowset: (string | null)[][];
}

/** A text column of Snowflake's result metadata (`rowtype` entry). */
export const textColumn = (name: string) => ({
  name,
  type: "text",
  length: 16777216,
  byteLength: 16777216,
  precision: null,
  scale: null,
  nullable: true,
  database: "",
  schema: "",
  table: "",
  collation: null,
});

export function answerMetadataStatement(
  sql: string,
  views: ReadonlyMap<string, StandInSemanticView>,
): TextResult | undefined {
  const forMetric = answerDimensionsForMetric(sql, views);
  if (forMetric !== undefined) return { rowtype: forMetric.columns.map(textColumn), rowset: forMetric.rows };
  if (/^\s*SHOW\s+SEMANTIC\s+VIEWS\b/i.test(sql)) {
    const columns = ["created_on", "name", "database_name", "schema_name", "comment", "owner"];
    return {
      rowtype: columns.map(textColumn),
      rowset: [...views.values()].map((v) => [
        "2026-01-01 00:00:00.000 +0000",
        v.name,
        "",
        "",
        v.comment ?? "",
        "TESTER",
      ]),
    };
  }
  const getDdl = /^\s*SELECT\s+GET_DDL\(\s*'SEMANTIC_VIEW'\s*,\s*'((?:[^']|'')+)'\s*\)\s*$/i.exec(sql);
  if (getDdl) {
    // The string is read as an identifier: `'"sales_v"'` exactly, `'sales_v'` folded to SALES_V.
    const literal = getDdl[1]!.replaceAll("''", "'");
    const view = views.get(
      literal.startsWith('"') ? literal.slice(1, -1).replaceAll('""', '"') : literal.toUpperCase(),
    );
    if (view === undefined)
      throw new StandInSqlError(
        `SQL compilation error:\nSemantic view '${getDdl[1]!}' does not exist or not authorized.`,
        "002003",
        "42S02",
      );
    return { rowtype: [textColumn(`GET_DDL('SEMANTIC_VIEW', '${getDdl[1]!}')`)], rowset: [[semanticViewDdl(view)]] };
  }
  const describe = /^\s*DESCRIBE\s+SEMANTIC\s+VIEW\s+/i.exec(sql);
  if (!describe) return undefined;
  const nameToken = tokenize(sql.slice(describe[0].length))
    .filter((t) => t.kind !== "space")
    .at(-1);
  const name = nameToken && identifierOf(nameToken);
  const view = name === undefined ? undefined : views.get(name);
  if (view === undefined) {
    throw new StandInSqlError(
      `SQL compilation error:\nSemantic view '${name ?? "?"}' does not exist or not authorized.`,
      "002003",
      "42S02",
    );
  }
  const rows: (string | null)[][] = [];
  if (view.comment !== undefined) rows.push([null, null, null, "COMMENT", view.comment]);
  const members = (kind: string, entries: Readonly<Record<string, string>> | undefined, defaultType: string) => {
    for (const [key, expression] of Object.entries(entries ?? {})) {
      // A qualified key (`CUSTOMER.NAME`) names its logical table; others belong to the base table.
      const dot = key.indexOf(".");
      const [table, member] = dot < 0 ? [view.table.toUpperCase(), key] : [key.slice(0, dot), key.slice(dot + 1)];
      rows.push([kind, member, table, "EXPRESSION", expression]);
      rows.push([kind, member, table, "DATA_TYPE", view.dataTypes?.[key] ?? defaultType]);
    }
  };
  members("DIMENSION", view.dimensions, "VARCHAR(16777216)");
  members("FACT", view.facts, "VARCHAR(16777216)");
  members("METRIC", view.metrics, "NUMBER(38,0)");
  return {
    rowtype: ["object_kind", "object_name", "parent_entity", "property", "property_value"].map(textColumn),
    rowset: rows,
  };
}

/**
 * GET_DDL's text for a registered view (one base table, members over its columns), in Snowflake's
 * layout: the base table qualified by database and schema (ANALYTICS.PUBLIC, where the stand-in's
 * sessions work) as Snowflake writes it.
 */
function semanticViewDdl(view: StandInSemanticView): string {
  const table = view.table.toUpperCase();
  const qualified = /^[A-Z_][A-Z0-9_$]*$/.test(table) ? `ANALYTICS.PUBLIC.${table}` : table;
  const members = (entries: Readonly<Record<string, string>> | undefined) =>
    Object.entries(entries ?? {})
      .map(([name, expression]) => `${name.includes(".") ? name : `${table}.${name}`} as ${expression}`)
      .join(", ");
  const clauses = [
    `create or replace semantic view ${view.name}`,
    `\ttables (${table} as ${qualified} with synonyms=('base'))`,
    // CREATE SEMANTIC VIEW's grammar: VARIABLES after RELATIONSHIPS, before FACTS (variables docs).
    view.variables === undefined
      ? undefined
      : `\tvariables (${Object.entries(view.variables)
          .map(([name, v]) => `${name} ${v.type}${v.default === undefined ? "" : ` default ${v.default}`}`)
          .join(", ")})`,
    view.facts === undefined ? undefined : `\tfacts (${members(view.facts)})`,
    `\tdimensions (${members(view.dimensions)})`,
    `\tmetrics (${members(view.metrics)})`,
    view.comment === undefined ? undefined : `\tcomment='${view.comment.replaceAll("'", "''")}'`,
  ];
  return `${clauses.filter((c) => c !== undefined).join("\n")};`;
}
