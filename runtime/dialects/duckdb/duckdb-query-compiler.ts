/**
 * Backend C: DuckDB's `semantic_view()` table function (the `semantic_views` extension, or the
 * library's built-in engine that accepts the same call).
 *
 * ```sql
 * SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales',
 *   dimensions := ['country'], metrics := ['revenue'], where_clause := '"country" = ''US''')
 *   ORDER BY "revenue" DESC NULLS LAST LIMIT 100
 * ```
 * The function takes no bind parameters inside `where_clause`, so filter values are written as SQL
 * literals, escaped twice: first as a literal inside the predicate (`'US'`), then the whole predicate
 * as a string literal (`'"country" = ''US'''`). Both levels double single quotes; DuckDB strings
 * have no backslash escapes. Members in the predicate are quoted identifiers (`"country"`). The
 * parameter list is always empty (the library's built-in engine binds these literals itself, one
 * statement per filter shape). Literals:
 * - string: `'...'`; a NUL character (which DuckDB's parser cannot take inside a literal) becomes
 *   `chr(0)` concatenated in: `('a' || chr(0) || 'b')`;
 * - number: shortest round-trip text (`1.5`, `1e+21`), except a whole number beyond ±(2^53-1) and
 *   below 1e21, written as its exact integer digits (the shortest text `9223372036854776000` would
 *   be a different integer than 2^63); bigint and Decimal: exact digits (`12.50` is a DECIMAL
 *   literal); boolean: `TRUE`/`FALSE`. Rejected with a ValidationError naming the field: a bigint
 *   outside HUGEINT (DuckDB would read it as UHUGEINT or DOUBLE and `2^127` would match `2^127-1`),
 *   a Decimal of more than 38 digits (read as a DOUBLE), -0, NaN, ±Infinity, any non-genuine value;
 * - Date: `TIMESTAMP 'YYYY-MM-DD HH:MM:SS.mmm'` in UTC (the instant as a naive UTC timestamp, which
 *   is how timestamps arrive as Dates), or `DATE 'YYYY-MM-DD'` for midnight UTC (how DATE values
 *   arrive; the same answer against any temporal member); years outside 0000-9999 are rejected.
 * A comparison with a fractional value is guarded so that DuckDB never casts the member to the
 * literal's DECIMAL(38, s) and fails on wide rows (duckdb-decimal-guard.ts).
 * Columns come back dimensions first, then metrics or facts, each aliased to its field name (the
 * function alone would name them as the view spells them).
 */
import type { OperationNode, RawNode, ValueNode } from "kysely";
import { kysely } from "../../query-compiler/kysely.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { SemanticQueryCompiler } from "../../query-compiler/semantic-query-compiler.js";
import { joinNodes, keyword, sqlNode } from "../../query-compiler/sql-nodes.js";
import type { ConditionNode } from "../../operation-node/condition-node.js";
import { guardDecimalComparison } from "./duckdb-decimal-guard.js";
import type { FieldNode } from "../../operation-node/field-node.js";
import { plainWarehouseName, warehouseNameParts } from "../../operation-node/warehouse-name.js";
import type { SemanticQueryNode } from "../../operation-node/semantic-query-node.js";
import type { CompiledQuery } from "../../query-compiler/compiled-query.js";
import { placeholderOf } from "../../semantic/call/lift-where-values.js";
import type { LiftedLiteral, LiftedStatement } from "../../semantic/semantic-layer.js";
import type { ValueTemplate } from "../../query-compiler/value-template.js";
import { duckdbValueTemplate, type TemplateHole, type TemplateParts } from "./duckdb-value-template.js";
import { duckdbLiteral, duckdbValueProblem } from "./duckdb-literals.js";
import { liftedLiteralOf, noteLiftedValues } from "./duckdb-lifted-values.js";

/** A where_clause predicate written with its values lifted out (duckdb-lifted-values.ts). */
interface LiftedPredicate {
  readonly template: string;
  readonly literals: readonly LiftedLiteral[];
}

/** The values an inner compile wrote: their spans in its SQL, or null once one cannot be lifted. */
type ValueSpans = { start: number; end: number; literal: LiftedLiteral }[] | null;

