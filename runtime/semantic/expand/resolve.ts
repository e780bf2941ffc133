/**
 * Resolves the names a `semantic_view()` call asks for into members of the definition:
 * case-insensitive, `alias.name` and `alias.*` allowed, bare `*` rejected, explicit duplicates
 * rejected (wildcard overlaps are folded), PRIVATE metrics and facts refused.
 */
import { identEquals } from "../sql/quote.js";
import { shownName, type MemberDef, type MetricDef, type SemanticViewDefinition } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { significant, type Token } from "../sql/lexer.js";
import { isName, isOp } from "../sql/tokens.js";
import { tokensOf } from "../sql/references.js";
import { didYouMean } from "../../text/suggest.js";

export type MemberKind = "dimension" | "metric" | "fact";

interface ParsedName {
  readonly qualifier: string | undefined;
  /** Unquoted name, or "*" for a wildcard. */
  readonly name: string;
}

function parseRequestedName(view: string, kind: MemberKind, raw: string): ParsedName {
  let tokens: Token[];
  try {
    tokens = significant(tokensOf(raw.trim()));
  } catch {
    tokens = [];
  }
  const part = (i: number): string | undefined => {
    const t = tokens[i];
    if (t === undefined) return undefined;
    if (isName(t)) return t.value;
    if (isOp(t, "*")) return "*";
    return undefined;
  };
  if (tokens.length === 1 && part(0) !== undefined) {
    if (part(0) === "*") {
      throw new SemanticViewError(
        "invalid",
        `semantic view '${view}': unqualified wildcard '*' is not supported. Use table_alias.* to select all items for a specific table.`,
      );
    }
    return { qualifier: undefined, name: part(0)! };
  }
  if (
    tokens.length === 3 &&
    part(0) !== undefined &&
    part(0) !== "*" &&
    tokens[1]!.text === "." &&
    part(2) !== undefined
  ) {
    return { qualifier: part(0), name: part(2)! };
  }
  throw new SemanticViewError("invalid", `semantic view '${view}': invalid ${kind} name '${raw}'`);
}

/** Candidates of one kind, in definition order. */
function candidates(def: SemanticViewDefinition, kind: MemberKind): readonly (MemberDef | MetricDef)[] {
  return kind === "dimension" ? def.dimensions : kind === "metric" ? def.metrics : def.facts;
}

/** Per definition and kind: lower-cased name → the members of that name, in definition order. */
const indexes = new WeakMap<SemanticViewDefinition, Map<MemberKind, Map<string, (MemberDef | MetricDef)[]>>>();

/** Members named `name` (any case), in definition order: one lookup, not a scan of the view. */
function named(def: SemanticViewDefinition, kind: MemberKind, name: string): readonly (MemberDef | MetricDef)[] {
  let byKind = indexes.get(def);
  if (byKind === undefined) indexes.set(def, (byKind = new Map()));
  let index = byKind.get(kind);
  if (index === undefined) {
    byKind.set(kind, (index = new Map()));
    for (const m of candidates(def, kind)) {
      const key = m.name.toLowerCase();
      const list = index.get(key);
      if (list === undefined) index.set(key, [m]);
      else list.push(m);
    }
  }
  return index.get(name.toLowerCase()) ?? [];
}

/**
 * Resolves one list. Returns members in request order; wildcards expand in definition order and
 * skip PRIVATE members; an explicitly requested PRIVATE member is an error.
 */
export function resolveMembers<M extends MemberDef | MetricDef>(
  def: SemanticViewDefinition,
  kind: MemberKind,
  requested: readonly string[],
): M[] {
  const visible = (): M[] => (candidates(def, kind) as readonly M[]).filter((m) => m.access !== "private");
  const result: M[] = [];
  const explicit = new Set<M>();
  const seen = new Set<M>();
  const tableAliases = def.tables.map((t) => t.alias);
  for (const raw of requested) {
    const parsed = parseRequestedName(def.name, kind, raw);
    if (parsed.name === "*") {
      const alias = tableAliases.find((a) => identEquals(a, parsed.qualifier));
      if (alias === undefined) {
        throw new SemanticViewError(
          "invalid",
          `semantic view '${def.name}': unknown table alias '${parsed.qualifier}' in wildcard '${raw}'. Available aliases: [${tableAliases.join(", ")}].${didYouMean(parsed.qualifier!, tableAliases)}`,
        );
      }
      for (const m of visible()) {
        if (identEquals(m.table, alias) && !seen.has(m)) {
          seen.add(m);
          result.push(m);
        }
      }
      continue;
    }
    const match = (named(def, kind, parsed.name) as readonly M[]).find(
      (m) => parsed.qualifier === undefined || identEquals(m.table, parsed.qualifier),
    );
    if (match === undefined) {
      // The public names (as the docs' error-messages page lists them), a suggestion only when one is close.
      const names = visible().map((m) => shownName(m));
      const hint = didYouMean(parsed.name, names);
      throw new SemanticViewError(
        "invalid",
        `semantic view '${def.name}': unknown ${kind} '${raw}'. Available: [${names.join(", ")}]${hint === "" ? "" : `.${hint}`}`,
      );
    }
    if (match.access === "private") {
      throw new SemanticViewError(
        "invalid",
        `semantic view '${def.name}': ${kind} '${match.name}' is private and cannot be queried directly. ${kind === "metric" ? "Private metrics can only be used in derived metric expressions." : "Private facts can only be used in derived expressions."}`,
      );
    }
    if (explicit.has(match)) {
      throw new SemanticViewError("invalid", `semantic view '${def.name}': duplicate ${kind} '${match.name}'`);
    }
    explicit.add(match);
    if (!seen.has(match)) {
      seen.add(match);
      result.push(match);
    }
  }
  return result;
}
