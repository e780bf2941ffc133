import type { FilterValue } from "./filter-value.js";

/**
 * A variable a view declares (backend A: a semantic-view VARIABLE; backend B: a metric-view parameter).
 * Frozen; identifiers come only from declarations.
 */
export interface VariableNode {
  readonly kind: "VariableNode";
  readonly viewName: string;
  /** The declared (property) name, as `.variables({ name })` takes it. */
  readonly name: string;
  /** The variable's name in the warehouse; compilers quote it per dialect. */
  readonly warehouseName: string;
  /** The view defines no default for it: every query must set it. */
  readonly required: boolean;
}

/** A value a query sets for a variable: always data, bound as a parameter. */
export interface VariableValueNode {
  readonly kind: "VariableValueNode";
  readonly variable: VariableNode;
  readonly value: FilterValue;
}

export const VariableNode = Object.freeze({
  create(viewName: string, name: string, warehouseName: string, required: boolean): VariableNode {
    return Object.freeze({ kind: "VariableNode", viewName, name, warehouseName, required });
  },
  value(variable: VariableNode, value: FilterValue): VariableValueNode {
    return Object.freeze({ kind: "VariableValueNode", variable, value });
  },
});
