/**
 * What a query knows about the view it was made from, beyond the view's name: the warehouse name
 * to compile to, and the metric–dimension rules the view was declared with (codegen emits them
 * from `SHOW SEMANTIC DIMENSIONS ... FOR METRIC`). The builder checks a pair as soon as both halves
 * are selected, with the same words as the type-level check.
 */
import { ValidationError } from "../errors.js";

export interface DeclaredView {
  /** The declared name (`sales`, `analytics.sales`): the name fields and errors refer to. */
  readonly viewName: string;
  /** The view's name in the warehouse (warehouse-name.ts syntax); the declared name unless `{ name }` says otherwise. */
  readonly warehouseName: string;
  /** Metric field name → the dimension field names it can be grouped by; a metric not in it is unrestricted. */
  readonly groupableBy: ReadonlyMap<string, readonly string[]> | undefined;
}

/** A view declared without rules: every metric can be grouped by every dimension. */
export function plainView(viewName: string): DeclaredView {
  return Object.freeze({ viewName, warehouseName: viewName, groupableBy: undefined });
}

/**
 * The first pair of `metrics` × `dimensions` the view's rules refuse, as a `ValidationError` naming the
 * metric, the dimension and what the metric can be grouped by; undefined when every pair is allowed.
 * `source` is where the error is reported (`sales.query().dimensions()`).
 */
export function groupingProblem(
  view: DeclaredView,
  metrics: readonly string[],
  dimensions: readonly string[],
  source: string,
  /** Which half was just selected: the error's `field` names it. */
  selected: "metric" | "dimension",
): ValidationError | undefined {
  if (view.groupableBy === undefined) return undefined;
  for (const metric of metrics) {
    const allowed = view.groupableBy.get(metric);
    if (allowed === undefined) continue;
    const refused = dimensions.find((d) => !allowed.includes(d));
    if (refused === undefined) continue;
    const canBe =
      allowed.length === 0 ? "it can be grouped by no dimension" : `it can be grouped by: ${allowed.join(", ")}`;
    return new ValidationError(
      `${source}: metric "${metric}" cannot be grouped by dimension "${refused}" (${canBe}); ` +
        `the semantic view ${view.viewName} refuses the pair (a fan trap, or no join path)`,
      { source, field: selected === "metric" ? metric : refused },
    );
  }
  return undefined;
}
