/**
 * Backend B: Databricks metric views, queried as SQL with every measure wrapped in MEASURE().
 *
 * ```sql
 * SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales`
 *   WHERE `country` = ? GROUP BY ALL ORDER BY `revenue` DESC NULLS LAST LIMIT 100
 * ```
 * Identifiers are backtick-quoted (a backtick inside is doubled); Databricks names are
 * case-insensitive. Columns are dimensions, then measures, each aliased to its field name. Dimensions
 * group with GROUP BY ALL; a metrics-only query is one grand-total row (no GROUP BY). Metric views
 * have no facts, and Databricks resolves only aggregate reads of a metric view (Spark's
 * ResolveMetricView rewrites an Aggregate over the view; a plain projection is never resolved), so a
 * query with facts is refused here with a ValidationError. Values are bound as `?` ordinal
 * parameters; a Decimal is sent as its exact string, cast to its DECIMAL(p,s) in the SQL, and so is a
 * bigint beyond BIGINT (the driver binds a bigint as BIGINT) as DECIMAL(38,0). A bigint or Decimal
 * beyond 38 digits is a ValidationError naming the field.
 */
import type { OperationNode, RawNode } from "kysely";
import { kysely } from "../../query-compiler/kysely.js";
import { Decimal } from "../../values/decimal.js";
import { decimalPrecision, decimalProblem } from "../../query-compiler/decimal-type.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { DIGITS38, INT64, inRange, integerProblem } from "../../values/integer-ranges.js";
import { SemanticQueryCompiler } from "../../query-compiler/semantic-query-compiler.js";
import { joinNodes, keyword, sqlNode } from "../../query-compiler/sql-nodes.js";
import { plainWarehouseName, warehouseNameParts } from "../../operation-node/warehouse-name.js";
import type { SemanticQueryNode } from "../../operation-node/semantic-query-node.js";

export class DatabricksQueryCompiler extends SemanticQueryCompiler {
  readonly dialect = "backend_b" as const;

  protected override semanticQueryToNode(query: SemanticQueryNode): RawNode {
    const { IdentifierNode } = kysely();
    const name = joinNodes(
      warehouseNameParts(query.warehouseName).map((part) => IdentifierNode.create(part.text)),
      ".",
    );
    // Metric-view parameters: the view is called as a table-valued function with named arguments.
    const view =
      query.variables.length === 0
        ? name
        : sqlNode`${name}(${joinNodes(
            query.variables.map(
              (v) =>
                sqlNode`${IdentifierNode.create(plainWarehouseName(v.variable.warehouseName))} => ${this.variableValueNode(v)}`,
            ),
            ", ",
          )})`;
    const items: OperationNode[] = [
      ...query.dimensions.map((f) => sqlNode`${this.memberReference(f)} AS ${this.columnAlias(f)}`),
      ...query.metrics.map((f) => sqlNode`MEASURE(${this.memberReference(f)}) AS ${this.columnAlias(f)}`),
    ];
    const where = query.where === undefined ? keyword("") : sqlNode` WHERE ${this.conditionToNode(query.where)}`;
    const groupBy = keyword(query.dimensions.length > 0 ? " GROUP BY ALL" : "");
    return sqlNode`SELECT ${joinNodes(items, ", ")} FROM ${view}${where}${groupBy}${this.orderByToNode(query.orderBy)}${this.limitOffsetToNode(query)}`;
  }

  /** Metric views have fields and measures, no facts; a non-aggregate read of one does not resolve. */
  protected override checkSelection(query: SemanticQueryNode): void {
    const fact = query.facts[0];
    if (fact === undefined) return;
    throw this.selectionError(
      query,
      "facts",
      `backend B (Databricks metric views) has no facts, and reads a metric view only through an aggregate ` +
        `(MEASURE() or GROUP BY): "${fact.name}" cannot be selected; declare it as a Dimension() and select it with dimensions()`,
    );
  }

  protected override getLeftIdentifierWrapper(): string {
    return "`";
  }

  protected override getRightIdentifierWrapper(): string {
    return "`";
  }

  /** Databricks string literals read a backslash as an escape: a literal one is written doubled (`ESCAPE '\\'`). */
  protected override sanitizeStringLiteral(value: string): string {
    return super.sanitizeStringLiteral(value).replaceAll("\\", "\\\\");
  }

  /** Bigints and Decimals must fit 38 digits. */
  protected override valueProblem(value: FilterValue): string | undefined {
    if (typeof value === "bigint") return integerProblem(value, DIGITS38, "Databricks");
    if (Decimal.isDecimal(value)) return decimalProblem(value, "Databricks");
    return undefined;
  }

  /**
   * A Decimal is bound as its exact text and cast to its own DECIMAL(p,s): comparing a DECIMAL
   * column with a bare STRING parameter would go through DOUBLE under ANSI rules.
   */
  protected override appendValue(value: unknown): void {
    if (typeof value === "bigint" && !inRange(value, INT64)) {
      this.append("CAST(");
      super.appendValue(value.toString());
      this.append(" AS DECIMAL(38,0))");
      return;
    }
    if (!Decimal.isDecimal(value)) {
      super.appendValue(value);
      return;
    }
    const precision = decimalPrecision(value, "Databricks");
    this.append("CAST(");
    super.appendValue(value.toString());
    this.append(` AS DECIMAL(${precision},${value.scale}))`);
  }
}
