/**
 * Metric-view fields and measures as semantic_views members. Databricks evaluates every field and
 * measure over the source's rows LEFT JOINed to its joins, so every member is declared on the
 * `source` table; a column of a joined table is read through a private pass-through fact on that
 * table (semantic_views joins a fact's table where the fact is used, at the referencing member's
 * grain). Fields referencing earlier fields are inlined; `MEASURE(m)` compositions become derived
 * metrics (aggregates beside them become private helper metrics); a window measure with
 * `range: current` and `semiadditive: first|last` becomes `NON ADDITIVE BY`; wildcard fields
 * (`source.*`, `customer.* EXCEPT (id)`) expand to one field per column. Spark-only semantics are
 * rewritten or listed (spark-expressions.ts).
 */
import { AGGREGATE_FUNCTIONS } from "../../semantic/sql/function-classes.js";
import { isKeyword, isName, isOp, isPunct } from "../../semantic/sql/tokens.js";
import { ident } from "../fixture/ddl-text.js";
import type { UntranslatedList } from "../fixture/fixture-model.js";
import { tokensOf, type Token } from "../fixture/token-cursor.js";
import type { MemberSpec, MetricViewSpec } from "./databricks-metric-view.js";
import { sparkToDuckdbText, translateSparkSemantics } from "./spark-expressions.js";

export interface MemberScope {
  readonly view: string;
  /** Join path (`customer.nation`, lower case) → the fixture alias of its table; `source` included. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Join paths whose join was not translated (members reading them are left out). */
  readonly droppedJoins: ReadonlySet<string>;
  /** Columns of each alias's table. */
  readonly columns: ReadonlyMap<string, readonly string[]>;
  readonly untranslated: UntranslatedList;
}

export interface TranslatedMembers {
  readonly facts: readonly string[];
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
}

type Edit = { start: number; end: number; text: string };

function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** `used` words a bare name can never be a column in: typed literals, cast types, keywords before them. */
const isValueWord = (prev: Token | undefined, next: Token | undefined) =>
  next?.kind === "string" || isKeyword(prev, "AS") || isOp(prev, "::") || isKeyword(prev, "INTERVAL");

