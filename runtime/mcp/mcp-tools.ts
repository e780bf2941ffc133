/**
 * The three MCP tools over the request core, independent of the SDK: `list_views`, `describe_view`
 * and `query`, whose input schema enumerates the members (so "revenue by country for Europe" is one
 * call: `{ view: "sales", metrics: ["revenue"], dimensions: ["country"], where: { field: "region",
 * op: "eq", value: "Europe" } }`). Answers are capped by rows and by an approximate token budget,
 * say so explicitly (`truncated`, `truncation`), carry the compiled SQL and the request that
 * continues; errors are structured, with a suggestion for a near-miss name.
 */
import { InvalidRequestError } from "../request/invalid-request-error.js";
import { limitOf } from "../request/request-limits.js";
import { closestName } from "../text/suggest.js";
import { collectRows, RowBatches } from "../request/result-batches.js";
import { rowJsonWriter } from "../request/row-json.js";
import { dateColumnNames, withDayFields } from "../values/day-columns.js";
import { requestSchema, whereSchema, type JsonSchema } from "../request/request-schema.js";
import type { SemanticApi } from "../request/semantic-api.js";
import type { MemberInfo, ViewEntry } from "../request/view-registry.js";
import { toJson } from "../values/json.js";
import { jsonSafe } from "./json-safe.js";

export interface McpToolLimits {
  /** Most rows in one answer (also the largest `limit`). Default 100. */
  readonly maxRows: number;
  /** Approximate budget of one answer in tokens (4 characters of JSON each). Default 8,000. */
  readonly maxTokens: number;
}

export const DEFAULT_MCP_LIMITS: McpToolLimits = Object.freeze({ maxRows: 100, maxTokens: 8_000 });

/** A tool as MCP lists it. */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations: { readonly readOnlyHint: true; readonly openWorldHint: false };
}

/** A tool's answer: the JSON text, the same as structured content, and whether it is an error. */
export interface ToolResult {
  readonly content: { readonly type: "text"; readonly text: string }[];
  readonly structuredContent: Record<string, unknown>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

const CHARS_PER_TOKEN = 4;

function result(body: Record<string, unknown>, isError = false): ToolResult {
  // The text is lossless JSON (exact digits); structured content is plain JSON values (exact too: see jsonSafe).
  return {
    content: [{ type: "text", text: toJson(body) }],
    structuredContent: jsonSafe(body) as Record<string, unknown>,
    ...(isError ? { isError } : {}),
  };
}

/** What an agent needs to correct a call: each problem with its field and, for a near miss, a suggestion. */
export function errorResult(error: unknown): ToolResult {
  if (error instanceof InvalidRequestError) {
    return result({ error: { type: "invalid_request", message: error.message, errors: error.errors } }, true);
  }
  const message =
    error instanceof Error && error.name === "EngineNotFoundError"
      ? "no warehouse is configured"
      : "the warehouse could not answer";
  return result({ error: { type: "unavailable", message } }, true);
}

const namesOf = (entry: ViewEntry, kind: string) => entry.members.filter((m) => m.kind === kind).map((m) => m.name);

/** `sales (metrics: revenue, cost; dimensions: country, region)`, facts when it has them. */
function viewSummary(entry: ViewEntry): string {
  const lists = (["metric", "dimension", "fact"] as const)
    .map((kind) => [`${kind === "fact" ? "facts" : `${kind}s`}`, namesOf(entry, kind)] as const)
    .filter(([kind, list]) => list.length > 0 || kind !== "facts")
    .map(([kind, list]) => `${kind}: ${list.join(", ") || "none"}`);
  return `${entry.name} (${lists.join("; ")})`;
}

/** An example call from the first view's own names, so an agent sees the shape with real members. */
function exampleCall(entries: readonly ViewEntry[]): string {
  const entry = entries.find((e) => namesOf(e, "metric").length > 0 && namesOf(e, "dimension").length > 0);
  if (entry === undefined) return "";
  const [metric] = namesOf(entry, "metric");
  const dimensions = namesOf(entry, "dimension");
  const filter = dimensions[1] ?? dimensions[0]!;
  const call = {
    view: entry.name,
    metrics: [metric],
    dimensions: [dimensions[0]],
    where: { field: filter, op: "eq", value: `<a ${filter}>` },
    orderBy: [`-${metric}`],
  };
  return ` Example, ${metric} by ${dimensions[0]} for one ${filter}: ${JSON.stringify(call)}.`;
}

function queryDescription(entries: readonly ViewEntry[], viewList: string, limits: McpToolLimits): string {
  return (
    "Answers a question about a semantic view in one call: metrics (aggregated) grouped by dimensions, filtered by " +
    "where on dimensions and facts (never on metrics); or facts alone for row-level values (not with metrics)." +
    exampleCall(entries) +
    " where: a comparison { field, op, value }, a list of them (ANDed), or { and: [...] }, { or: [...] }, { not: ... }." +
    " ops: eq, ne, gt, gte, lt, lte (one value; eq/ne null means is null), in, notIn (a list), between ([low, high])," +
    " like, startsWith, endsWith, contains (text), isNull, isNotNull (no value)." +
    ' Values: dates as "2024-02-29" or ISO date-times; 64-bit integers and decimals as strings to keep every digit.' +
    ' orderBy: "name" ascending, "-name" descending, selected members only. To see a dimension\'s values, query it alone.' +
    ` Views: ${viewList}.` +
    ` An answer has rows, rowCount, sql (the compiled statement) and truncated: at most ${limits.maxRows} rows and about` +
    ` ${limits.maxTokens} tokens; when truncated, truncation says why and next holds the arguments that continue.` +
    " A refused call lists each bad field with a suggestion for a near-miss name."
  );
}

/** One entry whose members are every view's (deduplicated), for the schema of a tool that takes any view. */
function unionEntry(entries: readonly ViewEntry[]): ViewEntry {
  if (entries.length === 1) return entries[0]!;
  const members = new Map<string, MemberInfo>();
  for (const e of entries) for (const m of e.members) if (!members.has(m.name)) members.set(m.name, m);
  return { ...entries[0]!, className: "Any", members: [...members.values()], member: (n) => members.get(n) };
}

export class McpTools<Context> {
  readonly #api: SemanticApi<Context>;
  readonly #limits: McpToolLimits;
  readonly #tools: readonly ToolDefinition[];

