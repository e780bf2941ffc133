/**
 * A query node compiled for a dialect, with what the cursor and the driver need besides SQL and
 * parameters, computed once: per node (nodes are frozen and compiling is pure, so a query run again
 * skips the compiler) and, for nodes without filter values or variables, per shape (an application
 * that builds the same query per request, as the example service does, compiles it once); a node
 * with filter values is spliced into its value shape's template where the dialect has one (a new
 * date or search term per request: query-compiler/value-template.ts), and a spliced node is kept
 * only among the last few (a new value is nearly always run once). A failed compile is not kept
 * and throws again.
 */
import type { CursorQuery } from "../cursor/open-cursor.js";
import type { Dialect } from "../dialects/dialect.js";
import type { BackendType, ConnectionSettings } from "../dialects/dialects.js";
import type { SemanticRequestInfo, StatementLabel } from "../driver/database-connection.js";
import type { FieldNode } from "../operation-node/field-node.js";
import { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { CompiledQuery } from "../query-compiler/compiled-query.js";
import type { SemanticQueryCompiler } from "../query-compiler/semantic-query-compiler.js";
import { valueShapeOf, type FilledQuery, type ValueTemplate } from "../query-compiler/value-template.js";

export type AnyDialect = Dialect<BackendType, ConnectionSettings, object>;

/**
 * The compiled query, plus what the cursor needs besides SQL and parameters: the field names that key
 * the rows by position, and what the driver is told about the statement: its label (view and fields,
 * never values) for QUERY_TAG and the semantic request, for backend C's materialization routing.
 */
export type CompiledEntry = CursorQuery & {
  /** The full compile's CompiledQuery; undefined for a query spliced into a value template (`filled`). */
  readonly compiled: CompiledQuery | undefined;
  readonly filled?: FilledQuery | undefined;
};

/** A node's entries: nearly always for one dialect (no Map per node), others beside it. */
interface NodeEntries {
  readonly dialect: AnyDialect;
  readonly entry: CompiledEntry;
  others?: Map<AnyDialect, CompiledEntry>;
}

const byNode = new WeakMap<SemanticQueryNode, NodeEntries>();
const byShape = new WeakMap<AnyDialect, Map<string, CompiledEntry>>();
/** Shapes kept per dialect (the oldest goes first): an application has a bounded set of queries. */
export const MAX_SHAPES = 512;

export function compiledFor(dialect: AnyDialect, node: SemanticQueryNode): CompiledEntry {
  const known = byNode.get(node);
  if (known !== undefined) {
    if (known.dialect === dialect) return known.entry;
    const other = known.others?.get(dialect);
    if (other !== undefined) return other;
  }
  let entry: CompiledEntry | undefined;
  const key = shapeKey(node);
  if (key === undefined) {
    entry = recentlySpliced(dialect, node);
    if (entry !== undefined) return entry;
    entry = compileWithValues(dialect, node);
    if (entry.filled !== undefined) {
      if (entry.sql.length <= RECENT_SQL) rememberSpliced(dialect, node, entry);
      return entry;
    }
  } else {
    const shapes = perDialect(byShape, dialect);
    entry = shapes.get(key);
    if (entry === undefined) remember(shapes, key, (entry = entryOf(node, compileWithIdleCompiler(dialect, node))));
  }
  if (known === undefined) byNode.set(node, { dialect, entry });
  else (known.others ??= new Map()).set(dialect, entry);
  return entry;
}

/**
 * The last queries spliced into a value template, kept in a ring rather than in `byNode`: a query
 * with a new filter value is nearly always run once, and a WeakMap entry per query (an ephemeron
 * the collector traces) cost more than the splice it saves. A query run again while it is among
 * the last RECENT gets its entry back (its lifted values the same object: the driver's statement
 * shape then runs it in its literal form without binding anew); an older one is spliced again, to
 * the same SQL.
 */
const RECENT = 16;
/** A spliced query with longer SQL (a long in() list) is not kept: the ring would hold its text alive. */
const RECENT_SQL = 32 * 1024;
const recentNodes: (SemanticQueryNode | undefined)[] = new Array<undefined>(RECENT).fill(undefined);
const recentDialects: (AnyDialect | undefined)[] = new Array<undefined>(RECENT).fill(undefined);
const recentEntries: (CompiledEntry | undefined)[] = new Array<undefined>(RECENT).fill(undefined);
let nextRecent = 0;

function recentlySpliced(dialect: AnyDialect, node: SemanticQueryNode): CompiledEntry | undefined {
  for (let i = 0; i < RECENT; i++) {
    if (recentNodes[i] === node && recentDialects[i] === dialect) return recentEntries[i];
  }
  return undefined;
}

function rememberSpliced(dialect: AnyDialect, node: SemanticQueryNode, entry: CompiledEntry): void {
  recentNodes[nextRecent] = node;
  recentDialects[nextRecent] = dialect;
  recentEntries[nextRecent] = entry;
  nextRecent = (nextRecent + 1) % RECENT;
}

/** Per value shape: the dialect's template and what the entries of its queries share. */
interface ValueShapeEntry {
  readonly template: ValueTemplate;
  readonly columnNames: readonly string[];
  readonly label: StatementLabel;
  readonly semantic: SemanticRequestInfo;
}

const byValueShape = new WeakMap<AnyDialect, Map<string, ValueShapeEntry>>();

/**
 * A node with filter values: spliced into the template of its value shape (value-template.ts) when
 * the dialect made one, else compiled in full (which also makes the template, and reports any error).
 */
function compileWithValues(dialect: AnyDialect, node: SemanticQueryNode): CompiledEntry {
  const shape = valueShapeOf(node);
  if (shape === undefined) return entryOf(node, compileWithIdleCompiler(dialect, node));
  const known = valueShapeEntry(dialect, shape.key);
  const spliced = known?.template.fill(shape.values);
  if (known !== undefined && spliced !== undefined) {
    return freezeEntry(spliced, known.columnNames, known.label, known.semantic);
  }
  const { compiled, template } = withIdleCompiler(dialect, (c) => c.compileWithTemplate(node, shape.values));
  const columnNames = Object.freeze(SemanticQueryNode.selection(node).map((f) => f.name));
  const label = Object.freeze({ view: node.viewName, fields: columnNames });
  const semantic = requestInfo(node);
  if (template !== undefined && known === undefined)
    remember(perDialect(byValueShape, dialect), shape.key, { template, columnNames, label, semantic });
  return freezeEntry(compiled, columnNames, label, semantic);
}

/** The value shape found last: a query built per request finds it by comparing its key, without hashing a new string. */
let lastShape: { readonly dialect: AnyDialect; readonly key: string; readonly entry: ValueShapeEntry } | undefined;

function valueShapeEntry(dialect: AnyDialect, key: string): ValueShapeEntry | undefined {
  const last = lastShape;
  if (last !== undefined && last.dialect === dialect && last.key === key) return last.entry;
  const entry = byValueShape.get(dialect)?.get(key);
  if (entry !== undefined) lastShape = { dialect, key, entry };
  return entry;
}

function perDialect<T>(maps: WeakMap<AnyDialect, Map<string, T>>, dialect: AnyDialect): Map<string, T> {
  let map = maps.get(dialect);
  if (map === undefined) maps.set(dialect, (map = new Map()));
  return map;
}

/** Keeps `value` under `key`, at most MAX_SHAPES (the oldest goes first). */
function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.set(key, value);
  if (map.size > MAX_SHAPES) map.delete(map.keys().next().value!);
}

