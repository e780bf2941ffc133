/**
 * The definition catalog: `semantic_layer._definitions(schema_name, name, definition)` inside the
 * database itself (the extension's table shape), read and written through the caller's session so
 * DDL joins the caller's transaction and file-backed databases keep their views. The table is
 * created lazily on the first write; reads of a database without it find nothing (so read-only
 * databases work).
 */
import type { SemanticViewDefinition } from "./view-definition.js";
import { UNCOMMITTED_MEMO_KEY, type SqlSession } from "./semantic-layer.js";
import { SemanticViewError } from "./semantic-error.js";
import { TokenStream } from "./sql/token-stream.js";
import { parseQualifiedName, type QualifiedName } from "./sql/parse-qualified-name.js";
import type { StoredCandidate } from "./definition-cache.js";

export const CATALOG_SCHEMA = "semantic_layer";
export const CATALOG_TABLE = "_definitions";
const TABLE = `${CATALOG_SCHEMA}.${CATALOG_TABLE}`;

/** The session's current database and schema. */
export interface SessionContext {
  readonly database: string;
  readonly schema: string;
}

export async function sessionContext(session: SqlSession): Promise<SessionContext> {
  const { rows } = await session.query("SELECT current_database(), current_schema()");
  const row = rows[0] ?? [];
  return { database: String(row[0]), schema: String(row[1]) };
}

/** True when the catalog table exists in the current database (never fails, even read-only). */
export async function catalogExists(session: SqlSession): Promise<boolean> {
  // Once seen, the table stays (ensureCatalog marks a table it created uncommitted, so a rollback
  // forgets it): this saves a catalog scan on every semantic query.
  if (session.memo?.get(CATALOG_EXISTS) === true) return true;
  const { rows } = await session.query(
    "SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2",
    [CATALOG_SCHEMA, CATALOG_TABLE],
  );
  const exists = Number(rows[0]?.[0] ?? 0) > 0;
  if (exists) session.memo?.set(CATALOG_EXISTS, true);
  return exists;
}

const CATALOG_EXISTS = "semantic_layer.catalogExists";

