/**
 * How `into()`/`iterInto()` hold a model against the arriving columns:
 * - `"strict"` (default): each model property's type must agree with the type its column arrives as;
 *   checked from the column metadata before any row is converted.
 * - `"coerce"`: convert values when the conversion is exact, fail when it would lose information.
 * - `"none"`: no check; values are passed on as they arrive.
 */
export type ValidateMode = "strict" | "coerce" | "none";

export interface IntoOptions {
  readonly validate?: ValidateMode;
}

export const VALIDATE_MODES: readonly ValidateMode[] = ["strict", "coerce", "none"];
