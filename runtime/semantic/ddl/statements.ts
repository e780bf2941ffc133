/** Parsed semantic statements (before validation and catalog access). */
import type { Access, NonAdditiveDim, WindowSpec } from "../view-definition.js";
import type { QualifiedName } from "../sql/parse-qualified-name.js";

export interface DraftTable {
  readonly alias: string;
  /** Exact source text of the table reference. */
  readonly table: string;
  /** The reference's parts, quotes stripped (1 to 3 parts). */
  readonly tableParts: readonly string[];
  readonly primaryKey: readonly string[];
  readonly unique: readonly (readonly string[])[];
  readonly comment?: string | undefined;
  readonly synonyms: readonly string[];
  /** Offset of the entry in the statement, for validation errors (-1: unknown, e.g. YAML). */
  readonly position: number;
}

export interface DraftRelationship {
  readonly name: string;
  readonly fromAlias: string;
  readonly fkColumns: readonly string[];
  readonly toAlias: string;
  /** Empty when the DDL omitted the referenced columns (the target's primary key). */
  readonly refColumns: readonly string[];
  readonly position: number;
}

export type MemberKind = "fact" | "dimension" | "metric";

export interface DraftMember {
  readonly kind: MemberKind;
  /** Table alias as written; undefined for a derived metric. */
  readonly table?: string | undefined;
  readonly name: string;
  /** The name token as written when it was quoted (`"Order Date"`). */
  readonly written?: string | undefined;
  readonly expr: string;
  /** Offset of the expression in the statement. */
  readonly exprPosition: number;
  /** Explicit access modifier, if written. */
  readonly access?: Access | undefined;
  readonly using: readonly string[];
  readonly comment?: string | undefined;
  readonly synonyms: readonly string[];
  readonly isFilter: boolean;
  /** YAML `output_type` (SQL DDL has no clause for it). */
  readonly outputType?: string | undefined;
  readonly position: number;
  /** Metrics: `NON ADDITIVE BY (...)` entries. */
  readonly nonAdditiveBy?: readonly NonAdditiveDim[] | undefined;
  /** Metrics: the parsed `FUNC(m) OVER (...)` expression. */
  readonly window?: WindowSpec | undefined;
}

export interface DraftMaterialization {
  readonly name: string;
  readonly table: string;
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  /** Offset of the entry in the statement (-1: unknown, e.g. YAML). */
  readonly position: number;
}

export interface CreateSemanticViewStatement {
  readonly type: "create";
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly name: QualifiedName;
  readonly comment?: string | undefined;
  readonly tables: readonly DraftTable[];
  readonly relationships: readonly DraftRelationship[];
  readonly facts: readonly DraftMember[];
  readonly dimensions: readonly DraftMember[];
  readonly metrics: readonly DraftMember[];
  readonly materializations: readonly DraftMaterialization[];
  /** The statement text, for validation error positions. */
  readonly sql: string;
}

/** `CREATE ... SEMANTIC VIEW name FROM YAML FILE '<path>'`: the body is read at execution. */
export interface CreateFromYamlFileStatement {
  readonly type: "create_from_yaml_file";
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly name: QualifiedName;
  readonly comment?: string | undefined;
  readonly path: string;
  readonly sql: string;
}

export interface DropSemanticViewStatement {
  readonly type: "drop";
  readonly ifExists: boolean;
  readonly name: QualifiedName;
}

export type AlterAction =
  | { readonly action: "rename"; readonly newName: QualifiedName }
  | { readonly action: "set_comment"; readonly comment: string }
  | { readonly action: "unset_comment" };

export interface AlterSemanticViewStatement {
  readonly type: "alter";
  readonly ifExists: boolean;
  readonly name: QualifiedName;
  readonly change: AlterAction;
}

/** `INSTALL semantic_views` / `LOAD semantic_views`: accepted as no-ops. */
export interface ExtensionStatement {
  readonly type: "extension";
  readonly verb: "install" | "load";
}

export interface ShowSemanticViewsStatement {
  readonly type: "show_views";
  readonly terse: boolean;
  readonly like?: string | undefined;
  readonly startsWith?: string | undefined;
  readonly limit?: number | undefined;
  /** `LIMIT n FROM 'name'`: start at the first name >= this one. */
  readonly limitFrom?: string | undefined;
  /** Null: `IN SCHEMA` / `IN DATABASE` without a name (the current one). */
  readonly inSchema?: string | null | undefined;
  readonly inDatabase?: string | null | undefined;
}

export interface ShowMembersStatement {
  readonly type: "show_members";
  readonly kind: "dimensions" | "metrics" | "facts" | "materializations";
  /** Undefined: every view (narrowed by inSchema / inDatabase). */
  readonly view?: QualifiedName | undefined;
  /** `IN SCHEMA [db.]s`; null: `IN SCHEMA` without a name (the current schema). */
  readonly inSchema?: string | null | undefined;
  /** `IN DATABASE d`, or the database part of `IN SCHEMA d.s`; null: the current database. */
  readonly inDatabase?: string | null | undefined;
  /** `SHOW SEMANTIC DIMENSIONS IN v FOR METRIC m`. */
  readonly forMetric?: string | undefined;
  readonly like?: string | undefined;
  readonly startsWith?: string | undefined;
  readonly limit?: number | undefined;
  /** `LIMIT n FROM 'name'`: start at the first name >= this one. */
  readonly limitFrom?: string | undefined;
}

export interface ShowColumnsStatement {
  readonly type: "show_columns";
  readonly view: QualifiedName;
}

export interface DescribeSemanticViewStatement {
  readonly type: "describe";
  readonly view: QualifiedName;
}

export type SemanticStatement =
  | CreateSemanticViewStatement
  | CreateFromYamlFileStatement
  | DropSemanticViewStatement
  | AlterSemanticViewStatement
  | ExtensionStatement
  | ShowSemanticViewsStatement
  | ShowMembersStatement
  | ShowColumnsStatement
  | DescribeSemanticViewStatement;
