/**
 * Value templates: a query that differs from one compiled before only in its filter values compiles
 * by splicing the new values into that compile's SQL (a dashboard's date picker or search box makes
 * a new value per request; a full compile costs ~40 µs, a splice a few). {@link valueShapeOf} reads a
 * node once: the key of its *value shape* (everything the compilers read, each value reduced to the
 * class that can change the SQL around it) and its values in the order the compilers lower them.
 * A dialect's compiler that can splice returns a {@link ValueTemplate} beside a full compile
 * (`SemanticQueryCompiler.compileWithTemplate`); the query executor keeps one per value shape.
 *
 * Strictness is the full compiler's: a template splices only values that every check of the full
 * path accepts, and hands any other back (`fill` answers undefined), so the full compile reports the
 * very same error. `test/query/value-templates.test.ts` compares both paths on random queries.
 */
import type { ConditionNode } from "../operation-node/condition-node.js";
import { conditionShapeProblem } from "../operation-node/condition-shape.js";
import type { FilterValue } from "../operation-node/filter-value.js";
import type { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { Decimal } from "../values/decimal.js";
import { isGenuineDate } from "../values/genuine.js";
import { isUtcMidnight } from "../values/iso-day.js";
import type { CompiledQuery } from "./compiled-query.js";

export interface ValueTemplate {
  /**
   * A query of the template's value shape, given its values in {@link valueShapeOf} order, compiled
   * by splicing, exactly as the full compiler writes it; undefined when a value needs the full compiler.
   */
  fill(values: readonly FilterValue[]): FilledQuery | undefined;
}

/**
 * A query compiled by splicing. `execute()` needs only its SQL and the key its dialect noted facts
 * under (StreamOptions.compiled); the public, frozen `CompiledQuery` (whose non-enumerable fields
 * cost two `defineProperty` calls and a freeze, a fifth of a splice) is made only when `compile()`
 * asks for it.
 */
export interface FilledQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /** What the driver is handed as StreamOptions.compiled. */
  readonly key: object;
  /** The CompiledQuery `compile()` hands out for `query`, with the same facts noted as for `key`. */
  compiledQuery(query: SemanticQueryNode): CompiledQuery;
}

export interface ValueShape {
  /** Equal keys: equal SQL around the values, for values of equal classes (see valueClass). */
  readonly key: string;
  /** The values, in the order the compilers lower them (SemanticQueryCompiler.conditionToNode). */
  readonly values: readonly FilterValue[];
}

const ids = new WeakMap<object, number>();
let nextId = 0;

/** A number per field node: nodes are frozen and made once per declared member. */
function idOf(node: object): number {
  let id = ids.get(node);
  if (id === undefined) ids.set(node, (id = nextId++));
  return id;
}

/**
 * What of a value can change the SQL written around it: its type; for a fractional number or a
 * Decimal its scale (backend C guards such comparisons with `DECIMAL(38,s)`); for a Date whether it
 * is a calendar day (midnight UTC, written as a DATE). Undefined: never spliced (a string with NUL,
 * which backend C writes as an expression; anything not a filter value).
 */
