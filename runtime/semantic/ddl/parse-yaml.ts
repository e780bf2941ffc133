/**
 * The YAML body of `CREATE SEMANTIC VIEW name FROM YAML $$ ... $$`, in the extension's serde key
 * layout (tables / joins / facts / dimensions / metrics). It produces the same draft the SQL form
 * produces, so both go through the same validator.
 */
import { parse as parseYamlText } from "yaml";
import { SemanticViewError } from "../semantic-error.js";
import type { DraftMember, DraftRelationship, DraftTable, MemberKind } from "./statements.js";
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
}

type Obj = Record<string, unknown>;

const fail = (message: string): never => {
  throw new SemanticViewError("parse", `YAML definition: ${message}`);
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
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") fail(`${where}: '${key}' must be a string`);
  return String(v);
}

function strings(o: Obj, key: string, where: string): string[] {
  return asList(o[key], `${where}: '${key}'`).map((x, i) => {
    if (typeof x !== "string") fail(`${where}: '${key}[${i}]' must be a string`);
    return x as string;
  });
}

function checkKeys(o: Obj, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) fail(`${where}: unknown key '${key}' (expected one of ${allowed.join(", ")})`);
  }
}

/** Splits a table reference like `main."My Table"` into unquoted parts (for resolution). */
function refParts(ref: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^."\s]+))\s*(?:\.|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < ref.length && (m = re.exec(ref)) !== null) parts.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
  return parts.length > 0 ? parts : [ref];
}

function member(value: unknown, kind: MemberKind, index: number): DraftMember {
  const where = `${kind === "fact" ? "facts" : kind === "dimension" ? "dimensions" : "metrics"}[${index}]`;
  const o = asObject(value, where);
  checkKeys(
    o,
    ["name", "expr", "source_table", "comment", "synonyms", "access", "using_relationships", "non_additive_by", "window_spec", "is_filter", "output_type"],
    where,
  );
  const name = str(o, "name", where, true);
  const table = str(o, "source_table", where);
  if (table === undefined && kind !== "metric") fail(`${where} ('${name}'): 'source_table' is required for a ${kind}`);
  const access = str(o, "access", where)?.toLowerCase();
  if (access !== undefined && access !== "public" && access !== "private") fail(`${where} ('${name}'): access must be public or private`);
  if (access === "private" && kind === "dimension") fail(`${where}: dimension '${name}' cannot be PRIVATE (only facts and metrics can)`);
  const nonAdditiveBy = nonAdditiveFromYaml(o["non_additive_by"], where, fail);
  const expr = str(o, "expr", where, true).trim();
  const window = windowFromYaml(o["window_spec"], where, fail) ?? (kind === "metric" ? parseWindowExpression(expr, name) : undefined);
  if ((nonAdditiveBy.length > 0 || window !== undefined) && kind !== "metric") fail(`${where}: non_additive_by and window_spec are allowed only on metrics`);
  const using = strings(o, "using_relationships", where);
  if (using.length > 0 && kind !== "metric") fail(`${where}: using_relationships is allowed only on metrics`);
  const isFilter = o["is_filter"] === true;
  if (isFilter && kind === "metric") fail(`${where}: is_filter is allowed only on facts and dimensions`);
  return {
    kind,
    table,
    name,
    expr,
    exprPosition: -1,
    access: access as DraftMember["access"],
    using,
    comment: str(o, "comment", where),
    synonyms: strings(o, "synonyms", where),
    isFilter,
    position: -1,
    nonAdditiveBy: nonAdditiveBy.length > 0 ? nonAdditiveBy : undefined,
    window,
  };
}

export function parseYamlBody(text: string): YamlBody {
  if (Buffer.byteLength(text, "utf8") > MAX_YAML_BYTES) fail("larger than 1 MiB");
  let doc: unknown;
  try {
    doc = parseYamlText(text);
  } catch (e) {
    fail((e as Error).message.split("\n")[0]!);
  }
  const root = asObject(doc, "the document");
  checkKeys(root, ["tables", "joins", "relationships", "facts", "dimensions", "metrics", "materializations", "comment"], "the document");
  if (asList(root["materializations"], "materializations").length > 0) fail("materializations are not supported by the built-in engine");
  const tables = asList(root["tables"], "tables").map((value, i): DraftTable => {
    const where = `tables[${i}]`;
    const o = asObject(value, where);
    checkKeys(o, ["alias", "table", "pk_columns", "unique_constraints", "comment", "synonyms"], where);
    const table = str(o, "table", where, true);
    const parts = refParts(table);
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
  const relationships = asList(root["joins"] ?? root["relationships"], "joins").map((value, i): DraftRelationship => {
    const where = `joins[${i}]`;
    const o = asObject(value, where);
    checkKeys(o, ["name", "from_alias", "table", "to_alias", "fk_columns", "ref_columns", "cardinality"], where);
    const fromAlias = str(o, "from_alias", where, true);
    const toAlias = str(o, "table", where) ?? str(o, "to_alias", where, true);
    return {
      name: str(o, "name", where) ?? `${fromAlias}_to_${toAlias}`,
      fromAlias,
      fkColumns: strings(o, "fk_columns", where),
      toAlias,
      refColumns: strings(o, "ref_columns", where),
      position: -1,
    };
  });
  const facts = asList(root["facts"], "facts").map((v, i) => member(v, "fact", i));
  const dimensions = asList(root["dimensions"], "dimensions").map((v, i) => member(v, "dimension", i));
  const metrics = asList(root["metrics"], "metrics").map((v, i) => member(v, "metric", i));
  if (dimensions.length === 0 && metrics.length === 0) fail("a semantic view needs at least one dimension or metric");
  return { comment: str(root, "comment", "the document"), tables, relationships, facts, dimensions, metrics };
}
