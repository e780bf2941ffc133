/**
 * Function classes: which calls aggregate rows and which run over a window. CREATE validation (does
 * a metric aggregate? does a fact?), window-metric parsing and expansion (which calls get the
 * phantom-row guard) all ask here, so they always agree.
 */
import type { Token } from "./lexer.js";
import { isKeyword, isPunct } from "./tokens.js";

/** DuckDB's aggregate functions (lower case). */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set([
  "sum",
  "count",
  "count_star",
  "count_if",
  "countif",
  "avg",
  "mean",
  "min",
  "max",
  "median",
  "mode",
  "any_value",
  "arbitrary",
  "first",
  "last",
  "list",
  "array_agg",
  "string_agg",
  "group_concat",
  "listagg",
  "stddev",
  "stddev_samp",
  "stddev_pop",
  "variance",
  "var_samp",
  "var_pop",
  "approx_count_distinct",
  "approx_quantile",
  "approx_top_k",
  "quantile",
  "quantile_cont",
  "quantile_disc",
  "reservoir_quantile",
  "bool_and",
  "bool_or",
  "every",
  "bit_and",
  "bit_or",
  "bit_xor",
  "bitstring_agg",
  "product",
  "fsum",
  "sumkahan",
  "kahan_sum",
  "sum_no_overflow",
  "favg",
  "weighted_avg",
  "wavg",
  "arg_max",
  "arg_min",
  "argmax",
  "argmin",
  "arg_max_null",
  "arg_min_null",
  "max_by",
  "min_by",
  "corr",
  "covar_pop",
  "covar_samp",
  "entropy",
  "kurtosis",
  "kurtosis_pop",
  "skewness",
  "histogram",
  "histogram_exact",
  "geomean",
  "geometric_mean",
  "mad",
  "regr_avgx",
  "regr_avgy",
  "regr_count",
  "regr_intercept",
  "regr_r2",
  "regr_slope",
  "regr_sxx",
  "regr_sxy",
  "regr_syy",
]);

/**
 * The aggregate (lower case) that `token` calls, given its significant neighbours, or undefined: an
 * unquoted aggregate name followed by `(` and not qualified (`my_schema.sum(...)` is a user function).
 */
export function aggregateCalled(prev: Token | undefined, token: Token, next: Token | undefined): string | undefined {
  if (token.kind !== "ident" || isPunct(prev, ".") || !isPunct(next, "(")) return undefined;
  const name = token.value.toLowerCase();
  return AGGREGATE_FUNCTIONS.has(name) ? name : undefined;
}

/** `OVER (`: the call before it is a window function. */
export const opensWindow = (token: Token | undefined, next: Token | undefined): boolean =>
  isKeyword(token, "OVER") && isPunct(next, "(");

/** True when significant `tokens` call a window function (`OVER (` at any depth). */
export const callsWindowFunction = (tokens: readonly Token[]): boolean =>
  tokens.some((t, i) => opensWindow(t, tokens[i + 1]));
