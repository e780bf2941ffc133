/**
 * A metric view's definition as `DESCRIBE TABLE EXTENDED v AS JSON` returns it: the YAML in
 * `view_text` (Databricks' metric-view YAML reference: `source`, `filter`, `joins` with nested
 * `joins`, `fields` — or its synonym `dimensions` — and `measures` with optional `window`) and the
 * view's output column names in `columns[]`.
 */
import { parse as parseYaml } from "yaml";

export interface JoinSpec {
  readonly name: string;
  /** Names from the source down to this join (`["customer", "nation"]`). */
  readonly path: readonly string[];
  readonly source: string;
  readonly on?: string | undefined;
  readonly using?: readonly string[] | undefined;
  readonly cardinality?: string | undefined;
}

export interface MemberSpec {
  /** Undefined for a wildcard entry (`expr: source.*`). */
  readonly name?: string | undefined;
  readonly expr: string;
  readonly window?: unknown;
}

export interface MetricViewSpec {
  readonly source: string;
  readonly filter?: string | undefined;
  readonly comment?: string | undefined;
  readonly joins: readonly JoinSpec[];
  readonly fields: readonly MemberSpec[];
  readonly measures: readonly MemberSpec[];
  /** The view's output column names (`columns[].name`), when DESCRIBE lists them. */
  readonly columns: readonly string[];
  /** Top-level keys this reader does not use (`materialization`, `parameters`, ...). */
  readonly otherKeys: readonly string[];
}

const USED_KEYS = new Set(["version", "source", "filter", "comment", "joins", "fields", "dimensions", "measures"]);
/** Keys that describe, tag or speed up a view without changing an answer. */
const DESCRIPTIVE_KEYS = new Set(["materialization", "display_name", "synonyms", "format", "tags"]);

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const optionalText = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined;

function joinsOf(entries: unknown, parent: readonly string[]): JoinSpec[] {
  return list(entries).flatMap((raw) => {
    const entry = record(raw);
    const name = optionalText(entry["name"]) ?? "";
    const path = [...parent, name];
    const using = list(entry["using"]).map(String);
    const join: JoinSpec = {
      name,
      path,
      source: optionalText(entry["source"]) ?? "",
      on: optionalText(entry["on"]),
      using: using.length > 0 ? using : undefined,
      cardinality: optionalText(entry["cardinality"]),
    };
    return [join, ...joinsOf(entry["joins"], path)];
  });
}

const membersOf = (entries: unknown): MemberSpec[] =>
  list(entries).map((raw) => {
    const entry = record(raw);
    return { name: optionalText(entry["name"]), expr: optionalText(entry["expr"]) ?? "", window: entry["window"] };
  });

/** Reads the DESCRIBE ... AS JSON document of one metric view. */
export function readMetricView(json: string): MetricViewSpec {
  const document = record(JSON.parse(json));
  const viewText = typeof document["view_text"] === "string" ? document["view_text"] : "";
  const spec = record(parseYaml(viewText));
  return {
    source: optionalText(spec["source"]) ?? "",
    filter: optionalText(spec["filter"]),
    comment: optionalText(spec["comment"]) ?? optionalText(document["comment"]),
    joins: joinsOf(spec["joins"], []),
    // The YAML reference prefers `fields`; `dimensions` is its synonym.
    fields: membersOf(spec["fields"] ?? spec["dimensions"]),
    measures: membersOf(spec["measures"]),
    columns: list(document["columns"]).map((c) => optionalText(record(c)["name"]) ?? ""),
    otherKeys: Object.keys(spec).filter((k) => !USED_KEYS.has(k) && !DESCRIPTIVE_KEYS.has(k)),
  };
}