export function translateMembers(spec: MetricViewSpec, scope: MemberScope): TranslatedMembers {
  const facts = new Map<string, string>();
  const fields = new Map<string, string>();
  const dimensions: string[] = [];
  const metrics: string[] = [];
  const measureNames = new Map(spec.measures.filter((m) => m.name).map((m) => [m.name!.toLowerCase(), m.name!]));
  const sourceColumns = new Set((scope.columns.get("source") ?? []).map((c) => c.toLowerCase()));
  const drop = (kind: string, name: string, why: string): undefined => {
    scope.untranslated.members(scope.view, [name], `${kind} ${name}: ${why} (left out)`);
    return undefined;
  };

  const factRef = (alias: string, column: string): string => {
    const key = `${alias}\u0000${column}`;
    if (!facts.has(key)) facts.set(key, `${alias}__${column}`);
    return `${ident(alias)}.${ident(facts.get(key)!)}`;
  };

  /** Column and field references of one expression resolved; undefined when it reads a dropped join. */
  const resolve = (kind: string, name: string, text: string): string | undefined => {
    const tokens = tokensOf(text);
    const edits: Edit[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (!isName(t) || isPunct(tokens[i - 1], ".")) continue;
      let end = i;
      while (isPunct(tokens[end + 1], ".") && isName(tokens[end + 2])) end += 2;
      const parts = tokens.slice(i, end + 1).filter((p) => !isPunct(p, "."));
      const next = tokens[end + 1];
      if (isPunct(next, "(") || isValueWord(tokens[i - 1], next)) {
        i = end;
        continue;
      }
      const lower = parts.map((p) => p.value.toLowerCase());
      const path = lower.slice(0, -1).join(".");
      const column = parts.at(-1)!.value;
      const span = { start: t.start, end: tokens[end]!.end };
      if (parts.length >= 2 && (path === "source" || scope.aliases.has(path))) {
        if (scope.droppedJoins.has(path)) return drop(kind, name, `reads join ${path}, which is not translated`);
        const alias = scope.aliases.get(path)!;
        edits.push({ ...span, text: alias === "source" ? `source.${ident(column)}` : factRef(alias, column) });
      } else if (parts.length >= 2 && [...scope.droppedJoins].some((j) => path.startsWith(j))) {
        return drop(kind, name, `reads join ${path}, which is not translated`);
      } else if (parts.length === 1 && fields.has(lower[0]!)) {
        const inlined = fields.get(lower[0]!)!;
        if (sourceColumns.has(lower[0]!) && inlined !== `source.${ident(column)}`) {
          scope.untranslated.members(
            scope.view,
            [name],
            `${kind} ${name}: ${column} names both a field and a source column (the field is used)`,
          );
        }
        edits.push({ ...span, text: /^[\w."]+$/.test(inlined) ? inlined : `(${inlined})` });
      } else if (parts.length === 1 && sourceColumns.has(lower[0]!)) {
        edits.push({ ...span, text: `source.${ident(column)}` });
      }
      i = end;
    }
    return applyEdits(text, edits);
  };

  /** The Spark checks, listed against the member; returns the rewritten text. */
  const checked = (kind: string, name: string, text: string): string => {
    const { text: out, issues } = translateSparkSemantics(text);
    for (const issue of issues) scope.untranslated.members(scope.view, [name], `${kind} ${name}: ${issue}`);
    return out;
  };

  for (const field of expandWildcards(spec, scope)) {
    const name = field.name!;
    const text = resolve("field", name, sparkToDuckdbText(field.expr));
    if (text === undefined) continue;
    const final = checked("field", name, text);
    fields.set(name.toLowerCase(), final);
    dimensions.push(`source.${ident(name)} AS ${final}`);
  }

  const translatedMeasures = new Set<string>();
  for (const measure of spec.measures) {
    const name = measure.name ?? "";
    const duck = sparkToDuckdbText(measure.expr);
    const nonAdditive = measure.window === undefined ? "" : semiAdditive(measure, fields, scope);
    if (nonAdditive === undefined) continue;
    const composed = composition(duck, measureNames);
    if (composed === undefined) {
      const text = resolve("measure", name, duck);
      if (text === undefined) continue;
      metrics.push(`source.${ident(name)}${nonAdditive} AS ${checked("measure", name, text)}`);
      translatedMeasures.add(name.toLowerCase());
      continue;
    }
    const missing = composed.uses.filter((m) => !translatedMeasures.has(m.toLowerCase()));
    if (missing.length > 0) {
      drop(
        "measure",
        name,
        `composes ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not translated or defined later`,
      );
      continue;
    }
    const helpers = composed.aggregates.map((agg, k) => {
      const helper = `${name}__part${k + 1}`;
      const text = resolve("measure", name, agg.text);
      if (text !== undefined) metrics.push(`PRIVATE source.${ident(helper)} AS ${checked("measure", name, text)}`);
      return { ...agg, text: ident(helper), ok: text !== undefined };
    });
    if (helpers.some((h) => !h.ok)) continue;
    const text = applyEdits(duck, [...composed.edits, ...helpers]);
    metrics.push(`${ident(name)}${nonAdditive} AS ${checked("measure", name, text)}`);
    translatedMeasures.add(name.toLowerCase());
  }
  const factEntries = [...facts].map(([key, fact]) => {
    const [alias, column] = key.split("\u0000") as [string, string];
    return `PRIVATE ${ident(alias)}.${ident(fact)} AS ${ident(alias)}.${ident(column)}`;
  });
  return { facts: factEntries, dimensions, metrics };
}

/** `window: [{order, range: current, semiadditive: first|last}]` as NON ADDITIVE BY; undefined (listed) otherwise. */
function semiAdditive(
  measure: MemberSpec,
  fields: ReadonlyMap<string, string>,
  scope: MemberScope,
): string | undefined {
  const name = measure.name ?? "";
  const windows = Array.isArray(measure.window) ? (measure.window as Record<string, unknown>[]) : [];
  const only = windows.length === 1 ? windows[0]! : undefined;
  const order = typeof only?.["order"] === "string" ? only["order"] : undefined;
  const range = String(only?.["range"] ?? "")
    .trim()
    .toLowerCase();
  const last = only?.["semiadditive"];
  if (
    only === undefined ||
    order === undefined ||
    range !== "current" ||
    (last !== "first" && last !== "last") ||
    !fields.has(order.toLowerCase())
  ) {
    scope.untranslated.members(
      scope.view,
      [name],
      `measure ${name}: window ${JSON.stringify(measure.window)} (only one window with range current and semiadditive first|last over a field is translated; left out)`,
    );
    return undefined;
  }
  // Spark sorts NULLs first in ascending order: `last` is the largest non-NULL value, `first` NULL when there is one.
  return ` NON ADDITIVE BY (${ident(order)} ${last === "last" ? "ASC NULLS LAST" : "DESC NULLS FIRST"})`;
}

interface Composition {
  readonly uses: string[];
  readonly edits: Edit[];
  /** Aggregate calls beside MEASURE() calls, each to become a helper metric. */
  readonly aggregates: Edit[];
}

/** `MEASURE(m)` calls in a measure expression; undefined when there are none. */
function composition(text: string, measures: ReadonlyMap<string, string>): Composition | undefined {
  const tokens = tokensOf(text);
  const result: Composition = { uses: [], edits: [], aggregates: [] };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!isKeyword(t, "MEASURE") || !isPunct(tokens[i + 1], "(")) {
      if (t.kind === "ident" && isPunct(tokens[i + 1], "(") && AGGREGATE_FUNCTIONS.has(t.value.toLowerCase())) {
        const close = closeOf(tokens, i + 1);
        result.aggregates.push({
          start: t.start,
          end: tokens[close]!.end,
          text: text.slice(t.start, tokens[close]!.end),
        });
        i = close;
      }
      continue;
    }
    const close = closeOf(tokens, i + 1);
    const inner = tokens.slice(i + 2, close);
    const name = inner.length === 1 && isName(inner[0]) ? measures.get(inner[0].value.toLowerCase()) : undefined;
    const written = name ?? text.slice(tokens[i + 2]?.start ?? t.end, tokens[close]!.start);
    result.uses.push(written);
    result.edits.push({ start: t.start, end: tokens[close]!.end, text: ident(name ?? written) });
    i = close;
  }
  return result.uses.length === 0 ? undefined : result;
}

function closeOf(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (isPunct(tokens[j], "(")) depth++;
    else if (isPunct(tokens[j], ")") && --depth === 0) return j;
  }
  return tokens.length - 1;
}

