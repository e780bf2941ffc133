/**
 * A row array → row object builder: one own, enumerable property per column, in result order. A
 * column named `__proto__` is defined as an own property too: assigning it would set (or silently
 * ignore) the object's prototype and lose the column.
 */
export type RowObjectBuilder = (row: readonly unknown[]) => Record<string, unknown>;

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
