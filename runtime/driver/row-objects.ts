/**
 * Row objects from row arrays (or from column-major chunks): one own, enumerable property per column,
 * in result order. A column named `__proto__` is an own property too: assigning it would set (or
 * silently ignore) the object's prototype and lose the column. Duplicate names keep the last value at
 * the first position, as assigning them in order does.
 *
 * The literal builders are generated from the column names as one object literal,
 * `(row) => ({ "country": row[0], "revenue": row[1] })`: V8 then allocates each row object with its
 * final shape and exactly its own slots, where adding the properties one by one (the generic builder)
 * walks a shape transition per property — about 3× slower and a fifth larger per row. The names are
 * written as JSON string literals, so any text is a key and nothing else; `__proto__` as a computed
 * key, which defines an own property. Where the process forbids code generation from strings
 * (`--disallow-code-generation-from-strings`) the generic builder serves.
 */
export type RowObjectBuilder = (row: readonly unknown[]) => Record<string, unknown>;
/** Column-major chunk (one array per column), row position in it → row object. */
export type ColumnObjectBuilder = (
  columns: readonly (readonly unknown[])[],
  position: number,
) => Record<string, unknown>;

/** The row at `position` of a column-major chunk, as a row array (for the generic builders and mappers). */
export function rowAt(columns: readonly (readonly unknown[])[], position: number): unknown[] {
  return columns.map((column) => column[position]);
}

/** The generic builder: properties added one by one. */
export function rowObjectBuilder(names: readonly string[]): RowObjectBuilder {
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

interface LiteralBuilders {
  readonly rows: RowObjectBuilder;
  readonly columns: ColumnObjectBuilder;
}

/** Builders by column list (JSON text of the names); the oldest goes first beyond the bound. */
const builders = new Map<string, LiteralBuilders | null>();
const MAX_BUILDERS = 256;

function literalBuilders(names: readonly string[]): LiteralBuilders | null {
  const key = JSON.stringify(names);
  let found = builders.get(key);
  if (found === undefined) {
    found = generate(names);
    builders.set(key, found);
    if (builders.size > MAX_BUILDERS) builders.delete(builders.keys().next().value!);
  }
  return found;
}

/** The literal row-array builder for these column names, or undefined where none can be generated. */
export function literalRowObjects(names: readonly string[]): RowObjectBuilder | undefined {
  return literalBuilders(names)?.rows;
}

/** The builder of row objects from row arrays: the literal one where it can be generated, else the generic one. */
export function rowObjectsOf(names: readonly string[]): RowObjectBuilder {
  return literalRowObjects(names) ?? rowObjectBuilder(names);
}

/** The builder of row objects from column-major chunks: the literal one where it can be generated. */
export function columnObjectBuilder(names: readonly string[]): ColumnObjectBuilder {
  const literal = literalBuilders(names)?.columns;
  if (literal !== undefined) return literal;
  const generic = rowObjectBuilder(names);
  return (columns, position) => generic(rowAt(columns, position));
}

/** A property name as an object-literal key that defines an own property named exactly so. */
export function literalKey(name: string): string {
  const literal = JSON.stringify(name);
  return name === "__proto__" ? `[${literal}]` : literal;
}

function generate(names: readonly string[]): LiteralBuilders | null {
  const properties = (read: (i: number) => string) =>
    names.map((name, i) => `${literalKey(name)}: ${read(i)}`).join(", ");
  try {
    return {
      rows: new Function("row", `"use strict"; return { ${properties((i) => `row[${i}]`)} };`) as RowObjectBuilder,
      columns: new Function(
        "columns",
        "position",
        `"use strict"; return { ${properties((i) => `columns[${i}][position]`)} };`,
      ) as ColumnObjectBuilder,
    };
  } catch {
    return null;
  }
}
