/**
 * A request's `variables` (`{ "minRevenue": "100" }`): the view's declared variables by name, each
 * value parsed by its declared type as filter values are (a JSON string into a `bigint`, `Decimal` or
 * `Date`), and every variable without a default present. Values go to `.variables()`, which binds
 * them as parameters: a request never supplies an identifier or SQL text here.
 */
import type { FilterValue } from "../operation-node/filter-value.js";
import { closestName } from "../text/suggest.js";
import type { IssueList } from "./invalid-request-error.js";
import { parseMemberValue } from "./member-values.js";
import type { ViewEntry } from "./view-registry.js";

/** The variable values of a request (by declared name), or an empty object after recording the problems. */
export function parseVariables(entry: ViewEntry, given: unknown, issues: IssueList): Record<string, FilterValue> {
  const values: Record<string, FilterValue> = {};
  if (given === undefined || given === null) given = {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    issues.add("variables", "invalid_value", 'expected an object of variable values, such as { "minRevenue": 100 }');
    return values;
  }
  const declared = entry.variables.map((v) => v.name);
  for (const [name, value] of Object.entries(given as Record<string, unknown>)) {
    const path = `variables.${name}`;
    const variable = entry.variables.find((v) => v.name === name);
    if (variable === undefined) {
      const suggestion = closestName(name, declared);
      const known = declared.length === 0 ? "it declares none" : `its variables: ${declared.join(", ")}`;
      issues.add(
        path,
        "unknown_parameter",
        `view "${entry.name}" has no variable "${name}"${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} (${known})`,
        suggestion,
      );
      continue;
    }
    if (value === null) {
      issues.add(
        path,
        "invalid_value",
        `${name}: null is not a variable value (leave it out to use the view's default)`,
      );
      continue;
    }
    const parsed = parseMemberValue(variable.type, value);
    if (parsed.ok) values[name] = parsed.value;
    else issues.add(path, "invalid_value", `${name}: ${parsed.problem}`);
  }
  for (const variable of entry.variables) {
    if (variable.required && !Object.hasOwn(given as object, variable.name)) {
      issues.add(
        `variables.${variable.name}`,
        "missing",
        `view "${entry.name}" requires variable "${variable.name}" (the view defines no default)`,
      );
    }
  }
  return values;
}
