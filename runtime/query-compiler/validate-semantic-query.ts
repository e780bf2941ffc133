import { ValidationError } from "../errors.js";
import { SemanticQueryNode } from "../operation-node/semantic-query-node.js";
import { conditionShapeProblem } from "../operation-node/condition-shape.js";

/** Checks what can only be checked once the whole query is known. */
export function validateSemanticQuery(query: SemanticQueryNode): void {
  const source = `${query.viewName}.query()`;
  const selection = SemanticQueryNode.selection(query);
  if (selection.length === 0) {
    throw new ValidationError(`${source}: select at least one metric, dimension or fact`, { source });
  }
  if (query.metrics.length > 0 && query.facts.length > 0) {
    throw new ValidationError(`${source}: metrics and facts cannot be selected in the same query`, { source });
  }
  // Nodes can be built without the combinators: the shape is checked again before anything recurses.
  const tooLarge = query.where === undefined ? undefined : conditionShapeProblem(query.where);
  if (tooLarge !== undefined) throw new ValidationError(`${source}.where(): ${tooLarge}`, { source });
  const set = new Set(query.variables.map((v) => v.variable.name));
  const missing = query.declaredVariables.filter((v) => v.required && !set.has(v.name)).map((v) => v.name);
  if (missing.length > 0) {
    throw new ValidationError(
      `${source}: ${query.viewName} requires ${missing.length === 1 ? "variable" : "variables"} ${missing.join(", ")} ` +
        `(the view defines no default); set ${missing.length === 1 ? "it" : "them"} with .variables({ ${missing.map((m) => `${m}: ...`).join(", ")} })`,
      { source: `${source}.variables()`, field: missing[0]! },
    );
  }
  const selected = new Set(selection.map((f) => f.name));
  for (const ordering of query.orderBy) {
    if (!selected.has(ordering.field.name)) {
      throw new ValidationError(
        `${source}.orderBy(): "${ordering.field.name}" is not selected; only selected fields can be ordered by`,
        { source: `${source}.orderBy()`, field: ordering.field.name },
      );
    }
  }
}