/** Compiled queries handed out by `compile()` for nodes that share another node's entry or were spliced. */
const ownCompiled = new WeakMap<SemanticQueryNode, Map<AnyDialect, CompiledQuery>>();

/** `compile()`'s answer: the same frozen object for a node each time, naming that node. */
export function compiledQueryFor(dialect: AnyDialect, node: SemanticQueryNode): CompiledQuery {
  const { compiled, filled } = compiledFor(dialect, node);
  if (compiled?.query === node) return compiled;
  let forNode = ownCompiled.get(node);
  if (forNode === undefined) ownCompiled.set(node, (forNode = new Map()));
  let own = forNode.get(dialect);
  if (own === undefined) {
    own =
      compiled !== undefined
        ? CompiledQuery.create(compiled.dialect, node, compiled.sql, compiled.parameters)
        : filled!.compiledQuery(node);
    forNode.set(dialect, own);
  }
  return own;
}

/**
 * What the compilers read of a node without a filter or variables, as text: equal keys compile to
 * equal SQL. Undefined for a node that carries values (a filter, variables), which is compiled
 * afresh. A node, field or ordering property added later must be added here (a test checks).
 */
export function shapeKey(node: SemanticQueryNode): string | undefined {
  if (node.where !== undefined || node.variables.length > 0 || node.declaredVariables.length > 0) return undefined;
  const field = (f: FieldNode) => [f.viewName, f.name, f.warehouseName, f.fieldKind];
  return JSON.stringify([
    node.viewName,
    node.warehouseName,
    node.dimensions.map(field),
    node.metrics.map(field),
    node.facts.map(field),
    node.orderBy.map((o) => [field(o.field), o.direction, o.nulls ?? null]),
    node.limit ?? null,
    node.offset ?? null,
  ]);
}

