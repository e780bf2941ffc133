/**
 * Backend A (account-based warehouse): `SHOW SEMANTIC VIEWS IN SCHEMA` (the session's schema, the
 * same scope unqualified view names resolve in) and `DESCRIBE SEMANTIC VIEW`, whose DATA_TYPE is
 * filled in (e.g. `NUMBER(38,0)`), so no probe is needed; per metric, `SHOW SEMANTIC DIMENSIONS IN v
 * FOR METRIC m` for the dimensions it can be grouped by.
 */
import { foldDescribeRows } from "../introspect/describe-rows.js";
import { dimensionsForMetric, sharedMetricNames } from "../introspect/dimensions-for-metric.js";
import {
  cell,
  queryObjects,
  text,
  type IntrospectionSource,
  type Introspector,
  type ViewMetadata,
  type ViewSummary,
} from "../introspect/metadata.js";
import { quotedIdentifier } from "../introspect/sql-text.js";

export class SnowflakeIntrospector implements Introspector {
  readonly #source: IntrospectionSource;

  constructor(source: IntrospectionSource) {
    this.#source = source;
  }

  async listViews(): Promise<ViewSummary[]> {
    const rows = await queryObjects(this.#source, "SHOW SEMANTIC VIEWS IN SCHEMA");
    return rows.map((row) => ({ name: text(cell(row, "name")), comment: text(cell(row, "comment")) || undefined }));
  }

  async describeView(view: ViewSummary): Promise<ViewMetadata> {
    const rows = await queryObjects(this.#source, `DESCRIBE SEMANTIC VIEW ${quotedIdentifier(view.name)}`);
    const described = foldDescribeRows(rows);
    const shared = sharedMetricNames(described.members);
    const members = [];
    for (const member of described.members) {
      if (member.kind !== "metric") {
        members.push(member);
        continue;
      }
      const listed = await dimensionsForMetric(this.#source, view.name, member, shared.has(member.name));
      members.push({ ...member, groupableBy: listed.map(({ name, table }) => ({ name, table })) });
    }
    return { name: view.name, comment: described.comment ?? view.comment, members };
  }
}
