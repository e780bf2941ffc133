/**
 * The base of the dialect compilers. It is Kysely's `DefaultQueryCompiler`: a semantic query is
 * lowered to Kysely operation nodes (identifiers, values, binary operations, AND/OR, parens) around
 * the dialect's own skeleton, and Kysely's visitor compiles them through its protected hooks
 * (identifier wrappers and sanitizing, parameter placeholders, `appendValue`, string literals).
 * A dialect overrides the hooks plus {@link SemanticQueryCompiler.semanticQueryToNode}.
 */
import type { AndNode, OperatorNode, OrNode, RawNode, OperationNode } from "kysely";
import { KyselyQueryCompiler, kysely } from "./kysely.js";
import { ValidationError } from "../errors.js";
import { CompiledQuery } from "./compiled-query.js";
import { LIKE_ESCAPE, RAW_LIKE_ESCAPE, type ConditionNode } from "../operation-node/condition-node.js";
import type { FieldNode } from "../operation-node/field-node.js";
import { plainWarehouseName } from "../operation-node/warehouse-name.js";
import type { VariableValueNode } from "../operation-node/variable-node.js";
import { describeInvalidFilterValue, type FilterValue } from "../operation-node/filter-value.js";
import type { OrderingNode } from "../operation-node/ordering-node.js";
import type { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { joinNodes, keyword, sqlNode } from "./sql-nodes.js";
import { validateSemanticQuery } from "./validate-semantic-query.js";
import type { ValueTemplate } from "./value-template.js";

const OPERATORS = { "=": "=", "<>": "<>", ">": ">", ">=": ">=", "<": "<", "<=": "<=" } as const;

export abstract class SemanticQueryCompiler extends KyselyQueryCompiler {
  /** The backend this compiler writes SQL for (its key in DIALECTS; the compiler layer never reads the record). */
  abstract readonly dialect: string;

  /**
   * While a value template is recorded (see compileWithTemplate): the ValueNode lowered for each of
   * the query's values, with its index in value-template.ts `valueShapeOf` order.
   */
  protected valueSlots: Map<OperationNode, number> | undefined;

  /**
   * Compiles a semantic query, and beside it a template that compiles every query of the same value
   * shape by splicing its values (value-template.ts; `values`: the query's, in `valueShapeOf` order).
   * A dialect that cannot splice gives none.
   */
  compileWithTemplate(
    query: SemanticQueryNode,
    _values: readonly FilterValue[],
  ): { compiled: CompiledQuery; template?: ValueTemplate | undefined } {
    return { compiled: this.compileSemanticQuery(query) };
  }

  /** Compiles a semantic query to this dialect's SQL and parameters. */
  compileSemanticQuery(query: SemanticQueryNode): CompiledQuery {
    validateSemanticQuery(query);
    this.checkSelection(query);
    const compiled = this.compileQuery(this.semanticQueryToNode(query), kysely().createQueryId());
    return CompiledQuery.create(this.dialect, query, compiled.sql, compiled.parameters);
  }

  /**
   * Refuses, with a ValidationError that says why, a selection this dialect's warehouse would reject
   * or answer differently from the library's contract (backend A: facts with dimensions; B: facts).
   */
  protected checkSelection(_query: SemanticQueryNode): void {}

  /** A ValidationError about the whole query, named as the builder names it. */
  protected selectionError(query: SemanticQueryNode, method: string, message: string): ValidationError {
    const source = `${query.viewName}.query().${method}()`;
    return new ValidationError(`${source}: ${message}`, { source });
  }

  /** The dialect's statement skeleton with the lowered parts in place. */
  protected abstract semanticQueryToNode(query: SemanticQueryNode): RawNode;

  /** A member as referenced in a predicate or select list. */
  protected memberReference(field: FieldNode): OperationNode {
    return kysely().IdentifierNode.create(plainWarehouseName(field.warehouseName));
  }

  /** The name an output column gets: exactly the field name, so rows key the same on every backend. */
  protected columnAlias(field: FieldNode): OperationNode {
    return kysely().IdentifierNode.create(field.name);
  }

  /** What an outer ORDER BY item refers to: the aliased output column. */
  protected orderingTarget(field: FieldNode): OperationNode {
    return this.columnAlias(field);
  }

  /**
   * Lowers a condition to Kysely nodes. Its values are lowered in value-template.ts `valueShapeOf`
   * order (a template maps each value to its place in the SQL by that order).
   */
  protected conditionToNode(condition: ConditionNode): OperationNode {
    const { AndNode, BinaryOperationNode, OperatorNode, ParensNode, UnaryOperationNode } = kysely();
    switch (condition.kind) {
      case "ComparisonNode":
        return BinaryOperationNode.create(
          this.memberReference(condition.field),
          OperatorNode.create(OPERATORS[condition.operator]),
          this.#valueNode(this.#checked(condition.field, condition.value)),
        );
      case "InListNode": {
        // IN () is not SQL; an empty list matches nothing (NOT IN: everything).
        if (condition.values.length === 0) return keyword(condition.negated ? "TRUE" : "FALSE");
        // Every value is checked before any is written, as one list.
        const values = condition.values.map((v) => this.#checked(condition.field, v));
        return BinaryOperationNode.create(
          this.memberReference(condition.field),
          OperatorNode.create(condition.negated ? "not in" : "in"),
          sqlNode`(${joinNodes(
            values.map((v) => this.#valueNode(v)),
            ", ",
          )})`,
        );
      }
      case "BetweenNode": {
        const low = this.#checked(condition.field, condition.low);
        const high = this.#checked(condition.field, condition.high);
        return BinaryOperationNode.create(
          this.memberReference(condition.field),
          OperatorNode.create("between"),
          AndNode.create(this.#valueNode(low), this.#valueNode(high)),
        );
      }
      case "LikeNode": {
        const like = BinaryOperationNode.create(
          this.memberReference(condition.field),
          OperatorNode.create("like"),
          this.#valueNode(condition.pattern),
        );
        const escape = condition.escaped ? LIKE_ESCAPE : RAW_LIKE_ESCAPE;
        return sqlNode`${like} ESCAPE ${kysely().ValueNode.createImmediate(escape)}`;
      }
      case "NullCheckNode":
        return BinaryOperationNode.create(
          this.memberReference(condition.field),
          OperatorNode.create(condition.negated ? "is not" : "is"),
          keyword("NULL"),
        );
      case "DateRangeNode":
        // The query executor replaces it with absolute bounds before compiling (date-range-bounds.ts).
        throw new Error(`${condition.field.name}: a relative date range reached the compiler unresolved`);
      case "AndConditionNode":
        return this.#chain(condition.conditions, "and");
      case "OrConditionNode":
        return this.#chain(condition.conditions, "or");
      case "NotConditionNode":
        return UnaryOperationNode.create(
          OperatorNode.create("not"),
          ParensNode.create(this.conditionToNode(condition.condition)),
        );
      case "ConstantConditionNode":
        return keyword(condition.value ? "TRUE" : "FALSE");
    }
  }

  /** A variable's value as a bound parameter, checked as condition values are. */
  protected variableValueNode(assignment: VariableValueNode): OperationNode {
    const { variable, value } = assignment;
    const problem = describeInvalidFilterValue(value) ?? this.valueProblem(value);
    if (problem === undefined) return kysely().ValueNode.create(value);
    const label = `${variable.viewName}.${variable.name}`;
    throw new ValidationError(`${label}: ${problem}`, { source: label, field: variable.name });
  }

  /**
   * Why this dialect cannot send `value` exactly (a range that differs per backend), or undefined.
   * Runs after the checks every backend shares (genuine Date/Decimal, finite, not -0).
   */
  protected valueProblem(_value: FilterValue): string | undefined {
    return undefined;
  }

  /** A query value as a node (noted in valueSlots while a template is recorded). */
  #valueNode(value: FilterValue): OperationNode {
    const node = kysely().ValueNode.create(value);
    const slots = this.valueSlots;
    if (slots !== undefined) slots.set(node, slots.size);
    return node;
  }

  /** Every value is checked again where it becomes SQL text or a bind: nodes can be built without a Field. */
  #checked(field: FieldNode, value: FilterValue): FilterValue {
    const problem = describeInvalidFilterValue(value) ?? this.valueProblem(value);
    if (problem === undefined) return value;
    const label = `${field.viewName}.${field.name}`;
    throw new ValidationError(`${label}: ${problem}`, { source: label, field: field.name });
  }

  #chain(conditions: readonly ConditionNode[], op: "and" | "or"): OperationNode {
    if (conditions.length === 0) return keyword(op === "and" ? "TRUE" : "FALSE");
    const nodes = conditions.map((c) => {
      const node = this.conditionToNode(c);
      // Parenthesize a nested AND/OR so precedence never depends on the reader.
      const compound = c.kind === "AndConditionNode" || c.kind === "OrConditionNode";
      return compound && c.conditions.length > 1 ? kysely().ParensNode.create(node) : node;
    });
    // One flat list, not a left-deep AndNode/OrNode tree: visiting it never recurses per term.
    return nodes.length === 1 ? nodes[0]! : joinNodes(nodes, op === "and" ? " AND " : " OR ");
  }

  /** ` ORDER BY x DESC NULLS LAST, ...` (NULLS LAST unless asked otherwise), or nothing. */
  protected orderByToNode(orderBy: readonly OrderingNode[]): OperationNode {
    if (orderBy.length === 0) return keyword("");
    const items = orderBy.map((o) => {
      // Always explicit: the backends disagree on the default (Snowflake DESC and Databricks ASC put
      // NULLs first), so the library's default is NULLS LAST everywhere.
      const nulls = o.nulls === "first" ? " NULLS FIRST" : " NULLS LAST";
      return sqlNode`${this.orderingTarget(o.field)} ${keyword(o.direction === "asc" ? "ASC" : "DESC")}${keyword(nulls)}`;
    });
    return sqlNode` ORDER BY ${joinNodes(items, ", ")}`;
  }

  /** ` LIMIT n OFFSET m`: validated safe integers, written as numerals (never user text). */
  protected limitOffsetToNode(query: SemanticQueryNode): OperationNode {
    let sql = "";
    if (query.limit !== undefined) sql += ` LIMIT ${integer(query.limit)}`;
    if (query.offset !== undefined) sql += ` OFFSET ${integer(query.offset)}`;
    return keyword(sql);
  }

  protected override visitAnd(node: AndNode): void {
    this.visitNode(node.left);
    this.append(" AND ");
    this.visitNode(node.right);
  }

  protected override visitOr(node: OrNode): void {
    this.visitNode(node.left);
    this.append(" OR ");
    this.visitNode(node.right);
  }

  /** Operators are our own constants; write them upper-case like the rest of the SQL. */
  protected override visitOperator(node: OperatorNode): void {
    this.append(node.operator.toUpperCase());
  }

  protected override getCurrentParameterPlaceholder(): string {
    return "?";
  }
}

function integer(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Expected a non-negative integer, got ${n}`);
  return String(n);
}
