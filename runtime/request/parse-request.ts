/**
 * Reads a whole request against the registry's declarations: the view, the selected members (each
 * of the kind it is listed under), `where`, `orderBy`, `limit` and `offset`, all within the limits.
 * Every problem is collected, each with its path and a suggestion for near-miss names, and thrown
 * together as one {@link InvalidRequestError}. Nothing here builds SQL.
 */
import type { FieldKind } from "../operation-node/field-node.js";
import type { Condition } from "../query/condition.js";
import { closestName } from "../text/suggest.js";
import { IssueList } from "./invalid-request-error.js";
import type { FilterValue } from "../operation-node/filter-value.js";
import { parseVariables } from "./parse-variables.js";
import { parseWhere } from "./parse-where.js";
import { limitOf, type RequestLimits } from "./request-limits.js";
import { ExactNumber } from "./request-json.js";
import { REQUEST_KEYS } from "./semantic-request.js";
import type { MemberInfo, ViewEntry, ViewRegistry } from "./view-registry.js";

const LISTS: readonly { readonly key: "metrics" | "dimensions" | "facts"; readonly kind: FieldKind }[] = [
  { key: "dimensions", kind: "dimension" },
  { key: "metrics", kind: "metric" },
  { key: "facts", kind: "fact" },
];
const LIST_OF: Readonly<Record<FieldKind, string>> = { metric: "metrics", dimension: "dimensions", fact: "facts" };

// What people write for a direction or a nulls placement, and what it means here.
const DIRECTIONS: Readonly<Record<string, string>> = {
  asc: "asc",
  ascending: "asc",
  up: "asc",
  desc: "desc",
  descending: "desc",
  down: "desc",
};
const NULLS: Readonly<Record<string, string>> = {
  first: "first",
  last: "last",
  nulls_first: "first",
  nulls_last: "last",
};

/** The word `value` stands for: a known spelling (any case) or the closest one. */
function closestWord(value: unknown, words: Readonly<Record<string, string>>): string | undefined {
  if (typeof value !== "string") return undefined;
  const known = words[value.toLowerCase()];
  if (known !== undefined) return known;
  // "dsc" is as near to "asc" as to "desc": prefer spellings that start alike.
  const alike = Object.keys(words).filter((w) => w[0] === value[0]?.toLowerCase());
  const near = closestName(value, alike) ?? closestName(value, Object.keys(words));
  return near === undefined ? undefined : words[near];
}

const didYouMean = (suggestion: string | undefined) =>
  suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;

export interface ParsedOrdering {
  readonly member: MemberInfo;
  readonly direction: "asc" | "desc";
  readonly nulls: "first" | "last" | undefined;
}

export interface ParsedRequest {
  readonly entry: ViewEntry;
  readonly dimensions: readonly MemberInfo[];
  readonly metrics: readonly MemberInfo[];
  readonly facts: readonly MemberInfo[];
  readonly where: Condition | undefined;
  readonly orderBy: readonly ParsedOrdering[];
  readonly limit: number | undefined;
  readonly offset: number;
  /** Values for the view's variables, by declared name (parsed by their declared types). */
  readonly variables: Readonly<Record<string, FilterValue>>;
}

