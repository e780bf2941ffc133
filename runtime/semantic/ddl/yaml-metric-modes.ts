/**
 * The YAML keys of semi-additive and window metrics, in the extension's serde layout:
 *   non_additive_by: [{dimension, order: Asc|Desc, nulls: Last|First}]
 *   window_spec: {window_function, inner_metric, extra_args, excluding_dims, partition_dims,
 *                 order_by: [{expr, order, nulls}], frame_clause}
 * Read for `FROM YAML` (unknown keys ignored, as serde does), written for `read_yaml_from_semantic_view()`.
 */
import type { NonAdditiveDim, NullsOrder, SortOrder, WindowOrderBy, WindowSpec } from "../view-definition.js";

type Obj = Record<string, unknown>;
export type YamlFail = (message: string) => never;

function object(value: unknown, where: string, fail: YamlFail): Obj {
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(`${where} must be a mapping`);
  return value as Obj;
}

function list(value: unknown, where: string, fail: YamlFail): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(`${where} must be a list`);
  return value as unknown[];
}

function text(o: Obj, key: string, where: string, fail: YamlFail, required = false): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return required ? fail(`${where}: '${key}' is required`) : undefined;
  if (typeof v !== "string" && typeof v !== "number") fail(`${where}: '${key}' must be a string`);
  return String(v);
}

function sort(o: Obj, where: string, fail: YamlFail): { order: SortOrder; nulls: NullsOrder } {
  const order = (text(o, "order", where, fail) ?? "Asc").toLowerCase();
  const nulls = (text(o, "nulls", where, fail) ?? "Last").toLowerCase();
  if (order !== "asc" && order !== "desc") fail(`${where}: order must be Asc or Desc`);
  if (nulls !== "first" && nulls !== "last") fail(`${where}: nulls must be First or Last`);
  return { order: order as SortOrder, nulls: nulls as NullsOrder };
}

const strings = (value: unknown, where: string, fail: YamlFail): string[] =>
  list(value, where, fail).map((x, i) =>
    typeof x === "string" || typeof x === "number" ? String(x) : fail(`${where}[${i}] must be a string`),
  );

export function nonAdditiveFromYaml(value: unknown, where: string, fail: YamlFail): NonAdditiveDim[] {
  return list(value, `${where}: 'non_additive_by'`, fail).map((entry, i) => {
    const at = `${where}: non_additive_by[${i}]`;
    const o = object(entry, at, fail);
    return { dimension: text(o, "dimension", at, fail, true)!, ...sort(o, at, fail) };
  });
}

export function windowFromYaml(value: unknown, where: string, fail: YamlFail): WindowSpec | undefined {
  if (value === undefined || value === null) return undefined;
  const at = `${where}: window_spec`;
  const o = object(value, at, fail);
  const orderBy = list(o["order_by"], `${at}: 'order_by'`, fail).map((entry, i): WindowOrderBy => {
    const e = object(entry, `${at}: order_by[${i}]`, fail);
    return {
      dimension: text(e, "expr", `${at}: order_by[${i}]`, fail, true)!,
      ...sort(e, `${at}: order_by[${i}]`, fail),
    };
  });
  return {
    function: text(o, "window_function", at, fail, true)!,
    innerMetric: text(o, "inner_metric", at, fail, true)!,
    extraArgs: strings(o["extra_args"], `${at}: 'extra_args'`, fail),
    excludingDims: strings(o["excluding_dims"], `${at}: 'excluding_dims'`, fail),
    partitionDims: strings(o["partition_dims"], `${at}: 'partition_dims'`, fail),
    orderBy,
    frame: text(o, "frame_clause", at, fail),
  };
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function nonAdditiveToYaml(na: readonly NonAdditiveDim[] | undefined): object[] | undefined {
  if (na === undefined || na.length === 0) return undefined;
  return na.map((e) => ({ dimension: e.dimension, order: capital(e.order), nulls: capital(e.nulls) }));
}

export function windowToYaml(w: WindowSpec | undefined): object | undefined {
  if (w === undefined) return undefined;
  const nonEmpty = (xs: readonly string[]): readonly string[] | undefined => (xs.length > 0 ? xs : undefined);
  return {
    window_function: w.function,
    inner_metric: w.innerMetric,
    extra_args: nonEmpty(w.extraArgs),
    excluding_dims: nonEmpty(w.excludingDims),
    partition_dims: nonEmpty(w.partitionDims),
    order_by:
      w.orderBy.length > 0
        ? w.orderBy.map((o) => ({ expr: o.dimension, order: capital(o.order), nulls: capital(o.nulls) }))
        : undefined,
    frame_clause: w.frame,
  };
}
