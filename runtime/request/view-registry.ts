/**
 * The views a request may name: built from the generated `index.ts` exports (view classes, their
 * `<View>Row` DTOs and, for views with facts, `<View>Facts`) or from a list. Each member carries what the
 * view class alone cannot say at run time — the type its values have, read from the DTOs — so request
 * values can be parsed exactly (a JSON string into a `bigint`, `Decimal` or `Date`) and the OpenAPI and
 * MCP schemas can name it.
 */
import { ValidationError } from "../errors.js";
import type { FieldKind } from "../operation-node/field-node.js";
import { isField, type AnyField } from "../view/field.js";
import { isViewVariable, type ViewVariable } from "../view/variable.js";
import type { SemanticViewStatics } from "../view/semantic-view.js";
import { memberTypeOf, type MemberType } from "./member-type.js";

/** A declared view class (`class Sales extends SemanticView(...)`), as the registry sees it. */
export type ViewClass = SemanticViewStatics<string> & { readonly name: string };

/** An object schema (a TypeBox `Type.Object`), read structurally so TypeBox is not loaded here. */
export interface RowSchema {
  readonly properties: Readonly<Record<string, unknown>>;
  readonly title?: string;
}

/** A view with its row DTO (and variables DTO) given explicitly (when the export names do not pair them). */
export interface ViewWithRow {
  readonly view: ViewClass;
  readonly row?: RowSchema | undefined;
  /** The `<View>Facts` DTO codegen writes for a view with facts (its `<View>Row` leaves them out): their types. */
  readonly facts?: RowSchema | undefined;
  /** The `<View>Variables` DTO codegen writes for a view with variables: the type of each variable's values. */
  readonly variables?: RowSchema | undefined;
}

/** What a registry is made from: a module namespace (`import * as views from` the generated index module) or a list. */
export type ViewSource = Readonly<Record<string, unknown>> | readonly (ViewClass | ViewWithRow)[];

export interface MemberInfo {
  /** The field name: what requests name and rows are keyed by. */
  readonly name: string;
  readonly kind: FieldKind;
  /** The type its values have (from the row or facts DTO; `"unknown"` without one). */
  readonly type: MemberType;
  /** True when the DTO allows null. */
  readonly nullable: boolean;
  readonly description: string | undefined;
  /** The bound field the builder takes. */
  readonly field: AnyField;
}

/** A variable the view declares (`Variable<T>()`), as a request's `variables` sets it. */
export interface VariableInfo {
  /** The declared name: what `variables` keys name. */
  readonly name: string;
  /** The type its values have (from the variables DTO; `"unknown"` without one). */
  readonly type: MemberType;
  /** The view defines no default: every request must set it. */
  readonly required: boolean;
  readonly description: string | undefined;
  readonly variable: ViewVariable;
}

export interface ViewEntry {
  /** The declared view name (`Sales.viewName`): what requests and URLs name. */
  readonly name: string;
  /** The class's name (`Sales`). */
  readonly className: string;
  readonly viewClass: ViewClass;
  /** Members in declaration order. */
  readonly members: readonly MemberInfo[];
  /** The row DTO the member types came from, if any. */
  readonly rowSchema: RowSchema | undefined;
  /** The facts DTO the facts' types came from, if any (the row of a facts query). */
  readonly factsSchema: RowSchema | undefined;
  /** Declared variables in declaration order (backends A and B; none on most views). */
  readonly variables: readonly VariableInfo[];
  member(name: string): MemberInfo | undefined;
}

function isViewClass(value: unknown): value is ViewClass {
  return (
    typeof value === "function" &&
    typeof (value as { viewName?: unknown }).viewName === "string" &&
    typeof (value as { query?: unknown }).query === "function"
  );
}

function isRowSchema(value: unknown): value is RowSchema {
  if (typeof value !== "object" || value === null) return false;
  const { type, properties } = value as { type?: unknown; properties?: unknown };
  return type === "object" && typeof properties === "object" && properties !== null;
}

/** The view's own statics that `is` accepts, in declaration order (`for...in` walks what the base class defined). */
function staticsOf<T extends { readonly viewName: string }>(
  viewClass: ViewClass,
  is: (value: unknown) => value is T,
): T[] {
  const found: T[] = [];
  for (const key in viewClass) {
    const value = (viewClass as unknown as Record<string, unknown>)[key];
    if (is(value) && value.viewName === viewClass.viewName) found.push(value);
  }
  return found;
}

/** The view's fields (members) in declaration order. */
const fieldsOf = (viewClass: ViewClass): AnyField[] => staticsOf(viewClass, isField);
/** The view's variables in declaration order. */
const variablesOf = (viewClass: ViewClass): ViewVariable[] => staticsOf(viewClass, isViewVariable);

/** A variables DTO describes a view's variables when its properties are exactly their names. */
function describesVariables(schema: RowSchema, variables: readonly ViewVariable[]): boolean {
  const keys = Object.keys(schema.properties);
  return keys.length === variables.length && variables.every((v) => Object.hasOwn(schema.properties, v.name));
}

/**
 * A row DTO describes a view when it has a property for each of its dimensions and metrics, facts
 * optional (codegen's `<View>Row` leaves facts out: they are never selected with the others, and its
 * `<View>Facts` types them; a fact neither DTO types is typed unknown), and nothing else.
 */
function describesView(schema: RowSchema, fields: readonly AnyField[]): boolean {
  const names = new Set(fields.map((f) => f.name));
  return (
    Object.keys(schema.properties).every((key) => names.has(key)) &&
    fields.every((f) => f.kind === "fact" || Object.hasOwn(schema.properties, f.name))
  );
}

