/**
 * Backend C (DuckDB): `list_semantic_views()` and `describe_semantic_view('v')`, answered by the
 * `semantic_views` extension or the library's built-in engine alike, plus a `semantic_view(...)
 * LIMIT 0` probe for column types (the extension leaves DATA_TYPE empty), and per metric `SHOW SEMANTIC
 * DIMENSIONS IN v FOR METRIC m`. That listing judges fan traps only: where one table is reached by
 * several relationships (role-playing, `USING`), a metric may still be refused a listed dimension as
 * ambiguous, so there each metric's listing is confirmed by a `LIMIT 0` query (all of it at once, one
 * dimension at a time only when that fails).
 */
import { foldDescribeRows } from "../introspect/describe-rows.js";
import { dimensionsForMetric, type GroupableDimension } from "../introspect/dimensions-for-metric.js";
import {
  cell,
  queryObjects,
  text,
  type IntrospectionSource,
  type Introspector,
  type MemberMetadata,
  type SourceColumn,
  type ViewMetadata,
  type ViewSummary,
} from "../introspect/metadata.js";
import { stringLiteral } from "../introspect/sql-text.js";
import { semanticViewMemberName } from "./duckdb-query-compiler.js";

/** `"Net Revenue"` → `Net Revenue` (doubled quotes undone); any other name as it is. */
const unquoted = (name: string): string =>
  /^"(?:[^"]|"")+"$/.test(name) ? name.slice(1, -1).replaceAll('""', '"') : name;

export class DuckDBIntrospector implements Introspector {
  readonly #source: IntrospectionSource;

  constructor(source: IntrospectionSource) {
    this.#source = source;
  }

