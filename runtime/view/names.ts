/**
 * Naming rules for views and fields. A field name is an identifier (`[A-Za-z_][A-Za-z0-9_]*`, at most
 * 255 characters) that does not clash with a member every view class has (`query`, `viewName`, and
 * the built-ins of a JavaScript class: `name`, `length`, `prototype`, `call`, ...). A view name is
 * one to three such identifiers joined by dots (`sales`, `analytics.sales`, `db.analytics.sales`); a
 * part the warehouse stores exactly as quoted may be written in double quotes (`"sales_v"`).
 */
import { ValidationError } from "../errors.js";
import { warehouseNameParts, type NamePart } from "../operation-node/warehouse-name.js";

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
  let parts: readonly NamePart[] = [];
  try {
    if (typeof viewName === "string") parts = warehouseNameParts(viewName);
  } catch {
    // reported below
  }
  const valid = (p: NamePart) => (p.exact || IDENTIFIER.test(p.text)) && p.text.length <= MAX_NAME_LENGTH;
  if (parts.length < 1 || parts.length > 3 || !parts.every(valid)) {
    throw new ValidationError(
      `SemanticView(): view name ${JSON.stringify(viewName)} must be an identifier, optionally qualified as schema.view or database.schema.view; ` +
        `a part created quoted in the warehouse is written in double quotes ('"sales_v"')`,
      { source: "SemanticView()", field: "viewName" },
    );
  }
}
