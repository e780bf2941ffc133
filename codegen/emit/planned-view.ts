/** One view as the generator plans it: names settled, members ordered, the metric–dimension rules mapped to fields. */
import type { ValueKind } from "../../runtime/index.js";
import type { MemberMetadata, VariableMetadata, ViewMetadata } from "../../runtime/internal.js";
import type { DtoSpec } from "./generated-file.js";

export interface PlannedMember {
  readonly member: MemberMetadata;
  readonly kind: ValueKind;
  /** The TypeScript field name. */
  readonly field: string;
  /** The warehouse name declared with `{ name }`, when it is not the field name. */
  readonly declared: string | undefined;
}

/** A variable of the view, declared as `name: Variable<T>({ name?, optional? })`. */
export interface PlannedVariable {
  readonly variable: VariableMetadata;
  readonly kind: ValueKind;
  readonly field: string;
  readonly declared: string | undefined;
}

export interface PlannedView {
  readonly view: ViewMetadata;
  /** The view name as our side spells it (portable: backend A's folded upper case in lower case). */
  readonly viewName: string;
  /** The first argument of `SemanticView()`: `viewName`, or an identifier made from it. */
  readonly declaredName: string;
  /** `{ name }` of the declaration: `viewName` when it is not an identifier, else undefined. */
  readonly warehouseName: string | undefined;
  readonly className: string;
  readonly stem: string;
  /** Dimensions, then metrics, then facts, each in definition order. */
  readonly members: readonly PlannedMember[];
  /**
   * Metric field → the dimension fields it can be grouped by, for the metrics the warehouse restricts;
   * empty when every metric can be grouped by every dimension (or the warehouse has no such rule).
   */
  readonly groupableBy: ReadonlyMap<string, readonly string[]>;
  /** After the members, in definition order; their names share the members' namespace. */
  readonly variables: readonly PlannedVariable[];
  readonly rowDtoName: string;
  /** `<Class>Variables`: the TypeBox object of the view's variables; undefined without variables. */
  readonly variablesDtoName: string | undefined;
  /** `<Class>Facts`: the TypeBox object of a facts query's row (every fact); undefined without facts. */
  readonly factsDtoName: string | undefined;
  readonly dtos: DtoSpec[];
}

/**
 * The restricted metrics of a view: each metric's `groupableBy` listing mapped to dimension fields (a
 * dimension listed by name and, where several tables share the name, by table).
 */
export function groupableFields(members: readonly PlannedMember[]): Map<string, readonly string[]> {
  const dimensions = members.filter((m) => m.member.kind === "dimension");
  const rules = new Map<string, readonly string[]>();
  for (const metric of members) {
    const listed = metric.member.kind === "metric" ? metric.member.groupableBy : undefined;
    if (listed === undefined) continue;
    const allowed = dimensions.filter((d) => listed.some((ref) => refersTo(ref, d, dimensions)));
    if (allowed.length < dimensions.length)
      rules.set(
        metric.field,
        allowed.map((d) => d.field),
      );
  }
  return rules;
}

/** Whether a listed dimension is `d`: by name, and by table only where several dimensions share the name. */
function refersTo(
  ref: { readonly name: string; readonly table?: string | undefined },
  d: PlannedMember,
  dimensions: readonly PlannedMember[],
): boolean {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (!same(ref.name, d.member.name)) return false;
  const namesakes = dimensions.filter((other) => same(other.member.name, d.member.name));
  if (namesakes.length === 1 || ref.table === undefined || d.member.table === undefined) return true;
  return same(ref.table, d.member.table);
}
