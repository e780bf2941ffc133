/**
 * The YAML body of `CREATE SEMANTIC VIEW name FROM YAML $$ ... $$`, in the extension's serde key
 * layout (tables / joins / facts / dimensions / metrics). It produces the same draft the SQL form
 * produces, so both go through the same validator.
 */
import { parse as parseYamlText } from "yaml";
import { SemanticViewError } from "../semantic-error.js";
import { splitTableReference } from "../sql/quote.js";
import { parseMemberReference } from "../sql/member-reference.js";
import { qualifiersOf } from "../sql/references.js";
import type { DraftMaterialization, DraftMember, DraftRelationship, DraftTable, MemberKind } from "./statements.js";
import { parseWindowExpression } from "./parse-metric-modes.js";
import { nonAdditiveFromYaml, windowFromYaml } from "./yaml-metric-modes.js";

const MAX_YAML_BYTES = 1024 * 1024;

export interface YamlBody {
  readonly comment?: string | undefined;
  readonly tables: DraftTable[];
  readonly relationships: DraftRelationship[];
  readonly facts: DraftMember[];
  readonly dimensions: DraftMember[];
  readonly metrics: DraftMember[];
  readonly materializations: DraftMaterialization[];
}

type Obj = Record<string, unknown>;

/** A shape error inside the body; parseYamlBody adds the extension's prefix naming the view. */
class YamlShapeError extends Error {}

const fail = (message: string): never => {
  throw new YamlShapeError(message);
};

function asObject(value: unknown, where: string): Obj {
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(`${where} must be a mapping`);
  return value as Obj;
}

function asList(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(`${where} must be a list`);
  return value as unknown[];
}

function str(o: Obj, key: string, where: string, required: true): string;
function str(o: Obj, key: string, where: string, required?: false): string | undefined;
function str(o: Obj, key: string, where: string, required = false): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) fail(`${where}: '${key}' is required`);
    return undefined;
  }
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
    fail(`${where}: '${key}' must be a string`);
  return String(v);
}

function strings(o: Obj, key: string, where: string): string[] {
  return asList(o[key], `${where}: '${key}'`).map((x, i) => {
    if (typeof x !== "string") fail(`${where}: '${key}[${i}]' must be a string`);
    return x as string;
  });
}

/**
 * A fact or dimension without `source_table` (optional in the schema) belongs to the one table its
 * expression qualifies, else to the base table.
 */
function inferSourceTable(expr: string, aliases: readonly string[], where: string, name: string): string {
  const used = new Set(qualifiersOf(expr).map((q) => q.toLowerCase()));
  const owners = aliases.filter((a) => used.has(a.toLowerCase()));
  if (owners.length > 1)
    fail(
      `${where} ('${name}'): 'source_table' is required when the expression uses several tables (${owners.join(", ")})`,
    );
  return owners[0] ?? aliases[0]!;
}

function member(value: unknown, kind: MemberKind, index: number, aliases: readonly string[]): DraftMember {
  const where = `${kind === "fact" ? "facts" : kind === "dimension" ? "dimensions" : "metrics"}[${index}]`;
  const o = asObject(value, where);
  const spelled = str(o, "name", where, true);
  // A quoted name (`'"Order Date"'`, as the extension exports one) is that name, shown as written.
  const quoted = /^\s*".*"\s*$/s.test(spelled) ? parseMemberReference(spelled) : undefined;
  const name = quoted?.qualifier === undefined && quoted !== undefined ? quoted.name : spelled;
  const written = name === spelled ? undefined : spelled.trim();
  const source = str(o, "source_table", where);
  const table =
    source ?? (kind === "metric" ? undefined : inferSourceTable(str(o, "expr", where, true), aliases, where, name));
  // serde writes `Public` / `Private`; any case is accepted.
  const access = str(o, "access", where)?.toLowerCase();
  if (access !== undefined && access !== "public" && access !== "private")
    fail(`${where} ('${name}'): access must be Public or Private`);
  if (access === "private" && kind === "dimension")
    fail(`${where}: dimension '${name}' cannot be PRIVATE (only facts and metrics can)`);
  const nonAdditiveBy = nonAdditiveFromYaml(o["non_additive_by"], where, fail);
  const expr = str(o, "expr", where, true).trim();
  const window =
    windowFromYaml(o["window_spec"], where, fail) ??
    (kind === "metric" ? parseWindowExpression(expr, name) : undefined);
  if ((nonAdditiveBy.length > 0 || window !== undefined) && kind !== "metric")
    fail(`${where}: non_additive_by and window_spec are allowed only on metrics`);
  const using = strings(o, "using_relationships", where);
  if (using.length > 0 && kind !== "metric") fail(`${where}: using_relationships is allowed only on metrics`);
  const isFilter = o["is_filter"] === true;
  if (isFilter && kind === "metric") fail(`${where}: is_filter is allowed only on facts and dimensions`);
  return {
    kind,
    table,
    name,
    written,
    expr,
    exprPosition: -1,
    access: access as DraftMember["access"],
    using,
    comment: str(o, "comment", where),
    synonyms: strings(o, "synonyms", where),
    isFilter,
    outputType: typeName(str(o, "output_type", where), where),
    position: -1,
    nonAdditiveBy: nonAdditiveBy.length > 0 ? nonAdditiveBy : undefined,
    window,
  };
}

