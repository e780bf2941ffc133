/**
 * A JSON condition tree (`{ field, op, value }` leaves under `and`/`or`/`not`) turned into the
 * builder's conditions, through the same field methods application code calls (`Sales.country.eq`),
 * so a request filter is exactly as safe as a typed one. Every problem is collected with its path.
 */
import { ValidationError } from "../errors.js";
import { and, not, or, type Condition } from "../query/condition.js";
import { closestName } from "../text/suggest.js";
import { parseMemberValue } from "./member-values.js";
import { CONDITION_OPERATORS, type ConditionOperator } from "./semantic-request.js";
import type { IssueList } from "./invalid-request-error.js";
import { limitOf, type RequestLimits } from "./request-limits.js";
import type { MemberInfo, ViewEntry } from "./view-registry.js";

type FieldMethods = Record<string, (...args: unknown[]) => Condition>;

const TEXT_OPERATORS = new Set<ConditionOperator>(["like", "startsWith", "endsWith", "contains"]);
const OPERATORS = new Set<string>(CONDITION_OPERATORS);

/** How other tools and SQL spell the operators (Cube, dbt, sidemantic, SQL), for the suggestion. */
const OPERATOR_SPELLINGS: Readonly<Record<string, ConditionOperator>> = {
  "=": "eq",
  "==": "eq",
  equals: "eq",
  equal: "eq",
  is: "eq",
  "!=": "ne",
  "<>": "ne",
  neq: "ne",
  notequals: "ne",
  not_equals: "ne",
  ">": "gt",
  ">=": "gte",
  ge: "gte",
  "<": "lt",
  "<=": "lte",
  le: "lte",
  not_in: "notIn",
  nin: "notIn",
  notin: "notIn",
  startswith: "startsWith",
  starts_with: "startsWith",
  endswith: "endsWith",
  ends_with: "endsWith",
  ilike: "like",
  isnull: "isNull",
  is_null: "isNull",
  notset: "isNull",
  isnotnull: "isNotNull",
  is_not_null: "isNotNull",
  notnull: "isNotNull",
  set: "isNotNull",
  indaterange: "between",
  range: "between",
};

/** The operator a near-miss `op` most likely means. */
function suggestOperator(op: string): ConditionOperator | undefined {
  const spelled = OPERATOR_SPELLINGS[op.toLowerCase()] ?? OPERATOR_SPELLINGS[op.toLowerCase().replaceAll(" ", "_")];
  return spelled ?? (closestName(op, CONDITION_OPERATORS) as ConditionOperator | undefined);
}

const COMPARISON_KEYS = ["field", "op", "value"] as const;
const LOGICAL_KEYS = ["and", "or", "not"] as const;

