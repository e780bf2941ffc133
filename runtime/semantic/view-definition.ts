/**
 * The semantic-view model: what a `CREATE SEMANTIC VIEW` statement defines, as stored in the
 * catalog (JSON) and read by the expander and introspection. Names are kept as declared (case
 * kept, quotes stripped); lookups compare them case-insensitively, as the extension does.
 */

export interface TableDef {
  /** Logical alias (defaults to the table name). */
  readonly alias: string;
  /** The physical table reference as written, e.g. `sales_data`, `main.orders`, `"My Table"`. */
  readonly table: string;
  readonly primaryKey: readonly string[];
  readonly unique: readonly (readonly string[])[];
  readonly comment?: string | undefined;
  readonly synonyms: readonly string[];
  /**
   * The physical table the reference resolved to at CREATE (database, schema, table; case as
   * stored in DuckDB's catalog). Absent when the table did not exist at CREATE; then resolve
   * `table` against the definition's `databaseName` and `resolutionSchemaName`.
   */
  readonly resolved?: { readonly database: string; readonly schema: string; readonly name: string } | undefined;
}

export interface RelationshipDef {
  readonly name: string;
  readonly fromAlias: string;
  readonly fkColumns: readonly string[];
  readonly toAlias: string;
  /** Referenced columns (the target's primary key when the DDL omitted them). */
  readonly refColumns: readonly string[];
  /** Inferred: FK columns that are a PK/UNIQUE of the from table make it one-to-one. */
  readonly cardinality: "many_to_one" | "one_to_one";
}

export type Access = "public" | "private";

/** A fact or dimension: a row-level expression over its own table. */
export interface MemberDef {
  readonly name: string;
  /**
   * The name as written in the DDL when that differs from `name` (quoted: `"Order Date"`). The
   * extension stores names as written and shows them so in SHOW, DESCRIBE, GET_DDL and YAML.
   */
  readonly written?: string | undefined;
  /** Alias of the table the member belongs to. */
  readonly table: string;
  /** SQL expression as written (may reference facts by name). */
  readonly expr: string;
  readonly access: Access;
  readonly comment?: string | undefined;
  readonly synonyms: readonly string[];
  /** `LABELS = (FILTER)`. */
  readonly isFilter?: boolean | undefined;
  /** YAML `output_type`: the declared output type (the result column is cast to it). */
  readonly outputType?: string | undefined;
}

export type SortOrder = "asc" | "desc";
export type NullsOrder = "first" | "last";

/** One `NON ADDITIVE BY` entry: a dimension and the order whose first rows are the snapshot. */
export interface NonAdditiveDim {
  /** Dimension name as written in the definition. */
  readonly dimension: string;
  /** Default `asc`: rank 1 is the earliest value. */
  readonly order: SortOrder;
  /** Default `last`. */
  readonly nulls: NullsOrder;
}

/** One `ORDER BY` entry of a window metric's OVER clause (a dimension name). */
export interface WindowOrderBy {
  readonly dimension: string;
  readonly order: SortOrder;
  readonly nulls: NullsOrder;
}

/** `FUNC(inner_metric[, args]) OVER (...)`: a window function over another metric. */
export interface WindowSpec {
  /** Function name as written, e.g. `AVG`, `LAG`. */
  readonly function: string;
  readonly innerMetric: string;
  /** Extra arguments after the inner metric, as SQL text (e.g. `30`). */
  readonly extraArgs: readonly string[];
  /** `PARTITION BY EXCLUDING d, ...`: every queried dimension except these. */
  readonly excludingDims: readonly string[];
  /** `PARTITION BY d, ...`: exactly these (exclusive with excludingDims). */
  readonly partitionDims: readonly string[];
  readonly orderBy: readonly WindowOrderBy[];
  /** Frame clause text passed through, e.g. `ROWS BETWEEN 2 PRECEDING AND CURRENT ROW`. */
  readonly frame?: string | undefined;
}

/** A base metric (aggregate over its table) or a derived metric (expression over other metrics). */
export interface MetricDef {
  readonly name: string;
  /** The name as written, when quoted (see {@link MemberDef.written}). */
  readonly written?: string | undefined;
  /** Alias of the metric's table; undefined for a derived metric. */
  readonly table?: string | undefined;
  readonly expr: string;
  readonly access: Access;
  /** `USING (rel, ...)`: relationship names that pick the path to role-played tables. */
  readonly using: readonly string[];
  readonly comment?: string | undefined;
  readonly synonyms: readonly string[];
  /** `NON ADDITIVE BY (...)`: a semi-additive metric (absent or empty: additive). */
  readonly nonAdditiveBy?: readonly NonAdditiveDim[] | undefined;
  /** `FUNC(m) OVER (...)`: a window metric (`expr` keeps the text as written). */
  readonly window?: WindowSpec | undefined;
  /** YAML `output_type`: the declared output type (the result column is cast to it). */
  readonly outputType?: string | undefined;
}

/**
 * `MATERIALIZATIONS (name AS (TABLE t, DIMENSIONS (..), METRICS (..)))`: a pre-aggregated table
 * holding exactly these dimensions and metrics as columns of the same names. A query asking for
 * exactly this set reads the table instead of expanding.
 */
export interface MaterializationDef {
  readonly name: string;
  /** The table reference as written (not checked at CREATE). */
  readonly table: string;
  /** Dimension names, as declared in the view (case of the declaration). */
  readonly dimensions: readonly string[];
  /** Metric names, as declared in the view. */
  readonly metrics: readonly string[];
}

/** A member's name as the extension shows it in introspection: as written in the DDL. */
export const shownName = (m: { readonly name: string; readonly written?: string | undefined }): string =>
  m.written ?? m.name;

export interface SemanticViewDefinition {
  /** The view name (folded to lower case, as the extension does). */
  readonly name: string;
  readonly databaseName: string;
  readonly schemaName: string;
  /** `current_schema()` of the creating session: where unqualified table names resolve. */
  readonly resolutionSchemaName?: string | undefined;
  /** Version of this JSON shape (currently 1). */
  readonly schemaVersion?: number | undefined;
  readonly comment?: string | undefined;
  /** ISO-8601 UTC, `%Y-%m-%dT%H:%M:%SZ`. */
  readonly createdOn: string;
  /** The first table is the base table (root of the join tree). */
  readonly tables: readonly TableDef[];
  readonly relationships: readonly RelationshipDef[];
  readonly facts: readonly MemberDef[];
  readonly dimensions: readonly MemberDef[];
  readonly metrics: readonly MetricDef[];
  /** Absent in definitions stored before materializations existed (read as none). */
  readonly materializations?: readonly MaterializationDef[] | undefined;
}
