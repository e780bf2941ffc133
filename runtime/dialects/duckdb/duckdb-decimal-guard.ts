/**
 * Backend C comparisons with a fractional value (`1.5`, `Decimal("12.50")`). DuckDB compares a
 * column with a DECIMAL literal of scale s in their common type, which for a wide column (HUGEINT,
 * DECIMAL(38,0), DECIMAL(38,10) against scale 11) is capped at DECIMAL(38, s): it casts the *column*
 * and fails with a conversion error on any row whose value does not fit, even rows the filter is
 * not about. So such a comparison is guarded: a value that DuckDB cannot cast to DECIMAL(38, s) lies
 * beyond ±10^(38-s), farther from zero than every literal of that scale, and its answer follows from
 * its sign alone; every other value is compared exactly as before.
 *
 * `(CASE WHEN TRY_CAST(m AS DECIMAL(38,1)) IS NULL AND m IS NOT NULL THEN FALSE ELSE m = 1.5 END)`
 *
 * A DOUBLE column is unaffected (its values fit, and DuckDB compares it in DOUBLE as before); an
 * exponent literal (`1e-7`) is a DOUBLE and needs no guard.
 */
import type { OperationNode } from "kysely";
import { Decimal } from "../../values/decimal.js";
import type { ConditionNode } from "../../operation-node/condition-node.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { keyword, sqlNode } from "../../query-compiler/sql-nodes.js";
import { kysely } from "../../query-compiler/kysely.js";

/** The scale DuckDB reads the value's literal with, when it is fractional and written as a DECIMAL. */
function decimalScale(value: FilterValue): number {
  if (Decimal.isDecimal(value)) return value.scale;
  if (typeof value !== "number" || Number.isInteger(value)) return 0;
  const text = String(value);
  return text.includes("e") ? 0 : text.length - text.indexOf(".") - 1;
}

function valuesOf(condition: ConditionNode): readonly FilterValue[] {
  switch (condition.kind) {
    case "ComparisonNode":
      return [condition.value];
    case "InListNode":
      return condition.values;
    case "BetweenNode":
      return [condition.low, condition.high];
    default:
      return [];
  }
}

/** `0` written as a value, as the condition's own values are (a lifted one: duckdb-lifted-values.ts). */
const zero = (): OperationNode => kysely().ValueNode.create(0);

/** What the condition is for a row whose value is beyond every literal (positive or negative, by its sign). */
function beyondRange(condition: ConditionNode, member: OperationNode): OperationNode {
  if (condition.kind === "InListNode") return keyword(condition.negated ? "TRUE" : "FALSE");
  if (condition.kind !== "ComparisonNode") return keyword("FALSE");
  switch (condition.operator) {
    case "=":
      return keyword("FALSE");
    case "<>":
      return keyword("TRUE");
    case ">":
    case ">=":
      return sqlNode`${member} > ${zero()}`;
    case "<":
    case "<=":
      return sqlNode`${member} < ${zero()}`;
  }
}

/** `compared` guarded against DuckDB casting the member to DECIMAL(38, s), or as it is when no value needs it. */
export function guardDecimalComparison(
  condition: ConditionNode,
  member: OperationNode,
  compared: OperationNode,
): OperationNode {
  const scale = Math.max(0, ...valuesOf(condition).map(decimalScale));
  if (scale === 0) return compared;
  const target = keyword(`DECIMAL(38,${scale})`);
  return sqlNode`(CASE WHEN TRY_CAST(${member} AS ${target}) IS NULL AND ${member} IS NOT NULL THEN ${beyondRange(condition, member)} ELSE ${compared} END)`;
}
