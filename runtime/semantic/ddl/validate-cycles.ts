/** Reference cycles among facts and among derived metrics. */
import type { DraftMember } from "./statements.js";
import { lower, type ValidationContext } from "./validate-context.js";

export function checkFactCycles(ctx: ValidationContext): void {
  findCycle(ctx, ctx.stmt.facts, (m) => factRefs(ctx, m), "facts");
}

export function checkDerivedCycles(ctx: ValidationContext): void {
  const derived = ctx.stmt.metrics.filter((m) => m.table === undefined);
  findCycle(
    ctx,
    derived,
    (m) =>
      ctx.analyses
        .get(m)!
        .refs.map((r) => (r.qualifier === undefined ? ctx.members.get(lower(r.name)) : undefined))
        .filter((t): t is DraftMember => t !== undefined && t.kind === "metric" && t.table === undefined && t !== m),
    "derived metrics",
  );
}

function factRefs(ctx: ValidationContext, m: DraftMember): DraftMember[] {
  const out: DraftMember[] = [];
  for (const ref of ctx.analyses.get(m)!.refs) {
    let target: DraftMember | undefined;
    if (ref.qualifier !== undefined) target = ctx.memberOn(ref.qualifier, ref.name, ["fact"]);
    else {
      const t = ctx.members.get(lower(ref.name));
      // A bare name that is also a column of the fact's own table is the column.
      if (t?.kind === "fact" && ctx.hasColumn(m.table!, ref.name) !== true) target = t;
    }
    // `s.x AS s.x` is a passthrough of the column, not a self-reference.
    if (target !== undefined && target !== m) out.push(target);
  }
  return out;
}

function findCycle(
  ctx: ValidationContext,
  nodes: readonly DraftMember[],
  edges: (m: DraftMember) => DraftMember[],
  what: string,
): void {
  const state = new Map<DraftMember, "visiting" | "done">();
  const visit = (m: DraftMember, path: DraftMember[]): void => {
    if (state.get(m) === "done") return;
    if (state.get(m) === "visiting") {
      const members = path.slice(path.indexOf(m)).map((x) => x.name);
      // Both wordings the extension uses (its docs' and its validator's).
      ctx.fail(
        `Circular dependency detected in ${what}: ${members.join(", ")} (cycle detected in ${what}: ${[...members, m.name].join(" -> ")})`,
        m.position,
      );
    }
    state.set(m, "visiting");
    for (const e of edges(m)) visit(e, [...path, m]);
    state.set(m, "done");
  };
  for (const m of nodes) visit(m, []);
}