export function valueClass(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return value.includes("\0") ? undefined : "s";
    case "boolean":
      return "b";
    case "bigint":
      return "i";
    case "number": {
      if (Number.isInteger(value)) return "n";
      const text = String(value);
      const dot = text.indexOf(".");
      if (text.includes("e")) return "ne";
      return dot < 0 ? `n${text}` : `n.${text.length - dot - 1}`; // n.2: 1.25; nNaN, nInfinity
    }
    case "object":
      if (Decimal.isDecimal(value)) return `d${value.scale}`;
      if (isGenuineDate(value)) return isUtcMidnight(value) ? "D" : "t"; // a DATE or a TIMESTAMP on C
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The node's value shape, or undefined for a node that is always compiled in full: one with
 * variables (declared or set) or an unresolved relative date range, or a value without a class.
 */
export function valueShapeOf(node: SemanticQueryNode): ValueShape | undefined {
  if (node.where === undefined || node.variables.length > 0 || node.declaredVariables.length > 0) return undefined;
  // A condition too deep to walk is refused by the full compile (measured once per node, remembered).
  if (conditionShapeProblem(node.where) !== undefined) return undefined;
  const values: FilterValue[] = [];
  const where = conditionKey(node.where, values);
  if (where === undefined) return undefined;
  return { key: `${selectionKey(node)}|${where}`, values };
}

/** What selectionKey reads of a node (never its filter: no values are kept), with the key. */
type Selection = Pick<
  SemanticQueryNode,
  "dimensions" | "metrics" | "facts" | "orderBy" | "limit" | "offset" | "viewName" | "warehouseName"
>;

const selectionKeys = new WeakMap<readonly object[], { readonly selection: Selection; readonly key: string }>();

/** Whether `a` and `b` read alike for selectionKey (their lists the same arrays). */
const sameSelection = (a: Selection, b: Selection): boolean =>
  a.dimensions === b.dimensions &&
  a.metrics === b.metrics &&
  a.facts === b.facts &&
  a.orderBy === b.orderBy &&
  a.limit === b.limit &&
  a.offset === b.offset &&
  a.viewName === b.viewName &&
  a.warehouseName === b.warehouseName;

/**
 * Everything of the value shape's key but the filter. Builder nodes share their lists (and builder
 * calls made again give back the same node, query/interned-nodes.ts), so a query built per request
 * finds its key beside its last non-empty list instead of writing it again.
 */
function selectionKey(node: SemanticQueryNode): string {
  const anchor =
    node.orderBy.length > 0
      ? node.orderBy
      : node.metrics.length > 0
        ? node.metrics
        : node.dimensions.length > 0
          ? node.dimensions
          : node.facts;
  const known = selectionKeys.get(anchor);
  if (known !== undefined && sameSelection(known.selection, node)) return known.key;
  let key = `${node.viewName.length}:${node.viewName}${node.warehouseName.length}:${node.warehouseName}|`;
  key += `${fieldIds(node.dimensions)}|${fieldIds(node.metrics)}|${fieldIds(node.facts)}|`;
  for (let i = 0; i < node.orderBy.length; i++) {
    const o = node.orderBy[i]!;
    key += `${i === 0 ? "" : ","}${idOf(o.field)}${o.direction}${o.nulls ?? ""}`;
  }
  key += `|${node.limit ?? ""}|${node.offset ?? ""}`;
  if (anchor.length > 0) {
    const { dimensions, metrics, facts, orderBy, limit, offset, viewName, warehouseName } = node;
    const selection = { dimensions, metrics, facts, orderBy, limit, offset, viewName, warehouseName };
    selectionKeys.set(anchor, { selection, key });
  }
  return key;
}

/** The ids of a list of fields, comma-separated. */
function fieldIds(list: readonly object[]): string {
  let out = "";
  for (let i = 0; i < list.length; i++) out += i === 0 ? `${idOf(list[i]!)}` : `,${idOf(list[i]!)}`;
  return out;
}

/** `value`'s class, after adding it to `values` (in the order the compilers lower them). */
function added(values: FilterValue[], value: FilterValue): string | undefined {
  values.push(value);
  return valueClass(value);
}

/** A condition's part of the key, its values added to `values`; undefined when a value has no class. */
function conditionKey(c: ConditionNode, values: FilterValue[]): string | undefined {
  switch (c.kind) {
    case "ComparisonNode": {
      const cls = added(values, c.value);
      return cls === undefined ? undefined : `c${idOf(c.field)}${c.operator}${cls};`;
    }
    case "InListNode": {
      let out = `i${idOf(c.field)}${c.negated ? "!" : ""}(`;
      for (const v of c.values) {
        const cls = added(values, v);
        if (cls === undefined) return undefined;
        out += `${cls},`;
      }
      return `${out});`;
    }
    case "BetweenNode": {
      const low = added(values, c.low);
      const high = added(values, c.high);
      return low === undefined || high === undefined ? undefined : `b${idOf(c.field)}${low},${high};`;
    }
    case "LikeNode":
      return added(values, c.pattern) === undefined ? undefined : `l${idOf(c.field)}${c.escaped ? "e" : ""};`;
    case "NullCheckNode":
      return `n${idOf(c.field)}${c.negated ? "!" : ""};`;
    case "AndConditionNode":
    case "OrConditionNode": {
      let out = c.kind === "AndConditionNode" ? "&(" : "|(";
      for (const child of c.conditions) {
        const part = conditionKey(child, values);
        if (part === undefined) return undefined;
        out += part;
      }
      return `${out});`;
    }
    case "NotConditionNode": {
      const part = conditionKey(c.condition, values);
      return part === undefined ? undefined : `!(${part});`;
    }
    case "ConstantConditionNode":
      return c.value ? "T;" : "F;";
    case "DateRangeNode":
      return undefined;
  }
}
