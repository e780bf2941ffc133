/**
 * The physical tables behind TABLES entries, found the way DuckDB would resolve them. One scan of
 * `information_schema.columns` serves every entry of a CREATE: the scan costs as much as the
 * database has tables, so one per entry made CREATE grow with entries × tables.
 */
import type { SessionContext } from "../catalog.js";
import type { SqlSession } from "../semantic-layer.js";
import { quoteLiteral } from "../sql/quote.js";
import type { DraftTable } from "./statements.js";
import type { PhysicalTable } from "./validate.js";

type Found = PhysicalTable & { columns: string[] };

/** Reads the columns of every table named `names` (any case) and returns the resolver of one entry. */
export async function physicalTables(
  session: SqlSession,
  names: readonly string[],
): Promise<(table: DraftTable, context: SessionContext) => PhysicalTable | undefined> {
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  const byName = new Map<string, Map<string, Found>>();
  if (wanted.length > 0) {
    const { rows } = await session.query(
      `SELECT table_catalog, table_schema, table_name, column_name FROM information_schema.columns WHERE lower(table_name) IN (${wanted.map(quoteLiteral).join(", ")}) ORDER BY table_catalog, table_schema, ordinal_position`,
    );
    for (const [db, schema, name, column] of rows) {
      const tableKey = String(name).toLowerCase();
      const groups = byName.get(tableKey) ?? new Map<string, Found>();
      byName.set(tableKey, groups);
      // Grouped by database and schema (case-insensitive table names fold together, as before).
      const key = `${String(db)}\u0000${String(schema)}`;
      let g = groups.get(key);
      if (g === undefined) {
        g = { database: String(db), schema: String(schema), name: String(name), columns: [] };
        groups.set(key, g);
      }
      g.columns.push(String(column));
    }
  }
  return (table, context) => {
    const parts = table.tableParts;
    const groups = [...(byName.get(parts[parts.length - 1]!.toLowerCase())?.values() ?? [])];
    const find = (db: string, schema: string): PhysicalTable | undefined =>
      groups.find(
        (g) => g.database.toLowerCase() === db.toLowerCase() && g.schema.toLowerCase() === schema.toLowerCase(),
      );
    if (parts.length === 3) return find(parts[0]!, parts[1]!);
    if (parts.length === 2) return find(context.database, parts[0]!) ?? find(parts[0]!, "main");
    return find(context.database, context.schema) ?? find(context.database, "main") ?? find("temp", "main");
  };
}
