/**
 * "semantic-expansion": runs the semantic-query area's benchmark (scripts/bench/semantic-expansion.ts,
 * owned by that area) through its exported `runSemanticExpansionBench`, echoing and capturing what it
 * prints so the summary lands in the JSON results too. A missing module or export is reported, not fatal.
 */
export interface ExpansionSummary {
  readonly status: "ok" | "missing" | "failed";
  readonly message?: string;
  readonly output: string;
}

interface ExpansionModule {
  runSemanticExpansionBench?: (options?: { rows?: number; runs?: number }) => Promise<void>;
}

export async function runExpansion(options: { rows: number; runs: number }): Promise<ExpansionSummary> {
  console.log(
    `\nsemantic-expansion (scripts/bench/semantic-expansion.ts, ${options.rows.toLocaleString("en-US")} order rows, ${options.runs} runs)`,
  );
  let mod: ExpansionModule;
  try {
    mod = (await import("./semantic-expansion.js")) as ExpansionModule;
  } catch (error) {
    const message = `scripts/bench/semantic-expansion.ts could not be loaded (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); skipped.`;
    console.log(`  ${message}`);
    return { status: "missing", message, output: "" };
  }
  if (typeof mod.runSemanticExpansionBench !== "function") {
    const message = "scripts/bench/semantic-expansion.ts exports no runSemanticExpansionBench(); skipped.";
    console.log(`  ${message}`);
    return { status: "missing", message, output: "" };
  }
  const captured: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    captured.push(args.map(String).join(" "));
    log(...args);
  };
  try {
    await mod.runSemanticExpansionBench(options);
    return { status: "ok", output: captured.join("\n") };
  } catch (error) {
    const message = `semantic-expansion failed: ${error instanceof Error ? error.message : String(error)}`;
    console.log(`  ${message}`);
    return { status: "failed", message, output: captured.join("\n") };
  } finally {
    console.log = log;
  }
}
