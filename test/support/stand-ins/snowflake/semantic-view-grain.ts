/**
 * Snowflake's grouping rule for the stand-in's views: "the logical table for the dimension must be
 * related to the logical table for the metric [and] must have an equal or lower level of granularity"
 * (docs: querying semantic views; SHOW SEMANTIC DIMENSIONS FOR METRIC). A member's logical table is the
 * prefix of its key (`ORDERS.REVENUE`) or the view's base table; `relationships` are many-to-one
 * (`[ORDERS, CUSTOMERS]`: many orders per customer), so a dimension qualifies when its table is the
 * metric's or reachable from it along relationships. The stand-in answers `SHOW SEMANTIC DIMENSIONS IN v
 * FOR METRIC m` with the documented columns and refuses queries that pair a metric with any other dimension.
 */
import { StandInSqlError, type StandInSemanticView } from "./semantic-view-sql.js";
import { identifierOf, tokenize } from "./sql-tokens.js";

/** The logical table of a member key, upper case. */
export function logicalTable(view: StandInSemanticView, key: string): string {
  const dot = key.indexOf(".");
  return dot < 0 ? view.table.toUpperCase() : key.slice(0, dot);
}

function reachableFrom(view: StandInSemanticView, table: string): Set<string> {
  const seen = new Set([table]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [from, to] of view.relationships ?? []) {
      if (seen.has(from) && !seen.has(to)) {
        seen.add(to);
        grew = true;
      }
    }
  }
  return seen;
}

/** The dimension keys `metricKey` can be grouped by. */
export function groupableDimensions(view: StandInSemanticView, metricKey: string): string[] {
  const tables = reachableFrom(view, logicalTable(view, metricKey));
  return Object.keys(view.dimensions).filter((d) => tables.has(logicalTable(view, d)));
}

/** Throws Snowflake's compilation error when a selected dimension is not groupable with a selected metric. */
export function checkGrain(
  view: StandInSemanticView,
  metricKeys: readonly string[],
  dimensionKeys: readonly string[],
): void {
  for (const metric of metricKeys) {
    const allowed = groupableDimensions(view, metric);
    const refused = dimensionKeys.find((d) => !allowed.includes(d));
    if (refused === undefined) continue;
    // The rule is documented; the error code and exact wording of the refusal are not (a compilation error).
    throw new StandInSqlError(
      `SQL compilation error:\nInvalid dimension specified: The dimension entity '${logicalTable(view, refused)}' ` +
        `must be related to and have an equal or lower level of granularity compared to the base metric or ` +
        `dimension entity '${logicalTable(view, metric)}'.`,
      "002006",
      "42601",
    );
  }
}

const FOR_METRIC = /^\s*SHOW\s+SEMANTIC\s+DIMENSIONS\s+IN\s+([\s\S]+?)\s+FOR\s+METRIC\s+([\s\S]+?)\s*$/i;

/** `SHOW SEMANTIC DIMENSIONS IN v FOR METRIC m` as rows of the documented columns, or undefined for other SQL. */
export function answerDimensionsForMetric(
  sql: string,
  views: ReadonlyMap<string, StandInSemanticView>,
): { columns: string[]; rows: (string | null)[][] } | undefined {
  const match = FOR_METRIC.exec(sql);
  if (match === null) return undefined;
  const name = (text: string) =>
    tokenize(text)
      .filter((t) => t.kind !== "space")
      .map((t) => (t.text === "." ? "." : (identifierOf(t) ?? t.text)))
      .join("");
  const view = views.get(name(match[1]!).split(".").at(-1)!);
  if (view === undefined) {
    throw new StandInSqlError(
      `SQL compilation error:\nSemantic view '${name(match[1]!)}' does not exist or not authorized.`,
      "002003",
      "42S02",
    );
  }
  const metric = name(match[2]!);
  const metricKey =
    metric in view.metrics ? metric : Object.keys(view.metrics).find((k) => k.slice(k.indexOf(".") + 1) === metric);
  if (metricKey === undefined) {
    throw new StandInSqlError(`SQL compilation error:\ninvalid identifier '${metric}'`, "000904", "42000");
  }
  const rows = groupableDimensions(view, metricKey).map((key) => [
    logicalTable(view, key),
    key.slice(key.indexOf(".") + 1),
    view.dataTypes?.[key] ?? "VARCHAR(16777216)",
    "false",
    "[]",
    "",
  ]);
  return { columns: ["table_name", "name", "data_type", "required", "synonyms", "comment"], rows };
}
