/**
 * An introspection source that answers from recorded results (documented column shapes of
 * backends A and B), so their parsers run without a warehouse. Unknown SQL fails loudly.
 */
import type { IntrospectionSource, SourceColumn } from "../../../runtime/dialects/introspect/metadata.js";
import { databricksColumn, snowflakeColumn } from "../../support/stand-ins/information-schema.js";

export interface Recorded {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  /** Column types, when the recording has them (probe results). */
  readonly types?: readonly string[];
}

export class RecordedSource implements IntrospectionSource {
  readonly statements: string[] = [];
  readonly #answers: ReadonlyMap<string, Recorded | Error>;

  constructor(answers: Record<string, Recorded | Error>) {
    this.#answers = new Map(Object.entries(answers));
  }

  async execute(sql: string): Promise<{ columns: SourceColumn[]; rows: (readonly unknown[])[] }> {
    this.statements.push(sql);
    const answer = this.#answers.get(sql);
    if (answer === undefined) throw new Error(`no recorded result for: ${sql}`);
    if (answer instanceof Error) throw answer;
    return {
      columns: answer.columns.map((name, i) => ({ name, type: answer.types?.[i] ?? "VARCHAR" })),
      rows: [...answer.rows],
    };
  }
}

/** A table as a fixture reader names it: `[catalog, schema, table]` parts, any of the first two missing. */
export interface RecordedTable {
  readonly catalog?: string;
  readonly schema?: string;
  readonly table: string;
}

/** Backend B's column read of `table` and Databricks' answer for columns created with these DuckDB types. */
export function databricksColumnsAnswer(
  t: RecordedTable,
  columns: readonly (readonly [string, string])[],
): [string, Recorded] {
  const from = t.catalog === undefined ? "information_schema.columns" : `\`${t.catalog}\`.information_schema.columns`;
  const where = [
    t.catalog === undefined ? "table_catalog = current_catalog()" : undefined,
    `table_schema = ${t.schema === undefined ? "current_schema()" : `'${t.schema}'`}`,
    `table_name = '${t.table}'`,
  ].filter((w) => w !== undefined);
  const sql = `SELECT column_name, data_type, full_data_type, numeric_precision, numeric_scale FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ordinal_position`;
  return [
    sql,
    {
      columns: ["column_name", "data_type", "full_data_type", "numeric_precision", "numeric_scale"],
      rows: columns.map(([name, type]) => {
        const c = databricksColumn(type);
        return [name, c.data_type, c.full_data_type, c.numeric_precision, c.numeric_scale];
      }),
    },
  ];
}

/** Backend A's column read of `table` and Snowflake's answer (upper-case column names, as Snowflake reports them). */
export function snowflakeColumnsAnswer(
  t: RecordedTable,
  columns: readonly (readonly [string, string])[],
): [string, Recorded] {
  const from = t.catalog === undefined ? "INFORMATION_SCHEMA.COLUMNS" : `"${t.catalog}".INFORMATION_SCHEMA.COLUMNS`;
  const schema = t.schema === undefined ? "CURRENT_SCHEMA()" : `'${t.schema}'`;
  const sql = `SELECT column_name, data_type, numeric_precision, numeric_scale FROM ${from} WHERE table_schema = ${schema} AND table_name = '${t.table}' ORDER BY ordinal_position`;
  return [
    sql,
    {
      columns: ["COLUMN_NAME", "DATA_TYPE", "NUMERIC_PRECISION", "NUMERIC_SCALE"],
      rows: columns.map(([name, type]) => {
        const c = snowflakeColumn(type);
        return [name, c.data_type, c.numeric_precision, c.numeric_scale];
      }),
    },
  ];
}
