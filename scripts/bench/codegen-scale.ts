/**
 * "codegen-scale": `lib codegen` against a backend C database of 1, 10 and 100 semantic views (issue 25:
 * cost that grows linearly with the model): introspect + generate + write the modules, then `--check`
 * with nothing changed (introspect + generate in memory + compare). In-process through `runCodegen`
 * (the CLI's own entry), so Node's start is left out; the first call, which also loads ts-morph, is a
 * warm-up. A per-view cost that more than doubles from 1 to 100 views is flagged SUPER-LINEAR.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodegenDatabase } from "./codegen-fixture.js";
import { printCurve, timed, type Point } from "./scale-curve.js";
import type { BenchSettings } from "./bench-settings.js";

const SIZES = [1, 10, 100];

export async function runCodegenScale(settings: BenchSettings): Promise<void> {
  const runs = settings.quick ? 3 : 7;
  // Loaded here, not at the bench's start: ts-morph is a large import the other groups never need.
  const { runCodegen } = await import("../../codegen/codegen.js");
  const dir = await mkdtemp(join(tmpdir(), "lib-codegen-scale-"));
  const io = { cwd: dir, env: {}, stdout: () => {}, stderr: (line: string) => console.error(line) };
  const codegen = async (options: Parameters<typeof runCodegen>[0]) => {
    const code = await runCodegen(options, io);
    if (code !== 0) throw new Error(`codegen-scale: lib codegen exited ${code} for ${JSON.stringify(options)}`);
  };
  try {
    const generate: Point[] = [];
    const check: Point[] = [];
    for (const views of SIZES) {
      const database = join(dir, `views-${views}.duckdb`);
      await createCodegenDatabase(database, views);
      const out = join(dir, `generated-${views}`);
      generate.push({ size: views, ms: await timed(runs, () => codegen({ backend: "backend_c", database, out })) });
      check.push({
        size: views,
        ms: await timed(runs, () => codegen({ backend: "backend_c", database, out, check: true, format: "json" })),
      });
    }
    const linear = [
      printCurve("codegen-scale: lib codegen (introspect, generate, write) of N views", "view", generate),
      printCurve("codegen-scale: lib codegen --check of N views, nothing changed", "view", check),
    ];
    console.log(`\ncodegen-scale: ${linear.every(Boolean) ? "every curve linear" : "SUPER-LINEAR"}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
