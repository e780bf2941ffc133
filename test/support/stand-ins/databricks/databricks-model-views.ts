/**
 * Multi-table metric views on the Databricks stand-in (a *model view*): `DESCRIBE TABLE EXTENDED v
 * AS JSON` returns the YAML the test wrote in `view_text` and the view's columns with the types of
 * the backend C DDL that answers its queries (semantic-engine.ts); the listing includes it; a query
 * `SELECT ..., MEASURE(m) ... FROM v ... GROUP BY ALL` reads `FROM (semantic_view(v, dimensions,
 * metrics))`. Dimensions in WHERE or ORDER BY must also be selected (the stand-in filters the
 * grouped rows, which is the same only then).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { StandInSemanticEngine } from "../semantic-engine.js";
import { columnFor } from "./arrow-result.js";
import { StandInSqlError } from "./metric-view-sql.js";

export interface DatabricksModelView {
  /** The view name as queried (`orders_model`). */
  readonly name: string;
  /** The metric-view YAML DESCRIBE returns in `view_text`. */
  readonly yaml: string;
  /** Backend C DDL creating a view of the same name that answers its queries. */
  readonly engineDdl: string;
  readonly comment?: string;
}

export interface LoadedDatabricksModel extends DatabricksModelView {
  readonly dimensions: ReadonlySet<string>;
  readonly measures: ReadonlySet<string>;
  readonly describeJson: string;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Defines each model on the engine and describes it as Databricks does. */
export async function loadDatabricksModels(
  engine: StandInSemanticEngine,
  connection: DuckDBConnection,
  models: readonly DatabricksModelView[],
): Promise<Map<string, LoadedDatabricksModel>> {
  const loaded = new Map<string, LoadedDatabricksModel>();
  for (const model of models) {
    await engine.define(model.engineDdl);
    const members = await engine.members(model.name);
    const columns = [];
    for (const m of members) {
      const param = m.kind === "dimension" ? "dimensions" : "metrics";
      const probe = await engine.rewrite(
        `SELECT * FROM semantic_view(${quote(model.name)}, ${param} := [${quote(`"${m.name.replaceAll('"', '""')}"`)}]) LIMIT 0`,
      );
      const reader = await connection.runAndReadAll(probe);
      const column = columnFor(m.name, reader.columnTypes()[0]!);
      const type =
        column.typeName === "DECIMAL"
          ? { name: "decimal", precision: column.precision, scale: column.scale }
          : column.typeName.toLowerCase();
      columns.push({ name: m.name, type, nullable: true });
    }
    const describeJson = JSON.stringify({
      table_name: model.name,
      type: "METRIC_VIEW",
      ...(model.comment === undefined ? {} : { comment: model.comment }),
      columns,
      view_text: model.yaml,
    });
    loaded.set(model.name.toLowerCase(), {
      ...model,
      dimensions: new Set(members.filter((m) => m.kind === "dimension").map((m) => m.name.toLowerCase())),
      measures: new Set(members.filter((m) => m.kind === "metric").map((m) => m.name.toLowerCase())),
      describeJson,
    });
  }
  return loaded;
}

/** A query over a model view (backticks already double quotes) with `semantic_view(...)` as its relation. */
export function translateModelViewSql(sql: string, models: ReadonlyMap<string, LoadedDatabricksModel>): string {
  const from = /\bFROM\s+"((?:[^"]|"")+)"/i.exec(sql);
  const model = from === null ? undefined : models.get(from[1]!.replaceAll('""', '"').toLowerCase());
  if (from === null || model === undefined) return sql;
  const measures = [...sql.matchAll(/\bMEASURE\s*\(\s*"((?:[^"]|"")+)"\s*\)/gi)].map((m) =>
    m[1]!.replaceAll('""', '"'),
  );
  const head = sql.slice(0, from.index).replace(/\bMEASURE\s*\(\s*"(?:[^"]|"")+"\s*\)/gi, "");
  const selected = new Set(
    [...head.matchAll(/"((?:[^"]|"")+)"/g)]
      .map((m) => m[1]!.replaceAll('""', '"'))
      .filter((n) => model.dimensions.has(n.toLowerCase())),
  );
  const tail = sql.slice(from.index + from[0].length);
  for (const m of tail.matchAll(/"((?:[^"]|"")+)"/g)) {
    const name = m[1]!.replaceAll('""', '"');
    if (model.dimensions.has(name.toLowerCase()) && !selected.has(name)) {
      throw new StandInSqlError(
        "UNSUPPORTED_FEATURE",
        "0A000",
        `the stand-in filters or orders a model view only by selected dimensions (${name})`,
      );
    }
  }
  const list = (names: Iterable<string>) => [...names].map((n) => quote(`"${n.replaceAll('"', '""')}"`)).join(", ");
  const params = [
    selected.size > 0 ? `dimensions := [${list(selected)}]` : undefined,
    measures.length > 0 ? `metrics := [${list(new Set(measures))}]` : undefined,
  ].filter((p) => p !== undefined);
  const relation = `(SELECT * FROM semantic_view(${[quote(model.name), ...params].join(", ")})) AS "${model.name}"`;
  return sql.slice(0, from.index).replace(/\bMEASURE\s*\(\s*("(?:[^"]|"")+")\s*\)/gi, "$1") + `FROM ${relation}` + tail;
}
