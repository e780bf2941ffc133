/**
 * The request core every front door shares (`lib/express`'s router, `lib/mcp`'s server): a JSON
 * request becomes a query of the typed builder, validated against the view's declarations before
 * any SQL exists, with the `scope` hook's mandatory conditions ANDed in, paged by the limits.
 *
 * ```ts
 * import * as views from "./generated/index.js";
 * const api = createSemanticApi({ views, scope: (req) => ({ field: "region", op: "eq", value: tenantOf(req) }) });
 * const prepared = await api.prepare({ metrics: ["revenue"], dimensions: ["country"] }, { view: "sales", context: req });
 * await using cursor = await prepared.execute();
 * ```
 */
import { LibError, ValidationError } from "../errors.js";
import type { Cursor } from "../cursor/cursor.js";
import { isBackend, type BackendType } from "../dialects/dialects.js";
import type { CompiledQuery } from "../query-compiler/compiled-query.js";
import { and, isCondition, type Condition, type RowCondition } from "../query/condition.js";
import type { SemanticQuery } from "../query/semantic-query.js";
import { resolveEngine, type EngineRef } from "../query-executor/query-engine.js";
import type { ExecuteOptions } from "../query-executor/query-executor.js";
import { describeView, type ViewDescription, type ViewSummary } from "./describe-view.js";
import { InvalidRequestError, IssueList } from "./invalid-request-error.js";
import { findView, parseRequest, type ParsedRequest } from "./parse-request.js";
import { parseWhere } from "./parse-where.js";
import { resolveLimits, type RequestLimits } from "./request-limits.js";
import type { SemanticRequest, WhereJson } from "./semantic-request.js";
import { ViewRegistry, type ViewEntry, type ViewSource } from "./view-registry.js";

/** A mandatory condition: a JSON condition tree or a builder condition (`Sales.region.eq("EU")`). */
export type ScopeCondition = WhereJson | Condition;

/**
 * Row-level security: the conditions every query of this request must satisfy (tenant, region),
 * ANDed around whatever the client asked, so no client filter can widen them. `null`/`undefined`/`[]`:
 * no restriction; `false`: the request is refused (403). A condition naming a member the view does
 * not have fails the request (closed, never open).
 */
export type ScopeHook<Context> = (context: Context, view: ViewDescription) => ScopeResult | Promise<ScopeResult>;
export type ScopeResult = ScopeCondition | readonly ScopeCondition[] | null | undefined | false;

export interface SemanticApiOptions<Context = unknown> {
  /** The views served: the generated index's exports (`import * as views`), view classes, or a registry. */
  readonly views: ViewSource | ViewRegistry;
  /** The engine to run on (or its registered name); default: the engine registered as "default". */
  readonly engine?: EngineRef | undefined;
  readonly limits?: Partial<RequestLimits> | undefined;
  readonly scope?: ScopeHook<Context> | undefined;
}

/** How the answer will be delivered: a JSON page (cut at `maxRows`) or a stream (cut at `maxStreamRows`). */
export type DeliveryMode = "page" | "stream";

export interface PrepareOptions<Context> {
  /** The framework's request (HTTP) or session (MCP), handed to the scope hook. */
  readonly context: Context;
  /** The view the URL or tool call names (the body's `view` otherwise). */
  readonly view?: string | undefined;
  readonly mode?: DeliveryMode | undefined;
}

/** A validated request, ready to compile or run. */
export interface PreparedQuery {
  readonly view: ViewEntry;
  /** The builder query (scope included, limited to `rowCap + 1` rows when the answer can be cut). */
  readonly query: SemanticQuery<string, Record<string, unknown>>;
  /** Rows to deliver before the answer is cut (`truncated`); undefined: all of them. */
  readonly rowCap: number | undefined;
  /** The backend the query runs on. */
  readonly backend: BackendType;
  /** SQL and parameters for `dialect` (default: the engine's). */
  compile(dialect?: BackendType): CompiledQuery;
  /** Runs the query; the cursor owns a pooled connection until it is closed. */
  execute(options?: ExecuteOptions): Promise<Cursor<Record<string, unknown>>>;
  /** The request that continues after `delivered` rows of a cut answer. */
  next(delivered: number): SemanticRequest;
}

