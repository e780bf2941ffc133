/**
 * Backend B (cloud SQL warehouse): metric views. Candidates come from `information_schema.tables`
 * of the session's catalog and schema; `DESCRIBE TABLE EXTENDED v AS JSON` gives column types and,
 * in `view_text`, the metric view's YAML, which tells dimensions from measures. No grouping rules are
 * read: a metric view has one source and many-to-one joins from it, so every measure can be grouped by
 * every dimension (members carry no `groupableBy`, and the generated class says so).
 */
import { parse as parseYaml } from "yaml";
import {
  cell,
  queryObjects,
  text,
  type IntrospectionSource,
  type Introspector,
  type MemberMetadata,
  type VariableMetadata,
  type ViewMetadata,
  type ViewSummary,
} from "../introspect/metadata.js";
import { backtickIdentifier } from "../introspect/sql-text.js";

const LIST_SQL =
  "SELECT table_name, comment FROM information_schema.tables " +
  "WHERE table_catalog = current_catalog() AND table_schema = current_schema() " +
  "AND table_type IN ('METRIC_VIEW', 'VIEW') ORDER BY table_name";

export class DatabricksIntrospector implements Introspector {
  readonly #source: IntrospectionSource;
  readonly #described = new Map<string, ViewMetadata>();

  constructor(source: IntrospectionSource) {
    this.#source = source;
  }

  async listViews(): Promise<ViewSummary[]> {
    const rows = await queryObjects(this.#source, LIST_SQL);
    const views: ViewSummary[] = [];
    for (const row of rows) {
      const name = text(cell(row, "table_name"));
      const metadata = await this.#describe(name, text(cell(row, "comment")) || undefined);
      if (metadata) views.push({ name, comment: metadata.comment });
    }
    return views;
  }

  async describeView(view: ViewSummary): Promise<ViewMetadata> {
    const metadata = await this.#describe(view.name, view.comment);
    if (!metadata) throw new Error(`${view.name} is not a metric view`);
    return metadata;
  }

  /** Undefined when the view is a plain view, not a metric view. */
  async #describe(name: string, comment: string | undefined): Promise<ViewMetadata | undefined> {
    const cached = this.#described.get(name);
    if (cached) return cached;
    const rows = await queryObjects(this.#source, `DESCRIBE TABLE EXTENDED ${backtickIdentifier(name)} AS JSON`);
    const json = text(
      rows[0] === undefined ? undefined : (cell(rows[0], "json_metadata") ?? Object.values(rows[0])[0]),
    );
    const metadata = parseMetricViewJson(name, json, comment);
    if (metadata) this.#described.set(name, metadata);
    return metadata;
  }
}

interface JsonColumn {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly comment?: unknown;
}

interface YamlMember {
  readonly name?: unknown;
  readonly expr?: unknown;
  readonly comment?: unknown;
}

/**
 * Parses the `DESCRIBE TABLE EXTENDED ... AS JSON` document of a metric view. Returns undefined
 * when it is not one (no YAML with measures in `view_text`).
 *
 * The members are the document's `columns[]`, in order: a wildcard field (`expr: source.*`,
 * `customer.* EXCEPT (id)`) has no `name` in the YAML, so its imported columns exist only there. The
 * YAML tells measures from fields (a column named in `measures` is a metric, any other a dimension)
 * and gives expressions and comments; fields are listed under `fields` (the preferred key) or
 * `dimensions` (its synonym). A document without `columns[]` falls back to the YAML's named entries.
 */
export function parseMetricViewJson(name: string, json: string, comment?: string): ViewMetadata | undefined {
  const document = JSON.parse(json) as Record<string, unknown>;
  const spec = yamlOf(document["view_text"]);
  if (spec === undefined || !Array.isArray(spec["measures"])) return undefined;
  const fields = namedEntries(spec["fields"] ?? spec["dimensions"]);
  const measures = namedEntries(spec["measures"]);
  const entryOf = (entries: readonly NamedEntry[], member: string) =>
    entries.find((e) => e.name.toLowerCase() === member.toLowerCase());
  const columns = (Array.isArray(document["columns"]) ? (document["columns"] as JsonColumn[]) : []).filter(
    (c): c is JsonColumn & { name: string } => typeof c.name === "string",
  );
  const listed: { name: string; column: JsonColumn | undefined }[] =
    columns.length > 0
      ? columns.map((column) => ({ name: column.name, column }))
      : [...fields, ...measures].map((entry) => ({ name: entry.name, column: undefined }));
  const members: MemberMetadata[] = listed.map(({ name: member, column }) => {
    const measure = entryOf(measures, member);
    const entry = measure ?? entryOf(fields, member);
    return {
      name: member,
      kind: measure === undefined ? "dimension" : "metric",
      type: column ? columnTypeText(column.type) : "",
      expression: typeof entry?.expr === "string" ? entry.expr : undefined,
      comment: stringOrUndefined(entry?.comment) ?? stringOrUndefined(column?.comment),
    };
  });
  const viewComment = stringOrUndefined(document["comment"]) ?? stringOrUndefined(spec["comment"]) ?? comment;
  const variables = parametersOf(spec["parameters"]);
  return { name, comment: viewComment, members, ...(variables.length === 0 ? {} : { variables }) };
}

/**
 * The `parameters:` block (metric-view YAML, DBR 18.2+): each parameter's name, type and whether it has a
 * `default` (one without must be passed by every call). The type is read from `type` or `data_type`.
 */
function parametersOf(entries: unknown): VariableMetadata[] {
  if (!Array.isArray(entries)) return [];
  return (entries as Record<string, unknown>[]).flatMap((entry) => {
    if (typeof entry?.["name"] !== "string") return [];
    const type = entry["type"] ?? entry["data_type"];
    return [
      {
        name: entry["name"],
        type: typeof type === "string" ? type : "",
        hasDefault: entry["default"] !== undefined,
        ...(stringOrUndefined(entry["comment"]) === undefined ? {} : { comment: entry["comment"] as string }),
      },
    ];
  });
}

type NamedEntry = YamlMember & { readonly name: string };

function namedEntries(entries: unknown): NamedEntry[] {
  return Array.isArray(entries)
    ? (entries as YamlMember[]).filter((e): e is NamedEntry => typeof e?.name === "string")
    : [];
}

function yamlOf(viewText: unknown): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = parseYaml(typeof viewText === "string" ? viewText : "");
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON form writes types as `"bigint"` or `{ "name": "decimal", "precision": 10, "scale": 2 }`. */
function columnTypeText(type: unknown): string {
  if (typeof type === "string") return type;
  if (type !== null && typeof type === "object") {
    const t = type as Record<string, unknown>;
    const base = typeof t["name"] === "string" ? t["name"] : "";
    if (typeof t["precision"] === "number")
      return `${base}(${t["precision"]},${typeof t["scale"] === "number" ? t["scale"] : 0})`;
    return base;
  }
  return "";
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