  constructor(api: SemanticApi<Context>, limits: Partial<McpToolLimits> = {}) {
    this.#api = api;
    this.#limits = { ...DEFAULT_MCP_LIMITS, ...limits };
    this.#tools = Object.freeze(this.#definitions());
  }

  get tools(): readonly ToolDefinition[] {
    return this.#tools;
  }

  #definitions(): ToolDefinition[] {
    const entries = this.#api.registry.entries;
    const names = entries.map((e) => e.name);
    const annotations = { readOnlyHint: true, openWorldHint: false } as const;
    const viewList = entries.map(viewSummary).join("; ");
    const any = unionEntry(entries);
    const query = requestSchema(any, "#/$defs/Where", this.#api.limits, this.#limits.maxRows);
    const properties = {
      ...(query["properties"] as Record<string, unknown>),
      view: { type: "string", enum: names, description: "The semantic view" },
    };
    return [
      {
        name: "list_views",
        title: "List semantic views",
        description:
          "Start here: the semantic views that can be queried, each with how many metrics, dimensions and facts it has.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations,
      },
      {
        name: "describe_view",
        title: "Describe a semantic view",
        description:
          "The members of one view: each metric (an aggregated value), dimension (groups and filters rows) and fact " +
          "(a row-level value) with its value type, which says how to write its values in a query's where, and its description.",
        inputSchema: {
          type: "object",
          properties: { view: { type: "string", enum: names, description: "The view to describe" } },
          required: ["view"],
          additionalProperties: false,
        },
        annotations,
      },
      {
        name: "query",
        title: "Query a semantic view",
        description: queryDescription(entries, viewList, this.#limits),
        inputSchema: {
          ...query,
          properties,
          required: ["view"],
          $defs: { Where: whereSchema(any, "#/$defs/Where", this.#api.limits) },
        },
        annotations,
      },
    ];
  }

  /** Runs tool `name`; request problems and warehouse failures come back as error results, never as exceptions. */
  async call(name: string, args: Record<string, unknown> | undefined, context: Context): Promise<ToolResult> {
    try {
      switch (name) {
        case "list_views":
          return result({ views: this.#api.listViews() });
        case "describe_view":
          return result(this.#api.describeView(String(args?.["view"] ?? "")) as unknown as Record<string, unknown>);
        case "query":
          return await this.#query(args ?? {}, context);
        default: {
          const names = this.#tools.map((t) => t.name);
          const suggestion = closestName(name, names);
          throw new InvalidRequestError([
            {
              field: "name",
              code: "unknown_parameter",
              message: `unknown tool "${name}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (tools: ${names.join(", ")})`,
              ...(suggestion === undefined ? {} : { suggestion }),
            },
          ]);
        }
      }
    } catch (error) {
      return errorResult(error);
    }
  }

  async #query(args: Record<string, unknown>, context: Context): Promise<ToolResult> {
    const size = Buffer.byteLength(toJson(args));
    const maxBody = limitOf(this.#api.limits, "maxBodyBytes");
    if (size > maxBody.value) {
      throw new InvalidRequestError([
        {
          field: "arguments",
          code: "too_large",
          message: `the arguments are ${size} bytes of JSON; at most ${maxBody.value} are accepted (limit maxBodyBytes)`,
          limit: maxBody,
        },
      ]);
    }
    const { view, ...request } = args;
    const prepared = await this.#api.prepare(request, {
      context,
      view: typeof view === "string" ? view : undefined,
      mode: "page",
    });
    const cap = Math.min(prepared.rowCap ?? Number.POSITIVE_INFINITY, this.#limits.maxRows);
    const batches = new RowBatches(await prepared.execute(), cap + 1);
    const rows = await collectRows(batches);
    // Each row as the answer writes it (DATE values as the ISO day, from the column kinds).
    const writeRow = rowJsonWriter(batches.columns);
    const budget = this.#limits.maxTokens * CHARS_PER_TOKEN;
    let used = 0;
    let kept = 0;
    for (; kept < Math.min(rows.length, cap); kept++) {
      used += writeRow(rows[kept]!).length + 1;
      if (used > budget) break;
    }
    const reason = kept < Math.min(rows.length, cap) ? "token_budget" : rows.length > cap ? "max_rows" : undefined;
    const compiled = prepared.compile();
    return result({
      view: prepared.view.name,
      rows: withDayFields(rows.slice(0, kept), dateColumnNames(batches.columns)),
      rowCount: kept,
      truncated: reason !== undefined,
      ...(reason === undefined
        ? {}
        : {
            truncation: { reason, maxRows: this.#limits.maxRows, maxTokens: this.#limits.maxTokens },
            next: prepared.next(kept),
          }),
      sql: { dialect: prepared.backend, text: compiled.sql, parameters: compiled.parameters },
    });
  }
}