  async listViews(): Promise<ViewSummary[]> {
    const rows = await queryObjects(this.#source, "SELECT name, comment FROM list_semantic_views()");
    return rows.map((row) => ({ name: text(cell(row, "name")), comment: text(cell(row, "comment")) || undefined }));
  }

  async describeView(view: ViewSummary): Promise<ViewMetadata> {
    const rows = await queryObjects(
      this.#source,
      `SELECT object_kind, object_name, parent_entity, property, property_value FROM describe_semantic_view(${stringLiteral(semanticViewMemberName(view.name))})`,
    );
    // A member declared quoted is shown as written (`"Net Revenue"`), as the extension stores it; its
    // name is the text inside the quotes.
    const folded = foldDescribeRows(rows);
    const described = { ...folded, members: folded.members.map((m) => ({ ...m, name: unquoted(m.name) })) };
    const types = new Map<MemberMetadata, string>();
    const queryable = described.members.filter((m) => m.kind !== "fact");
    const facts = described.members.filter((m) => m.kind === "fact");
    await this.#probe(
      view.name,
      queryable,
      types,
      queryable.filter((m) => m.kind === "metric"),
    );
    await this.#probe(view.name, facts, types);
    const roles = hasRolePlayingTable(rows);
    const members: MemberMetadata[] = [];
    for (const m of described.members) {
      const typed = { ...m, type: types.get(m) || m.type };
      if (m.kind !== "metric") {
        members.push(typed);
        continue;
      }
      const listed = await dimensionsForMetric(this.#source, view.name, m, false);
      const groupable = roles && !listed.some((d) => d.required) ? await this.#confirm(view.name, m, listed) : listed;
      members.push({ ...typed, groupableBy: groupable.map(({ name, table }) => ({ name, table })) });
    }
    return { name: view.name, comment: described.comment ?? view.comment, members };
  }

  /** The listed dimensions a `LIMIT 0` query of `metric` accepts. */
  async #confirm(
    view: string,
    metric: MemberMetadata,
    listed: readonly GroupableDimension[],
  ): Promise<GroupableDimension[]> {
    const accepts = async (dimensions: readonly GroupableDimension[]) => {
      const names = dimensions.map((d) => stringLiteral(semanticViewMemberName(d.name))).join(", ");
      const metrics = stringLiteral(semanticViewMemberName(metric.name));
      try {
        await this.#source.execute(
          `SELECT * FROM semantic_view(${stringLiteral(semanticViewMemberName(view))}, dimensions := [${names}], metrics := [${metrics}]) LIMIT 0`,
        );
        return true;
      } catch {
        return false;
      }
    };
    if (listed.length === 0 || (await accepts(listed))) return [...listed];
    const confirmed: GroupableDimension[] = [];
    for (const dimension of listed) if (await accepts([dimension])) confirmed.push(dimension);
    return confirmed;
  }

  /**
   * Types all `members` with one probe; if the view rejects the combination (fan trap, ...), the
   * dimensions together and the metrics together, then what is left one by one,
   * and a dimension the view refuses alone (a role-playing one is ambiguous without a metric) together
   * with each metric in turn until one accepts it.
   */
  async #probe(
    view: string,
    members: readonly MemberMetadata[],
    into: Map<MemberMetadata, string>,
    metrics: readonly MemberMetadata[] = [],
  ): Promise<void> {
    if (members.length === 0) return;
    if (await this.#tryProbe(view, members, into)) return;
    // Dimensions alone and metrics alone meet no fan trap: two probes type most refused combinations.
    const left = new Set(members);
    for (const group of [
      members.filter((m) => m.kind === "dimension"),
      members.filter((m) => m.kind !== "dimension"),
    ]) {
      if (group.length < 2 || group.length === members.length) continue;
      if (await this.#tryProbe(view, group, into)) for (const member of group) left.delete(member);
    }
    for (const member of left) {
      if (await this.#tryProbe(view, [member], into)) continue;
      if (member.kind !== "dimension") continue;
      for (const metric of metrics) if (await this.#tryProbe(view, [member, metric], into, [member])) break;
    }
  }

  /** Probes `members` and types `typed` (default: all of them) from the columns; false when the view refuses. */
  async #tryProbe(
    view: string,
    members: readonly MemberMetadata[],
    into: Map<MemberMetadata, string>,
    typed: readonly MemberMetadata[] = members,
  ): Promise<boolean> {
    try {
      const found = new Map<MemberMetadata, string>();
      this.#assign(members, await this.#probeColumns(view, members), found);
      for (const member of typed) if (found.has(member)) into.set(member, found.get(member)!);
      return true;
    } catch {
      // Left untyped here: the DESCRIBE type (if any) is kept and the field is emitted as `unknown`.
      return false;
    }
  }

  async #probeColumns(view: string, members: readonly MemberMetadata[]): Promise<readonly SourceColumn[]> {
    const list = (kind: MemberMetadata["kind"]) =>
      `[${members
        .filter((m) => m.kind === kind)
        .map((m) => stringLiteral(semanticViewMemberName(m.name)))
        .join(", ")}]`;
    const args = [stringLiteral(semanticViewMemberName(view))];
    for (const [kind, param] of [
      ["dimension", "dimensions"],
      ["metric", "metrics"],
      ["fact", "facts"],
    ] as const) {
      if (members.some((m) => m.kind === kind)) args.push(`${param} := ${list(kind)}`);
    }
    const result = await this.#source.execute(`SELECT * FROM semantic_view(${args.join(", ")}) LIMIT 0`);
    return result.columns;
  }

  #assign(
    members: readonly MemberMetadata[],
    columns: readonly SourceColumn[],
    into: Map<MemberMetadata, string>,
  ): void {
    // The probe returns dimensions first, then metrics or facts, each in request order.
    const ordered = [
      ...members.filter((m) => m.kind === "dimension"),
      ...members.filter((m) => m.kind !== "dimension"),
    ];
    ordered.forEach((member, index) => {
      const byName = columns.find((c) => c.name.toLowerCase() === member.name.toLowerCase());
      const column = byName ?? columns[index];
      if (column) into.set(member, column.type);
    });
  }
}

/** True when some table is the referenced side of two or more relationships (DESCRIBE's RELATIONSHIP rows). */
function hasRolePlayingTable(rows: readonly Record<string, unknown>[]): boolean {
  const referenced = new Map<string, number>();
  for (const row of rows) {
    if (text(cell(row, "object_kind")).toUpperCase() !== "RELATIONSHIP") continue;
    if (text(cell(row, "property")).toUpperCase() !== "REF_TABLE") continue;
    const table = text(cell(row, "property_value")).toLowerCase();
    referenced.set(table, (referenced.get(table) ?? 0) + 1);
  }
  return [...referenced.values()].some((count) => count > 1);
}
