/**
 * The third argument of `SemanticView()` checked and turned into the query's {@link DeclaredView}:
 * the warehouse name (`{ name }`) and the metric–dimension rules (`{ groupableBy }`). A rule naming a
 * field the view lacks, or of the wrong kind, is a `ValidationError` here, where it was written.
 */
import { ValidationError } from "../errors.js";
import type { FieldKind } from "../operation-node/field-node.js";
import type { DeclaredView } from "../query/declared-view.js";

export function declaredView(
  viewName: string,
  kinds: ReadonlyMap<string, FieldKind>,
  options: { readonly name?: unknown; readonly groupableBy?: unknown } | undefined,
): DeclaredView {
  const source = `SemanticView("${viewName}")`;
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new ValidationError(`${source}: options must be an object such as { name: "..." }`, { source });
  }
  const parts = viewName.split(".");
  const name = options?.name;
  if (name !== undefined) {
    if (typeof name !== "string" || name.trim() === "") {
      throw new ValidationError(`${source}: { name } must be a non-empty string, got ${JSON.stringify(name)}`, {
        source,
        field: "name",
      });
    }
    parts[parts.length - 1] = name;
  }
  return Object.freeze({
    viewName,
    viewPath: Object.freeze(parts),
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
