/**
 * Multi-table semantic views on the Snowflake stand-in (a *model view*): GET_DDL returns the
 * Snowflake DDL the test wrote; DESCRIBE SEMANTIC VIEW lists the members of the backend C DDL that
 * answers its queries (semantic-engine.ts), upper case, with the Snowflake type of their values;
 * SHOW SEMANTIC VIEWS lists it; `SEMANTIC_VIEW(v DIMENSIONS ... METRICS ... FACTS ...)` becomes a
 * `semantic_view(...)` call the built-in engine expands. WHERE inside SEMANTIC_VIEW is not
 * supported for model views (the stand-in refuses it).
 */
import type { StandInSemanticEngine, ModelMember } from "../semantic-engine.js";
import { StandInSqlError, type StandInSemanticView } from "./semantic-view-sql.js";
import { textColumn } from "./semantic-view-metadata.js";
import type { WireResult } from "./replies.js";
import { identifierOf, isKeyword, quoteIdentifier, tokenize, untokenize, type Token } from "./sql-tokens.js";

export interface SnowflakeModelView {
  /** Upper-case Snowflake name, e.g. `SALES_MODEL`. */
  readonly name: string;
  /** What GET_DDL returns (Snowflake's layout: `DB.SCHEMA.TABLE` base tables). */
  readonly getDdl: string;
  /** Backend C DDL creating a view of the same name (lower case) that answers its queries. */
  readonly engineDdl: string;
  readonly comment?: string;
}

export interface LoadedModelView extends SnowflakeModelView {
  readonly members: readonly ModelMember[];
  /** Per metric (upper case), the dimensions it can be grouped by, as the backend C engine answers them. */
  readonly groupable: ReadonlyMap<string, readonly ModelMember[]>;
}

/** Snowflake's DATA_TYPE for a DuckDB result type. */
function snowflakeType(duckdb: string): string {
  const t = duckdb.toUpperCase();
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(t);
  if (decimal) return `NUMBER(${decimal[1]},${decimal[2]})`;
  if (/INT/.test(t)) return "NUMBER(38,0)";
  if (t === "VARCHAR") return "VARCHAR(16777216)";
  if (t === "DOUBLE" || t === "FLOAT") return "FLOAT";
  if (t === "TIMESTAMP") return "TIMESTAMP_NTZ(9)";
  return t;
}

/** SHOW / GET_DDL / DESCRIBE for model views; undefined for other statements and views. */
export function answerModelViewStatement(
  sql: string,
  views: ReadonlyMap<string, StandInSemanticView>,
  models: ReadonlyMap<string, LoadedModelView>,
): WireResult | undefined {
  if (models.size === 0) return undefined;
  if (/^\s*SHOW\s+SEMANTIC\s+VIEWS\b/i.test(sql)) {
    const columns = ["created_on", "name", "database_name", "schema_name", "comment", "owner"];
    const all = [...views.values(), ...models.values()];
    return {
      rowtype: columns.map(textColumn),
      rowset: all.map((v) => [
        "2026-01-01 00:00:00.000 +0000",
        v.name,
        "ANALYTICS",
        "PUBLIC",
        v.comment ?? "",
        "TESTER",
      ]),
    };
  }
  const getDdl = /^\s*SELECT\s+GET_DDL\(\s*'SEMANTIC_VIEW'\s*,\s*'([^']+)'\s*\)\s*$/i.exec(sql);
  // The string is read as an identifier: `'"NAME"'` exactly, `'name'` folded to upper case.
  const ddlName = getDdl?.[1]!.startsWith('"') ? getDdl[1]!.slice(1, -1) : getDdl?.[1]!.toUpperCase();
  const ddlModel = ddlName === undefined ? undefined : models.get(ddlName);
  if (ddlModel !== undefined) {
    return { rowtype: [textColumn(`GET_DDL('SEMANTIC_VIEW', '${getDdl![1]!}')`)], rowset: [[ddlModel.getDdl]] };
  }
  const forMetric =
    /^\s*SHOW\s+SEMANTIC\s+DIMENSIONS\s+IN\s+("(?:[^"]|"")+"|[\w$]+)\s+FOR\s+METRIC\s+("(?:[^"]|"")+"|[\w$]+)\s*$/i.exec(
      sql,
    );
  const metricModel = forMetric ? models.get(identifierOf(tokenize(forMetric[1]!)[0]!)!) : undefined;
  if (metricModel !== undefined) {
    // SHOW SEMANTIC DIMENSIONS ... FOR METRIC: Snowflake's documented columns.
    const metric = identifierOf(tokenize(forMetric![2]!)[0]!)!.toUpperCase();
    const dimensions = metricModel.groupable.get(metric);
    if (dimensions === undefined) {
      throw new StandInSqlError(`SQL compilation error:\ninvalid identifier '${metric}'`, "000904", "42000");
    }
    return {
      rowtype: ["table_name", "name", "data_type", "required", "synonyms", "comment"].map(textColumn),
      rowset: dimensions.map((d) => [
        d.table.toUpperCase(),
        d.name.toUpperCase(),
        snowflakeType(d.type),
        "false",
        "[]",
        "",
      ]),
    };
  }
  const describe = /^\s*DESCRIBE\s+SEMANTIC\s+VIEW\s+("(?:[^"]|"")+"|[\w$]+)\s*$/i.exec(sql);
  const model = describe ? models.get(identifierOf(tokenize(describe[1]!)[0]!)!) : undefined;
  if (model === undefined) return undefined;
  const rows: (string | null)[][] = [];
  if (model.comment !== undefined) rows.push([null, null, null, "COMMENT", model.comment]);
  for (const m of model.members) {
    const kind = m.kind.toUpperCase();
    const table = m.table.toUpperCase();
    rows.push([kind, m.name.toUpperCase(), table, "DATA_TYPE", snowflakeType(m.type)]);
  }
  return {
    rowtype: ["object_kind", "object_name", "parent_entity", "property", "property_value"].map(textColumn),
    rowset: rows,
  };
}

