/**
 * The reads of a metric view Databricks resolves, as the stand-in enforces them. Spark's
 * ResolveMetricView (apache/spark, SPARK-54119) rewrites only an Aggregate over the metric view (a
 * query with MEASURE(), GROUP BY or another aggregate); a plain projection of a metric view is never
 * resolved, and `SELECT *` is refused with UNSUPPORTED_METRIC_VIEW_USAGE.SELECT_STAR_NOT_SUPPORTED
 * (docs.databricks.com/error-messages/unsupported-metric-view-usage-error-class, SQLSTATE 0A000).
 */
import { StandInSqlError } from "./metric-view-sql.js";

const AGGREGATE = /\bGROUP\s+BY\b|\b(?:MEASURE|COUNT|SUM|MIN|MAX|AVG|ANY_VALUE)\s*\(/i;

/** Throws what Databricks reports for a read of a metric view it does not resolve. `sql` has no string literals. */
export function checkMetricViewRead(sql: string): void {
  if (/\bSELECT\s+(?:ALL\s+|DISTINCT\s+)?\*/i.test(sql)) {
    throw new StandInSqlError(
      "UNSUPPORTED_METRIC_VIEW_USAGE.SELECT_STAR_NOT_SUPPORTED",
      "0A000",
      "SELECT * is not supported in metric views.",
    );
  }
  if (!AGGREGATE.test(sql)) {
    throw new StandInSqlError(
      "UNSUPPORTED_METRIC_VIEW_USAGE.UNCATEGORIZED",
      "0A000",
      "The current metric view usage is not supported. Please check the documentation for the supported use cases.",
    );
  }
}
