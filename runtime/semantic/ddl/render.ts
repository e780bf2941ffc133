/**
 * `get_ddl('SEMANTIC_VIEW', v)`: renders a stored definition back to a CREATE OR REPLACE statement
 * that parses to the same definition (expressions are emitted exactly as written).
 */
import {
  shownName,
  type MaterializationDef,
  type MemberDef,
  type MetricDef,
  type SemanticViewDefinition,
  type TableDef,
} from "../view-definition.js";
import { quoteIdent, quoteLiteral } from "../sql/quote.js";
import { renderNonAdditiveBy, renderWindow } from "./render-metric-modes.js";

/** Words that would be misread as syntax if emitted bare. */
const RESERVED = new Set([
  "as",
  "tables",
  "relationships",
  "facts",
  "dimensions",
  "metrics",
  "materializations",
  "comment",
  "with",
  "synonyms",
  "labels",
  "using",
  "private",
  "public",
  "references",
  "primary",
  "key",
  "unique",
  "select",
  "from",
  "where",
  "group",
  "order",
  "by",
  "table",
  "view",
  "semantic",
  "create",
  "or",
  "replace",
  "if",
  "not",
  "exists",
  "and",
  "null",
  "true",
  "false",
  "case",
  "when",
  "then",
  "else",
  "end",
  "in",
  "is",
  "on",
  "join",
  "limit",
  "non",
  "additive",
  "over",
  "partition",
  "excluding",
  "asc",
  "desc",
  "nulls",
  "all",
  "distinct",
  "union",
  "having",
  "default",
  "check",
  "constraint",
  "foreign",
]);

export function renderIdent(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name.toLowerCase()) ? name : quoteIdent(name);
}

/** A member's name as written in its DDL (quoted names keep their quotes), else rendered. */
const memberName = (m: MemberDef | MetricDef): string => (m.written !== undefined ? shownName(m) : renderIdent(m.name));

const list = (names: readonly string[]): string => `(${names.map(renderIdent).join(", ")})`;

function annotations(m: {
  comment?: string | undefined;
  synonyms: readonly string[];
  isFilter?: boolean | undefined;
}): string {
  let out = "";
  if (m.comment !== undefined) out += ` COMMENT = ${quoteLiteral(m.comment)}`;
  if (m.synonyms.length > 0) out += ` WITH SYNONYMS = (${m.synonyms.map(quoteLiteral).join(", ")})`;
  if (m.isFilter === true) out += " LABELS = (FILTER)";
  return out;
}

function table(t: TableDef): string {
  let out = `${renderIdent(t.alias)} AS ${t.table}`;
  if (t.primaryKey.length > 0) out += ` PRIMARY KEY ${list(t.primaryKey)}`;
  for (const u of t.unique) out += ` UNIQUE ${list(u)}`;
  return out + annotations(t);
}

function member(m: MemberDef): string {
  const access = m.access === "private" ? "PRIVATE " : "";
  return `${access}${renderIdent(m.table)}.${memberName(m)} AS ${m.expr}${annotations(m)}`;
}

function metric(m: MetricDef): string {
  const access = m.access === "private" ? "PRIVATE " : "";
  const head = m.table === undefined ? memberName(m) : `${renderIdent(m.table)}.${memberName(m)}`;
  const using = m.using.length > 0 ? ` USING ${list(m.using)}` : "";
  const na =
    m.nonAdditiveBy !== undefined && m.nonAdditiveBy.length > 0
      ? ` NON ADDITIVE BY (${renderNonAdditiveBy(m.nonAdditiveBy)})`
      : "";
  const expr = m.window === undefined ? m.expr : renderWindow(m.window);
  return `${access}${head}${using}${na} AS ${expr}${annotations(m)}`;
}

function materialization(m: MaterializationDef): string {
  const parts = [`TABLE ${m.table}`];
  if (m.dimensions.length > 0) parts.push(`DIMENSIONS ${list(m.dimensions)}`);
  if (m.metrics.length > 0) parts.push(`METRICS ${list(m.metrics)}`);
  return `${renderIdent(m.name)} AS (${parts.join(", ")})`;
}

/** One clause in the extension's layout: the keyword, then one entry per line indented four spaces. */
function clause(name: string, entries: string[]): string {
  return entries.length === 0 ? "" : `\n${name} (\n    ${entries.join(",\n    ")}\n)`;
}

/** A view-name part bare when it reads back the same (`[a-z_][a-z0-9_]*`), else quoted, as the extension renders it. */
const viewNamePart = (part: string): string => (/^[a-z_][a-z0-9_]*$/.test(part) ? part : quoteIdent(part));

/**
 * `CREATE OR REPLACE SEMANTIC VIEW <name> ...`. The name is qualified as far as `qualifiers` says:
 * `schema` (the reference named a schema), `database` (it named a database too, or the caller asked
 * for the fully qualified form), so the statement recreates the view where it was found.
 */
export function renderDdl(def: SemanticViewDefinition, qualifiers: "none" | "schema" | "database" = "none"): string {
  const parts =
    qualifiers === "database"
      ? [def.databaseName, def.schemaName, def.name]
      : qualifiers === "schema"
        ? [def.schemaName, def.name]
        : [def.name];
  const name = parts.map(viewNamePart).join(".");
  const comment = def.comment === undefined ? "" : ` COMMENT = ${quoteLiteral(def.comment)}`;
  return (
    `CREATE OR REPLACE SEMANTIC VIEW ${name}${comment} AS` +
    clause("TABLES", def.tables.map(table)) +
    clause(
      "RELATIONSHIPS",
      def.relationships.map(
        (r) =>
          `${renderIdent(r.name)} AS ${renderIdent(r.fromAlias)}${list(r.fkColumns)} REFERENCES ${renderIdent(r.toAlias)}${list(r.refColumns)}`,
      ),
    ) +
    clause("FACTS", def.facts.map(member)) +
    clause("DIMENSIONS", def.dimensions.map(member)) +
    clause("METRICS", def.metrics.map(metric)) +
    clause("MATERIALIZATIONS", (def.materializations ?? []).map(materialization))
  );
}
