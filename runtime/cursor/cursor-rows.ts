/** How a cursor turns row arrays into row objects, and checks the `validate` option of `into()`. */
import type { ColumnInfo, ResultStream } from "../driver/query-result.js";
import { rowObjectBuilder, type RowObjectBuilder } from "../driver/row-objects.js";
import { LibError } from "../errors.js";
import { VALIDATE_MODES, type IntoOptions, type ValidateMode } from "../mapping/validate-mode.js";

export function rowObjectFactory(columns: readonly ColumnInfo[]): RowObjectBuilder {
  return rowObjectBuilder(columns.map((c) => c.name));
}

/**
 * The row builder for a stream's rows: a result held in memory (a cached one) may hand out the one
 * its readers share; a warehouse result's is made per result.
 */
export function rowObjectsFor(stream: ResultStream): (row: readonly unknown[]) => Record<string, unknown> {
  return stream.rowObjects?.() ?? rowObjectFactory(stream.columns);
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
