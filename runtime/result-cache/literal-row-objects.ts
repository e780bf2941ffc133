/**
 * Row objects for results the cache holds: a builder generated from the column names as one object
 * literal, `(row) => ({ "country": row[0], "revenue": row[1] })`. V8 then allocates each row object
 * with its final shape and exactly its own slots, where adding the properties one by one (the
 * cursor's generic builder) walks a shape transition per property: on a dashboard's hits (25–100
 * rows of 2–3 columns) the literal is ~3× faster and a fifth smaller. Made once per column list and
 * shared by every reader of every entry with those columns, so generating it is paid once.
 *
 * The names are the result's column names (from the warehouse), written as JSON string literals, so
 * any text is a key and nothing else; `__proto__` is written as a computed key, which defines an own
 * property, as the generic builder does, instead of setting the prototype. Duplicate names keep the
 * last value at the first position, as assigning them in order does. Where the process forbids
 * code generation from strings (`--disallow-code-generation-from-strings`) there is no builder and
 * the cursor keeps its generic one.
 */

import type { RowObjectBuilder } from "../driver/row-objects.js";

export type { RowObjectBuilder };

/** Builders by column list (JSON text of the names); the oldest goes first beyond the bound. */
const builders = new Map<string, RowObjectBuilder | null>();
const MAX_BUILDERS = 256;

/** The literal builder for rows with these column names, or undefined where none can be generated. */
export function literalRowObjects(names: readonly string[]): RowObjectBuilder | undefined {
  const key = JSON.stringify(names);
  let builder = builders.get(key);
  if (builder === undefined) {
    builder = generate(names);
    builders.set(key, builder);
    if (builders.size > MAX_BUILDERS) builders.delete(builders.keys().next().value!);
  }
  return builder ?? undefined;
}

function generate(names: readonly string[]): RowObjectBuilder | null {
  const properties = names.map((name, i) => {
    const literal = JSON.stringify(name);
    return `${name === "__proto__" ? `[${literal}]` : literal}: row[${i}]`;
  });
  try {
    return new Function("row", `"use strict"; return { ${properties.join(", ")} };`) as RowObjectBuilder;
  } catch {
    return null;
  }
}
