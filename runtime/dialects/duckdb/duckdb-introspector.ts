/**
 * Backend C (DuckDB): `list_semantic_views()` and `describe_semantic_view('v')`, answered by the
 * `semantic_views` extension or the library's built-in engine alike, plus a `semantic_view(...)
 * LIMIT 0` probe for column types (the extension leaves DATA_TYPE empty).
 */
import { foldDescribeRows } from "../introspect/describe-rows.js";
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
      `SELECT object_kind, object_name, parent_entity, property, property_value FROM describe_semantic_view(${stringLiteral(view.name)})`,
    );
    // A member declared quoted is shown as written (`"Net Revenue"`), as the extension stores it; its
    // name is the text inside the quotes.
    const folded = foldDescribeRows(rows);
    const described = { ...folded, members: folded.members.map((m) => ({ ...m, name: unquoted(m.name) })) };
    const types = new Map<MemberMetadata, string>();
    const queryable = described.members.filter((m) => m.kind !== "fact");
    const facts = described.members.filter((m) => m.kind === "fact");
    await this.#probe(view.name, queryable, types);
    await this.#probe(view.name, facts, types);
    return {
      name: view.name,
      comment: described.comment ?? view.comment,
      members: described.members.map((m) => ({ ...m, type: types.get(m) || m.type })),
    };
  }

  /** Types all `members` with one probe; if the view rejects the combination (fan trap, ...), one by one. */
  async #probe(view: string, members: readonly MemberMetadata[], into: Map<MemberMetadata, string>): Promise<void> {
    if (members.length === 0) return;
    try {
      this.#assign(members, await this.#probeColumns(view, members), into);
      return;
    } catch {
      // Fall through to single-member probes.
    }
    for (const member of members) {
      try {
        this.#assign([member], await this.#probeColumns(view, [member]), into);
      } catch {
        // Left untyped: the DESCRIBE type (if any) is kept and the field is emitted as `unknown`.
      }
    }
  }

  async #probeColumns(view: string, members: readonly MemberMetadata[]): Promise<readonly SourceColumn[]> {
    const list = (kind: MemberMetadata["kind"]) =>
      `[${members
        .filter((m) => m.kind === kind)
        .map((m) => stringLiteral(semanticViewMemberName(m.name)))
        .join(", ")}]`;
    const args = [stringLiteral(view)];
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
