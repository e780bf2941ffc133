/** SHOW ... SEMANTIC ... and DESCRIBE SEMANTIC VIEW, answered from the catalog. */
import { listDefinitions, sessionContext } from "../catalog.js";
import type { SemanticViewDefinition } from "../view-definition.js";
import type { RawColumn, SqlSession } from "../semantic-layer.js";
import { SemanticViewError } from "../semantic-error.js";
import type {
  DescribeSemanticViewStatement,
  ShowColumnsStatement,
  ShowMembersStatement,
  ShowSemanticViewsStatement,
} from "../ddl/statements.js";
import { requireDefinition, requireMetric } from "./lookup.js";
import { describeView, dimensionsForMetric, listViews, showColumns, showMembers, type Relation } from "./tables.js";
import { showMaterializations } from "./materializations.js";

export interface StatementResult {
  readonly columns: RawColumn[];
  readonly rows: unknown[][];
}

const toResult = (r: Relation): StatementResult => {
  const types = r.columns.map((_, i) => r.types?.[i] ?? "VARCHAR");
  return {
    columns: r.columns.map((name, i) => ({ name, type: types[i]! })),
    rows: r.rows.map((row) => row.map((value, i) => (types[i] === "BOOLEAN" ? value === "true" : value))),
  };
};

/** SQL LIKE semantics (case-insensitive, as the extension's ILIKE): `%` any run, `_` one char. */
export function likeToRegExp(pattern: string): RegExp {
  let re = "";
  for (const ch of pattern) {
    if (ch === "%") re += "[\\s\\S]*";
    else if (ch === "_") re += "[\\s\\S]";
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "i");
}

interface NameFilters {
  readonly like?: string | undefined;
  readonly startsWith?: string | undefined;
  readonly limit?: number | undefined;
  readonly limitFrom?: string | undefined;
}

function filterNames<T>(items: T[], name: (t: T) => string, f: NameFilters): T[] {
  let out = items;
  if (f.like !== undefined) {
    const re = likeToRegExp(f.like);
    out = out.filter((x) => re.test(name(x)));
  }
  if (f.startsWith !== undefined) {
    const prefix = f.startsWith;
    out = out.filter((x) => name(x).startsWith(prefix));
  }
  if (f.limitFrom !== undefined) {
    const from = f.limitFrom;
    out = out.filter((x) => name(x) >= from);
  }
  return f.limit === undefined ? out : out.slice(0, f.limit);
}

interface Scope {
  readonly inSchema?: string | null | undefined;
  readonly inDatabase?: string | null | undefined;
}

/** Every view, narrowed by `IN DATABASE` / `IN SCHEMA` (null: the session's current one). */
async function viewsInScope(session: SqlSession, scope: Scope): Promise<SemanticViewDefinition[]> {
  let defs = await listDefinitions(session);
  if (scope.inDatabase === undefined && scope.inSchema === undefined) return defs;
  const current = await sessionContext(session);
  const database = scope.inDatabase === null ? current.database : scope.inDatabase;
  const schema = scope.inSchema === null ? current.schema : scope.inSchema;
  if (database !== undefined) defs = defs.filter((d) => d.databaseName.toLowerCase() === database.toLowerCase());
  if (schema !== undefined) defs = defs.filter((d) => d.schemaName.toLowerCase() === schema.toLowerCase());
  return defs;
}

export async function executeShowViews(
  session: SqlSession,
  stmt: ShowSemanticViewsStatement,
): Promise<StatementResult> {
  const defs = await viewsInScope(session, stmt);
  return toResult(
    listViews(
      filterNames(defs, (d) => d.name, stmt),
      stmt.terse,
    ),
  );
}

export async function executeShowMembers(session: SqlSession, stmt: ShowMembersStatement): Promise<StatementResult> {
  if (stmt.forMetric !== undefined) {
    if (stmt.view === undefined)
      throw new SemanticViewError("parse", "SHOW SEMANTIC DIMENSIONS ... FOR METRIC needs IN <view>");
    const def = await requireDefinition(session, stmt.view);
    const relation = dimensionsForMetric(
      def,
      requireMetric(def, stmt.forMetric, "SHOW SEMANTIC DIMENSIONS FOR METRIC"),
    );
    const nameIndex = relation.columns.indexOf("name");
    return toResult({ ...relation, rows: filterNames(relation.rows, (r) => r[nameIndex]!, stmt) });
  }
  const defs =
    stmt.view === undefined ? await viewsInScope(session, stmt) : [await requireDefinition(session, stmt.view)];
  const relation = stmt.kind === "materializations" ? showMaterializations(defs) : showMembers(defs, stmt.kind);
  const nameIndex = relation.columns.indexOf("name");
  return toResult({ columns: relation.columns, rows: filterNames(relation.rows, (r) => r[nameIndex]!, stmt) });
}

export async function executeShowColumns(session: SqlSession, stmt: ShowColumnsStatement): Promise<StatementResult> {
  return toResult(showColumns(await requireDefinition(session, stmt.view)));
}

export async function executeDescribe(
  session: SqlSession,
  stmt: DescribeSemanticViewStatement,
): Promise<StatementResult> {
  return toResult(describeView(await requireDefinition(session, stmt.view)));
}
