/** Names the generator derives from warehouse names: class names, file names, keys, titles. */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield await any boolean number string symbol " +
    "bigint object unknown never undefined arguments eval"
  ).split(" "),
);

/**
 * Names a generated module imports or uses besides its own exports: every `lib` name the generator
 * may import (view factories, value class, schema helpers), TypeBox's `Type`, and the globals the
 * emitted code refers to. No generated export may take one of these.
 */
export const TAKEN_BY_IMPORTS: ReadonlySet<string> = new Set([
  "Dimension",
  "Metric",
  "Fact",
  "SemanticView",
  "Decimal",
  "DecimalType",
  "DateType",
  "BigIntType",
  "LibType",
  "Type",
  "Object",
  "Date",
  "Array",
  "Promise",
  "Symbol",
  "BigInt",
  "Number",
  "String",
  "Boolean",
  "Error",
  "Map",
  "Set",
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** Words of a warehouse name: split on non-alphanumerics and camelCase humps. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
}

/** `sales` → `Sales`, `order_facts` → `OrderFacts`, `SALES` → `Sales`, `2024 kpis` → `View2024Kpis`. */
export function pascalCase(name: string): string {
  let result = words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join("");
  if (result === "") result = "View";
  if (/^[0-9]/.test(result)) result = `View${result}`;
  if (TAKEN_BY_IMPORTS.has(result)) result = `${result}View`;
  return result;
}

/** `Odd View` → `oddView`, `2024 kpis` → `view2024Kpis`: the declared name of a view whose name is not an identifier. */
export function declaredViewName(name: string): string {
  const camel = words(name)
    .map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
    .join("")
    .slice(0, 240);
  if (camel === "") return "view";
  return /^[0-9]/.test(camel) ? `view${camel}` : camel;
}

/** `sales` → `sales`, `Order Facts` → `order-facts`: the module file stem. */
export function fileStem(name: string): string {
  const stem = words(name)
    .map((w) => w.toLowerCase())
    .join("-");
  if (stem === "" || stem === "index") return `view-${stem || "unnamed"}`;
  return stem;
}

/** Property title in the style of a capitalized field name: `country` → `Country`, `order_month` → `Order Month`. */
export function titleOf(name: string): string {
  const parts = name.split(/[_\s]+/).filter((w) => w !== "");
  if (parts.length === 0) return name;
  return parts.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
}

/**
 * Gives each name a unique form (compared case-insensitively, as file systems may): a name that
 * occurs once keeps its form; of a repeated name the first keeps it and the later ones get the
 * smallest free suffix (`Sales`, `Sales2`, ...), skipping every name in `taken` and every natural
 * name, so a view that is really named `sales_2` keeps `Sales2`. Deterministic for a given order.
 */
export function uniqueNames(names: readonly string[], taken: ReadonlySet<string> = new Set()): string[] {
  const key = (name: string) => name.toLowerCase();
  const used = new Set([...taken].map(key));
  for (const name of names) used.add(key(name));
  const given = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    if (given.has(key(name)) || [...taken].some((t) => key(t) === key(name))) {
      for (let n = 2; used.has(key(candidate)); n++) candidate = `${name}${n}`;
      used.add(key(candidate));
    }
    given.add(key(candidate));
    return candidate;
  });
}