export interface ParseOptions {
  readonly limits: RequestLimits;
  /** The view named by the URL (HTTP) or tool call, which the body may repeat but not contradict. */
  readonly view?: string | undefined;
  /** The largest `limit` accepted: `maxRows` for a JSON answer, `maxStreamRows` for a stream. */
  readonly maxLimit: number;
  /** Which limit `maxLimit` is (named when a `limit` is over it). Default `maxRows`. */
  readonly maxLimitName?: "maxRows" | "maxStreamRows" | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The registry entry a request names, or undefined after recording an `unknown_view` issue. */
export function findView(
  registry: ViewRegistry,
  name: unknown,
  issues: IssueList,
  path = "view",
): ViewEntry | undefined {
  if (typeof name !== "string" || name === "") {
    issues.add(path, "missing", `name a view: ${registry.names.join(", ")}`);
    return undefined;
  }
  const entry = registry.get(name);
  if (entry !== undefined) return entry;
  const suggestion = closestName(name, registry.names);
  issues.add(
    path,
    "unknown_view",
    `no view "${name}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (views: ${registry.names.join(", ")})`,
    suggestion,
  );
  return undefined;
}

function selection(entry: ViewEntry, body: Record<string, unknown>, issues: IssueList): Map<FieldKind, MemberInfo[]> {
  const chosen = new Map<FieldKind, MemberInfo[]>(LISTS.map(({ kind }) => [kind, []]));
  const seen = new Set<string>();
  for (const { key, kind } of LISTS) {
    const names = body[key];
    if (names === undefined) continue;
    if (!Array.isArray(names)) {
      issues.add(key, "invalid_value", `expected a list of ${key === "facts" ? "fact" : key.slice(0, -1)} names`);
      continue;
    }
    names.forEach((name: unknown, i) => {
      const path = `${key}[${i}]`;
      if (typeof name !== "string") return issues.add(path, "invalid_value", "expected a member name");
      const member = entry.member(name);
      if (member === undefined) {
        const ofKind = entry.members.filter((m) => m.kind === kind).map((m) => m.name);
        const suggestion =
          closestName(name, ofKind) ??
          closestName(
            name,
            entry.members.map((m) => m.name),
          );
        const known = ofKind.length === 0 ? `it has no ${key}` : `its ${key}: ${ofKind.join(", ")}`;
        return issues.add(
          path,
          "unknown_member",
          `view "${entry.name}" has no ${kind} "${name}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (${known})`,
          suggestion,
        );
      }
      if (member.kind !== kind) {
        return issues.add(path, "wrong_kind", `"${name}" is a ${member.kind}; list it under ${LIST_OF[member.kind]}`);
      }
      if (seen.has(name)) return issues.add(path, "invalid_value", `"${name}" is already selected`);
      seen.add(name);
      chosen.get(kind)!.push(member);
    });
  }
  const total = seen.size;
  if (total === 0 && issues.empty) issues.add("metrics", "missing", "select at least one metric, dimension or fact");
  if (total > 0 && chosen.get("metric")!.length > 0 && chosen.get("fact")!.length > 0) {
    issues.add("facts", "invalid_value", "metrics and facts cannot be selected in the same request");
  }
  return chosen;
}

function orderings(
  entry: ViewEntry,
  body: Record<string, unknown>,
  selected: ReadonlyMap<string, MemberInfo>,
  limits: RequestLimits,
  issues: IssueList,
) {
  const list = body["orderBy"];
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    issues.add(
      "orderBy",
      "invalid_value",
      'expected a list such as ["-revenue"] or [{ "field": "revenue", "direction": "desc" }]',
    );
    return [];
  }
  if (list.length > limits.maxOrderBy) {
    issues.overLimit(
      "orderBy",
      limitOf(limits, "maxOrderBy"),
      `at most ${limits.maxOrderBy} orderings, got ${list.length}`,
    );
  }
  const out: ParsedOrdering[] = [];
  list.forEach((item: unknown, i) => {
    const path = `orderBy[${i}]`;
    let field: unknown;
    let direction: unknown = "asc";
    let nulls: unknown;
    if (typeof item === "string") {
      // "revenue", "-revenue", or "revenue:desc[:first]" (the query-string form of every option)
      const [name, dir, last] = item.startsWith("-") ? [item.slice(1), "desc"] : item.split(":");
      field = name;
      direction = dir ?? "asc";
      nulls = last;
    } else if (isObject(item)) {
      ({ field, direction = "asc", nulls } = item);
      for (const key of Object.keys(item)) {
        if (key !== "field" && key !== "direction" && key !== "nulls")
          issues.add(`${path}.${key}`, "unknown_parameter", `unknown key "${key}"`);
      }
    } else return issues.add(path, "invalid_value", "expected a field name or { field, direction, nulls }");
    if (direction !== "asc" && direction !== "desc") {
      const suggestion = closestWord(direction, DIRECTIONS);
      return issues.add(
        typeof item === "string" ? path : `${path}.direction`,
        "invalid_value",
        `direction is "asc" or "desc", got ${JSON.stringify(direction)}${didYouMean(suggestion)}`,
        suggestion,
      );
    }
    if (nulls !== undefined && nulls !== "first" && nulls !== "last") {
      const suggestion = closestWord(nulls, NULLS);
      return issues.add(
        typeof item === "string" ? path : `${path}.nulls`,
        "invalid_value",
        `nulls is "first" or "last", got ${JSON.stringify(nulls)}${didYouMean(suggestion)}`,
        suggestion,
      );
    }
    const member = typeof field === "string" ? selected.get(field) : undefined;
    const declared = typeof field === "string" ? entry.member(field) : undefined;
    if (member === undefined && declared !== undefined) {
      return issues.add(
        path,
        "invalid_query",
        `"${declared.name}" is not selected; add it to ${LIST_OF[declared.kind]} to order by it (only selected members can be ordered by)`,
      );
    }
    if (member === undefined) {
      if (typeof field !== "string") return issues.add(path, "missing", "expected the name of a selected member");
      const suggestion =
        closestName(field, selected.keys()) ??
        closestName(
          field,
          entry.members.map((m) => m.name),
        );
      return issues.add(
        path,
        "unknown_member",
        `view "${entry.name}" has no member "${field}"${didYouMean(suggestion)} (only selected members can be ordered by: ${[...selected.keys()].join(", ")})`,
        suggestion,
      );
    }
    out.push({ member, direction, nulls });
  });
  return out;
}