/** Fields with wildcard entries expanded to one field per column of the table (checked against DESCRIBE's columns). */
function expandWildcards(spec: MetricViewSpec, scope: MemberScope): MemberSpec[] {
  const out: MemberSpec[] = [];
  const known = new Set(spec.columns.map((c) => c.toLowerCase()));
  for (const field of spec.fields) {
    const wildcard = /^\s*((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\.\*\s*(?:EXCEPT\s*\(([^)]*)\))?\s*$/i.exec(field.expr);
    if (field.name !== undefined && wildcard === null) {
      out.push(field);
      continue;
    }
    const path = wildcard?.[1]?.toLowerCase();
    const alias = path === undefined ? undefined : scope.aliases.get(path);
    if (path === undefined || alias === undefined || scope.droppedJoins.has(path)) {
      scope.untranslated.view(
        scope.view,
        `field "${field.expr}" (not a wildcard over the source or a translated join; left out)`,
      );
      continue;
    }
    const except = new Set((wildcard![2] ?? "").split(",").map((c) => c.trim().replace(/^`|`$/g, "").toLowerCase()));
    for (const column of scope.columns.get(alias) ?? []) {
      if (except.has(column.toLowerCase())) continue;
      if (known.size > 0 && !known.has(column.toLowerCase())) {
        scope.untranslated.view(
          scope.view,
          `field ${column} from "${field.expr}" is not among the view's columns (left out)`,
        );
        continue;
      }
      out.push({ name: column, expr: `${path}.\`${column.replaceAll("`", "``")}\`` });
    }
  }
  return out;
}
