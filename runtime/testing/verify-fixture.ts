/**
 * `verifyFixture()`: replays every query `lib codegen --record` stored in a fixture on an in-process
 * backend C engine running that fixture, and compares its rows with the warehouse's: identical,
 * different (the first differing row and column, both values), or not replayable (the query
 * depends on a construct the fixture lists as not translated).
 */
import type { Engine } from "../engine/engine.js";
import { firstDifference, type RowDifference } from "./compare-rows.js";
import {
  createFixtureEngine,
  type FixtureEngineOptions,
  type FixtureModule,
  type FixtureUntranslated,
} from "./fixture-engine.js";
import {
  checkRecordedQuery,
  describeQuery,
  descriptorQuery,
  selectedMembers,
  type RecordedQuery,
} from "./recorded-query.js";
import { decodeValue } from "./tagged-values.js";

export type QueryVerdict =
  | { readonly status: "identical"; readonly query: string }
  | { readonly status: "different"; readonly query: string; readonly difference: RowDifference }
  | { readonly status: "not replayable"; readonly query: string; readonly reason: string };

export interface FixtureReport {
  readonly results: readonly QueryVerdict[];
  readonly identical: number;
  readonly different: number;
  readonly notReplayable: number;
  /** True when no recorded query is answered differently offline. */
  readonly ok: boolean;
}

const lower = (s: string) => s.toLowerCase();

/** The untranslated construct a query depends on, if any. */
function dependency(q: RecordedQuery, untranslated: readonly FixtureUntranslated[]): FixtureUntranslated | undefined {
  const members = new Set(
    selectedMembers(q)
      .concat((q.where ?? []).map((w) => w.member))
      .map((m) => lower(m.split(".").at(-1)!)),
  );
  return untranslated.find(
    (u) =>
      u.views.some((v) => lower(v) === lower(q.view)) &&
      (u.members === undefined || u.members.some((m) => members.has(lower(m)))),
  );
}

async function replay(engine: Engine, q: RecordedQuery): Promise<QueryVerdict> {
  const label = describeQuery(q);
  const expected = q.rows.map((row) => row.map(decodeValue));
  let actual: unknown[][];
  try {
    const { query, keys } = descriptorQuery(q);
    await using cursor = await query.using(engine).execute();
    actual = (await cursor.fetchAllRows()).map((row) => keys.map((k) => (row as Record<string, unknown>)[k]));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: "different",
      query: label,
      difference: { row: 0, column: "(query failed)", expected: `${expected.length} rows`, actual: message },
    };
  }
  const difference = firstDifference(q.columns, expected, actual, (q.orderBy ?? []).length > 0);
  return difference === undefined
    ? { status: "identical", query: label }
    : { status: "different", query: label, difference };
}

/** Replays the fixture's recorded queries offline and reports each. */
export async function verifyFixture(
  fixture: FixtureModule,
  options: Omit<FixtureEngineOptions, "register"> = {},
): Promise<FixtureReport> {
  const recorded = (fixture.RECORDED_QUERIES ?? []).map(checkRecordedQuery);
  const untranslated = fixture.UNTRANSLATED ?? [];
  const results: QueryVerdict[] = [];
  const engine = createFixtureEngine(fixture, { ...options, register: false });
  try {
    for (const q of recorded) {
      const blocker = dependency(q, untranslated);
      results.push(
        blocker === undefined
          ? await replay(engine, q)
          : { status: "not replayable", query: describeQuery(q), reason: blocker.note },
      );
    }
  } finally {
    await engine.dispose();
  }
  const count = (status: QueryVerdict["status"]) => results.filter((r) => r.status === status).length;
  return {
    results,
    identical: count("identical"),
    different: count("different"),
    notReplayable: count("not replayable"),
    ok: count("different") === 0,
  };
}

/** One line per query, then a summary: what `lib codegen --verify` prints. */
export function formatFixtureReport(report: FixtureReport): string[] {
  const lines = report.results.map((r) => {
    if (r.status === "identical") return `identical       ${r.query}`;
    if (r.status === "not replayable") return `not replayable  ${r.query} (depends on: ${r.reason})`;
    const d = r.difference;
    return `different       ${r.query}: row ${d.row + 1}, ${d.column}: warehouse ${d.expected}, fixture ${d.actual}`;
  });
  lines.push(
    `${report.results.length} recorded quer${report.results.length === 1 ? "y" : "ies"}: ${report.identical} identical, ${report.different} different, ${report.notReplayable} not replayable`,
  );
  return lines;
}
