/**
 * Databases and INFORMATION_SCHEMA on the Snowflake stand-in. Every session (and the seed) works in
 * database ANALYTICS, schema PUBLIC (a DuckDB catalog `analytics` with schema `public`), so tables a
 * test creates unqualified are ANALYTICS.PUBLIC.<TABLE>, and other databases are other attached
 * catalogs (`ATTACH ':memory:' AS ref_db`). INFORMATION_SCHEMA is per database in Snowflake:
 * `[<db>.]INFORMATION_SCHEMA.COLUMNS` lists that database's columns only (the session's database
 * without a prefix), with names stored upper case (unquoted identifiers) and Snowflake's types
 * (information-schema.ts); CURRENT_DATABASE() and CURRENT_SCHEMA() answer ANALYTICS and PUBLIC.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { snowflakeColumn } from "../information-schema.js";

export const STAND_IN_DATABASE = "ANALYTICS";
export const STAND_IN_SCHEMA = "PUBLIC";

/** Makes ANALYTICS.PUBLIC the connection's current database and schema. */
export async function useStandInNamespace(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `ATTACH IF NOT EXISTS ':memory:' AS analytics; CREATE SCHEMA IF NOT EXISTS analytics.public; USE analytics.public`,
  );
}

const literal = (v: string | number | null) =>
  v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`;

const COLUMNS_REF = /(?:("(?:[^"]|"")+"|[A-Za-z_][\w$]*)\s*\.\s*)?INFORMATION_SCHEMA\s*\.\s*COLUMNS\b/gi;

/** Rewrites INFORMATION_SCHEMA.COLUMNS references and the current database/schema functions. */
export async function withInformationSchema(sql: string, connection: DuckDBConnection): Promise<string> {
  let out = sql
    .replace(/\bCURRENT_SCHEMA\s*\(\s*\)/gi, literal(STAND_IN_SCHEMA))
    .replace(/\bCURRENT_DATABASE\s*\(\s*\)/gi, literal(STAND_IN_DATABASE));
  if (!new RegExp(COLUMNS_REF.source, "i").test(out)) return out;
  const reader = await connection.runAndReadAll(
    "SELECT table_catalog, table_schema, table_name, column_name, ordinal_position, data_type FROM information_schema.columns",
  );
  const rows = reader.getRows() as [string, string, string, string, number, string][];
  out = out.replace(COLUMNS_REF, (_match, database: string | undefined) => {
    const db =
      database === undefined
        ? STAND_IN_DATABASE
        : database.startsWith('"')
          ? database.slice(1, -1).replaceAll('""', '"')
          : database.toUpperCase();
    const values = rows
      .filter(([catalog]) => catalog.toUpperCase() === db.toUpperCase())
      .map(([catalog, schema, table, column, position, type]) => {
        const shape = snowflakeColumn(type);
        const upper = [catalog, schema, table, column].map((n) => literal(n.toUpperCase()));
        return `(${[...upper, literal(Number(position)), literal(shape.data_type), literal(shape.numeric_precision), literal(shape.numeric_scale)].join(", ")})`;
      });
    const names =
      "TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, NUMERIC_PRECISION, NUMERIC_SCALE";
    return values.length === 0
      ? `(SELECT NULL::VARCHAR AS TABLE_CATALOG, NULL::VARCHAR AS TABLE_SCHEMA, NULL::VARCHAR AS TABLE_NAME, NULL::VARCHAR AS COLUMN_NAME, NULL::INTEGER AS ORDINAL_POSITION, NULL::VARCHAR AS DATA_TYPE, NULL::INTEGER AS NUMERIC_PRECISION, NULL::INTEGER AS NUMERIC_SCALE WHERE false)`
      : `(SELECT * FROM (VALUES ${values.join(", ")}) AS c(${names}))`;
  });
  return out;
}
