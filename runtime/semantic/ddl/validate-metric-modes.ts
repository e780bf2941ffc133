/**
 * CREATE-time rules for semi-additive (`NON ADDITIVE BY`) and window (`OVER`) metrics, with the
 * extension's messages. Names are checked against the declared dimensions and metrics.
 */
import { didYouMean } from "../../text/suggest.js";
import { findReferenced } from "../sql/member-reference.js";
import type { ExpressionInfo } from "./expression-refs.js";
import type { DraftMember } from "./statements.js";

const lower = (s: string): string => s.toLowerCase();
const PLAIN_FUNCTION = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface MetricModeContext {
  readonly dimensions: readonly DraftMember[];
  readonly metrics: readonly DraftMember[];
  readonly fail: (message: string, offset?: number) => never;
}

/** Checks a metric's NON ADDITIVE BY / OVER parts and that it does not compose a window metric. */
export function checkMetricModes(m: DraftMember, info: ExpressionInfo, ctx: MetricModeContext): void {
  const dimNames = ctx.dimensions.map((d) => d.name);
  const hasDim = (reference: string): boolean => findReferenced(ctx.dimensions, reference) !== undefined;
  const qualified = m.table === undefined ? m.name : `${m.table}.${m.name}`;
  const na = m.nonAdditiveBy ?? [];
  if (m.window !== undefined && na.length > 0) {
    ctx.fail(
      `Cannot combine OVER clause with NON ADDITIVE BY on metric '${qualified}'. Use one or the other.`,
      m.position,
    );
  }
  if (m.window !== undefined && m.table === undefined) {
    ctx.fail(
      `OVER clause not allowed on derived metric '${m.name}'. Only qualified metrics (alias.name) can use OVER.`,
      m.position,
    );
  }
  if (na.length > 0 && m.table === undefined) {
    ctx.fail(
      `NON ADDITIVE BY not allowed on derived metric '${m.name}'. Only qualified metrics (alias.name) can be semi-additive.`,
      m.position,
    );
  }
  for (const entry of na) {
    if (!hasDim(entry.dimension)) {
      ctx.fail(
        `NON ADDITIVE BY dimension '${entry.dimension}' on metric '${m.name}' does not match any declared dimension.${didYouMean(entry.dimension, dimNames)}`,
        m.position,
      );
    }
  }
  const w = m.window;
  if (w === undefined) {
    // A window metric's value exists only per query row: it cannot be used inside another expression.
    for (const ref of info.refs) {
      const target = ctx.metrics.find(
        (x) =>
          x !== m &&
          lower(x.name) === lower(ref.name) &&
          (ref.qualifier === undefined || lower(x.table ?? "") === lower(ref.qualifier)),
      );
      if (target?.window !== undefined) {
        ctx.fail(
          `metric '${m.name}' references window metric '${target.name}'; window metrics cannot be used inside other metric expressions`,
          m.exprPosition < 0 ? -1 : m.exprPosition + ref.position,
        );
      }
    }
    return;
  }
  const where = `Window metric '${m.name}'`;
  if (!PLAIN_FUNCTION.test(w.function))
    ctx.fail(`${where}: window function name '${w.function}' must be a plain identifier`, m.exprPosition);
  const others = ctx.metrics.filter((x) => x !== m);
  const metricNames = others.map((x) => x.name);
  if (findReferenced(others, w.innerMetric) === undefined) {
    ctx.fail(
      `${where}: inner metric '${w.innerMetric}' not found in semantic view metrics.${didYouMean(w.innerMetric, metricNames)}`,
      m.exprPosition,
    );
  }
  if (w.excludingDims.length > 0 && w.partitionDims.length > 0) {
    ctx.fail(`${where}: PARTITION BY and PARTITION BY EXCLUDING are mutually exclusive`, m.exprPosition);
  }
  const checkDims = (names: readonly string[], label: string): void => {
    for (const d of names) {
      if (!hasDim(d))
        ctx.fail(
          `${where}: ${label} dimension '${d}' not found in semantic view dimensions.${didYouMean(d, dimNames)}`,
          m.exprPosition,
        );
    }
  };
  checkDims(w.excludingDims, "EXCLUDING");
  checkDims(w.partitionDims, "PARTITION BY");
  checkDims(
    w.orderBy.map((o) => o.dimension),
    "ORDER BY",
  );
}
