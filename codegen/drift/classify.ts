/**
 * What changed between the recorded model (the generated directory's `lib-model.json`) and the
 * warehouse's, classified by whether it can break a caller: a removed view or member, a rename (a member
 * gone and one added with the same kind, value type and expression), a changed value type or kind, and a
 * metric–dimension pair no longer allowed break callers; additions, newly allowed pairs and changed
 * expressions or comments do not.
 */
import type { ModelRecord, RecordedMember, RecordedView } from "./model-record.js";

export type ModelChange =
  | { readonly kind: "view-removed"; readonly view: string; readonly className: string }
  | { readonly kind: "view-added"; readonly view: string; readonly className: string }
  | { readonly kind: "member-removed"; readonly view: string; readonly field: string; readonly memberKind: string }
  | { readonly kind: "member-added"; readonly view: string; readonly field: string; readonly memberKind: string }
  | { readonly kind: "member-renamed"; readonly view: string; readonly field: string; readonly to: string }
  | {
      readonly kind: "type-changed";
      readonly view: string;
      readonly field: string;
      readonly from: string;
      readonly to: string;
    }
  | { readonly kind: "pair-removed"; readonly view: string; readonly metric: string; readonly dimension: string }
  | { readonly kind: "pair-added"; readonly view: string; readonly metric: string; readonly dimension: string }
  | { readonly kind: "expression-changed"; readonly view: string; readonly field: string }
  | { readonly kind: "comment-changed"; readonly view: string; readonly field?: string | undefined };

const BREAKING = new Set<ModelChange["kind"]>([
  "view-removed",
  "member-removed",
  "member-renamed",
  "type-changed",
  "pair-removed",
]);

export function isBreaking(change: ModelChange): boolean {
  return BREAKING.has(change.kind);
}

export function classifyChanges(before: ModelRecord, after: ModelRecord): ModelChange[] {
  const changes: ModelChange[] = [];
  for (const [view, old] of Object.entries(before.views)) {
    const now = after.views[view];
    if (now === undefined) changes.push({ kind: "view-removed", view, className: old.class });
    else changes.push(...viewChanges(view, old, now));
  }
  for (const [view, now] of Object.entries(after.views)) {
    if (before.views[view] === undefined) changes.push({ kind: "view-added", view, className: now.class });
  }
  return changes;
}

function viewChanges(view: string, old: RecordedView, now: RecordedView): ModelChange[] {
  const changes: ModelChange[] = [];
  if ((old.comment ?? "") !== (now.comment ?? "")) changes.push({ kind: "comment-changed", view });
  const gone = Object.keys(old.members).filter((f) => now.members[f] === undefined);
  const added = Object.keys(now.members).filter((f) => old.members[f] === undefined);
  for (const field of gone) {
    const was = old.members[field]!;
    const to = added.find((f) => sameDefinition(was, now.members[f]!));
    if (to !== undefined) {
      added.splice(added.indexOf(to), 1);
      changes.push({ kind: "member-renamed", view, field, to });
    } else {
      changes.push({ kind: "member-removed", view, field, memberKind: was.kind });
    }
  }
  for (const field of added) changes.push({ kind: "member-added", view, field, memberKind: now.members[field]!.kind });
  for (const [field, was] of Object.entries(old.members)) {
    const is = now.members[field];
    if (is === undefined) continue;
    if (was.kind !== is.kind || was.type !== is.type) {
      changes.push({
        kind: "type-changed",
        view,
        field,
        from: `${was.kind}<${was.type}>`,
        to: `${is.kind}<${is.type}>`,
      });
    }
    if ((was.expression ?? "") !== (is.expression ?? "")) changes.push({ kind: "expression-changed", view, field });
    if ((was.comment ?? "") !== (is.comment ?? "")) changes.push({ kind: "comment-changed", view, field });
  }
  changes.push(...pairChanges(view, old, now));
  return changes;
}

/** Same kind, value type and (known) expression: the same member under another name. */
function sameDefinition(a: RecordedMember, b: RecordedMember): boolean {
  return a.kind === b.kind && a.type === b.type && a.expression !== undefined && a.expression === b.expression;
}

/** Pairs of a metric and a dimension present before and after, allowed on one side only. */
function pairChanges(view: string, old: RecordedView, now: RecordedView): ModelChange[] {
  const fields = (v: RecordedView, kind: string) =>
    Object.entries(v.members)
      .filter(([, m]) => m.kind === kind)
      .map(([f]) => f);
  const allows = (v: RecordedView, metric: string, dimension: string) =>
    v.groupableBy[metric] === undefined || v.groupableBy[metric]!.includes(dimension);
  const dimensions = fields(old, "dimension").filter((d) => now.members[d]?.kind === "dimension");
  const changes: ModelChange[] = [];
  for (const metric of fields(old, "metric").filter((m) => now.members[m]?.kind === "metric")) {
    for (const dimension of dimensions) {
      const before = allows(old, metric, dimension);
      const after = allows(now, metric, dimension);
      if (before && !after) changes.push({ kind: "pair-removed", view, metric, dimension });
      if (!before && after) changes.push({ kind: "pair-added", view, metric, dimension });
    }
  }
  return changes;
}
