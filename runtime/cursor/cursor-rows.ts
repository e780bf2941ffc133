/** How a cursor turns row arrays into row objects, and checks the `validate` option of `into()`. */
import type { ColumnInfo } from "../driver/query-result.js";
import { LibError } from "../errors.js";
import { VALIDATE_MODES, type IntoOptions, type ValidateMode } from "../mapping/validate-mode.js";

export function rowObjectFactory(columns: readonly ColumnInfo[]): (row: readonly unknown[]) => Record<string, unknown> {
  const names = columns.map((c) => c.name);
  const protoAt = names.indexOf("__proto__");
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      if (i === protoAt)
        Object.defineProperty(out, "__proto__", {
          value: row[i],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[names[i]!] = row[i];
    }
    return out;
  };
}

const sharedFactories = new WeakMap<readonly ColumnInfo[], (row: readonly unknown[]) => Record<string, unknown>>();

/** `rowObjectFactory` made once per columns array (a cached result's, which all its readers share). */
export function sharedRowObjectFactory(
  columns: readonly ColumnInfo[],
): (row: readonly unknown[]) => Record<string, unknown> {
  let factory = sharedFactories.get(columns);
  if (factory === undefined) sharedFactories.set(columns, (factory = rowObjectFactory(columns)));
  return factory;
}

export function validateModeOf(options: IntoOptions | undefined, method: string): ValidateMode {
  const mode = options?.validate ?? "strict";
  if (!VALIDATE_MODES.includes(mode)) {
    throw new LibError(
      `${method}: validate must be one of ${VALIDATE_MODES.map((m) => `"${m}"`).join(", ")}, got ${JSON.stringify(mode)}`,
    );
  }
  return mode;
}
