/**
 * A declared warehouse name (a view name, or a member's `{ name }`), split into its dot-separated
 * parts. A part written in double quotes is exact: `"revenue"` is the name created quoted in lower
 * case, which backend A must send as written (a bare `revenue` stands for Snowflake's folded `REVENUE`).
 * Inside quotes a dot is part of the name and `""` is one quote, as in Snowflake's own SQL; only a part
 * that starts with a quote is quoted (`A"b` is taken as written).
 * Backends B and C have no case folding: they use the parts' text.
 */

export interface NamePart {
  readonly text: string;
  /** Written in double quotes: the warehouse stores it exactly so. */
  readonly exact: boolean;
}

const cache = new Map<string, readonly NamePart[]>();

/**
 * The parts of `name`; throws an Error for an unterminated quote or an empty part (declarations check
 * their names when they are written and report a ValidationError naming the option).
 */
export function warehouseNameParts(name: string): readonly NamePart[] {
  let parts = cache.get(name);
  if (parts === undefined) {
    parts = Object.freeze(parse(name));
    if (cache.size > 10_000) cache.clear();
    cache.set(name, parts);
  }
  return parts;
}

/** The name without quotes, parts joined by dots (what backends B and C refer to). */
export function plainWarehouseName(name: string): string {
  return name.includes('"')
    ? warehouseNameParts(name)
        .map((p) => p.text)
        .join(".")
    : name;
}

/** `"text"` with quotes doubled: the exact form of one part. */
export function exactNamePart(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

function parse(name: string): NamePart[] {
  const parts: NamePart[] = [];
  let i = 0;
  const fail = (why: string) => new Error(`warehouse name ${JSON.stringify(name)}: ${why}`);
  for (;;) {
    if (name[i] === '"') {
      let text = "";
      let j = i + 1;
      for (;;) {
        if (j >= name.length) throw fail("unterminated double quote");
        if (name[j] === '"') {
          if (name[j + 1] !== '"') break;
          text += '"';
          j += 2;
        } else text += name[j++];
      }
      if (text === "") throw fail("an empty quoted part");
      parts.push({ text, exact: true });
      i = j + 1;
    } else {
      const dot = name.indexOf(".", i);
      const text = name.slice(i, dot < 0 ? name.length : dot);
      if (text === "") throw fail("an empty part");
      parts.push({ text, exact: false });
      i = dot < 0 ? name.length : dot;
    }
    if (i >= name.length) return parts;
    if (name[i] !== ".") throw fail("a quoted part must be followed by a dot or the end");
    i++;
  }
}
