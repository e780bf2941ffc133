/**
 * The three MCP tools over the request core, independent of the SDK: `list_views`, `describe_view`
 * and `query`, whose input schema enumerates the members (so "revenue by country for Europe" is one
 * call: `{ view: "sales", metrics: ["revenue"], dimensions: ["country"], where: { field: "region",
 * op: "eq", value: "Europe" } }`). Answers are capped by rows and by an approximate token budget,
 * say so explicitly (`truncated`, `truncation`), carry the compiled SQL and the request that
 * continues; errors are structured, with a suggestion for a near-miss name.
 */
import { InvalidRequestError } from "../request/invalid-request-error.js";
import { collectRows, RowBatches } from "../request/result-batches.js";
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
    const viewList = entries
      .map(
        (e) =>
          `${e.name} (metrics: ${
            e.members
              .filter((m) => m.kind === "metric")
              .map((m) => m.name)
              .join(", ") || "none"
          }; dimensions: ${
            e.members
              .filter((m) => m.kind === "dimension")
              .map((m) => m.name)
              .join(", ") || "none"
          })`,
      )
      .join("; ");
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
        description: "The semantic views that can be queried, with how many metrics, dimensions and facts each has.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations,
      },
      {
        name: "describe_view",
        title: "Describe a semantic view",
        description: "The members of a view: each metric, dimension and fact with its value type and description.",
        inputSchema: {
          type: "object",
          properties: { view: { type: "string", enum: names } },
          required: ["view"],
          additionalProperties: false,
        },
        annotations,
      },
      {
        name: "query",
        title: "Query a semantic view",
        description:
          `Aggregates metrics by dimensions, filtered on dimensions and facts, in one call. Views: ${viewList}. ` +
          `At most ${this.#limits.maxRows} rows and about ${this.#limits.maxTokens} tokens per answer; a cut answer says truncated and gives the request that continues.`,
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
        default:
          throw new InvalidRequestError([
            { field: "name", code: "unknown_parameter", message: `unknown tool "${name}"` },
          ]);
      }
    } catch (error) {
      return errorResult(error);
    }
  }

  async #query(args: Record<string, unknown>, context: Context): Promise<ToolResult> {
    const { view, ...request } = args;
    const prepared = await this.#api.prepare(request, {
      context,
      view: typeof view === "string" ? view : undefined,
      mode: "page",
    });
    const cap = Math.min(prepared.rowCap ?? Number.POSITIVE_INFINITY, this.#limits.maxRows);
    const rows = await collectRows(new RowBatches(await prepared.execute(), cap + 1));
    const budget = this.#limits.maxTokens * CHARS_PER_TOKEN;
    let used = 0;
    let kept = 0;
    for (; kept < Math.min(rows.length, cap); kept++) {
      used += toJson(rows[kept]).length + 1;
      if (used > budget) break;
    }
    const reason = kept < Math.min(rows.length, cap) ? "token_budget" : rows.length > cap ? "max_rows" : undefined;
    const compiled = prepared.compile();
    return result({
      view: prepared.view.name,
      rows: rows.slice(0, kept),
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