function wholeNumber(
  body: Record<string, unknown>,
  key: "limit" | "offset",
  min: number,
  max: { readonly name: string; readonly value: number },
  issues: IssueList,
) {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  const whole = wholeValue(value);
  if (whole === undefined || whole < BigInt(min)) {
    const shown = value instanceof ExactNumber ? value.text : JSON.stringify(value);
    issues.add(key, "invalid_value", `expected an integer of at least ${min}, got ${shown}`);
    return undefined;
  }
  if (whole > BigInt(max.value)) {
    const hint =
      key === "limit" && max.name === "maxRows"
        ? "; leave limit out to get the first page and the request that continues (next)"
        : "";
    issues.overLimit(key, max, `at most ${max.value}${key === "limit" ? " rows" : ""}, got ${whole}`, hint);
    return undefined;
  }
  return Number(whole);
}

/**
 * A whole number however large (a query-string's digits, a JSON integer, one too long for a double),
 * so a limit beyond any maximum is answered as over it rather than as not an integer; else undefined.
 */
function wholeValue(value: unknown): bigint | undefined {
  const text = value instanceof ExactNumber ? value.text : typeof value === "string" ? value : undefined;
  if (text !== undefined) return /^-?\d+$/.test(text) ? BigInt(text) : undefined;
  return typeof value === "number" && Number.isInteger(value) ? BigInt(value) : undefined;
}

/** The request read against its view's declarations; throws `InvalidRequestError` listing every problem. */
export function parseRequest(registry: ViewRegistry, body: unknown, options: ParseOptions): ParsedRequest {
  const issues = new IssueList();
  if (!isObject(body)) {
    issues.add("body", "malformed", "expected a JSON object");
    issues.throwIfAny();
  }
  const request = body as Record<string, unknown>;
  for (const key of Object.keys(request)) {
    if (!(REQUEST_KEYS as readonly string[]).includes(key)) {
      const suggestion = closestName(key, REQUEST_KEYS);
      issues.add(
        key,
        "unknown_parameter",
        `unknown parameter "${key}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`}`,
        suggestion,
      );
    }
  }
  if (options.view !== undefined && request["view"] !== undefined && request["view"] !== options.view) {
    issues.add(
      "view",
      "invalid_value",
      `the body names view ${JSON.stringify(request["view"])} but the request is for "${options.view}"`,
    );
  }
  const entry = findView(registry, options.view ?? request["view"], issues);
  if (entry === undefined) issues.throwIfAny();
  const chosen = selection(entry!, request, issues);
  const selected = [...chosen.values()].flat();
  if (selected.length > options.limits.maxMembers) {
    issues.overLimit(
      "metrics",
      limitOf(options.limits, "maxMembers"),
      `at most ${options.limits.maxMembers} members (metrics, dimensions and facts together) per request, got ${selected.length}`,
    );
  }
  const where = parseWhere(entry!, request["where"], options.limits, issues);
  const variables = parseVariables(entry!, request["variables"], issues);
  const orderBy = orderings(entry!, request, new Map(selected.map((m) => [m.name, m])), options.limits, issues);
  const limit = wholeNumber(
    request,
    "limit",
    1,
    { name: options.maxLimitName ?? "maxRows", value: options.maxLimit },
    issues,
  );
  const offset = wholeNumber(request, "offset", 0, limitOf(options.limits, "maxOffset"), issues) ?? 0;
  issues.throwIfAny();
  return {
    entry: entry!,
    dimensions: chosen.get("dimension")!,
    metrics: chosen.get("metric")!,
    facts: chosen.get("fact")!,
    where,
    orderBy,
    limit,
    offset,
    variables,
  };
}
