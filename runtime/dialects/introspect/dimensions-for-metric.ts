/**
 * `SHOW SEMANTIC DIMENSIONS IN v FOR METRIC m`, which backend A (Snowflake) and backend C (the
 * `semantic_views` extension and the built-in engine) both answer with `table_name, name, data_type,
 * required` (Snowflake adds `synonyms, comment`): the dimensions the metric can be grouped by.
 */
import {
  cell,
  queryObjects,
  text,
  type DimensionRef,
  type IntrospectionSource,
  type MemberMetadata,
} from "./metadata.js";
import { quotedIdentifier } from "./sql-text.js";

export interface GroupableDimension extends DimensionRef {
  /** A window metric's PARTITION BY / ORDER BY dimension, which a query of the metric must include. */
  readonly required: boolean;
}

/** The listing for `metric` of `view` (its name qualified by its table when `qualify` is set). */
export async function dimensionsForMetric(
  source: IntrospectionSource,
  view: string,
  metric: MemberMetadata,
  qualify: boolean,
): Promise<GroupableDimension[]> {
  const name =
    qualify && metric.table !== undefined
      ? `${quotedIdentifier(metric.table)}.${quotedIdentifier(metric.name)}`
      : quotedIdentifier(metric.name);
  const rows = await queryObjects(source, `SHOW SEMANTIC DIMENSIONS IN ${quotedIdentifier(view)} FOR METRIC ${name}`);
  return rows.map((row) => ({
    name: text(cell(row, "name")),
    table: text(cell(row, "table_name")) || undefined,
    required: isTrue(cell(row, "required")),
  }));
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === "string" && value.toLowerCase() === "true");
}

/** Metric names that several logical tables of one view share (they must be qualified). */
export function sharedMetricNames(members: readonly MemberMetadata[]): Set<string> {
  const seen = new Map<string, number>();
  for (const m of members) if (m.kind === "metric") seen.set(m.name, (seen.get(m.name) ?? 0) + 1);
  return new Set([...seen].filter(([, count]) => count > 1).map(([name]) => name));
}
