/**
 * Plain metadata every introspector produces and the generator consumes: the warehouse-neutral
 * description of semantic views (kysely-codegen's `DatabaseMetadata`, shrunk to what we emit).
 */
import { rowsToObjects, type ValueKind } from "../../driver/query-result.js";

export type MemberKind = "dimension" | "metric" | "fact";

export interface MemberMetadata {
  /** The logical member name exactly as the warehouse reports it (the field name). */
  readonly name: string;
  readonly kind: MemberKind;
  /**
   * The logical table the member belongs to, when the warehouse reports one (backend A's and C's
   * `parent_entity`). Used only to tell apart members that several tables share a name.
   */
  readonly table?: string | undefined;
  /** The warehouse's type text (`BIGINT`, `NUMBER(38,0)`, `DECIMAL(10,2)`); `""` when unknown. */
  readonly type: string;
  /** The member's defining expression, when the warehouse reports it. */
  readonly expression?: string | undefined;
  /** The warehouse comment, when set. */
  readonly comment?: string | undefined;
  /**
   * A metric's dimensions it can be grouped by, as `SHOW SEMANTIC DIMENSIONS IN v FOR METRIC m` lists
   * them (name and logical table); undefined when the warehouse groups every metric by every dimension.
   */
  readonly groupableBy?: readonly DimensionRef[] | undefined;
}

/** A dimension as a `... FOR METRIC` listing names it. */
export interface DimensionRef {
  readonly name: string;
  readonly table?: string | undefined;
}

export interface ViewMetadata {
  readonly name: string;
  readonly comment?: string | undefined;
  /** Members in the warehouse's definition order. */
  readonly members: readonly MemberMetadata[];
  /** Variables a query may set (backend A's semantic-view VARIABLES, backend B's metric-view parameters). */
  readonly variables?: readonly VariableMetadata[] | undefined;
}

/** A variable of a view, as codegen declares it (`Variable<T>()`). */
export interface VariableMetadata {
  /** The variable's name exactly as the warehouse reports it. */
  readonly name: string;
  /** The warehouse's type text (`NUMBER(38,0)`, `DOUBLE`); `""` when unknown. */
  readonly type: string;
  /** The view defines a default: a query may leave it unset. */
  readonly hasDefault: boolean;
  readonly comment?: string | undefined;
}

/** One backend's way of answering "which semantic views exist, and what is in them". */
export interface Introspector {
  /** View names, as the warehouse spells them. */
  listViews(): Promise<ViewSummary[]>;
  /** Full metadata of one listed view. */
  describeView(view: ViewSummary): Promise<ViewMetadata>;
}

export interface ViewSummary {
  readonly name: string;
  readonly comment?: string | undefined;
}

/** A column as a metadata query reports it. */
export interface SourceColumn {
  readonly name: string;
  readonly type: string;
  /** What its values arrive as (a recording writes a DATE as its day); results of a connection have it. */
  readonly kind?: ValueKind;
}

/**
 * What introspection runs SQL on. A pooled connection (`engine.connect()`) satisfies it; tests of
 * the backend A/B parsers feed recorded results through it.
 */
export interface IntrospectionSource {
  /** `parameters` are bound as a query's are (recording semantic queries passes them). */
  execute(
    sql: string,
    parameters?: readonly unknown[],
  ): Promise<{ readonly columns: readonly SourceColumn[]; readonly rows: readonly (readonly unknown[])[] }>;
}

/** Runs `sql` and returns its rows as objects keyed by column name. */
export async function queryObjects(source: IntrospectionSource, sql: string): Promise<Record<string, unknown>[]> {
  return rowsToObjects(await source.execute(sql));
}

/** Reads a text cell; `null`/`undefined` become `""`. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  return String(value);
}

/** Reads a cell case-insensitively (Snowflake reports upper-case column names, DuckDB lower-case). */
export function cell(row: Record<string, unknown>, name: string): unknown {
  if (name in row) return row[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(row)) if (key.toLowerCase() === lower) return row[key];
  return undefined;
}
