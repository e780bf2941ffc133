/**
 * Multi-table models on the stand-ins: a stand-in whose test registers a *model view* answers its
 * semantic queries with lib's built-in semantic-view engine over the stand-in's own DuckDB
 * tables, from DDL the test writes by hand in backend C terms (the warehouse's documented
 * semantics, spelled the way semantic_views reads them), while GET_DDL / DESCRIBE return the
 * warehouse's own definition text. Each stand-in turns its query form into a `semantic_view(...)`
 * call; this helper expands that call and describes the members.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { createBuiltinSemanticLayer } from "../../../runtime/semantic/builtin-layer.js";
import type { RawColumn, SqlSession } from "../../../runtime/semantic/semantic-layer.js";

export interface ModelMember {
  readonly kind: "dimension" | "metric" | "fact";
  readonly name: string;
  /** The logical table alias it belongs to ('' for a derived metric). */
  readonly table: string;
  /** DuckDB's type of its values (from a LIMIT 0 probe). */
  readonly type: string;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

export class StandInSemanticEngine {
  readonly #layer = createBuiltinSemanticLayer();
  readonly #session: SqlSession;

  constructor(connection: DuckDBConnection) {
    this.#session = {
      async query(sql, parameters) {
        const reader = await connection.runAndReadAll(
          sql,
          parameters === undefined ? undefined : ([...parameters] as never),
        );
        const columns: RawColumn[] = reader
          .columnTypes()
          .map((type, i) => ({ name: reader.columnName(i), type: type.toString() }));
        return { columns, rows: reader.getRows() as unknown[][] };
      },
    };
  }

  /** Runs `CREATE SEMANTIC VIEW ...` (autocommitted on the raw connection). */
  async define(ddl: string): Promise<void> {
    const handled = await this.#layer.handle(this.#session, ddl);
    if (handled.kind !== "result") throw new Error(`not a semantic-view statement: ${ddl.slice(0, 60)}`);
  }

  /** A statement containing `semantic_view(...)` calls as plain DuckDB SQL. */
  async rewrite(sql: string): Promise<string> {
    const handled = await this.#layer.handle(this.#session, sql);
    if (handled.kind === "rewritten") return handled.sql;
    if (handled.kind === "passthrough") return sql;
    throw new Error("the stand-in expected a query, not a semantic-view statement");
  }

  /** Whether the view answers `metric` grouped by `dimension` (a LIMIT 0 probe; a refused pair throws). */
  async groupable(view: string, metric: string, dimension: string): Promise<boolean> {
    const member = (name: string) => quote(`"${name.replaceAll('"', '""')}"`);
    try {
      await this.#session.query(
        await this.rewrite(
          `SELECT * FROM semantic_view(${quote(view)}, dimensions := [${member(dimension)}], metrics := [${member(metric)}]) LIMIT 0`,
        ),
      );
      return true;
    } catch {
      return false;
    }
  }

  /** The view's public members in definition order, each with the type its values arrive in. */
  async members(view: string): Promise<ModelMember[]> {
    const described = await this.#session.query(
      await this.rewrite(
        `SELECT object_kind, object_name, parent_entity, property, property_value FROM describe_semantic_view(${quote(view)})`,
      ),
    );
    const members = new Map<string, { kind: ModelMember["kind"]; name: string; table: string; private: boolean }>();
    for (const [kind, name, table, property, value] of described.rows as string[][]) {
      const k = String(kind).toLowerCase();
      if (k !== "dimension" && k !== "metric" && k !== "fact" && k !== "derived_metric") continue;
      const key = `${k}\u0000${String(name)}`;
      const member = members.get(key) ?? {
        kind: (k === "derived_metric" ? "metric" : k) as ModelMember["kind"],
        name: String(name),
        table: String(table ?? ""),
        private: false,
      };
      if (String(property).toUpperCase() === "ACCESS_MODIFIER" && String(value).toUpperCase() === "PRIVATE")
        member.private = true;
      members.set(key, member);
    }
    const out: ModelMember[] = [];
    for (const m of members.values()) {
      if (m.private) continue;
      const param = m.kind === "dimension" ? "dimensions" : m.kind === "metric" ? "metrics" : "facts";
      const probe = await this.#session.query(
        await this.rewrite(
          `SELECT * FROM semantic_view(${quote(view)}, ${param} := [${quote(`"${m.name.replaceAll('"', '""')}"`)}]) LIMIT 0`,
        ),
      );
      out.push({ kind: m.kind, name: m.name, table: m.table, type: probe.columns[0]!.type });
    }
    return out;
  }
}