function entryOf(node: SemanticQueryNode, compiled: CompiledQuery): CompiledEntry {
  const columnNames = Object.freeze(SemanticQueryNode.selection(node).map((f) => f.name));
  const label = Object.freeze({ view: node.viewName, fields: columnNames });
  return freezeEntry(compiled, columnNames, label, requestInfo(node));
}

/** The entry of a full compile, or of a query spliced into a value template (its own statement key). */
function freezeEntry(
  made: CompiledQuery | FilledQuery,
  columnNames: readonly string[],
  label: StatementLabel,
  semantic: SemanticRequestInfo,
): CompiledEntry {
  const filled = "compiledQuery" in made ? made : undefined;
  return Object.freeze({
    compiled: filled === undefined ? (made as CompiledQuery) : undefined,
    filled,
    sql: made.sql,
    parameters: made.parameters,
    columnNames,
    statement: Object.freeze({ label, semantic, compiled: filled === undefined ? made : filled.key }),
  });
}

/**
 * Idle compilers per dialect. Building one is far dearer than a compile (Kysely's visitor binds
 * its whole visitor table per instance), and Kysely's compiler resets its state at each
 * `compileQuery`, so one is reused once its compile has returned; a compile that starts while
 * another runs (a nested one) takes another compiler.
 */
const idleCompilers = new WeakMap<AnyDialect, SemanticQueryCompiler[]>();
const MAX_IDLE_COMPILERS = 4;

function withIdleCompiler<T>(dialect: AnyDialect, compile: (compiler: SemanticQueryCompiler) => T): T {
  let idle = idleCompilers.get(dialect);
  if (idle === undefined) idleCompilers.set(dialect, (idle = []));
  const compiler = idle.pop() ?? dialect.createQueryCompiler();
  try {
    return compile(compiler);
  } finally {
    if (idle.length < MAX_IDLE_COMPILERS) idle.push(compiler);
  }
}

const compileWithIdleCompiler = (dialect: AnyDialect, node: SemanticQueryNode): CompiledQuery =>
  withIdleCompiler(dialect, (compiler) => compiler.compileSemanticQuery(node));

function requestInfo(node: SemanticQueryNode): SemanticRequestInfo {
  const names = (fields: SemanticQueryNode["dimensions"]) => Object.freeze(fields.map((f) => f.warehouseName));
  return Object.freeze({
    view: node.viewName,
    dimensions: names(node.dimensions),
    metrics: names(node.metrics),
    facts: names(node.facts),
    filtered: node.where !== undefined,
  });
}
