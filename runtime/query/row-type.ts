import type { AnyField, FieldValueType } from "../view/field.js";

/** The row of a query that selects nothing yet. */
export type EmptyRow = Record<never, never>;

/** Flattens an intersection so editors show `{ country: string; revenue: bigint }`. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The row columns contributed by selecting `F`: field name → value type. */
export type RowFromFields<F extends readonly AnyField[]> = {
  [P in F[number] as P["name"]]: FieldValueType<P>;
};

/** Adds the selected fields to a row type. */
export type WithFields<R, F extends readonly AnyField[]> = Simplify<R & RowFromFields<F>>;
