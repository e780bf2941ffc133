/**
 * Executes CREATE / DROP / ALTER SEMANTIC VIEW against the catalog through the caller's session,
 * returning the extension's result rows.
 */
import {
  definitionExists,
  deleteDefinition,
  foldName,
  loadDefinition,
  saveDefinition,
  sessionContext,
  type SessionContext,
} from "../catalog.js";
import type { SemanticViewDefinition } from "../view-definition.js";
import type { RawColumn, SqlSession } from "../semantic-layer.js";
import { SemanticViewError } from "../semantic-error.js";
import type {
  AlterSemanticViewStatement,
  CreateFromYamlFileStatement,
  CreateSemanticViewStatement,
  DropSemanticViewStatement,
} from "./statements.js";
import type { QualifiedName } from "../sql/parse-qualified-name.js";
import { validateCreate, type PhysicalTable } from "./validate.js";
import { validateMaterializations } from "./validate-materializations.js";
import { createFromYamlBody } from "./parse-create.js";
import { readYamlFile } from "./yaml-file.js";
import { physicalTables } from "./physical-tables.js";
import { refuseNul } from "./refuse-nul.js";
import type { MemberDef, MetricDef } from "../view-definition.js";

export interface StatementResult {
  readonly columns: RawColumn[];
  readonly rows: unknown[][];
}

const varchar = (...names: string[]): RawColumn[] => names.map((name) => ({ name, type: "VARCHAR" }));

