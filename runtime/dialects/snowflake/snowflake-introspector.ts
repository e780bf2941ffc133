/**
 * Backend A (account-based warehouse): `SHOW SEMANTIC VIEWS IN SCHEMA` (the session's schema, the
 * same scope unqualified view names resolve in) and `DESCRIBE SEMANTIC VIEW`, whose DATA_TYPE is
 * filled in (e.g. `NUMBER(38,0)`), so no probe is needed; per metric, `SHOW SEMANTIC DIMENSIONS IN v
 * FOR METRIC m` for the dimensions it can be grouped by; the view's variables come from its `GET_DDL`
 * text (their declarations, with or without a default).
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
import { quotedIdentifier, stringLiteral } from "../introspect/sql-text.js";
import { variablesOfDdl } from "./snowflake-variables.js";

/**
 * `SELECT GET_DDL('SEMANTIC_VIEW', '"<name>"')`: the name string is read as an identifier, so the
 * stored name goes in double quotes inside the literal, or a name stored in lower or mixed case
 * (`sales_v`, `MyView`) would be folded to upper case and not found (docs: identifier-literal).
 */
export function getDdlSql(storedName: string): string {
  return `SELECT GET_DDL('SEMANTIC_VIEW', ${stringLiteral(quotedIdentifier(storedName))})`;
}

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
    // Variables (and whether each has a default) are read from the view's DDL.
    const [ddlRow] = await queryObjects(this.#source, getDdlSql(view.name));
    const variables = variablesOfDdl(text(ddlRow === undefined ? undefined : Object.values(ddlRow)[0]));
    return {
      name: view.name,
      comment: described.comment ?? view.comment,
      members,
      ...(variables.length === 0 ? {} : { variables }),
    };
  }
}
