/**
 * The model record (`lib-model.json` beside the generated modules): what each generated view declared —
 * classes, fields with their kind, value type, warehouse name, expression and comment, and the
 * metric–dimension rules — so `lib codegen --check` can say what changed in the model, not only which
 * bytes. It is portable like the modules: names as our side spells them, value types as TypeScript
 * types, expressions with qualifiers, quotes and spacing removed (each warehouse qualifies differently).
 */
import { tsTypeOf } from "../type-mapping.js";
import type { PlannedView } from "../emit/planned-view.js";

export const MODEL_RECORD_FILE = "lib-model.json";
const MARKER =
  "lib codegen: the model the modules in this directory were generated from (lib codegen --check compares it)";

export interface RecordedMember {
  readonly kind: "dimension" | "metric" | "fact";
  /** The member's name in the warehouse (portable spelling). */
  readonly name: string;
  /** The TypeScript value type. */
  readonly type: string;
  readonly expression?: string | undefined;
  readonly comment?: string | undefined;
}

export interface RecordedView {
  readonly class: string;
  readonly comment?: string | undefined;
  /** By field name, in declaration order. */
  readonly members: Readonly<Record<string, RecordedMember>>;
  /** The restricted metrics: field → dimension fields (a metric not listed: every dimension). */
  readonly groupableBy: Readonly<Record<string, readonly string[]>>;
}

export interface ModelRecord {
  /** By view name (portable spelling). */
  readonly views: Readonly<Record<string, RecordedView>>;
}

/** `SUM("s"."Revenue" - s.cost)` → `sum(revenue-cost)`: comparable across warehouses and qualifiers. */
export function normalizedExpression(expression: string | undefined): string | undefined {
  if (expression === undefined || expression.trim() === "") return undefined;
  return expression
    .replace(/["`]/g, "")
    .replace(/\b[A-Za-z_][A-Za-z0-9_$]*\s*\.\s*(?=[A-Za-z_])/g, "")
    .replace(/\s+/g, "")
    .toLowerCase();
}

export function recordOf(plans: readonly PlannedView[]): ModelRecord {
  const views: Record<string, RecordedView> = {};
  for (const plan of plans) {
    const members: Record<string, RecordedMember> = {};
    for (const m of plan.members) {
      members[m.field] = {
        kind: m.member.kind,
        name: m.declared ?? m.field,
        type: tsTypeOf(m.kind),
        expression: normalizedExpression(m.member.expression),
        comment: m.member.comment,
      };
    }
    views[plan.viewName] = {
      class: plan.className,
      comment: plan.view.comment,
      members,
      groupableBy: Object.fromEntries(plan.groupableBy),
    };
  }
  return { views };
}

export function renderRecord(record: ModelRecord): string {
  return `${JSON.stringify({ generatedBy: MARKER, views: record.views }, null, 2)}\n`;
}

/** The record in `text`, or undefined when it is not one (absent, written by hand, another tool's). */
export function parseRecord(text: string | undefined): ModelRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { generatedBy?: unknown; views?: unknown };
    if (parsed.generatedBy !== MARKER || typeof parsed.views !== "object" || parsed.views === null) return undefined;
    return { views: parsed.views as ModelRecord["views"] };
  } catch {
    return undefined;
  }
}
