/**
 * The built-in semantic layer for DuckDB: executes semantic DDL, INSTALL/LOAD semantic_views,
 * SHOW and DESCRIBE itself; rewrites introspection function calls and `semantic_view(...)` calls
 * into plain SQL; passes everything else through untouched.
 *
 * Unlike the extension (which reads on a fresh connection), every read here runs on the caller's
 * session, so it sees the caller's uncommitted DDL and rows.
 */
import { loadDefinition, sessionCatalog } from "./catalog.js";
import { routeToMaterialization } from "./expand/materialization.js";
import {
  executeAlter,
  executeCreate,
  executeCreateFromYamlFile,
  executeDrop,
  type StatementResult,
} from "./ddl/execute-ddl.js";
import { NEAR_MISS_CANDIDATE } from "./ddl/near-miss.js";
import { parseSemanticStatement } from "./ddl/parse-statement.js";
import type { SemanticStatement } from "./ddl/statements.js";
import {
  executeDescribe,
  executeShowColumns,
  executeShowMembers,
  executeShowViews,
} from "./introspection/execute-introspection.js";
import { rewriteIntrospectionCalls } from "./introspection/rewrite-introspection-calls.js";
import { rewriteSemanticViewCalls } from "./call/rewrite-semantic-view-calls.js";
import { releaseSemanticQueryCache } from "./call/typed-query.js";
import type {
  BoundParameter,
  HandledStatement,
  HandleOptions,
  LiftedStatement,
  SemanticLayer,
  SemanticRequest,
  SqlSession,
} from "./semantic-layer.js";
import { mayHandle, splitStatements } from "./sql/split.js";
import { RewriteCache, type RewrittenStatement, type StatementShape } from "./rewrite-cache.js";
import { liftWhereClauseValues } from "./call/lift-where-values.js";
import { liftedBinder } from "./call/bind-lifted.js";
import { LiteralForm } from "./call/literal-form.js";
import { notePassedThrough, passedThrough } from "./passthrough-texts.js";

/** Executes a parsed semantic statement. */
export async function executeSemanticStatement(session: SqlSession, stmt: SemanticStatement): Promise<StatementResult> {
  switch (stmt.type) {
    case "create":
      return executeCreate(session, stmt);
    case "create_from_yaml_file":
      return executeCreateFromYamlFile(session, stmt);
    case "drop":
      return executeDrop(session, stmt);
    case "alter":
      return executeAlter(session, stmt);
    case "extension":
      // The engine is built in: nothing to install or load.
      return { columns: [], rows: [] };
    case "show_views":
      return executeShowViews(session, stmt);
    case "show_members":
      return executeShowMembers(session, stmt);
    case "show_columns":
      return executeShowColumns(session, stmt);
    case "describe":
      return executeDescribe(session, stmt);
  }
}

