/**
 * Catalogs and information_schema on the Databricks stand-in. DuckDB's default catalog and schema
 * (`memory`.`main`, where `setupSql` creates tables unqualified) are the session's catalog and
 * schema; other catalogs are attached DuckDB databases (`ATTACH ':memory:' AS lakehouse`).
 * `[<catalog>.]information_schema.columns` lists that catalog's columns (the current catalog's
 * without a prefix) in Databricks' shape (information-schema.ts: simple `data_type`, precision and
 * scale in their own columns, `full_data_type`); current_catalog() and current_schema() answer the
 * session's.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { databricksColumn } from "../information-schema.js";

export interface Namespace {
  readonly catalog: string;
  readonly schema: string;
}

const literal = (v: string | number | null) =>
  v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`;

const COLUMNS_REF = /(?:(`(?:[^`]|``)+`|[A-Za-z_]\w*)\s*\.\s*)?information_schema\s*\.\s*columns\b/gi;
const NAMES =
  "table_catalog, table_schema, table_name, column_name, ordinal_position, data_type, full_data_type, numeric_precision, numeric_scale";

/** Rewrites information_schema.columns references and current_catalog()/current_schema() for `namespace`. */
export async function withInformationSchema(
  sql: string,
  connection: DuckDBConnection,
  namespace: Namespace,
): Promise<string> {
  let out = sql
    .replace(/\bcurrent_catalog\s*\(\s*\)/gi, literal(namespace.catalog))
    .replace(/\bcurrent_schema\s*\(\s*\)/gi, literal(namespace.schema));
  if (!new RegExp(COLUMNS_REF.source, "i").test(out)) return out;
  const reader = await connection.runAndReadAll(
    "SELECT table_catalog, table_schema, table_name, column_name, ordinal_position, data_type, current_database() FROM information_schema.columns",
  );
  const rows = (reader.getRows() as [string, string, string, string, number, string, string][]).map(
    ([catalog, schema, table, column, position, type, current]) => {
      // The default catalog and schema are the session's; Unity Catalog stores names lower case.
      const isDefault = catalog === current && schema === "main";
      return {
        catalog: (isDefault ? namespace.catalog : catalog).toLowerCase(),
        schema: (isDefault ? namespace.schema : schema).toLowerCase(),
        table: table.toLowerCase(),
        column,
        position: Number(position),
        shape: databricksColumn(type),
      };
    },
  );
  out = out.replace(COLUMNS_REF, (_m, prefix: string | undefined) => {
    const catalog = prefix === undefined ? namespace.catalog : prefix.replace(/^`|`$/g, "").replaceAll("``", "`");
    const values = rows
      .filter((r) => r.catalog === catalog.toLowerCase())
      .map(
        (r) =>
          `(${[r.catalog, r.schema, r.table, r.column, r.position, r.shape.data_type, r.shape.full_data_type, r.shape.numeric_precision, r.shape.numeric_scale].map(literal).join(", ")})`,
      );
    return values.length === 0
      ? `(SELECT * FROM (VALUES (NULL::VARCHAR, NULL::VARCHAR, NULL::VARCHAR, NULL::VARCHAR, NULL::INTEGER, NULL::VARCHAR, NULL::VARCHAR, NULL::INTEGER, NULL::INTEGER)) AS c(${NAMES}) WHERE false)`
      : `(SELECT * FROM (VALUES ${values.join(", ")}) AS c(${NAMES}))`;
  });
  return out;
}