/** A DuckDB type name such as `DATE`, `DECIMAL(18, 2)`, `VARCHAR[]`: it becomes SQL text in a cast. */
const TYPE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?: [A-Za-z_][A-Za-z0-9_]*)*(?:\(\s*\d+\s*(?:,\s*\d+\s*)?\))?(?:\[\d*\])*$/;

function typeName(value: string | undefined, where: string): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!TYPE_NAME.test(trimmed))
    fail(`${where}: output_type '${value}' is not a type name (e.g. DATE, DECIMAL(18, 2), VARCHAR[])`);
  return trimmed;
}

/** serde spells the cardinality `ManyToOne` / `OneToOne`; snake case is accepted too. */
const CARDINALITIES = new Set(["manytoone", "onetoone"]);

function materialization(value: unknown, index: number): DraftMaterialization {
  const where = `materializations[${index}]`;
  const o = asObject(value, where);
  const name = str(o, "name", where, true);
  const dimensions = strings(o, "dimensions", where);
  const metrics = strings(o, "metrics", where);
  if (dimensions.length === 0 && metrics.length === 0)
    fail(`Materialization '${name}': must specify at least one of DIMENSIONS or METRICS.`);
  return { name, table: str(o, "table", where, true), dimensions, metrics, position: -1 };
}

/** Parses a YAML body; errors read `invalid YAML definition for semantic view '<view>': ...`. */
export function parseYamlBody(text: string, view: string): YamlBody {
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_YAML_BYTES) {
    throw new SemanticViewError(
      "parse",
      `YAML definition for semantic view '${view}' exceeds size limit (${size} bytes > ${MAX_YAML_BYTES} bytes).`,
    );
  }
  try {
    return parseDocument(text);
  } catch (e) {
    if (e instanceof YamlShapeError)
      throw new SemanticViewError("parse", `invalid YAML definition for semantic view '${view}': ${e.message}`);
    throw e;
  }
}

function parseDocument(text: string): YamlBody {
  let doc: unknown;
  try {
    doc = parseYamlText(text);
  } catch (e) {
    fail((e as Error).message.split("\n")[0]!);
  }
  const root = asObject(doc, "the document");
  // As the extension's serde schema: unknown keys are ignored (stored definitions of older versions
  // carry fields such as `base_table`); both member lists must be present (`[]` when a view has none).
  for (const key of ["dimensions", "metrics"]) if (!(key in root)) fail(`missing field \`${key}\``);
  const tables = asList(root["tables"], "tables").map((value, i): DraftTable => {
    const where = `tables[${i}]`;
    const o = asObject(value, where);
    const table = str(o, "table", where, true);
    const parts = splitTableReference(table);
    const unique = asList(o["unique_constraints"], `${where}: 'unique_constraints'`).map((u, j) => {
      const list = asList(u, `${where}: 'unique_constraints[${j}]'`);
      return list.map((c) => String(c));
    });
    return {
      alias: str(o, "alias", where) ?? parts[parts.length - 1]!,
      table,
      tableParts: parts,
      primaryKey: strings(o, "pk_columns", where),
      unique,
      comment: str(o, "comment", where),
      synonyms: strings(o, "synonyms", where),
      position: -1,
    };
  });
  if (tables.length === 0) fail("'tables' must list at least one table");
  const relationships = asList(root["joins"], "joins").map((value, i): DraftRelationship => {
    const where = `joins[${i}]`;
    const o = asObject(value, where);
    const fromAlias = str(o, "from_alias", where) ?? "";
    const toAlias = str(o, "table", where, true);
    const cardinality = str(o, "cardinality", where);
    if (cardinality !== undefined && !CARDINALITIES.has(cardinality.replace(/_/g, "").toLowerCase())) {
      fail(`${where}: cardinality must be ManyToOne or OneToOne, found '${cardinality}'`);
    }
    return {
      name: str(o, "name", where) ?? `${fromAlias}_to_${toAlias}`,
      fromAlias,
      fkColumns: strings(o, "fk_columns", where),
      toAlias,
      refColumns: strings(o, "ref_columns", where),
      position: -1,
    };
  });
  const aliases = tables.map((t) => t.alias);
  const facts = asList(root["facts"], "facts").map((v, i) => member(v, "fact", i, aliases));
  const dimensions = asList(root["dimensions"], "dimensions").map((v, i) => member(v, "dimension", i, aliases));
  const metrics = asList(root["metrics"], "metrics").map((v, i) => member(v, "metric", i, aliases));
  if (dimensions.length === 0 && metrics.length === 0) fail("a semantic view needs at least one dimension or metric");
  const materializations = asList(root["materializations"], "materializations").map(materialization);
  return {
    comment: str(root, "comment", "the document"),
    tables,
    relationships,
    facts,
    dimensions,
    metrics,
    materializations,
  };
}