const significant = (tokens: readonly Token[]) => tokens.filter((t) => t.kind !== "space" && t.kind !== "comment");

/** `SEMANTIC_VIEW(model ...)` calls replaced by placeholders; `restore` puts their semantic_view() subqueries back. */
export function extractModelViewCalls(
  sql: string,
  models: ReadonlyMap<string, LoadedModelView>,
): { sql: string; restore: (translated: string) => string } {
  if (models.size === 0) return { sql, restore: (s) => s };
  const tokens = tokenize(sql);
  const out: Token[] = [];
  const subqueries: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const open = isKeyword(t, "SEMANTIC_VIEW") ? tokens.findIndex((x, j) => j > i && x.kind !== "space") : -1;
    const nameToken = open < 0 ? undefined : significant(tokens.slice(open + 1))[0];
    const named = nameToken === undefined ? undefined : identifierOf(nameToken);
    const model = named === undefined ? undefined : models.get(named);
    if (open < 0 || tokens[open]?.text !== "(" || model === undefined) {
      out.push(t);
      continue;
    }
    let depth = 0;
    let close = open;
    for (; close < tokens.length; close++) {
      if (tokens[close]!.text === "(") depth++;
      else if (tokens[close]!.text === ")" && --depth === 0) break;
    }
    subqueries.push(modelQuery(model, significant(tokens.slice(open + 1, close))));
    out.push({ kind: "word", text: `__stand_in_model_${subqueries.length - 1}__` });
    i = close;
  }
  return {
    sql: untokenize(out),
    restore: (translated) => translated.replace(/__stand_in_model_(\d+)__/g, (_m, n: string) => subqueries[Number(n)]!),
  };
}

function modelQuery(model: LoadedModelView, tokens: readonly Token[]): string {
  const lists: Record<"DIMENSIONS" | "METRICS" | "FACTS", string[]> = { DIMENSIONS: [], METRICS: [], FACTS: [] };
  const select: string[] = [];
  let i = 1;
  while (i < tokens.length) {
    const clause = tokens[i]!.text.toUpperCase();
    if (clause === "WHERE")
      throw new StandInSqlError("the stand-in answers no WHERE on a model view", "000002", "0A000");
    if (!(clause in lists))
      throw new StandInSqlError(
        `SQL compilation error:\nsyntax error: unexpected '${tokens[i]!.text}'`,
        "001003",
        "42000",
      );
    i++;
    for (;;) {
      const parts = [identifierOf(tokens[i]!)!];
      while (tokens[i + 1]?.text === "." && tokens[i + 2]) {
        parts.push(identifierOf(tokens[i + 2]!)!);
        i += 2;
      }
      i++;
      let alias = parts.at(-1)!;
      if (isKeyword(tokens[i], "AS")) {
        alias = identifierOf(tokens[i + 1]!)!;
        i += 2;
      }
      lists[clause as keyof typeof lists].push(
        `'${parts
          .map((p) => quoteIdentifier(p))
          .join(".")
          .replaceAll("'", "''")}'`,
      );
      select.push(`${quoteIdentifier(parts.at(-1)!)} AS ${quoteIdentifier(alias)}`);
      if (tokens[i]?.text !== ",") break;
      i++;
    }
  }
  const params = Object.entries(lists)
    .filter(([, items]) => items.length > 0)
    .map(([clause, items]) => `${clause.toLowerCase()} := [${items.join(", ")}]`);
  return `(SELECT ${select.join(", ")} FROM semantic_view('${model.name.toLowerCase()}', ${params.join(", ")}))`;
}

/** Loads model views: defines each on the engine and reads its members. */
export async function loadModelViews(
  engine: StandInSemanticEngine,
  models: readonly SnowflakeModelView[],
): Promise<Map<string, LoadedModelView>> {
  const loaded = new Map<string, LoadedModelView>();
  for (const model of models) {
    await engine.define(model.engineDdl);
    const view = model.name.toLowerCase();
    const members = await engine.members(view);
    const groupable = new Map<string, ModelMember[]>();
    for (const metric of members.filter((m) => m.kind === "metric")) {
      const dimensions: ModelMember[] = [];
      for (const d of members.filter((m) => m.kind === "dimension")) {
        if (await engine.groupable(view, metric.name, d.name)) dimensions.push(d);
      }
      groupable.set(metric.name.toUpperCase(), dimensions);
    }
    loaded.set(model.name, { ...model, members, groupable });
  }
  return loaded;
}
