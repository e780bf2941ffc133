/** How a cursor turns row arrays (or column-major chunks) into row objects, and checks the `validate` option of `into()`. */
import type { ColumnInfo, ResultStream } from "../driver/query-result.js";
import { columnObjectBuilder, rowObjectsOf, type RowObjectBuilder } from "../driver/row-objects.js";
import { LibError } from "../errors.js";
import { compileColumnMapper, compileRowMapper } from "../mapping/model-plan.js";
import { VALIDATE_MODES, type IntoOptions, type ValidateMode } from "../mapping/validate-mode.js";
import type { TSchema } from "typebox";
import type { ChunkRowMapper, ChunkRows } from "./row-iterator.js";

/** Builders of a frozen column list (the plan one prepared statement's results share): found without a key. */
const byColumns = new WeakMap<readonly ColumnInfo[], RowObjectBuilder>();

function rowObjectFactory(columns: readonly ColumnInfo[]): RowObjectBuilder {
  const known = byColumns.get(columns);
  if (known !== undefined) return known;
  const builder = rowObjectsOf(columns.map((c) => c.name));
  if (Object.isFrozen(columns)) byColumns.set(columns, builder);
  return builder;
}

/**
 * Asks the driver for column-major chunks (normalized values, one array per column) for a streamed
 * row read: the row objects are then built straight from the columns, with no row array per row.
 * Called before the first chunk is read; a result held in memory keeps its rows.
 */
function columnar(stream: ResultStream, columns: readonly ColumnInfo[]): boolean {
  return columns.length > 0 && stream.preferColumns?.() === true;
}

/** How `iterInto()` reads each chunk's rows: model objects, from columns where the driver gives them. */
export function modelRows<T>(
  stream: ResultStream,
  columns: readonly ColumnInfo[],
  model: TSchema,
  mode: ValidateMode,
): ChunkRows<T> {
  if (columnar(stream, columns))
    return { columnar: true, map: compileColumnMapper(model, columns, mode) as ChunkRowMapper<T> };
  const map = compileRowMapper(model, columns, mode);
  return { columnar: false, map: (chunk, position, index) => map(chunk[position]!, index) as T };
}

/** How `stream()` reads each chunk's rows: row objects, from columns where the driver gives them. */
export function objectRows<T>(
  stream: ResultStream,
  columns: readonly ColumnInfo[],
  rowObjects: () => RowObjectBuilder,
): ChunkRows<T> {
  if (columnar(stream, columns))
    return { columnar: true, map: columnObjectBuilder(columns.map((c) => c.name)) as ChunkRowMapper<T> };
  const toObject = rowObjects();
  return { columnar: false, map: (chunk, position) => toObject(chunk[position]!) as T };
}

/**
 * Every remaining row of column-major chunks (asked for before the first chunk was read; `pull` gives
 * the next, undefined at the end): built straight from the columns, with no row array per row.
 */
export async function readColumns<T>(
  pull: () => Promise<unknown[][] | undefined>,
  map: ChunkRowMapper<T>,
): Promise<T[]> {
  const out: T[] = [];
  let index = 0;
  for (let chunk = await pull(); chunk !== undefined; chunk = await pull()) {
    const length = chunk[0]?.length ?? 0;
    for (let position = 0; position < length; position++) out.push(map(chunk, position, index++));
  }
  return out;
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
