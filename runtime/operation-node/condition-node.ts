import type { FieldNode } from "./field-node.js";
import type { FilterValue } from "./filter-value.js";
import type { DateRangeNode } from "./date-range-node.js";

export type { DateRangeNode } from "./date-range-node.js";

/** Operation nodes of a filter condition. All frozen; build them with the factories below. */
export type ComparisonOperator = "=" | "<>" | ">" | ">=" | "<" | "<=";

export interface ComparisonNode {
  readonly kind: "ComparisonNode";
  readonly field: FieldNode;
  readonly operator: ComparisonOperator;
  readonly value: FilterValue;
}

/** `field [NOT] IN (values)`; an empty list compiles to FALSE (IN) or TRUE (NOT IN). */
export interface InListNode {
  readonly kind: "InListNode";
  readonly field: FieldNode;
  readonly values: readonly FilterValue[];
  readonly negated: boolean;
}

export interface BetweenNode {
  readonly kind: "BetweenNode";
  readonly field: FieldNode;
  readonly low: FilterValue;
  readonly high: FilterValue;
}

/**
 * `field LIKE pattern ESCAPE ...`, always with an explicit escape: Snowflake's LIKE has no default
 * escape, Databricks' is a backslash, so without one the same pattern matched different rows.
 * `escaped` is set when the pattern was built from literal text by startsWith/endsWith/contains,
 * whose `%`, `_` and `!` were escaped with {@link LIKE_ESCAPE}; a raw `like()` pattern escapes with
 * {@link RAW_LIKE_ESCAPE}, a backslash, as Databricks and the SQL standard's common default do.
 */
export interface LikeNode {
  readonly kind: "LikeNode";
  readonly field: FieldNode;
  readonly pattern: string;
  readonly escaped: boolean;
}

export interface NullCheckNode {
  readonly kind: "NullCheckNode";
  readonly field: FieldNode;
  /** true: IS NOT NULL. */
  readonly negated: boolean;
}

export interface AndConditionNode {
  readonly kind: "AndConditionNode";
  readonly conditions: readonly ConditionNode[];
}

export interface OrConditionNode {
  readonly kind: "OrConditionNode";
  readonly conditions: readonly ConditionNode[];
}

export interface NotConditionNode {
  readonly kind: "NotConditionNode";
  readonly condition: ConditionNode;
}

/** TRUE or FALSE: what `and()` / `or()` of nothing mean. */
export interface ConstantConditionNode {
  readonly kind: "ConstantConditionNode";
  readonly value: boolean;
}

export type ConditionNode =
  | ComparisonNode
  | InListNode
  | BetweenNode
  | LikeNode
  | NullCheckNode
  | DateRangeNode
  | AndConditionNode
  | OrConditionNode
  | NotConditionNode
  | ConstantConditionNode;

/**
 * The escape character of patterns built by startsWith/endsWith/contains. `!` rather than a
 * backslash: Snowflake and Databricks string literals treat backslashes as escapes themselves, `!`
 * means the same thing in all three dialects.
 */
export const LIKE_ESCAPE = "!";

/** The escape character of a raw `like()` pattern: `\%`, `\_` and `\\` match literally on every backend. */
export const RAW_LIKE_ESCAPE = "\\";

/** Escapes `%`, `_` and the escape character so `text` matches literally inside a LIKE pattern. */
export function escapeLikeText(text: string): string {
  return text.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c);
}

const freeze = Object.freeze;

export const ConditionNode = freeze({
  comparison(field: FieldNode, operator: ComparisonOperator, value: FilterValue): ComparisonNode {
    return freeze({ kind: "ComparisonNode", field, operator, value });
  },
  /** `values`: a fresh array nobody else holds (the node freezes it in place). */
  inList(field: FieldNode, values: FilterValue[], negated: boolean): InListNode {
    return freeze({ kind: "InListNode", field, values: freeze(values), negated });
  },
  between(field: FieldNode, low: FilterValue, high: FilterValue): BetweenNode {
    return freeze({ kind: "BetweenNode", field, low, high });
  },
  like(field: FieldNode, pattern: string, escaped: boolean): LikeNode {
    return freeze({ kind: "LikeNode", field, pattern, escaped });
  },
  nullCheck(field: FieldNode, negated: boolean): NullCheckNode {
    return freeze({ kind: "NullCheckNode", field, negated });
  },
  and(conditions: readonly ConditionNode[]): AndConditionNode {
    return freeze({ kind: "AndConditionNode", conditions: freeze([...conditions]) });
  },
  or(conditions: readonly ConditionNode[]): OrConditionNode {
    return freeze({ kind: "OrConditionNode", conditions: freeze([...conditions]) });
  },
  not(condition: ConditionNode): NotConditionNode {
    return freeze({ kind: "NotConditionNode", condition });
  },
  constant(value: boolean): ConstantConditionNode {
    return freeze({ kind: "ConstantConditionNode", value });
  },
  /** Every field the condition references, depth first. */
  fields(node: ConditionNode): FieldNode[] {
    switch (node.kind) {
      case "AndConditionNode":
      case "OrConditionNode":
        return node.conditions.flatMap((c) => ConditionNode.fields(c));
      case "NotConditionNode":
        return ConditionNode.fields(node.condition);
      case "ConstantConditionNode":
        return [];
      default:
        return [node.field];
    }
  },
});
