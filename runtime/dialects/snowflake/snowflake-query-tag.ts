/**
 * Backend A's QUERY_TAG (docs.snowflake.com/en/sql-reference/parameters#query-tag: a string of up to
 * 2000 characters that tags the statements of a session; a statement's own `parameters.QUERY_TAG`, as
 * snowflake-sdk sends it per statement, overrides the session's). Warehouse admins group QUERY_HISTORY
 * by it to attribute cost. The default names the library, the view and the selected field names, never
 * a filter value; the `query_tag` setting replaces it, and an empty `query_tag` sends none.
 */
import type { StatementLabel } from "../../driver/database-connection.js";

/** QUERY_TAG's documented maximum length. */
export const QUERY_TAG_MAX = 2000;

/** The QUERY_TAG of one statement, or undefined to send none. */
export function queryTagOf(configured: string | undefined, label: StatementLabel | undefined): string | undefined {
  if (configured !== undefined) return configured === "" ? undefined : configured;
  if (label === undefined) return '{"app":"lib"}';
  let fields = [...label.fields];
  for (;;) {
    const tag = JSON.stringify({
      app: "lib",
      view: label.view,
      fields,
      ...(fields.length < label.fields.length ? { more: label.fields.length - fields.length } : {}),
    });
    if (tag.length <= QUERY_TAG_MAX || fields.length === 0) return tag.slice(0, QUERY_TAG_MAX);
    fields = fields.slice(0, -1);
  }
}
