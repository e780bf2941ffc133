/**
 * The immutable query builder: `Sales.query().metrics(...).dimensions(...).where(...)`. Every call
 * returns a new query over a new frozen {@link SemanticQueryNode}. Compiling and running are its
 * executor's (`runtime/query-executor/`): the builder hands it the node, and `using()` gives it the engine.
 */
import { ValidationError } from "../errors.js";
import type { Cursor } from "../cursor/cursor.js";
import { isBackend, type BackendType } from "../dialects/dialects.js";
import type { AnyField, DimensionField, FactField, MetricField } from "../view/field.js";
import { isField } from "../view/field.js";
import type { CompiledQuery } from "../query-compiler/compiled-query.js";
import { isCondition, type RowCondition } from "./condition.js";
import { ConditionNode } from "../operation-node/condition-node.js";
import type { FieldKind, FieldNode } from "../operation-node/field-node.js";
import { OrderingNode } from "../operation-node/ordering-node.js";
import { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { isOrdering, type Ordering } from "./ordering.js";
import type { EngineRef } from "../query-executor/query-engine.js";
import { DEFAULT_QUERY_EXECUTOR, type ExecuteOptions, type QueryExecutor } from "../query-executor/query-executor.js";
import type { EmptyRow, WithFields } from "./row-type.js";
import { describeInvalidFilterValue, snapshotFilterValue, type FilterValue } from "../operation-node/filter-value.js";
import { VariableNode } from "../operation-node/variable-node.js";
import type { NoVariables } from "../view/variable.js";

export type { EmptyRow } from "./row-type.js";

export interface CompileOptions {
  /** Compile for this dialect instead of the resolved engine's. */
  readonly dialect?: BackendType;
}

export type { ExecuteOptions } from "../query-executor/query-executor.js";

/** The cursor `execute()` resolves to. */
export type QueryCursor<R> = Cursor<R>;

/** The row type a query yields: `RowOf<typeof q>`. */
export type RowOf<Q> = Q extends SemanticQuery<string, infer R, infer _P> ? R : never;

export type { NoVariables } from "../view/variable.js";

const KIND_METHOD: Record<FieldKind, string> = { metric: "metrics", dimension: "dimensions", fact: "facts" };

/**
 * A query over one semantic view. Immutable: every method returns a new query.
 *
 * ### Examples
 *
 * ```ts
 * const q = Sales.query()
 *   .metrics(Sales.revenue)
 *   .dimensions(Sales.country)
 *   .where(Sales.country.eq("US"))
 *   .orderBy(Sales.revenue.desc())
 *   .limit(100);
 * await using cursor = await q.execute();
 * const rows = await cursor.fetchAllRows(); // { country: string; revenue: bigint }[]
 * ```
 *
 * The generated SQL (backend_a, Snowflake; parameters `["US"]`):
 * ```sql
 * SELECT * FROM SEMANTIC_VIEW("SALES" DIMENSIONS "COUNTRY" AS "country" METRICS "REVENUE" AS "revenue"
 *   WHERE "COUNTRY" = ?) ORDER BY "revenue" DESC NULLS LAST LIMIT 100
 * ```
 * The generated SQL (backend_b, Databricks; parameters `["US"]`):
 * ```sql
 * SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales`
 *   WHERE `country` = ? GROUP BY ALL ORDER BY `revenue` DESC NULLS LAST LIMIT 100
 * ```
 * The generated SQL (backend_c, DuckDB; no parameters):
 * ```sql
 * SELECT * FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'],
 *   where_clause := '"country" = ''US''') ORDER BY "revenue" DESC NULLS LAST LIMIT 100
 * ```
 */
export class SemanticQuery<V extends string, R extends object = EmptyRow, P extends object = NoVariables> {
  readonly #node: SemanticQueryNode;
  readonly #executor: QueryExecutor;

  private constructor(node: SemanticQueryNode, executor: QueryExecutor) {
    this.#node = node;
    this.#executor = executor;
    Object.freeze(this);
  }

  /** A new, empty query over `viewName` (use `View.query()`). */
  static create<V extends string, P extends object = NoVariables>(
    viewName: V,
    variables: readonly VariableNode[] = [],
  ): SemanticQuery<V, EmptyRow, P> {
    return new SemanticQuery<V, EmptyRow, P>(SemanticQueryNode.create(viewName, variables), DEFAULT_QUERY_EXECUTOR);
  }

  /** The declared view's name. */
  get viewName(): V {
    return this.#node.viewName as V;
  }

  /** Adds metrics to the selection (output columns follow the dimensions). */
  metrics<const F extends readonly MetricField<V>[]>(...fields: F): SemanticQuery<V, WithFields<R, F>, P> {
    if (fields.length > 0 && this.#node.facts.length > 0) {
      throw this.#error("metrics", "metrics and facts cannot be selected in the same query");
    }
    const metrics = [...this.#node.metrics, ...this.#fieldNodes("metrics", "metric", fields)];
    return this.#with({ metrics });
  }

  /** Adds dimensions to the selection (they come first in every row). */
  dimensions<const F extends readonly DimensionField<V>[]>(...fields: F): SemanticQuery<V, WithFields<R, F>, P> {
    const dimensions = [...this.#node.dimensions, ...this.#fieldNodes("dimensions", "dimension", fields)];
    return this.#with({ dimensions });
  }

  /** Adds row-level facts to the selection (no aggregation; not combinable with metrics). */
  facts<const F extends readonly FactField<V>[]>(...fields: F): SemanticQuery<V, WithFields<R, F>, P> {
    if (fields.length > 0 && this.#node.metrics.length > 0) {
      throw this.#error("facts", "metrics and facts cannot be selected in the same query");
    }
    const facts = [...this.#node.facts, ...this.#fieldNodes("facts", "fact", fields)];
    return this.#with({ facts });
  }

  /**
   * Filters rows before aggregation, on dimensions and facts. `null`/`undefined` is a no-op;
   * repeated calls are ANDed.
   */
  where(condition: RowCondition<V> | null | undefined): SemanticQuery<V, R, P> {
    if (condition === null || condition === undefined) return this;
    if (!isCondition(condition)) throw this.#error("where", "expected a condition such as View.field.eq(value)");
    for (const field of ConditionNode.fields(condition.node)) {
      this.#checkView("where", field);
      if (field.fieldKind === "metric") {
        throw this.#error(
          "where",
          `metric "${field.name}" cannot be filtered in where(): semantic layers filter dimensions and facts before aggregation`,
          field.name,
        );
      }
    }
    const current = this.#node.where;
    const where =
      current === undefined
        ? condition.node
        : ConditionNode.and([
            ...(current.kind === "AndConditionNode" ? current.conditions : [current]),
            ...(condition.node.kind === "AndConditionNode" ? condition.node.conditions : [condition.node]),
          ]);
    return this.#with({ where });
  }

  /**
   * Appends orderings (`View.field.desc()`, or a field for ascending). Ordered fields must be
   * selected; that is checked when the query is compiled.
   */
  orderBy(...orderings: (Ordering<V> | AnyField<V>)[]): SemanticQuery<V, R, P> {
    const nodes = orderings.map((o) => {
      if (isOrdering(o)) {
        this.#checkView("orderBy", o.node.field);
        return o.node;
      }
      if (isField(o)) {
        this.#checkView("orderBy", o.node);
        return OrderingNode.create(o.node, "asc");
      }
      throw this.#error("orderBy", "expected an ordering such as View.field.desc()");
    });
    return this.#with({ orderBy: [...this.#node.orderBy, ...nodes] });
  }

  /** At most `n` rows; `n` is a positive integer. */
  limit(n: number): SemanticQuery<V, R, P> {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) {
      throw this.#error("limit", `expected a positive integer, got ${describe(n)}`);
    }
    return this.#with({ limit: n });
  }

  /** Skips the first `n` rows; `n` is a non-negative integer. */
  offset(n: number): SemanticQuery<V, R, P> {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      throw this.#error("offset", `expected a non-negative integer, got ${describe(n)}`);
    }
    return this.#with({ offset: n });
  }

  /**
   * Sets values of the view's variables (backend A's semantic-view VARIABLES, backend B's metric-view
   * parameters), by declared name; typed from the declaration. Values are data, bound as parameters.
   * Repeated calls merge (a later value wins); `undefined` leaves a variable unset. A variable the view
   * gives no default must be set before the query compiles.
   */
  variables(values: P): SemanticQuery<V, R, P> {
    if (typeof values !== "object" || values === null || Array.isArray(values)) {
      throw this.#error("variables", "expected an object of variable values, such as { minAmount: 100 }");
    }
    const declared = this.#node.declaredVariables;
    const given = new Map(this.#node.variables.map((v) => [v.variable.name, v.value]));
    for (const [name, value] of Object.entries(values)) {
      const variable = declared.find((v) => v.name === name);
      if (variable === undefined) {
        const known = declared.map((v) => v.name);
        const hint = known.length === 0 ? "it declares none" : `declared: ${known.join(", ")}`;
        throw this.#error("variables", `"${name}" is not a variable of ${this.#node.viewName} (${hint})`, name);
      }
      if (value === undefined) continue;
      const problem = value === null ? "null is not a variable value" : describeInvalidFilterValue(value);
      if (problem !== undefined) throw this.#error("variables", `${name}: ${problem}`, name);
      given.set(name, snapshotFilterValue(value as FilterValue));
    }
    const assigned = declared.flatMap((v) => (given.has(v.name) ? [VariableNode.value(v, given.get(v.name)!)] : []));
    return this.#with({ variables: assigned });
  }

  /** Runs on this engine, or on the engine registered under this name (resolved at execution). */
  using(engine: EngineRef): SemanticQuery<V, R, P> {
    if (
      typeof engine !== "string" &&
      (typeof engine !== "object" || engine === null || typeof engine.connect !== "function")
    ) {
      throw this.#error("using", "expected an engine or a registered engine name");
    }
    return new SemanticQuery<V, R, P>(this.#node, this.#executor.withEngine(engine));
  }

  /** The SQL for `dialect`, or for the resolved engine's dialect. */
  toSql(options: CompileOptions = {}): string {
    return this.compile(options).sql;
  }

  /** SQL plus parameters for `dialect`, or for the resolved engine's dialect. */
  compile(options: CompileOptions = {}): CompiledQuery {
    const { dialect } = options;
    if (dialect !== undefined && !isBackend(dialect)) {
      throw this.#error("compile", `unknown dialect ${describe(dialect)}`);
    }
    return this.#executor.compileQuery(this.#node, dialect);
  }

  /**
   * Runs the query on a pooled connection of the resolved engine and returns a cursor that owns
   * the connection (`await using cursor = await q.execute()`).
   */
  execute(options: ExecuteOptions = {}): Promise<QueryCursor<R>> {
    return this.#executor.executeQuery<R>(this.#node, options);
  }

  /** The frozen operation node (what the dialect compilers consume). */
  toOperationNode(): SemanticQueryNode {
    return this.#node;
  }

  #with<R2 extends object>(changes: Parameters<typeof SemanticQueryNode.cloneWith>[1]): SemanticQuery<V, R2, P> {
    return new SemanticQuery<V, R2, P>(SemanticQueryNode.cloneWith(this.#node, changes), this.#executor);
  }

  #fieldNodes(method: string, kind: FieldKind, fields: readonly unknown[]): FieldNode[] {
    const taken = new Set(SemanticQueryNode.selection(this.#node).map((f) => f.name));
    return fields.map((f) => {
      if (!isField(f)) throw this.#error(method, `expected fields of ${this.#node.viewName}, got ${describe(f)}`);
      this.#checkView(method, f.node);
      if (f.kind !== kind) {
        throw this.#error(method, `"${f.name}" is a ${f.kind}; select it with .${KIND_METHOD[f.kind]}()`, f.name);
      }
      if (taken.has(f.name)) throw this.#error(method, `"${f.name}" is already selected`, f.name);
      taken.add(f.name);
      return f.node;
    });
  }

  #checkView(method: string, field: FieldNode): void {
    if (field.viewName !== this.#node.viewName) {
      throw this.#error(
        method,
        `"${field.viewName}.${field.name}" belongs to view "${field.viewName}", not "${this.#node.viewName}"`,
        field.name,
      );
    }
  }

  #error(method: string, message: string, field?: string): ValidationError {
    const source = `${this.#node.viewName}.query().${method}()`;
    return new ValidationError(`${source}: ${message}`, field === undefined ? { source } : { source, field });
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "object" && value !== null) return Object.prototype.toString.call(value);
  return String(value);
}
