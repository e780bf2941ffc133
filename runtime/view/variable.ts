/**
 * `Variable()`: a value the view takes at query time. Backend A: a semantic-view variable
 * (`VARIABLES (min_amount NUMBER DEFAULT 100)`, sent as `SEMANTIC_VIEW(... VARIABLES "MIN_AMOUNT" => ?)`);
 * backend B: a metric-view parameter (`parameters:`, sent as the table-valued call ``FROM `mv`(`discount` => ?)``).
 * Declared beside the members; a query sets values with `.variables({ minAmount: 100 })`, typed from
 * the declaration, always bound as parameters. A variable the view gives no default is required: a
 * query that does not set it is a ValidationError before anything is sent.
 */
import { ValidationError } from "../errors.js";
import { VariableNode } from "../operation-node/variable-node.js";
import { warehouseNameParts } from "../operation-node/warehouse-name.js";
import type { SqlScalar } from "./field-spec.js";
import type { ValueInput } from "./field.js";

declare const VARIABLE_VALUE: unique symbol;
const VARIABLE_SPEC_BRAND = Symbol.for("lib.VariableSpec");
const VARIABLE_BRAND = Symbol.for("lib.Variable");

export interface VariableOptions<O extends boolean = boolean> {
  /** The variable's name in the warehouse, when it is not the property name (as `MemberOptions.name`). */
  readonly name?: string | undefined;
  /** The view defines a default, so a query may leave it unset (codegen writes this from the warehouse). */
  readonly optional?: O;
}

export interface VariableSpec<T = unknown, O extends boolean = boolean> {
  readonly fieldKind: "variable";
  readonly warehouseName?: string | undefined;
  readonly optional: O;
  readonly [VARIABLE_VALUE]: T;
}

/** A declared variable bound to its view: `Sales.minAmount`. */
export interface ViewVariable<
  T = unknown,
  O extends boolean = boolean,
  N extends string = string,
  V extends string = string,
> {
  readonly kind: "variable";
  readonly name: N;
  readonly warehouseName: string;
  readonly viewName: V;
  readonly optional: O;
  readonly node: VariableNode;
  readonly [VARIABLE_VALUE]: T;
}

/** A variable with no default (a query must set it). `T` is its value type; default: any scalar. */
export function Variable(options?: VariableOptions<false>): VariableSpec<SqlScalar, false>;
/** A variable the view gives a default (a query may leave it unset). */
export function Variable(options: VariableOptions<true>): VariableSpec<SqlScalar, true>;
export function Variable<T>(options?: VariableOptions<false>): VariableSpec<T, false>;
export function Variable<T>(options: VariableOptions<true>): VariableSpec<T, true>;
export function Variable(options?: VariableOptions): VariableSpec {
  const warehouseName = options?.name;
  const where = { source: "Variable()", field: "name" };
  if (warehouseName !== undefined) {
    if (typeof warehouseName !== "string" || warehouseName.trim() === "") {
      throw new ValidationError(
        `Variable({ name }): name must be a non-empty string, got ${JSON.stringify(warehouseName)}`,
        where,
      );
    }
    try {
      warehouseNameParts(warehouseName);
    } catch (error) {
      throw new ValidationError(`Variable({ name }): ${(error as Error).message}`, where);
    }
  }
  const optional = options?.optional;
  if (optional !== undefined && typeof optional !== "boolean") {
    throw new ValidationError(`Variable({ optional }): expected true or false, got ${JSON.stringify(optional)}`, {
      source: "Variable()",
      field: "optional",
    });
  }
  return Object.freeze({
    fieldKind: "variable",
    warehouseName,
    optional: optional ?? false,
    [VARIABLE_SPEC_BRAND]: true,
  }) as unknown as VariableSpec;
}

export function isVariableSpec(value: unknown): value is VariableSpec {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [VARIABLE_SPEC_BRAND]?: unknown })[VARIABLE_SPEC_BRAND] === true
  );
}

export function isViewVariable(value: unknown): value is ViewVariable {
  return (
    typeof value === "object" && value !== null && (value as { [VARIABLE_BRAND]?: unknown })[VARIABLE_BRAND] === true
  );
}

/** Binds a declared variable to its view (frozen). */
export function createViewVariable(viewName: string, name: string, spec: VariableSpec): ViewVariable {
  const warehouseName = spec.warehouseName ?? name;
  const node = VariableNode.create(viewName, name, warehouseName, !spec.optional);
  return Object.freeze({
    kind: "variable",
    name,
    warehouseName,
    viewName,
    optional: spec.optional,
    node,
    [VARIABLE_BRAND]: true,
    toString: () => `${viewName}.${name}`,
  }) as unknown as ViewVariable;
}

type SpecValue<S> = S extends VariableSpec<infer T, boolean> ? T : never;
type RequiredKeys<F> = { [K in keyof F]: F[K] extends VariableSpec<unknown, false> ? K : never }[keyof F];
type OptionalKeys<F> = { [K in keyof F]: F[K] extends VariableSpec<unknown, true> ? K : never }[keyof F];

/**
 * What `.variables()` takes for a view declared with fields `F`: a value for each required variable,
 * optionally one for each variable with a default. Values are data of the declared type (a numeric
 * variable takes any number, bigint or Decimal).
 */
export type VariableValues<F> = [RequiredKeys<F> | OptionalKeys<F>] extends [never]
  ? NoVariables
  : { readonly [K in RequiredKeys<F> & string]: ValueInput<SpecValue<F[K]>> } & {
      readonly [K in OptionalKeys<F> & string]?: ValueInput<SpecValue<F[K]>> | undefined;
    };

/** The `.variables()` input of a view that declares no variables. */
export type NoVariables = Readonly<Record<string, never>>;