function scopeConditions(result: ScopeResult): ScopeCondition[] {
  if (result === null || result === undefined) return [];
  if (Array.isArray(result)) return [...(result as readonly ScopeCondition[])];
  return [result as ScopeCondition];
}

/** The client's own request in canonical form (what `next` repeats with a new offset). */
function canonical(body: Record<string, unknown>, parsed: ParsedRequest): Record<string, unknown> {
  const names = (list: readonly { name: string }[]) => (list.length === 0 ? undefined : list.map((m) => m.name));
  const out: Record<string, unknown> = {
    view: parsed.entry.name,
    dimensions: names(parsed.dimensions),
    metrics: names(parsed.metrics),
    facts: names(parsed.facts),
    where: body["where"],
    orderBy: body["orderBy"],
    variables: body["variables"],
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

export class SemanticApi<Context = unknown> {
  readonly registry: ViewRegistry;
  readonly limits: RequestLimits;
  readonly #engine: EngineRef | undefined;
  readonly #scope: ScopeHook<Context> | undefined;

  constructor(options: SemanticApiOptions<Context>) {
    this.registry = options.views instanceof ViewRegistry ? options.views : ViewRegistry.from(options.views);
    this.limits = resolveLimits(options.limits);
    this.#engine = options.engine;
    this.#scope = options.scope;
    Object.freeze(this);
  }

  /** Every view: name and member counts by kind. */
  listViews(): ViewSummary[] {
    return this.registry.entries.map((entry) => {
      const { name, description, members } = describeView(entry);
      const count = (kind: string) => members.filter((m) => m.kind === kind).length;
      return { name, description, metrics: count("metric"), dimensions: count("dimension"), facts: count("fact") };
    });
  }

  /** One view's members (kind, value type, description); an unknown name throws `InvalidRequestError` with a suggestion. */
  describeView(name: string): ViewDescription {
    const issues = new IssueList();
    const entry = findView(this.registry, name, issues);
    issues.throwIfAny();
    return describeView(entry!);
  }

  /** The backend queries run on (resolving the engine: a missing registration throws `EngineNotFoundError`). */
  backend(): BackendType {
    return resolveEngine(this.#engine).backend;
  }

  /**
   * Validates `body` against the declarations, asks the scope hook, and builds the query. Throws
   * `InvalidRequestError` naming every bad field; nothing reaches the warehouse before `execute()`.
   */
  async prepare(body: unknown, options: PrepareOptions<Context>): Promise<PreparedQuery> {
    const mode = options.mode ?? "page";
    const maxLimit =
      mode === "page" ? this.limits.maxRows : Math.min(this.limits.maxStreamRows, Number.MAX_SAFE_INTEGER);
    const parsed = parseRequest(this.registry, body, {
      limits: this.limits,
      view: options.view,
      maxLimit,
      maxLimitName: mode === "page" ? "maxRows" : "maxStreamRows",
    });
    const scope = await this.#scopeOf(parsed.entry, options.context);
    const engine = resolveEngine(this.#engine);
    const cap = mode === "page" ? this.limits.maxRows : this.limits.maxStreamRows;
    const rowCap = parsed.limit === undefined && Number.isFinite(cap) ? cap : undefined;
    const query = build(parsed, scope, rowCap, mode);
    const backend = engine.backend;
    const compile = (dialect: BackendType = backend): CompiledQuery => {
      if (!isBackend(dialect)) throw new ValidationError(`unknown dialect ${String(dialect)}`, { field: "dialect" });
      return asRequestError(() => query.compile({ dialect }));
    };
    compile(); // builder and compiler rules (orderBy of unselected fields, value ranges) fail here, as 4xx
    const request = canonical(body as Record<string, unknown>, parsed);
    return Object.freeze({
      view: parsed.entry,
      query,
      rowCap,
      backend,
      compile,
      execute: (executeOptions?: ExecuteOptions) => query.using(engine).execute(executeOptions),
      next: (delivered: number) => ({ ...request, offset: parsed.offset + delivered }) as SemanticRequest,
    });
  }

  async #scopeOf(entry: ViewEntry, context: Context): Promise<Condition | undefined> {
    if (this.#scope === undefined) return undefined;
    const result = await this.#scope(context, describeView(entry));
    if (result === false) {
      throw new InvalidRequestError([
        { field: "view", code: "unauthorized_scope", message: `this request may not read view "${entry.name}"` },
      ]);
    }
    const conditions = scopeConditions(result).map((condition, i) => {
      if (isCondition(condition)) return condition;
      const issues = new IssueList();
      const parsed = parseWhere(
        entry,
        condition,
        resolveLimits({ maxConditions: 1_000_000, maxConditionDepth: 1_000, maxInList: 1_000_000 }),
        issues,
        `scope[${i}]`,
      );
      if (!issues.empty || parsed === undefined) {
        // A broken scope is the server's bug: fail closed, and never show the client the scope.
        throw new LibError(
          `scope(): condition ${i} is invalid for view "${entry.name}": ${issues.issues.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
        );
      }
      return parsed;
    });
    return conditions.length === 0 ? undefined : and(...conditions);
  }
}

/** Runs `body`, turning the builder's and compiler's `ValidationError`s into request errors naming the field. */
function asRequestError<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof ValidationError && !(error instanceof InvalidRequestError)) {
      // A compiler's refusal of variables (backend C has none) names the request's `variables`.
      const field = error.source?.endsWith(".variables()") ? "variables" : (error.field ?? "body");
      throw new InvalidRequestError([{ field, code: "invalid_query", message: error.message }], {
        cause: error,
      });
    }
    throw error;
  }
}

function build(parsed: ParsedRequest, scope: Condition | undefined, rowCap: number | undefined, mode: DeliveryMode) {
  return asRequestError(() => {
    let query = parsed.entry.viewClass.query() as SemanticQuery<string, Record<string, unknown>>;
    if (parsed.dimensions.length > 0) query = query.dimensions(...parsed.dimensions.map((m) => m.field as never));
    if (parsed.metrics.length > 0) query = query.metrics(...parsed.metrics.map((m) => m.field as never));
    if (parsed.facts.length > 0) query = query.facts(...parsed.facts.map((m) => m.field as never));
    if (Object.keys(parsed.variables).length > 0) query = query.variables(parsed.variables as never);
    // The scope first, the client's condition beside it: where() ANDs them, so nothing the client sends can widen the scope.
    query = query.where(scope as RowCondition | undefined).where(parsed.where as RowCondition | undefined);
    const orderings = parsed.orderBy.map(({ member, direction, nulls }) =>
      member.field[direction](nulls === undefined ? undefined : { nulls }),
    );
    // Pages continue by offset, which needs a stable order: without one, order by the grouping members.
    if (orderings.length === 0 && mode === "page") {
      const keys = [...parsed.dimensions, ...parsed.facts];
      orderings.push(...keys.map((m) => m.field.asc()));
    }
    if (orderings.length > 0) query = query.orderBy(...(orderings as never[]));
    const limit = parsed.limit ?? (rowCap === undefined ? undefined : rowCap + 1);
    if (limit !== undefined) query = query.limit(limit);
    if (parsed.offset > 0) query = query.offset(parsed.offset);
    return query;
  });
}

/** The request core over `options.views`. */
export function createSemanticApi<Context = unknown>(options: SemanticApiOptions<Context>): SemanticApi<Context> {
  return new SemanticApi(options);
}