/** Creates the catalog schema and table when missing (inside the caller's transaction). */
export async function ensureCatalog(session: SqlSession): Promise<void> {
  if (await catalogExists(session)) return;
  await session.query(`CREATE SCHEMA IF NOT EXISTS ${CATALOG_SCHEMA}`);
  await session.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (schema_name VARCHAR NOT NULL, name VARCHAR NOT NULL, definition VARCHAR NOT NULL, PRIMARY KEY (schema_name, name))`,
  );
  // The table exists only inside this transaction until it commits.
  session.memo?.set(CATALOG_EXISTS, true);
  session.memo?.set(UNCOMMITTED_MEMO_KEY, true);
}

function parseStored(json: unknown, schema: string, name: string): SemanticViewDefinition | undefined {
  try {
    const def = JSON.parse(String(json)) as Partial<SemanticViewDefinition>;
    if (!Array.isArray(def.tables) || !Array.isArray(def.metrics) || !Array.isArray(def.dimensions)) return undefined;
    // The row's key wins over the JSON (ALTER ... RENAME updates both, but be defensive).
    return {
      ...(def as SemanticViewDefinition),
      name,
      schemaName: schema,
      facts: def.facts ?? [],
      relationships: def.relationships ?? [],
    };
  } catch {
    return undefined;
  }
}

/**
 * A definition as read from the catalog of `database`: that is its database now, whatever name the
 * file had when the view was created (a renamed or re-attached database file keeps working), and its
 * tables resolved in its own database follow it. Tables in other databases keep their database.
 */
function inDatabase(def: SemanticViewDefinition, database: string): SemanticViewDefinition {
  const stored = def.databaseName;
  if (stored === database) return def;
  const own = (name: string | undefined): boolean => name !== undefined && name.toLowerCase() === stored.toLowerCase();
  return {
    ...def,
    databaseName: database,
    tables: def.tables.map((t) =>
      t.resolved !== undefined && own(t.resolved.database) ? { ...t, resolved: { ...t.resolved, database } } : t,
    ),
  };
}

/** Every stored definition (ordered by schema, name). Rows in a foreign JSON shape are skipped. */
export async function listDefinitions(session: SqlSession): Promise<SemanticViewDefinition[]> {
  if (!(await catalogExists(session))) return [];
  const { rows } = await session.query(
    `SELECT schema_name, name, definition, current_database() FROM ${TABLE} ORDER BY schema_name, name`,
  );
  const out: SemanticViewDefinition[] = [];
  for (const [schema, name, json, database] of rows) {
    const def = parseStored(json, String(schema), String(name));
    if (def !== undefined) out.push(inDatabase(def, String(database)));
  }
  return out;
}

/** Parses a view reference like `sales`, `main.sales`, `"Sales"`, `memory.main.sales`. */
export function parseViewReference(reference: string): QualifiedName {
  try {
    const ts = new TokenStream(reference);
    const { name } = parseQualifiedName(ts, "semantic view name");
    if (ts.atEnd()) return name;
  } catch {
    // fall through: treat the whole text as a name
  }
  return { name: reference.trim() };
}

export interface ResolvedViewName {
  readonly schema: string;
  readonly name: string;
}

/** Fold the way the extension does: view names (and schemas) to lower case. */
export function foldName(name: QualifiedName, context: SessionContext): ResolvedViewName & { database: string } {
  return {
    database: name.database ?? context.database,
    schema: (name.schema ?? context.schema).toLowerCase(),
    name: name.name.toLowerCase(),
  };
}

/**
 * Loads one definition. An unqualified name resolves in `current_schema()` first, then through the
 * schemas of the `search_path` setting, then to the only view of that name in any schema. Returns
 * undefined when there is no such view. Outside a transaction the stored rows come from the
 * session's shared {@link DefinitionCache} and the session context from its memo.
 */
export async function loadDefinition(
  session: SqlSession,
  reference: string | QualifiedName,
): Promise<SemanticViewDefinition | undefined> {
  const name = typeof reference === "string" ? parseViewReference(reference) : reference;
  const wanted = name.name.toLowerCase();
  const cache = session.definitions;
  if (cache !== undefined) {
    const context = await resolutionContext(session);
    const key = `${context.database}\u0000${wanted}`;
    let candidates = cache.get(key);
    if (candidates === undefined) {
      const readAt = cache.generation;
      if (!(await catalogExists(session))) return undefined;
      const { rows } = await session.query(
        `SELECT schema_name, name, definition FROM ${TABLE} WHERE name = $1 ORDER BY schema_name`,
        [wanted],
      );
      candidates = rows.map(storedCandidate);
      if (candidates.length > 0) cache.set(key, candidates, readAt);
    }
    const found = chooseCandidate(name, context, candidates);
    return found === undefined ? undefined : inDatabase(found, context.database);
  }
  if (!(await catalogExists(session))) return undefined;
  // One round trip: the candidates plus the session context needed to choose among them.
  const { rows } = await session.query(
    `SELECT schema_name, name, definition, current_database(), current_schema(), current_setting('search_path') FROM ${TABLE} WHERE name = $1 ORDER BY schema_name`,
    [wanted],
  );
  if (rows.length === 0) return undefined;
  const [, , , database, schema, searchPath] = rows[0]!;
  const found = chooseCandidate(
    name,
    { database: String(database), schema: String(schema), searchPath: String(searchPath ?? "") },
    rows.map(storedCandidate),
  );
  return found === undefined ? undefined : inDatabase(found, String(database));
}

interface ResolutionContext extends SessionContext {
  readonly searchPath: string;
}

const RESOLUTION_CONTEXT = "semantic_layer.resolutionContext";

/**
 * Current database, schema and search path; memoized (the connection clears its memo on
 * USE/SET/RESET/ATTACH/DETACH), once for all the engine's connections in its own session state.
 */
async function resolutionContext(session: SqlSession): Promise<ResolutionContext> {
  const memo = session.sharedMemo ?? session.memo;
  const memoized = memo?.get(RESOLUTION_CONTEXT) as ResolutionContext | undefined;
  if (memoized !== undefined) return memoized;
  const { rows } = await session.query("SELECT current_database(), current_schema(), current_setting('search_path')");
  const [database, schema, searchPath] = rows[0] ?? [];
  const context: ResolutionContext = {
    database: String(database),
    schema: String(schema),
    searchPath: String(searchPath ?? ""),
  };
  memo?.set(RESOLUTION_CONTEXT, context);
  return context;
}

function storedCandidate([schema, name, json]: unknown[]): StoredCandidate {
  return { schema: String(schema), name: String(name), definition: parseStored(json, String(schema), String(name)) };
}

function chooseCandidate(
  name: QualifiedName,
  context: ResolutionContext,
  candidates: readonly StoredCandidate[],
): SemanticViewDefinition | undefined {
  if (candidates.length === 0) return undefined;
  if (name.database !== undefined && name.database.toLowerCase() !== context.database.toLowerCase()) return undefined;
  const inSchema = (schema: string) => candidates.find((c) => c.schema === schema.toLowerCase());
  if (name.schema !== undefined) return inSchema(name.schema)?.definition;
  const searchSchemas = context.searchPath
    .split(",")
    .map((entry) => entry.trim().replace(/^"|"$/g, ""))
    .filter((entry) => entry !== "")
    .map((entry) => entry.split(".").pop()!);
  let hit = [context.schema, ...searchSchemas].map(inSchema).find((c) => c !== undefined);
  if (hit === undefined) {
    if (candidates.length > 1) {
      throw new SemanticViewError(
        "invalid",
        `semantic view name '${name.name}' is ambiguous: it exists in schemas [${candidates.map((c) => c.schema).join(", ")}]; qualify it as schema.name`,
      );
    }
    hit = candidates[0];
  }
  return hit?.definition;
}

/** A stored row's key. */
export async function definitionExists(session: SqlSession, key: ResolvedViewName): Promise<boolean> {
  if (!(await catalogExists(session))) return false;
  const { rows } = await session.query(`SELECT count(*) FROM ${TABLE} WHERE schema_name = $1 AND name = $2`, [
    key.schema,
    key.name,
  ]);
  return Number(rows[0]?.[0] ?? 0) > 0;
}

/** Inserts or replaces a definition (caller has checked existence rules). */
export async function saveDefinition(session: SqlSession, definition: SemanticViewDefinition): Promise<void> {
  await ensureCatalog(session);
  await session.query(`DELETE FROM ${TABLE} WHERE schema_name = $1 AND name = $2`, [
    definition.schemaName,
    definition.name,
  ]);
  await session.query(`INSERT INTO ${TABLE} (schema_name, name, definition) VALUES ($1, $2, $3)`, [
    definition.schemaName,
    definition.name,
    JSON.stringify(definition),
  ]);
}

export async function deleteDefinition(session: SqlSession, key: ResolvedViewName): Promise<void> {
  await session.query(`DELETE FROM ${TABLE} WHERE schema_name = $1 AND name = $2`, [key.schema, key.name]);
}

/** The catalog adapter the query rewriter takes. */
export interface DefinitionCatalog {
  load(name: string): Promise<SemanticViewDefinition | undefined>;
  names(): Promise<string[]>;
}

export function sessionCatalog(session: SqlSession): DefinitionCatalog {
  return {
    load: (name) => loadDefinition(session, name),
    names: async () => (await listDefinitions(session)).map((d) => d.name),
  };
}
