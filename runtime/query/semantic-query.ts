/**
 * The immutable query builder: `Sales.query().metrics(...).dimensions(...).where(...)`. Every call
 * returns a new query over a new frozen {@link SemanticQueryNode}. Compiling and running are its
 * executor's (`runtime/query-executor/`): the builder hands it the node, and `using()` gives it the engine.
 */
import { ValidationError } from "../errors.js";
import type { Cursor } from "../cursor/cursor.js";
import { isBackend, type BackendType } from "../dialects/dialects.js";
import type { AnyField } from "../view/field.js";
import { isField } from "../view/field.js";
import type { CompiledQuery } from "../query-compiler/compiled-query.js";
import { isCondition, type Condition } from "./condition.js";
import { ConditionNode } from "../operation-node/condition-node.js";
import { conditionShapeProblem } from "../operation-node/condition-shape.js";
import type { FieldKind, FieldNode } from "../operation-node/field-node.js";
import { OrderingNode } from "../operation-node/ordering-node.js";
import { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { isOrdering, type Ordering } from "./ordering.js";
import type { EngineRef } from "../query-executor/query-engine.js";
import { DEFAULT_QUERY_EXECUTOR, type ExecuteOptions, type QueryExecutor } from "../query-executor/query-executor.js";
import type { EmptyRow, WithFields } from "./row-type.js";
import { groupingProblem, plainView, type DeclaredView } from "./declared-view.js";
import type {
  AnyShape,
  EmptyShape,
  NonNegativeInteger,
  OrderCheck,
  OrderedSelected,
  QueryShape,
  SelectCheck,
  WhereCheck,
  WithOrdered,
  WithSelected,
} from "./query-shape.js";
import { describeInvalidFilterValue, snapshotFilterValue, type FilterValue } from "../operation-node/filter-value.js";
import { VariableNode } from "../operation-node/variable-node.js";
import { derivedNode, orderingKeys, rememberDerived, rootNode } from "./interned-nodes.js";
import { appendWhere, whereCondition, type WhereChain } from "./where-chain.js";
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
export type RowOf<Q> = Q extends SemanticQuery<string, infer R, infer _P, infer _S> ? R : never;

/** The arguments of `metrics()`/`dimensions()`/`facts()`, each checked against the query so far. */
type Selection<F extends readonly AnyField[], Kind extends FieldKind, V extends string, S extends QueryShape> = {
  [I in keyof F]: SelectCheck<F[I], I, F, Kind, V, S>;
};

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
export class SemanticQuery<
  V extends string,
  R extends object = EmptyRow,
  P extends object = NoVariables,
  S extends QueryShape = AnyShape,
> {
  /** Everything but the where() conditions, which `#where` holds until the node is first needed. */
  readonly #node: SemanticQueryNode;
  readonly #where: WhereChain | undefined;
  #built: SemanticQueryNode | undefined;
  readonly #view: DeclaredView;
  readonly #executor: QueryExecutor;
  /** Type-level only: what the checker knows about the selection (see query-shape.ts). */
  declare readonly "~shape"?: S;

  private constructor(
    node: SemanticQueryNode,
    view: DeclaredView,
    executor: QueryExecutor,
    where: WhereChain | undefined = undefined,
  ) {
    this.#node = node;
    this.#where = where;
    this.#view = view;
    this.#executor = executor;
    Object.freeze(this);
  }

  /**
   * A new, empty query over `viewName` (use `View.query()`); `view` carries the declaration's warehouse
   * name and metric–dimension rules.
   */
  static create<V extends string, P extends object = NoVariables>(
    viewName: V,
    variables: readonly VariableNode[] = [],
    view?: DeclaredView,
  ): SemanticQuery<V, EmptyRow, P, EmptyShape> {
    const declared = view ?? plainView(viewName);
    // A declared view's queries start from one node (interned-nodes.ts): what is built on it is shared.
    const node =
      view === undefined
        ? SemanticQueryNode.create(viewName, variables, declared.warehouseName)
        : rootNode(viewName, variables, view);
    return new SemanticQuery<V, EmptyRow, P, EmptyShape>(node, declared, DEFAULT_QUERY_EXECUTOR);
  }

  /** The declared view's name. */
  get viewName(): V {
    return this.#node.viewName as V;
  }

  /** Adds metrics to the selection (output columns follow the dimensions). */
  metrics<const F extends readonly AnyField[]>(
    ...fields: Selection<F, "metric", V, S>
  ): SemanticQuery<V, WithFields<R, F>, P, WithSelected<S, "metric", F[number]>> {
    const known = derivedNode(this.#node, "metrics", fields);
    if (known !== undefined) return this.#on(known);
    if (fields.length > 0 && this.#node.facts.length > 0) {
      throw this.#error("metrics", "metrics and facts cannot be selected in the same query");
    }
    const added = this.#fieldNodes("metrics", "metric", fields);
    if (this.#view.groupableBy !== undefined) {
      this.#checkGrouping(
        "metrics",
        added.map((f) => f.name),
        this.#node.dimensions.map((f) => f.name),
        "metric",
      );
    }
    return this.#derive("metrics", fields, { metrics: [...this.#node.metrics, ...added] });
  }

  /** Adds dimensions to the selection (they come first in every row). */
  dimensions<const F extends readonly AnyField[]>(
    ...fields: Selection<F, "dimension", V, S>
  ): SemanticQuery<V, WithFields<R, F>, P, WithSelected<S, "dimension", F[number]>> {
    const known = derivedNode(this.#node, "dimensions", fields);
    if (known !== undefined) return this.#on(known);
    const added = this.#fieldNodes("dimensions", "dimension", fields);
    if (this.#view.groupableBy !== undefined) {
      this.#checkGrouping(
        "dimensions",
        this.#node.metrics.map((f) => f.name),
        added.map((f) => f.name),
        "dimension",
      );
    }
    return this.#derive("dimensions", fields, { dimensions: [...this.#node.dimensions, ...added] });
  }

  /** Adds row-level facts to the selection (no aggregation; not combinable with metrics). */
  facts<const F extends readonly AnyField[]>(
    ...fields: Selection<F, "fact", V, S>
  ): SemanticQuery<V, WithFields<R, F>, P, WithSelected<S, "fact", F[number]>> {
    const known = derivedNode(this.#node, "facts", fields);
    if (known !== undefined) return this.#on(known);
    if (fields.length > 0 && this.#node.metrics.length > 0) {
      throw this.#error("facts", "metrics and facts cannot be selected in the same query");
    }
    const facts = [...this.#node.facts, ...this.#fieldNodes("facts", "fact", fields)];
    return this.#derive("facts", fields, { facts });
  }

  /**
   * Filters rows before aggregation, on dimensions and facts. `null`/`undefined` is a no-op;
   * repeated calls are ANDed.
   */
  where<C extends Condition | null | undefined>(condition: WhereCheck<C, V>): SemanticQuery<V, R, P, S> {
    if (condition === null || condition === undefined) return this;
    if (!isCondition(condition)) throw this.#error("where", "expected a condition such as View.field.eq(value)");
    const tooLarge = conditionShapeProblem(condition.node);
    if (tooLarge !== undefined) throw this.#error("where", tooLarge);
    for (const field of ConditionNode.fields(condition.node)) {
      this.#checkView("where", field);
      if (field.fieldKind === "metric") {
        throw this.#error(
          "where",
          `metric "${field.name}" cannot be used in where(): filter dimensions and facts, before aggregation`,
          field.name,
        );
      }
    }
    const where = appendWhere(this.#where, condition.node);
    if (typeof where === "string") throw this.#error("where", where); // several where() calls add up
    return new SemanticQuery<V, R, P, S>(this.#node, this.#view, this.#executor, where);
  }

  /**
   * Appends orderings (`View.field.desc()`, or a field for ascending). Ordered fields must be
   * selected by the time the query compiles (the order of builder calls does not matter); a field
   * that never is makes `toSql()`/`compile()`/`execute()` a type error and a `ValidationError`.
   */
  orderBy<const O extends readonly (Ordering | AnyField)[]>(
    ...orderings: { [I in keyof O]: OrderCheck<O[I], V> }
  ): SemanticQuery<V, R, P, WithOrdered<S, O[number]>> {
    const keys = orderingKeys(orderings);
    const known = keys === undefined ? undefined : derivedNode(this.#node, "orderBy", keys);
    if (known !== undefined) return this.#on(known);
    const nodes = (orderings as readonly unknown[]).map((o) => {
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
    const orderBy = [...this.#node.orderBy, ...nodes];
    return keys === undefined ? this.#with({ orderBy }) : this.#derive("orderBy", keys, { orderBy });
  }

  /** At most `n` rows; `n` is a non-negative integer (`limit(0)`: no rows, just the columns). */
  limit<const N extends number>(n: NonNegativeInteger<N, "limit">): SemanticQuery<V, R, P, S> {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      throw this.#error("limit", `expected a non-negative integer, got ${describe(n)}`);
    }
    return this.#with({ limit: n });
  }

  /** Skips the first `n` rows; `n` is a non-negative integer. */
  offset<const N extends number>(n: NonNegativeInteger<N, "offset">): SemanticQuery<V, R, P, S> {
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
  variables(values: P): SemanticQuery<V, R, P, S> {
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
  using(engine: EngineRef): SemanticQuery<V, R, P, S> {
    if (
      typeof engine !== "string" &&
      (typeof engine !== "object" || engine === null || typeof engine.connect !== "function")
    ) {
      throw this.#error("using", "expected an engine or a registered engine name");
    }
    const query = new SemanticQuery<V, R, P, S>(this.#node, this.#view, this.#executor.withEngine(engine), this.#where);
    // The same filtered node: a query kept and run with `.using(engine)` per request compiles once.
    if (this.#where !== undefined) query.#built = this.toOperationNode();
    return query;
  }

  /** The SQL for `dialect`, or for the resolved engine's dialect. */
  toSql(this: OrderedSelected<S>, options: CompileOptions = {}): string {
    return (this as SemanticQuery<V, R, P, AnyShape>).compile(options).sql;
  }

  /** SQL plus parameters for `dialect`, or for the resolved engine's dialect. */
  compile(this: OrderedSelected<S>, options: CompileOptions = {}): CompiledQuery {
    const self = this as SemanticQuery<V, R, P, S>;
    const { dialect } = options;
    if (dialect !== undefined && !isBackend(dialect)) {
      throw self.#error("compile", `unknown dialect ${describe(dialect)}`);
    }
    return self.#executor.compileQuery(self.toOperationNode(), dialect);
  }

  /**
   * Runs the query on a pooled connection of the resolved engine and returns a cursor that owns
   * the connection (`await using cursor = await q.execute()`).
   */
  execute(this: OrderedSelected<S>, options: ExecuteOptions = {}): Promise<QueryCursor<R>> {
    const self = this as SemanticQuery<V, R, P, S>;
    return self.#executor.executeQuery<R>(self.toOperationNode(), options);
  }

  /** The frozen operation node (what the dialect compilers consume). */
  toOperationNode(): SemanticQueryNode {
    if (this.#where === undefined) return this.#node;
    this.#built ??= SemanticQueryNode.cloneWith(this.#node, { where: whereCondition(this.#where) });
    return this.#built;
  }

  #with<R2 extends object, S2 extends QueryShape>(
    changes: Parameters<typeof SemanticQueryNode.cloneWith>[1],
  ): SemanticQuery<V, R2, P, S2> {
    return new SemanticQuery<V, R2, P, S2>(
      SemanticQueryNode.cloneWith(this.#node, changes),
      this.#view,
      this.#executor,
      this.#where,
    );
  }

  /** `#with(changes)`, remembered as what `method` with arguments `keys` derives from this node (interned-nodes.ts). */
  #derive<R2 extends object, S2 extends QueryShape>(
    method: string,
    keys: readonly unknown[],
    changes: Parameters<typeof SemanticQueryNode.cloneWith>[1],
  ): SemanticQuery<V, R2, P, S2> {
    const node = SemanticQueryNode.cloneWith(this.#node, changes);
    rememberDerived(this.#node, method, keys, node);
    return this.#on(node);
  }

  /** This query over `node` instead (a builder call's result). */
  #on<R2 extends object, S2 extends QueryShape>(node: SemanticQueryNode): SemanticQuery<V, R2, P, S2> {
    return new SemanticQuery<V, R2, P, S2>(node, this.#view, this.#executor, this.#where);
  }

  #fieldNodes(method: string, kind: FieldKind, fields: readonly unknown[]): FieldNode[] {
    const node = this.#node;
    // A name already selected: a scan while the selection is small (no Set and no closure per call).
    const taken = selectionSize(node) + fields.length > SCAN_LIMIT ? selectedNames(node) : undefined;
    const added: FieldNode[] = [];
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (!isField(f)) throw this.#error(method, `expected fields of ${node.viewName}, got ${describe(f)}`);
      this.#checkView(method, f.node);
      if (f.kind !== kind) {
        throw this.#error(method, `"${f.name}" is a ${f.kind}: select it with .${KIND_METHOD[f.kind]}()`, f.name);
      }
      if (taken === undefined ? isSelected(node, added, f.name) : taken.has(f.name)) {
        throw this.#error(method, `"${f.name}" is already selected`, f.name);
      }
      taken?.add(f.name);
      added.push(f.node);
    }
    return added;
  }

  #checkGrouping(
    method: string,
    metrics: readonly string[],
    dimensions: readonly string[],
    selected: "metric" | "dimension",
  ): void {
    const source = `${this.#node.viewName}.query().${method}()`;
    const problem = groupingProblem(this.#view, metrics, dimensions, source, selected);
    if (problem !== undefined) throw problem;
  }

  #checkView(method: string, field: FieldNode): void {
    if (field.viewName !== this.#node.viewName) {
      throw this.#error(
        method,
        `"${field.name}" is a field of view "${field.viewName}", not "${this.#node.viewName}"`,
        field.name,
      );
    }
  }

  #error(method: string, message: string, field?: string): ValidationError {
    const source = `${this.#node.viewName}.query().${method}()`;
    return new ValidationError(`${source}: ${message}`, field === undefined ? { source } : { source, field });
  }
}

/** Below this many selected fields, a name already selected is found by a scan of the lists. */
const SCAN_LIMIT = 16;

const selectionSize = (node: SemanticQueryNode): number =>
  node.dimensions.length + node.metrics.length + node.facts.length;

const selectedNames = (node: SemanticQueryNode): Set<string> =>
  new Set(SemanticQueryNode.selection(node).map((f) => f.name));

const named = (list: readonly FieldNode[], name: string): boolean => {
  for (let i = 0; i < list.length; i++) if (list[i]!.name === name) return true;
  return false;
};

const isSelected = (node: SemanticQueryNode, added: readonly FieldNode[], name: string): boolean =>
  named(node.dimensions, name) || named(node.metrics, name) || named(node.facts, name) || named(added, name);

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "object" && value !== null) return Object.prototype.toString.call(value);
  return String(value);
}