interface WhereContext {
  readonly entry: ViewEntry;
  readonly limits: RequestLimits;
  readonly issues: IssueList;
  comparisons: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A member that may be filtered (a dimension or fact of the view), or undefined after recording why not. */
function filterable(context: WhereContext, name: unknown, path: string): MemberInfo | undefined {
  const { entry, issues } = context;
  if (typeof name !== "string") {
    issues.add(path, "missing", "expected the name of a dimension or fact");
    return undefined;
  }
  const member = entry.member(name);
  if (member === undefined) {
    const candidates = entry.members.filter((m) => m.kind !== "metric").map((m) => m.name);
    const suggestion = closestName(name, candidates);
    issues.add(
      path,
      "unknown_member",
      `view "${entry.name}" has no dimension or fact "${name}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`}`,
      suggestion,
    );
    return undefined;
  }
  if (member.kind === "metric") {
    issues.add(
      path,
      "wrong_kind",
      `"${name}" is a metric and cannot be filtered in where: semantic layers filter dimensions and facts before aggregation`,
    );
    return undefined;
  }
  return member;
}

/** One value of `member`'s type (`null` only where `allowNull`), or undefined after recording the problem. */
function memberValue(context: WhereContext, member: MemberInfo, value: unknown, path: string, allowNull: boolean) {
  if (value === null) {
    if (allowNull) return { value: null };
    context.issues.add(path, "invalid_value", "null is only allowed with eq, ne, in and notIn (it means IS NULL)");
    return undefined;
  }
  const parsed = parseMemberValue(member.type, value);
  if (!parsed.ok) {
    context.issues.add(path, "invalid_value", `${member.name}: ${parsed.problem}`);
    return undefined;
  }
  return { value: parsed.value };
}

/** The arguments the field method `op` takes, or undefined after recording the problem. */
function operands(
  context: WhereContext,
  member: MemberInfo,
  op: ConditionOperator,
  node: Record<string, unknown>,
  path: string,
): unknown[] | undefined {
  const value = node["value"];
  const at = `${path}.value`;
  const has = Object.hasOwn(node, "value");
  switch (op) {
    case "isNull":
    case "isNotNull":
      if (has && value !== true) context.issues.add(at, "invalid_value", `${op} takes no value`);
      return [];
    case "in":
    case "notIn": {
      if (!Array.isArray(value)) {
        context.issues.add(at, "invalid_value", `${op} needs a list of values`);
        return undefined;
      }
      if (value.length > context.limits.maxInList) {
        context.issues.overLimit(
          at,
          limitOf(context.limits, "maxInList"),
          `${op} lists at most ${context.limits.maxInList} values, got ${value.length}`,
        );
        return undefined;
      }
      const items = value.map((v, i) => memberValue(context, member, v, `${at}[${i}]`, true));
      return items.every((i) => i !== undefined) ? [items.map((i) => i!.value)] : undefined;
    }
    case "between": {
      if (!Array.isArray(value) || value.length !== 2) {
        context.issues.add(at, "invalid_value", "between needs [low, high]");
        return undefined;
      }
      const low = memberValue(context, member, value[0], `${at}[0]`, false);
      const high = memberValue(context, member, value[1], `${at}[1]`, false);
      return low && high ? [low.value, high.value] : undefined;
    }
    default: {
      if (TEXT_OPERATORS.has(op)) {
        if (member.type !== "string" && member.type !== "unknown") {
          context.issues.add(path, "wrong_kind", `${op} applies to text members; "${member.name}" is ${member.type}`);
          return undefined;
        }
        if (typeof value !== "string") {
          context.issues.add(at, "invalid_value", `${op} needs a string`);
          return undefined;
        }
        return [value];
      }
      if (!has) {
        context.issues.add(at, "missing", `${op} needs a value`);
        return undefined;
      }
      const one = memberValue(context, member, value, at, op === "eq" || op === "ne");
      return one === undefined ? undefined : [one.value];
    }
  }
}

function comparison(context: WhereContext, node: Record<string, unknown>, path: string): Condition | undefined {
  const keys = Object.keys(node);
  for (const key of keys) {
    if ((COMPARISON_KEYS as readonly string[]).includes(key)) continue;
    const nearLogical = closestName(key, LOGICAL_KEYS);
    if (nearLogical !== undefined && !keys.some((k) => k === "field" || k === "op") && keys.length === 1) {
      // `{ "andd": [...] }`: a misspelt combinator, not a comparison missing its field and op.
      context.issues.add(
        `${path}.${key}`,
        "unknown_parameter",
        `unknown key "${key}"; did you mean "${nearLogical}"? (a condition is { field, op, value }, { and: [...] }, { or: [...] } or { not: ... })`,
        nearLogical,
      );
      return undefined;
    }
    const missing = COMPARISON_KEYS.filter((k) => !Object.hasOwn(node, k));
    const suggestion = closestName(key, missing);
    context.issues.add(
      `${path}.${key}`,
      "unknown_parameter",
      `unknown key "${key}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (a comparison has field, op and value)`,
      suggestion,
    );
    // The misspelt key stands for the missing one: read its value under the right name, so the other
    // checks run and nothing is reported twice.
    if (suggestion !== undefined) node = { ...node, [suggestion]: node[key] };
  }
  context.comparisons++;
  const member = filterable(context, node["field"], `${path}.field`);
  const op = node["op"];
  if (typeof op !== "string" || !OPERATORS.has(op)) {
    const suggestion = typeof op === "string" ? suggestOperator(op) : undefined;
    const what = typeof op === "string" ? `unknown operator ${JSON.stringify(op)}` : "an operator is needed";
    context.issues.add(
      `${path}.op`,
      typeof op === "string" ? "invalid_value" : "missing",
      `${what}${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (operators: ${CONDITION_OPERATORS.join(", ")})`,
      suggestion,
    );
    return undefined;
  }
  if (member === undefined) return undefined;
  const args = operands(context, member, op as ConditionOperator, node, path);
  if (args === undefined) return undefined;
  try {
    return (member.field as unknown as FieldMethods)[op]!(...args);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    context.issues.add(`${path}.value`, "invalid_value", error.message);
    return undefined;
  }
}

function tree(context: WhereContext, node: unknown, path: string, depth: number): Condition | undefined {
  if (depth > context.limits.maxConditionDepth) {
    context.issues.overLimit(
      path,
      limitOf(context.limits, "maxConditionDepth"),
      `conditions nest at most ${context.limits.maxConditionDepth} deep`,
    );
    return undefined;
  }
  if (Array.isArray(node)) return combine(context, "and", node, path, depth);
  if (!isObject(node)) {
    context.issues.add(
      path,
      "invalid_value",
      "expected a condition: { field, op, value }, { and: [...] }, { or: [...] } or { not: ... }",
    );
    return undefined;
  }
  const keys = Object.keys(node);
  const logical = keys.find((k) => k === "and" || k === "or" || k === "not");
  if (logical === undefined) return comparison(context, node, path);
  if (keys.length !== 1) {
    context.issues.add(path, "invalid_value", `"${logical}" stands alone in its object (found ${keys.join(", ")})`);
    return undefined;
  }
  if (logical === "not") {
    const inner = tree(context, node["not"], `${path}.not`, depth + 1);
    return inner === undefined ? undefined : not(inner);
  }
  if (!Array.isArray(node[logical])) {
    context.issues.add(`${path}.${logical}`, "invalid_value", `"${logical}" needs a list of conditions`);
    return undefined;
  }
  return combine(context, logical as "and" | "or", node[logical] as unknown[], `${path}.${logical}`, depth);
}

function combine(context: WhereContext, how: "and" | "or", nodes: readonly unknown[], path: string, depth: number) {
  const conditions = nodes.map((n, i) => tree(context, n, `${path}[${i}]`, depth + 1));
  if (conditions.some((c) => c === undefined)) return undefined;
  return how === "and" ? and(...conditions) : or(...conditions);
}

/** The condition of a request's `where` (undefined when absent or when issues were recorded). */
export function parseWhere(
  entry: ViewEntry,
  where: unknown,
  limits: RequestLimits,
  issues: IssueList,
  path = "where",
): Condition | undefined {
  if (where === undefined || where === null) return undefined;
  const context: WhereContext = { entry, limits, issues, comparisons: 0 };
  const condition = tree(context, where, path, 1);
  if (context.comparisons > limits.maxConditions) {
    issues.overLimit(
      path,
      limitOf(limits, "maxConditions"),
      `at most ${limits.maxConditions} comparisons, got ${context.comparisons}`,
    );
    return undefined;
  }
  return condition;
}