export class DuckDBQueryCompiler extends SemanticQueryCompiler {
  readonly dialect = "backend_c" as const;
  /** Compiles where_clause conditions to text (see predicateSql). */
  #inner: DuckDBQueryCompiler | undefined;
  /** On the inner compiler, while it writes a predicate: the values written. */
  #spans: ValueSpans | undefined;
  /** On the inner compiler, while a template is recorded: where each of the query's values went. */
  #holes: TemplateHole[] | undefined;
  /** On the inner compiler, while it writes a ValueNode: the query value it holds (valueSlots). */
  #slot: number | undefined;
  /** On the outer compiler, during a compile: the where_clause's text, lifted form and literal's span. */
  #predicate: string | undefined;
  #lifted: LiftedPredicate | undefined;
  #whereSpan: { start: number; end: number } | undefined;
  #recording = false;

  /** Also notes the where_clause values in typed form, with the statement's shape (duckdb-lifted-values.ts). */
  override compileSemanticQuery(query: SemanticQueryNode): CompiledQuery {
    return this.#compile(query).compiled;
  }

  /** Splices values into the where_clause of a compile recorded once per value shape (duckdb-value-template.ts). */
  override compileWithTemplate(
    query: SemanticQueryNode,
    values: readonly FilterValue[],
  ): { compiled: CompiledQuery; template?: ValueTemplate | undefined } {
    this.#recording = true;
    try {
      const { compiled, parts } = this.#compile(query);
      return { compiled, template: parts === undefined ? undefined : duckdbValueTemplate(parts, values) };
    } finally {
      this.#recording = false;
    }
  }

