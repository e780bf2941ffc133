/**
 * Naming rules for views and fields. A field name is an identifier (`[A-Za-z_][A-Za-z0-9_]*`, at most
 * 255 characters) that does not clash with a member every view class has (`query`, `viewName`, and
 * the built-ins of a JavaScript class: `name`, `length`, `prototype`, `call`, ...). A view name is
 * one to three such identifiers joined by dots (`sales`, `analytics.sales`, `db.analytics.sales`).
 */
import { ValidationError } from "../errors.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The longest field or view-name part accepted. */
export const MAX_NAME_LENGTH = 255;

/** Names a field may not take because every view class already has them. */
export const RESERVED_FIELD_NAMES = [
  "query",
  "viewName",
  "name",
  "length",
  "prototype",
  "caller",
  "arguments",
  "constructor",
  "call",
  "apply",
  "bind",
  "toString",
  "valueOf",
  "toLocaleString",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
] as const;

export type ReservedFieldName = (typeof RESERVED_FIELD_NAMES)[number];

const RESERVED = new Set<string>(RESERVED_FIELD_NAMES);

/** Why a field name is rejected (codegen asks too, to pick names SemanticView() accepts), or undefined. */
export function fieldNameProblem(name: string): "not an identifier" | "reserved" | undefined {
  if (!IDENTIFIER.test(name) || name.length > MAX_NAME_LENGTH) return "not an identifier";
  // `in Function` also catches anything a future runtime adds to Function.prototype / Object.prototype.
  if (RESERVED.has(name) || name in Function) return "reserved";
  return undefined;
}

export function validateFieldName(viewName: string, name: string): void {
  const where = { source: `SemanticView("${viewName}")`, field: name };
  const problem = fieldNameProblem(name);
  if (problem === "not an identifier") {
    throw new ValidationError(
      `SemanticView("${viewName}"): field name ${JSON.stringify(name)} is not a valid identifier ` +
        `(letters, digits and _, not starting with a digit, at most ${MAX_NAME_LENGTH} characters)`,
      where,
    );
  }
  if (problem === "reserved") {
    throw new ValidationError(
      `SemanticView("${viewName}"): field name "${name}" clashes with a member of every view class; rename the field`,
      where,
    );
  }
}

export function validateViewName(viewName: unknown): asserts viewName is string {
  const parts = typeof viewName === "string" ? viewName.split(".") : [];
  if (parts.length < 1 || parts.length > 3 || parts.some((p) => !IDENTIFIER.test(p) || p.length > MAX_NAME_LENGTH)) {
    throw new ValidationError(
      `SemanticView(): view name ${JSON.stringify(viewName)} must be an identifier, optionally qualified as schema.view or database.schema.view`,
      { source: "SemanticView()", field: "viewName" },
    );
  }
}
