/**
 * `get_ddl('SEMANTIC_VIEW', <expression>)` with a view name that is not a literal, as in the
 * documented recipe `SELECT get_ddl('SEMANTIC_VIEW', name) FROM list_semantic_views()`: the call
 * becomes a correlated subquery over the literal DDL of every view, keyed by `name`, `schema.name`
 * and `database.schema.name` (lower case); an expression naming no view raises DuckDB's `error()`
 * with the extension's "does not exist" message.
 */
import { listDefinitions } from "../catalog.js";
import type { SqlSession } from "../semantic-layer.js";
import { textExpression } from "../sql/quote.js";
import { getDdl } from "./tables.js";

/** The SQL replacing the call; `nameSql` is the argument as written, `fullyQualified` the third argument. */
export async function getDdlPerRow(session: SqlSession, nameSql: string, fullyQualified: boolean): Promise<string> {
  const rows: string[] = [];
  for (const def of await listDefinitions(session)) {
    const references = [
      { key: def.name, reference: { name: def.name } },
      { key: `${def.schemaName}.${def.name}`, reference: { schema: def.schemaName, name: def.name } },
      {
        key: `${def.databaseName}.${def.schemaName}.${def.name}`,
        reference: { database: def.databaseName, schema: def.schemaName, name: def.name },
      },
    ];
    for (const { key, reference } of references) {
      rows.push(`(${textExpression(key.toLowerCase())}, ${textExpression(getDdl(def, reference, fullyQualified))})`);
    }
  }
  const name = `(${nameSql})`;
  const missing = `error('semantic view ''' || ${name} || ''' does not exist')`;
  if (rows.length === 0) return `(SELECT ${missing})`;
  const found = `(SELECT min(__sv_ddl.__sv_text) FROM (VALUES ${rows.join(", ")}) AS __sv_ddl(__sv_key, __sv_text) WHERE __sv_ddl.__sv_key = lower(${name}))`;
  return `COALESCE(${found}, ${missing})`;
}
