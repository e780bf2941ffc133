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
import { BackendCConfig, createEngine } from "lib";

const { values } = parseArgs({ options: { views: { type: "string" }, runs: { type: "string" } } });
const VIEWS = Number(values.views ?? 100);
const RUNS = Number(values.runs ?? 3);

function viewDdl(i: number, changed: boolean): string {
  const dimensions = ["o.region AS o.region", "o.channel AS o.channel", "li.status AS li.status"];
  if (!changed) dimensions.push("li.sku AS li.sku");
  const metrics = [`li.revenue AS SUM(li.price)`, `o.${changed ? "orders" : "order_count"} AS COUNT(*)`];
  return `CREATE SEMANTIC VIEW v${String(i).padStart(3, "0")} AS
    TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
    RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
    DIMENSIONS (${dimensions.join(", ")})
    METRICS (${metrics.join(", ")})`;
}

async function database(path: string, changed: boolean): Promise<void> {
  await using engine = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
  await using conn = await engine.connect();
  await conn.run("CREATE TABLE orders (id INTEGER, region VARCHAR, channel VARCHAR)");
  await conn.run("CREATE TABLE line_items (id INTEGER, order_id INTEGER, price INTEGER, status VARCHAR, sku VARCHAR)");
  for (let i = 0; i < VIEWS; i++) await conn.run(viewDdl(i, changed));
  await conn.commit();
}

const importStart = performance.now();
const { runCodegen } = await import("../../codegen/codegen.js");
const importMs = performance.now() - importStart;

const dir = await mkdtemp(join(tmpdir(), "lib-drift-bench-"));
try {
  const same = join(dir, "same.duckdb");
  const changed = join(dir, "changed.duckdb");
  await database(same, false);
  await database(changed, true);
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
