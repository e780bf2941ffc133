/**
 * `lib codegen --check` on 100 generated views (backend C, a DuckDB file): the time to introspect the
 * warehouse, generate in memory, compare with the directory and classify the model changes, when nothing
 * changed and when every view changed (a member renamed and one removed in each). In-process, so the
 * numbers leave out Node's start and the import of the codegen modules (printed separately).
 *
 *   npx tsx scripts/bench/drift-check.ts [--views 100] [--runs 3]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createCodegenDatabase } from "./codegen-fixture.js";

const { values } = parseArgs({ options: { views: { type: "string" }, runs: { type: "string" } } });
const VIEWS = Number(values.views ?? 100);
const RUNS = Number(values.runs ?? 3);

const importStart = performance.now();
const { runCodegen } = await import("../../codegen/codegen.js");
const importMs = performance.now() - importStart;

const dir = await mkdtemp(join(tmpdir(), "lib-drift-bench-"));
try {
  const same = join(dir, "same.duckdb");
  const changed = join(dir, "changed.duckdb");
  await createCodegenDatabase(same, VIEWS);
  await createCodegenDatabase(changed, VIEWS, true);
  const io = { cwd: dir, env: {}, stdout: () => {}, stderr: (l: string) => console.error(l) };
  const generated = await runCodegen({ backend: "backend_c", database: same }, io);
  if (generated !== 0) throw new Error(`lib codegen exited ${generated}`);
  const time = async (database: string, expected: number) => {
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      const code = await runCodegen({ backend: "backend_c", database, check: true, format: "json" }, io);
      times.push(performance.now() - start);
      if (code !== expected) throw new Error(`--check exited ${code}, expected ${expected}`);
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  };
  const current = await time(same, 0);
  const drifted = await time(changed, 1);
  console.log(`lib codegen --check on ${VIEWS} views (backend C), median of ${RUNS}:`);
  console.log(`  nothing changed:      ${(current / 1000).toFixed(2)} s`);
  console.log(`  every view changed:   ${(drifted / 1000).toFixed(2)} s (${VIEWS * 3} changes classified)`);
  console.log(`  codegen modules import: ${(importMs / 1000).toFixed(2)} s (once per process)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