const SEMANTIC_VIEW_CALL = /\bsemantic_view\s*\(/i;

/**
 * Semantic SQL, or a statement that may be misspelled semantic DDL (answered with "Did you mean"), and
 * not one that passed through before (passthrough-texts.ts).
 */
const mayHandleAny = (sql: string): boolean => (mayHandle(sql) || NEAR_MISS_CANDIDATE.test(sql)) && !passedThrough(sql);

async function handle(session: SqlSession, statement: string, options?: HandleOptions): Promise<HandledStatement> {
  if (!mayHandleAny(statement)) return { kind: "passthrough" };
  const bindValues = options?.bindValues === true && session.parameterTypes !== undefined;
  const rewrites = rewriteCacheOf(session);
  const readAt = session.definitions?.generation;
  const lifted = options?.lifted;
  if (bindValues && lifted !== undefined && rewrites !== undefined && readAt !== undefined) {
    // Values the compiler lifted: one lookup per shape, no per-text entry (a new value is a new text).
    const bound = await boundRewrite(session, lifted, rewrites, readAt);
    if (bound !== undefined) return bound;
  }
  const cached = rewrites?.get(statement);
  if (cached !== undefined && (bindValues || cached.parameters === undefined)) return cached;
  const parsed = parseSemanticStatement(statement);
  if (parsed !== null) {
    const result = await executeSemanticStatement(session, parsed);
    return { kind: "result", columns: result.columns, rows: result.rows };
  }
  if (bindValues && rewrites !== undefined && readAt !== undefined && SEMANTIC_VIEW_CALL.test(statement)) {
    const fromText = liftWhereClauseValues(statement);
    const bound = fromText === undefined ? undefined : await boundRewrite(session, fromText, rewrites, readAt);
    if (bound !== undefined) {
      // The same text again is the same values again: remembered in the form that keeps its plan.
      rewrites.set(statement, rememberRepeat(fromText!, bound, rewrites.shape(fromText!.shape)), readAt);
      return bound;
    }
  }
  const sql = await rewriteStatement(session, statement);
  if (sql === undefined) {
    notePassedThrough(statement);
    return { kind: "passthrough" };
  }
  const rewritten: RewrittenStatement = { kind: "rewritten", sql };
  if (readAt !== undefined) rewrites?.set(statement, rewritten, readAt);
  return rewritten;
}

/** See SemanticLayer.handleSingle. */
async function handleSingle(
  session: SqlSession,
  sql: string,
  options?: HandleOptions,
): Promise<HandledStatement | { readonly kind: "statements"; readonly count: number }> {
  const request = options?.request;
  const lifted = options?.lifted;
  const rewrites = rewriteCacheOf(session);
  const readAt = session.definitions?.generation;
  // A statement whose values the compiler lifted is one statement, and new values make new texts: it
  // is looked up by its shape in handle(), never remembered per text.
  const perText = options?.bindValues === true && lifted === undefined && rewrites !== undefined;
  const known = perText ? rewrites.getRouted(sql, request) : undefined;
  if (known !== undefined) return known;
  let statement = sql;
  if (lifted === undefined) {
    const statements = splitStatements(sql);
    if (statements.length !== 1) return { kind: "statements", count: statements.length };
    statement = statements[0]!;
  }
  const handled = await handle(session, statement, options);
  if (handled.kind === "passthrough") return { kind: "passthrough", statement };
  if (handled.kind !== "rewritten") return handled;
  const routed: RewrittenStatement =
    request !== undefined && (await routesToMaterialization(session, request))
      ? { ...handled, servedFrom: "materialization" }
      : handled;
  if (perText && readAt !== undefined) rewrites.set(sql, repeatOf(routed), readAt, request);
  return routed;
}

/** See SemanticLayer.knownSingle: handleSingle's answer when every lookup it makes hits a cache. */
function knownSingle(session: SqlSession, sql: string, options?: HandleOptions): RewrittenStatement | undefined {
  const rewrites = rewriteCacheOf(session);
  if (rewrites === undefined || options?.bindValues !== true) return undefined;
  const lifted = options.lifted;
  if (lifted === undefined) return rewrites.getRouted(sql, options.request);
  // handle()'s lifted path; the statement is never routed to a materialization (it is filtered).
  const request = options.request;
  if (request !== undefined && !request.filtered) return undefined;
  if (session.parameterTypes === undefined || session.definitions?.generation === undefined) return undefined;
  const shape = rewrites.shape(lifted.shape);
  // A shape seen before binds new values without a wait (a date picker's new day: no async frames).
  return shape == null ? undefined : (bindIntoShape(lifted, shape) ?? undefined);
}

/**
 * Whether `request` is answered from a declared materialization: the expansion's own routing rule,
 * asked of the definition it expanded (read from the shared, committed definitions).
 */
async function routesToMaterialization(session: SqlSession, request: SemanticRequest): Promise<boolean> {
  if (request.filtered || request.facts.length > 0) return false;
  const def = await loadDefinition(session, request.view).catch(() => undefined);
  if (def === undefined || (def.materializations ?? []).length === 0) return false;
  const { dimensions, metrics, facts } = request;
  return routeToMaterialization(def, { dimensions, metrics, facts }) !== undefined;
}

let rewrites = 0;
/** Statements rewritten so far (tests: a statement run again is not rewritten again). */
export const rewriteCount = (): number => rewrites;

/** The statement with its semantic_view() and introspection calls rewritten, or undefined when it has none. */
async function rewriteStatement(session: SqlSession, statement: string): Promise<string | undefined> {
  rewrites++;
  let sql = statement;
  let changed = false;
  if (SEMANTIC_VIEW_CALL.test(sql)) {
    const rewritten = await rewriteSemanticViewCalls(session, sql, sessionCatalog(session));
    if (rewritten !== null) {
      sql = rewritten;
      changed = true;
    }
  }
  const introspected = await rewriteIntrospectionCalls(session, sql);
  if (introspected !== null) {
    sql = introspected;
    changed = true;
  }
  return changed ? sql : undefined;
}

/**
 * The statement rewritten once per where_clause shape, its values bound (call/lift-where-values.ts,
 * call/bind-lifted.ts); undefined when a value cannot be bound exactly or the shape cannot be built:
 * the statement is then rewritten with its literals, as written (which also reports any error).
 */
async function boundRewrite(
  session: SqlSession,
  lifted: LiftedStatement,
  rewrites: RewriteCache,
  readAt: number,
): Promise<RewrittenStatement | undefined> {
  let shape = rewrites.shape(lifted.shape);
  if (shape === undefined) {
    try {
      const sql = await rewriteStatement(session, lifted.shape);
      const types = sql === undefined ? undefined : await session.parameterTypes?.(sql);
      shape =
        sql !== undefined && types?.length === lifted.literals.length
          ? { sql, types, binders: types.map(liftedBinder) }
          : null;
    } catch {
      return undefined; // not remembered: the literal form raises the error (or was interrupted)
    }
    rewrites.setShape(lifted.shape, shape, readAt);
  }
  return shape === null ? undefined : (bindIntoShape(lifted, shape) ?? undefined);
}

/**
 * `lifted`'s values bound into `shape` with its binding plan, or written into it as literals when the
 * shape ran with the same values before (call/literal-form.ts: DuckDB plans a bound statement again at
 * every run, a literal one once); null when one cannot be bound exactly (the statement then runs with
 * its literals, as written). A compiled query keeps its lifted values: the one bound last into a shape
 * runs again in its literal form (a new generation or a new connection memo is a new shape object).
 */
function bindIntoShape(lifted: LiftedStatement, shape: StatementShape): RewrittenStatement | null {
  const last = shape.last;
  if (last !== undefined && last.lifted === lifted) {
    if (last.statement.parameters === undefined) return last.statement;
    // Run again: from now on in its literal form, where it has one.
    const literal = literalStatement(lifted, shape);
    if (literal === undefined) return last.statement;
    shape.last = { lifted, statement: literal };
    return literal;
  }
  const literals = lifted.literals;
  const parameters: BoundParameter[] = new Array(literals.length);
  let text = 0;
  for (let i = 0; i < literals.length; i++) {
    const parameter = shape.binders[i]!(literals[i]!);
    if (parameter === undefined) return null;
    if (parameter.kind === "varchar") text += parameter.value.length;
    parameters[i] = parameter;
  }
  const seen = literalFormOf(shape, literals.length).sqlIfSeen(literals);
  const statement: RewrittenStatement = Object.freeze(
    seen === undefined ? { kind: "rewritten", sql: shape.sql, parameters } : { kind: "rewritten", sql: seen },
  );
  // The shape outlives the query: it holds on to no long value (a search text pasted in).
  shape.last = text <= REMEMBERED_TEXT ? { lifted, statement } : undefined;
  return statement;
}

/** The longest strings (in total, UTF-16 units) of a statement a shape remembers as bound last. */
const REMEMBERED_TEXT = 4096;

/** Each shape's literal form, made on its first bind. */
const literalForms = new WeakMap<StatementShape, LiteralForm>();

function literalFormOf(shape: StatementShape, count: number): LiteralForm {
  let form = literalForms.get(shape);
  if (form === undefined) literalForms.set(shape, (form = new LiteralForm(shape.sql, count)));
  return form;
}

/** `lifted`'s values written into `shape` as literals; undefined where one is not written back. */
function literalStatement(lifted: LiftedStatement, shape: StatementShape): RewrittenStatement | undefined {
  const sql = literalFormOf(shape, lifted.literals.length).sql(lifted.literals);
  return sql === undefined ? undefined : Object.freeze({ kind: "rewritten", sql });
}

/** A hand-written statement's bound form → its literal form (what its text runs as when run again). */
const repeatByBound = new WeakMap<RewrittenStatement, RewrittenStatement>();

/**
 * The form `lifted`'s text runs as again, noted for `bound` (the statement made for it just now in
 * `shape`).
 */
function rememberRepeat(
  lifted: LiftedStatement,
  bound: RewrittenStatement,
  shape: StatementShape | null | undefined,
): RewrittenStatement {
  const repeat = bound.parameters === undefined || shape == null ? undefined : literalStatement(lifted, shape);
  if (repeat === undefined) return bound;
  repeatByBound.set(bound, repeat);
  return repeat;
}

/** What `statement` runs as when its text is run again (see rememberRepeat). */
const repeatOf = (statement: RewrittenStatement): RewrittenStatement => repeatByBound.get(statement) ?? statement;

const REWRITES = "semantic_layer.rewrites";

/**
 * Rewritten statements and shapes of this session's state (the shared memo of the engine's
 * connections in its own session state, else the connection's memo: USE/SET clear it), valid while
 * the committed catalog is unchanged: usable only outside a transaction, and dropped by any commit
 * in the process (the definitions' generation).
 */
function rewriteCacheOf(session: SqlSession): RewriteCache | undefined {
  const definitions = session.definitions;
  const memo = session.sharedMemo ?? session.memo;
  if (definitions === undefined || memo === undefined) return undefined;
  let cache = memo.get(REWRITES) as RewriteCache | undefined;
  if (cache === undefined || cache.definitions !== definitions)
    memo.set(REWRITES, (cache = new RewriteCache(definitions)));
  return cache;
}

export function createBuiltinSemanticLayer(): SemanticLayer {
  return {
    splitStatements,
    mayHandle: mayHandleAny,
    handle,
    handleSingle,
    knownSingle,
    release: releaseSemanticQueryCache,
  };
}