  #compile(query: SemanticQueryNode): { compiled: CompiledQuery; parts?: TemplateParts | undefined } {
    this.#predicate = undefined;
    this.#lifted = undefined;
    this.#whereSpan = undefined;
    try {
      const compiled = super.compileSemanticQuery(query);
      const lifted = this.#lifted as LiftedPredicate | undefined;
      const span = this.#whereSpan as { start: number; end: number } | undefined;
      let statement: LiftedStatement | undefined;
      if (lifted !== undefined && span !== undefined && lifted.literals.length > 0) {
        const { sql } = compiled;
        const shape = `${sql.slice(0, span.start)}'${lifted.template.replaceAll("'", "''")}'${sql.slice(span.end)}`;
        statement = Object.freeze({ shape, literals: lifted.literals });
        noteLiftedValues(compiled, statement);
      }
      const inner = this.#inner;
      const holes = inner === undefined ? undefined : inner.#holes;
      if (!this.#recording || holes === undefined) return { compiled };
      const predicate = this.#predicate as string | undefined;
      if (predicate === undefined || span === undefined) return { compiled };
      return { compiled, parts: { sql: compiled.sql, where: { ...span, predicate }, holes, lifted: statement } };
    } finally {
      this.#predicate = undefined;
      this.#lifted = undefined;
      this.#whereSpan = undefined;
      if (this.#inner !== undefined) this.#inner.#holes = undefined;
    }
  }

  protected override semanticQueryToNode(query: SemanticQueryNode): RawNode {
    // A view part that is not an identifier is quoted, as member names are (a view declared with { name }).
    const view = warehouseNameParts(query.warehouseName)
      .map((part) => semanticViewMemberName(part.text))
      .join(".");
    const { ValueNode } = kysely();
    const args: OperationNode[] = [ValueNode.createImmediate(view)];
    const list = (name: string, fields: readonly FieldNode[]) => {
      if (fields.length === 0) return;
      const names = fields.map((f) =>
        ValueNode.createImmediate(semanticViewMemberName(plainWarehouseName(f.warehouseName))),
      );
      args.push(sqlNode`${keyword(name)} := [${joinNodes(names, ", ")}]`);
    };
    list("dimensions", query.dimensions);
    list("metrics", query.metrics);
    list("facts", query.facts);
    if (query.where !== undefined) {
      args.push(sqlNode`where_clause := ${ValueNode.createImmediate(this.predicateSql(query.where))}`);
    }
    // semantic_view() names its columns as the view spells them (`Country`); alias each one to its
    // field name so rows key the same on every backend (column references are case-insensitive).
    const selection = [...query.dimensions, ...query.metrics, ...query.facts];
    const items = selection.map((f) => sqlNode`${this.memberReference(f)} AS ${this.columnAlias(f)}`);
    const select = items.length === 0 ? keyword("*") : joinNodes(items, ", ");
    return sqlNode`SELECT ${select} FROM semantic_view(${joinNodes(args, ", ")})${this.orderByToNode(query.orderBy)}${this.limitOffsetToNode(query)}`;
  }

  /** The semantic_views extension has no variables: a value set for one cannot be honoured. */
  protected override checkSelection(query: SemanticQueryNode): void {
    const variable = query.variables[0]?.variable;
    if (variable === undefined) return;
    throw this.selectionError(
      query,
      "variables",
      `backend C (DuckDB semantic_views) has no view variables: "${variable.name}" cannot be set ` +
        "(variables are backend A's semantic-view VARIABLES and backend B's metric-view parameters)",
    );
  }

  /** The predicate as SQL text with literals inlined (the first level of quoting). */
  private predicateSql(condition: ConditionNode): string {
    // One inner compiler per compiler (they are reused across compiles, and building one costs more
    // than a compile); it compiles only the condition, never a nested query.
    const inner = (this.#inner ??= new DuckDBQueryCompiler());
    const { RawNode, createQueryId } = kysely();
    inner.#spans = [];
    if (this.#recording) {
      inner.valueSlots = new Map();
      inner.#holes = [];
    }
    try {
      const predicate = inner.compileQuery(
        RawNode.createWithChild(inner.conditionToNode(condition)),
        createQueryId(),
      ).sql;
      const spans = inner.#spans as ValueSpans;
      if (spans !== null) {
        let template = "";
        let cursor = 0;
        for (const [i, span] of spans.entries()) {
          template += predicate.slice(cursor, span.start) + placeholderOf(span.literal, i + 1);
          cursor = span.end;
        }
        const literals = spans.map((s) => s.literal);
        this.#lifted = { template: template + predicate.slice(cursor), literals };
      }
      this.#predicate = predicate;
      return predicate;
    } finally {
      inner.#spans = undefined;
      inner.valueSlots = undefined;
    }
  }

  /**
   * Writes a literal; while lifting, notes its span and typed value (undefined: it stays text); while
   * a template is recorded, notes where a query value went.
   */
  #writeLiteral(text: string, literal: LiftedLiteral | null | undefined): void {
    const start = this.getSql().length;
    this.append(text);
    const end = start + text.length;
    const spans = this.#spans;
    let lifted = -1;
    if (spans !== undefined && spans !== null && literal !== undefined) {
      if (literal === null) this.#spans = null;
      else lifted = spans.push({ start, end, literal }) - 1;
    }
    const slot = this.#slot;
    if (slot !== undefined) this.#holes?.push({ start, end, slot, lifted });
  }

  /** Notes which query value a ValueNode holds while a template is recorded (valueSlots). */
  protected override visitValue(node: ValueNode): void {
    this.#slot = this.valueSlots?.get(node);
    try {
      super.visitValue(node);
    } finally {
      this.#slot = undefined;
    }
  }

  /**
   * String literals the skeleton writes itself: in a predicate, LIKE's ESCAPE character (a value the
   * lexer lifts too); in the statement, the where_clause argument, whose span the shape replaces.
   */
  protected override appendStringLiteral(value: string): void {
    if (this.#spans !== undefined) {
      this.#writeLiteral(`'${this.sanitizeStringLiteral(value)}'`, { kind: "string", value });
      return;
    }
    const start = this.getSql().length;
    super.appendStringLiteral(value);
    if (this.#predicate !== undefined && value === this.#predicate) {
      this.#whereSpan = { start, end: this.getSql().length };
    }
  }

  /** A fractional value must not make DuckDB cast the member to DECIMAL(38, s) (duckdb-decimal-guard.ts). */
  protected override conditionToNode(condition: ConditionNode): OperationNode {
    const compared = super.conditionToNode(condition);
    if (!("field" in condition)) return compared;
    return guardDecimalComparison(condition, this.memberReference(condition.field), compared);
  }

  /** Bigints must fit HUGEINT and Decimals 38 digits (see the module comment). */
  protected override valueProblem(value: FilterValue): string | undefined {
    return duckdbValueProblem(value);
  }

  /** Never a parameter: every value becomes an escaped literal. */
  protected override appendValue(value: unknown): void {
    const text = duckdbLiteral(value);
    this.#writeLiteral(text, this.#spans === undefined ? undefined : liftedLiteralOf(value, text));
  }
}

/**
 * A member as `semantic_view()`'s name lists take it: the lists hold identifiers, so a name that is
 * not a plain one (`Net Revenue`) goes in double quotes (a quote inside doubled).
 */
export function semanticViewMemberName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