/** `%Y-%m-%dT%H:%M:%SZ` */
function nowUtc(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

function checkDatabase(name: QualifiedName, context: SessionContext): void {
  if (name.database !== undefined && name.database.toLowerCase() !== context.database.toLowerCase()) {
    throw new SemanticViewError(
      "invalid",
      `semantic views live in the current database '${context.database}'; cannot use '${name.database}.${name.schema}.${name.name}'`,
    );
  }
}

/** A schema-qualified view name must name an existing schema of the current database. */
async function checkSchema(session: SqlSession, name: QualifiedName): Promise<void> {
  if (name.schema === undefined) return;
  const { rows } = await session.query(
    "SELECT count(*) FROM duckdb_schemas() WHERE database_name = current_database() AND lower(schema_name) = lower($1)",
    [name.schema],
  );
  if (Number(rows[0]?.[0] ?? 0) === 0) {
    throw new SemanticViewError(
      "invalid",
      `schema '${name.schema}' does not exist (semantic view '${name.name.toLowerCase()}')`,
    );
  }
}

export async function executeCreate(session: SqlSession, stmt: CreateSemanticViewStatement): Promise<StatementResult> {
  const context = await sessionContext(session);
  checkDatabase(stmt.name, context);
  await checkSchema(session, stmt.name);
  const key = foldName(stmt.name, context);
  const result: StatementResult = { columns: varchar("view_name"), rows: [[key.name]] };
  if (!stmt.orReplace && (await definitionExists(session, key))) {
    if (stmt.ifNotExists) return result;
    throw new SemanticViewError(
      "invalid",
      `semantic view '${key.name}' already exists; use CREATE OR REPLACE SEMANTIC VIEW to overwrite`,
    );
  }
  const physical = new Map<string, PhysicalTable>();
  // One catalog scan for every entry (and its alias, for the swapped-alias hint).
  const resolvePhysical = await physicalTables(session, [
    ...stmt.tables.map((t) => t.tableParts[t.tableParts.length - 1]!),
    ...stmt.tables.map((t) => t.alias),
  ]);
  for (const t of stmt.tables) {
    const p = resolvePhysical(t, context);
    if (p !== undefined) {
      physical.set(t.alias.toLowerCase(), p);
    } else if (t.alias.toLowerCase() !== t.tableParts[t.tableParts.length - 1]!.toLowerCase()) {
      // `orders AS o` written SQL-style: the alias is the existing table, the "table" is not.
      const swapped = resolvePhysical({ ...t, tableParts: [t.alias] }, context);
      if (swapped !== undefined) {
        throw new SemanticViewError(
          "invalid",
          `table '${t.table}' does not exist, but '${t.alias}' does: TABLES entries are written 'alias AS table' (e.g. ${t.table} AS ${t.alias})`,
        );
      }
    }
  }
  const validated = validateCreate(stmt, physical);
  const model = {
    ...validated,
    facts: withOutputTypes(validated.facts, stmt.facts),
    dimensions: withOutputTypes(validated.dimensions, stmt.dimensions),
    metrics: withOutputTypes(validated.metrics, stmt.metrics),
    materializations: validateMaterializations(stmt.materializations, validated, stmt.sql),
  };
  const definition: SemanticViewDefinition = {
    name: key.name,
    databaseName: context.database,
    schemaName: key.schema,
    resolutionSchemaName: context.schema,
    schemaVersion: 1,
    comment: stmt.comment,
    createdOn: nowUtc(),
    ...model,
  };
  refuseNul(key.name, definition);
  await saveDefinition(session, definition);
  return result;
}

/** Carries YAML `output_type` from the drafts onto the validated members (same order, same names). */
function withOutputTypes<T extends MemberDef | MetricDef>(
  members: T[],
  drafts: readonly { name: string; outputType?: string | undefined }[],
): T[] {
  // One lookup per member: a view may declare tens of thousands.
  const types = new Map<string, string>();
  for (const d of drafts) {
    const key = d.name.toLowerCase();
    if (d.outputType !== undefined && !types.has(key)) types.set(key, d.outputType);
  }
  if (types.size === 0) return members;
  return members.map((m) => {
    const outputType = types.get(m.name.toLowerCase());
    return outputType === undefined ? m : { ...m, outputType };
  });
}

/** `FROM YAML FILE '<path>'`: reads the file through DuckDB, then creates as from an inline body. */
export async function executeCreateFromYamlFile(
  session: SqlSession,
  stmt: CreateFromYamlFileStatement,
): Promise<StatementResult> {
  const text = await readYamlFile(session, stmt.path);
  return executeCreate(session, createFromYamlBody(text, stmt));
}

async function requireExisting(
  session: SqlSession,
  name: QualifiedName,
  ifExists: boolean,
): Promise<{ definition: SemanticViewDefinition | undefined; context: SessionContext }> {
  const context = await sessionContext(session);
  checkDatabase(name, context);
  const definition = await loadDefinition(session, name);
  if (definition === undefined && !ifExists) {
    throw new SemanticViewError("not_found", `semantic view '${name.name.toLowerCase()}' does not exist`);
  }
  return { definition, context };
}

export async function executeDrop(session: SqlSession, stmt: DropSemanticViewStatement): Promise<StatementResult> {
  const { definition } = await requireExisting(session, stmt.name, stmt.ifExists);
  if (definition !== undefined)
    await deleteDefinition(session, { schema: definition.schemaName, name: definition.name });
  return { columns: varchar("view_name"), rows: definition === undefined ? [] : [[definition.name]] };
}

export async function executeAlter(session: SqlSession, stmt: AlterSemanticViewStatement): Promise<StatementResult> {
  const { definition, context } = await requireExisting(session, stmt.name, stmt.ifExists);
  const change = stmt.change;
  if (change.action === "rename") {
    const columns = varchar("old_name", "new_name");
    if (definition === undefined) return { columns, rows: [] };
    checkDatabase(change.newName, context);
    await checkSchema(session, change.newName);
    const target = {
      schema: (change.newName.schema ?? definition.schemaName).toLowerCase(),
      name: change.newName.name.toLowerCase(),
    };
    if (target.schema === definition.schemaName && target.name === definition.name) {
      return { columns, rows: [[definition.name, target.name]] };
    }
    if (await definitionExists(session, target)) {
      throw new SemanticViewError("invalid", `semantic view '${target.name}' already exists`);
    }
    const renamed = { ...definition, name: target.name, schemaName: target.schema };
    refuseNul(definition.name, renamed);
    await deleteDefinition(session, { schema: definition.schemaName, name: definition.name });
    await saveDefinition(session, renamed);
    return { columns, rows: [[definition.name, target.name]] };
  }
  const columns = varchar("name", "status");
  if (definition === undefined) return { columns, rows: [] };
  const comment = change.action === "set_comment" ? change.comment : undefined;
  const updated: SemanticViewDefinition = { ...definition, comment };
  refuseNul(definition.name, updated);
  await saveDefinition(session, updated);
  return { columns, rows: [[definition.name, change.action === "set_comment" ? "comment set" : "comment unset"]] };
}
