/**
 * What a client may know about a view: its members with their kind, value type and description.
 * The same description answers `GET /views/:view`, MCP's `describe_view` and feeds the schemas.
 */
import type { FieldKind } from "../operation-node/field-node.js";
import type { MemberType } from "./member-type.js";
import type { ViewEntry } from "./view-registry.js";

export interface MemberDescription {
  readonly name: string;
  readonly kind: FieldKind;
  /** The type its values have in rows and in filters (`bigint` and `decimal` travel as exact JSON numbers). */
  readonly type: MemberType;
  readonly nullable: boolean;
  readonly description?: string;
}

/** A variable the view takes (`variables` in a request), when it declares any. */
export interface VariableDescription {
  readonly name: string;
  readonly type: MemberType;
  /** The view defines no default: a request must set it. */
  readonly required: boolean;
  readonly description?: string;
}

export interface ViewDescription {
  readonly name: string;
  readonly description?: string;
  readonly members: readonly MemberDescription[];
  /** Present only for a view with variables. */
  readonly variables?: readonly VariableDescription[];
}

export interface ViewSummary {
  readonly name: string;
  readonly description?: string | undefined;
  readonly metrics: number;
  readonly dimensions: number;
  readonly facts: number;
}

export function describeView(entry: ViewEntry): ViewDescription {
  const rowDescription = (entry.rowSchema as { description?: unknown } | undefined)?.description;
  return {
    name: entry.name,
    ...(typeof rowDescription === "string" ? { description: rowDescription } : {}),
    members: entry.members.map((m) => ({
      name: m.name,
      kind: m.kind,
      type: m.type,
      nullable: m.nullable,
      ...(m.description === undefined ? {} : { description: m.description }),
    })),
    ...(entry.variables.length === 0
      ? {}
      : {
          variables: entry.variables.map((v) => ({
            name: v.name,
            type: v.type,
            required: v.required,
            ...(v.description === undefined ? {} : { description: v.description }),
          })),
        }),
  };
}
