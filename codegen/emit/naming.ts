/** Names the generator derives from warehouse names: class names, file names, keys, titles. */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield await any boolean number string symbol " +
    "bigint object unknown never undefined arguments eval"
  ).split(" "),
);

/** Names a generated module imports or declares besides the view class. */
const TAKEN_BY_IMPORTS = new Set(["Dimension", "Metric", "SemanticView", "Decimal", "Type", "Object", "Date", "Array", "Promise"]);

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

/** `sales` → `sales`, `Order Facts` → `order-facts`: the module file stem. */
export function fileStem(name: string): string {
  const stem = words(name).map((w) => w.toLowerCase()).join("-");
  if (stem === "" || stem === "index") return `view-${stem || "unnamed"}`;
  return stem;
}

/** Property title in the style of a capitalized field name: `country` → `Country`, `order_month` → `Order Month`. */
export function titleOf(name: string): string {
  const parts = name.split(/[_\s]+/).filter((w) => w !== "");
  if (parts.length === 0) return name;
  return parts.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
}

/** Gives each name a unique form: the second `Sales` becomes `Sales2`, and so on. */
export function uniqueNames(names: readonly string[], taken: ReadonlySet<string> = new Set()): string[] {
  const used = new Set(taken);
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()) || used.has(candidate); n++) candidate = `${name}${n}`;
    used.add(candidate);
    used.add(candidate.toLowerCase());
    return candidate;
  });
}