/** A facts DTO describes a view's facts when it has exactly a property for each (and the view has facts). */
function describesFacts(schema: RowSchema, fields: readonly AnyField[]): boolean {
  const facts = fields.filter((f) => f.kind === "fact");
  const keys = Object.keys(schema.properties);
  return (
    facts.length > 0 && keys.length === facts.length && facts.every((f) => Object.hasOwn(schema.properties, f.name))
  );
}

function entryOf({ view: viewClass, row, facts, variables: variablesDto }: ViewWithRow): ViewEntry {
  const fields = fieldsOf(viewClass);
  const declared = variablesOf(viewClass);
  if (variablesDto !== undefined && !describesVariables(variablesDto, declared)) {
    throw new ValidationError(
      `view registry: the variables schema given for "${viewClass.viewName}" does not have exactly its variables (${declared.map((v) => v.name).join(", ") || "none"})`,
      { source: "view registry", field: viewClass.viewName },
    );
  }
  const variables = declared.map((variable): VariableInfo =>
    Object.freeze({
      name: variable.name,
      ...memberTypeOf(variablesDto?.properties[variable.name]),
      required: !variable.optional,
      variable,
    }),
  );
  if (row !== undefined && !describesView(row, fields)) {
    throw new ValidationError(
      `view registry: the row schema given for "${viewClass.viewName}" does not have exactly its fields (${fields.map((f) => f.name).join(", ")}; facts may be left out)`,
      { source: "view registry", field: viewClass.viewName },
    );
  }
  if (facts !== undefined && !describesFacts(facts, fields)) {
    const names = fields.filter((f) => f.kind === "fact").map((f) => f.name);
    throw new ValidationError(
      `view registry: the facts schema given for "${viewClass.viewName}" does not have exactly its facts (${names.join(", ") || "none"})`,
      { source: "view registry", field: viewClass.viewName },
    );
  }
  const members = fields.map((field): MemberInfo => {
    const own = field.kind === "fact" ? facts?.properties[field.name] : undefined;
    const typed = memberTypeOf(own ?? row?.properties[field.name]);
    return Object.freeze({ name: field.name, kind: field.kind, ...typed, field });
  });
  const byName = new Map(members.map((m) => [m.name, m]));
  return Object.freeze({
    name: viewClass.viewName,
    className: viewClass.name,
    viewClass,
    members: Object.freeze(members),
    rowSchema: row,
    factsSchema: facts,
    variables: Object.freeze(variables),
    member: (name: string) => byName.get(name),
  });
}

/**
 * View classes and their DTOs from a module namespace: `<Class>Row` first, else any DTO with exactly its
 * fields; `<Class>Facts` first, else any DTO with exactly its facts; `<Class>Variables`.
 */
function fromModule(exports: Readonly<Record<string, unknown>>): ViewWithRow[] {
  const schemas = Object.entries(exports).filter((e): e is [string, RowSchema] => isRowSchema(e[1]));
  return Object.entries(exports)
    .filter((e): e is [string, ViewClass] => isViewClass(e[1]))
    .map(([exportName, view]) => {
      const fields = fieldsOf(view);
      const named = (suffix: string, fits: (schema: RowSchema) => boolean) => {
        const schema = schemas.find(([name]) => name === `${exportName}${suffix}`)?.[1];
        return schema !== undefined && fits(schema) ? schema : schemas.find(([, other]) => fits(other))?.[1];
      };
      const declared = variablesOf(view);
      const variables = schemas.find(([name]) => name === `${exportName}Variables`)?.[1];
      return {
        view,
        row: named("Row", (schema) => describesView(schema, fields)),
        facts: named("Facts", (schema) => describesFacts(schema, fields)),
        variables:
          declared.length > 0 && variables !== undefined && describesVariables(variables, declared)
            ? variables
            : undefined,
      };
    });
}

/** The views a request core serves, by declared view name. */
export class ViewRegistry {
  readonly #entries: ReadonlyMap<string, ViewEntry>;

  private constructor(entries: ReadonlyMap<string, ViewEntry>) {
    this.#entries = entries;
    Object.freeze(this);
  }

  /** From a module namespace of generated exports, or from view classes (optionally with their row DTOs). */
  static from(source: ViewSource): ViewRegistry {
    const list: ViewWithRow[] = Array.isArray(source)
      ? (source as readonly (ViewClass | ViewWithRow)[]).map((item) => (isViewClass(item) ? { view: item } : item))
      : fromModule(source as Readonly<Record<string, unknown>>);
    const entries = new Map<string, ViewEntry>();
    for (const item of list) {
      const { view } = item;
      if (!isViewClass(view)) {
        throw new ValidationError("view registry: expected view classes made with SemanticView()", {
          source: "view registry",
        });
      }
      const existing = entries.get(view.viewName);
      if (existing !== undefined && existing.viewClass !== view) {
        throw new ValidationError(
          `view registry: two classes declare view "${view.viewName}" (${existing.className} and ${view.name})`,
          { source: "view registry", field: view.viewName },
        );
      }
      entries.set(view.viewName, entryOf(item));
    }
    if (entries.size === 0) {
      throw new ValidationError("view registry: no view classes found (pass the generated index's exports)", {
        source: "view registry",
      });
    }
    return new ViewRegistry(entries);
  }

  /** The declared view names, in registration order. */
  get names(): readonly string[] {
    return [...this.#entries.keys()];
  }

  get entries(): readonly ViewEntry[] {
    return [...this.#entries.values()];
  }

  get(name: string): ViewEntry | undefined {
    return this.#entries.get(name);
  }
}
