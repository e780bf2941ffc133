/**
 * The third argument of `SemanticView()` checked and turned into the query's {@link DeclaredView}:
 * the warehouse name (`{ name }`) and the metric–dimension rules (`{ groupableBy }`). A rule naming a
 * field the view lacks, or of the wrong kind, is a `ValidationError` here, where it was written.
 */
import { ValidationError } from "../errors.js";
import type { FieldKind } from "../operation-node/field-node.js";
import type { DeclaredView } from "../query/declared-view.js";
import { exactNamePart, warehouseNameParts } from "../operation-node/warehouse-name.js";

/**
 * `{ name }` is the view's own name, one part (`Odd View`, or quoted when it holds a dot or must be
 * taken exactly: `"odd.view"`); the declared name's database and schema stay.
 */
function viewNamePart(source: string, name: string): string {
  let parts;
  try {
    parts = warehouseNameParts(name);
  } catch (error) {
    throw new ValidationError(`${source}: { name }: ${(error as Error).message}`, { source, field: "name" });
  }
  if (parts.length !== 1) {
    throw new ValidationError(
      `${source}: { name } is the view's own name, one part; write a name holding a dot in double quotes ('"${name.replaceAll('"', '""')}"')`,
      { source, field: "name" },
    );
  }
  return parts[0]!.exact ? exactNamePart(parts[0]!.text) : parts[0]!.text;
}

export function declaredView(
  viewName: string,
  kinds: ReadonlyMap<string, FieldKind>,
  options: { readonly name?: unknown; readonly groupableBy?: unknown } | undefined,
): DeclaredView {
  const source = `SemanticView("${viewName}")`;
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new ValidationError(`${source}: options must be an object such as { name: "..." }`, { source });
  }
  const parts = warehouseNameParts(viewName).map((p) => (p.exact ? exactNamePart(p.text) : p.text));
  const name = options?.name;
  if (name !== undefined) {
    if (typeof name !== "string" || name.trim() === "") {
      throw new ValidationError(`${source}: { name } must be a non-empty string, got ${JSON.stringify(name)}`, {
        source,
        field: "name",
      });
    }
    parts[parts.length - 1] = viewNamePart(source, name);
  }
  return Object.freeze({
    viewName,
    warehouseName: parts.join("."),
    groupableBy: groupableRules(source, kinds, options?.groupableBy),
  });
}

function groupableRules(
  source: string,
  kinds: ReadonlyMap<string, FieldKind>,
  rules: unknown,
): ReadonlyMap<string, readonly string[]> | undefined {
  if (rules === undefined) return undefined;
  const problem = (message: string, field?: string) =>
    new ValidationError(`${source}: groupableBy ${message}`, field === undefined ? { source } : { source, field });
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) {
    throw problem("must map metric fields to arrays of dimension fields");
  }
  const map = new Map<string, readonly string[]>();
  for (const [metric, dimensions] of Object.entries(rules)) {
    if (dimensions === undefined) continue;
    if (kinds.get(metric) !== "metric") throw problem(`names "${metric}", which is not a metric of the view`, metric);
    if (!Array.isArray(dimensions)) throw problem(`of "${metric}" must be an array of dimension fields`, metric);
    for (const dimension of dimensions as unknown[]) {
      if (typeof dimension !== "string" || kinds.get(dimension) !== "dimension") {
        throw problem(
          `of "${metric}" names ${JSON.stringify(dimension)}, which is not a dimension of the view`,
          metric,
        );
      }
    }
    map.set(metric, Object.freeze([...(dimensions as string[])]));
  }
  return map;
}
