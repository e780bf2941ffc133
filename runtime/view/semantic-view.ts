/**
 * `SemanticView(viewName, fields)`: the base class of a declared semantic view.
 *
 * ```ts
 * export class Sales extends SemanticView("sales", {
 *   revenue: Metric<bigint>(),
 *   country: Dimension<string>(),
 * }) {}
 * Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
 * ```
 */
import { ValidationError } from "../errors.js";
import type { FieldKind } from "../operation-node/field-node.js";
import { SemanticQuery, type EmptyRow } from "../query/semantic-query.js";
import { createField, type Field } from "./field.js";
import { isFieldSpec, type FieldSpec } from "./field-spec.js";
import { validateFieldName, validateViewName, type ReservedFieldName } from "./names.js";

declare const SPEC_VALUE_OF: unique symbol;

export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

type SpecKind<S> = S extends FieldSpec<infer K, unknown> ? K : never;
type SpecValue<S> = S extends FieldSpec<FieldKind, infer T> ? T : never;

/** The static field members of a view class. */
export type BoundFields<V extends string, F extends FieldSpecs> = {
  readonly [N in keyof F & string]: Field<SpecKind<F[N]>, SpecValue<F[N]>, N, V>;
};

/** The static members every view class has. */
export interface SemanticViewStatics<V extends string> {
  /** The view's name in the warehouse. */
  readonly viewName: V;
  /** A new, empty query over this view. */
  query(): SemanticQuery<V, EmptyRow>;
}

/** Instances carry nothing: a view class is used through its static members. */
export interface SemanticViewInstance {
  readonly [SPEC_VALUE_OF]?: never;
}

export type SemanticViewClass<V extends string, F extends FieldSpecs> = (new () => SemanticViewInstance) &
  SemanticViewStatics<V> &
  BoundFields<V, F>;

/** Field declarations with the reserved names turned into type errors. */
type NoReservedNames<F> = string extends keyof F ? unknown : { readonly [K in keyof F & ReservedFieldName]: never };

export function SemanticView<const V extends string, const F extends FieldSpecs>(
  viewName: V,
  fields: F & NoReservedNames<F>,
): SemanticViewClass<V, F> {
  validateViewName(viewName);
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw new ValidationError(`SemanticView("${viewName}"): fields must be an object of Metric()/Dimension()/Fact()`, {
      source: `SemanticView("${viewName}")`,
    });
  }
  const Base = class {};
  Object.defineProperty(Base, "viewName", { value: viewName, enumerable: true });
  Object.defineProperty(Base, "query", { value: () => SemanticQuery.create(viewName), enumerable: false });
  for (const [name, spec] of Object.entries(fields)) {
    validateFieldName(viewName, name);
    if (!isFieldSpec(spec)) {
      throw new ValidationError(
        `SemanticView("${viewName}"): field "${name}" must be Metric(), Dimension() or Fact()`,
        {
          source: `SemanticView("${viewName}")`,
          field: name,
        },
      );
    }
    Object.defineProperty(Base, name, {
      value: createField(viewName, name, spec.fieldKind, spec.warehouseName ?? name),
      enumerable: true,
    });
  }
  return Base as unknown as SemanticViewClass<V, F>;
}
