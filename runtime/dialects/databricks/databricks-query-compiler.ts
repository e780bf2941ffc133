/**
 * Backend B: Databricks metric views, queried as SQL with every measure wrapped in MEASURE().
 *
 * ```sql
 * SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales`
 *   WHERE `country` = ? GROUP BY ALL ORDER BY `revenue` DESC NULLS LAST LIMIT 100
 * ```
 * Identifiers are backtick-quoted (a backtick inside is doubled); Databricks names are
 * case-insensitive. Columns are dimensions, then measures, then facts, each aliased to its field
 * name. Dimensions group with GROUP BY ALL; a metrics-only query is one grand-total row (no GROUP BY);
 * facts are row-level columns, so a facts query has no GROUP BY. Values are bound as `?` ordinal
 * parameters; a Decimal is sent as its exact string, cast to its DECIMAL(p,s) in the SQL, and so is a
 * bigint beyond BIGINT (the driver binds a bigint as BIGINT) as DECIMAL(38,0). A bigint or Decimal
 * beyond 38 digits is a ValidationError naming the field.
 */
import { IdentifierNode, RawNode, type OperationNode } from "kysely";
import { Decimal } from "../../values/decimal.js";
import { decimalPrecision, decimalProblem } from "../../query-compiler/decimal-type.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { DIGITS38, INT64, inRange, integerProblem } from "../../values/integer-ranges.js";
import { SemanticQueryCompiler } from "../../query-compiler/semantic-query-compiler.js";
import { joinNodes, keyword, sqlNode } from "../../query-compiler/sql-nodes.js";
import type { SemanticQueryNode } from "../../operation-node/semantic-query-node.js";

export class DatabricksQueryCompiler extends SemanticQueryCompiler {
  readonly dialect = "backend_b" as const;

  protected override semanticQueryToNode(query: SemanticQueryNode): RawNode {
    const view = joinNodes(
      query.viewName.split(".").map((part) => IdentifierNode.create(part)),
      ".",
    );
    const items: OperationNode[] = [
      ...query.dimensions.map((f) => sqlNode`${this.memberReference(f)} AS ${this.columnAlias(f)}`),
      ...query.metrics.map((f) => sqlNode`MEASURE(${this.memberReference(f)}) AS ${this.columnAlias(f)}`),
      ...query.facts.map((f) => sqlNode`${this.memberReference(f)} AS ${this.columnAlias(f)}`),
    ];
    const where = query.where === undefined ? keyword("") : sqlNode` WHERE ${this.conditionToNode(query.where)}`;
    const groupBy = keyword(query.dimensions.length > 0 && query.facts.length === 0 ? " GROUP BY ALL" : "");
    return sqlNode`SELECT ${joinNodes(items, ", ")} FROM ${view}${where}${groupBy}${this.orderByToNode(query.orderBy)}${this.limitOffsetToNode(query)}`;
  }

  protected override getLeftIdentifierWrapper(): string {
    return "`";
  }

  protected override getRightIdentifierWrapper(): string {
    return "`";
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
