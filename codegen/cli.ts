/**
 * `lib codegen` command line (cac): flags, help with the exit-status table, version, and usage
 * errors (exit 2). Everything else is `runCodegen`.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import { cac, type Command } from "cac";
import { runCodegen, type CodegenOptions } from "./codegen.js";
import { runMcpCommand, type McpFlags } from "./mcp-command.js";
import type { Connector } from "./connect.js";
import { EXIT_CODE_HELP, ExitCode, type CommandWithExitCodes, type ExitCodeValue } from "./exit-codes.js";
import { environmentWithDotenv, type Environment } from "./codegen-settings.js";
import { isBackend } from "../runtime/dialects/index.js";
import { listBackends, closestFieldName } from "../runtime/internal.js";

export interface CliIo {
  readonly cwd: string;
  readonly env: Environment;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly connector?: Connector | undefined;
}

interface CodegenFlags {
  readonly backend?: unknown;
  readonly database?: unknown;
  readonly config?: unknown;
  readonly out?: unknown;
  readonly view?: unknown;
  readonly check?: unknown;
  readonly format?: unknown;
  readonly fixture?: unknown;
  readonly sample?: unknown;
  readonly maxRows?: unknown;
  readonly allowPartial?: unknown;
  readonly record?: unknown;
  readonly recordLimit?: unknown;
  readonly queries?: unknown;
  readonly verify?: unknown;
}

/** `--max-rows` default: the largest table `--sample all` copies. */
export const DEFAULT_MAX_ROWS = 100_000;
/** `--record-limit` default. */
export const DEFAULT_RECORD_LIMIT = 200;

/** The version of the `lib` package this CLI belongs to (found above this file, as source or built). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "lib" && pkg.version) return pkg.version;
    } catch {
      // keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return "0.0.0";
    dir = parent;
  }
}

/** Runs the CLI on `argv` (without the node and script entries) and returns the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCodeValue> {
  const cli = cac("lib");
  targetFlags(
    cli.command("codegen", "Introspect semantic views and generate view classes and TypeBox DTO schemas"),
    "Write nothing; list what changed in the model; exit 1 when a change can break a caller (or the files differ otherwise)",
  )
    .option("--format <format>", "With --check: text (default) or json")
    .option(
      "--fixture <path>",
      "Also write a backend C fixture module recreating the views' tables and views in-process",
    )
    .option("--sample <n|all>", "With --fixture: copy at most n rows per base table, or every row (default: none)")
    .option("--max-rows <n>", `With --sample all: refuse a table with more rows (default ${DEFAULT_MAX_ROWS})`)
    .option("--allow-partial", "With --fixture: write it even when some constructs cannot be translated")
    .option("--record", "With --fixture --sample all: store the warehouse's answers to semantic queries")
    .option("--record-limit <n>", `With --record: at most n queries (default ${DEFAULT_RECORD_LIMIT})`)
    .option("--queries <file>", "With --record: also record these query descriptors (a JSON array)")
    .option("--verify", "With --record: replay the recorded queries on the fixture; exit 1 on a difference")
    .action(() => undefined)
    .example("  lib codegen --backend backend_c --database demo.duckdb")
    .example("  lib codegen --backend backend_a --check")
    .example("  lib codegen --backend backend_c --database demo.duckdb --view sales --out src/generated")
    .example("  lib codegen --backend backend_b --fixture test/fixtures/warehouse.ts --sample all --record --verify");
  targetFlags(
    cli.command(
      "codegen-dto",
      "Generate only the TypeBox DTO modules (<view>.dto.ts), as lib codegen writes them; other files are left alone",
    ),
  )
    .action(() => undefined)
    .example("  lib codegen-dto --backend backend_c --database demo.duckdb")
    .example("  lib codegen-dto --backend backend_a --check");
  cli
    .command("mcp", "Serve generated semantic views to agents over MCP (stdio, or Streamable HTTP with --http)")
    .option("--config <path>", "Connection configuration file (default: .lib.toml)")
    .option("--connection <name>", "Connection section to serve, [connections.<name>] (default: default)")
    .option("--views <module>", "Module exporting the view classes and row DTOs, e.g. generated/index.js (required)")
    .option("--http <port>", "Serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio")
    .option("--host <address>", "With --http: the address to bind (default: 127.0.0.1)")
    .action(() => undefined)
    .example("  lib mcp --config .lib.toml --views dist/generated/index.js")
    .example("  lib mcp --connection analytics --views dist/generated/index.js --http 3333");
  cli.help((sections) => [
    ...sections,
    {
      title: "Reads",
      body: "  .env in the current directory (values already in the environment win;\n  a value in the configuration file wins over both)",
    },
    ...exitStatusSection(cli.matchedCommandName),
  ]);
  cli.version(packageVersion());

  let parsed: { args: readonly string[]; options: Record<string, unknown> };
  try {
    parsed = printingTo(io.stdout, () => cli.parse(["node", "lib", ...argv], { run: false }));
    // cac checks unknown flags and missing flag values only when it runs the matched command.
    if (cli.matchedCommand && !parsed.options["help"]) await cli.runMatchedCommand();
  } catch (error) {
    io.stderr(
      `lib: ${error instanceof Error ? error.message : String(error)}${flagHint(error, cli.matchedCommand?.options ?? [])} (see lib ${cli.matchedCommandName ?? "codegen"} --help)`,
    );
    return ExitCode.Usage;
  }
  if (parsed.options["help"] || parsed.options["version"]) return ExitCode.Ok;
  const command = cli.matchedCommandName;
  if (command === "mcp") {
    if (parsed.args.length > 0) {
      io.stderr(`lib mcp: unexpected argument "${parsed.args[0]}" (see lib mcp --help)`);
      return ExitCode.Usage;
    }
    return runMcpCommand(parsed.options as McpFlags, io);
  }
  if (command !== "codegen" && command !== "codegen-dto") {
    if (parsed.args.length > 0)
      io.stderr(`lib: unknown command "${parsed.args[0]}" (the commands are lib codegen, lib codegen-dto and lib mcp)`);
    else printingTo(io.stdout, () => cli.outputHelp());
    return ExitCode.Usage;
  }
  if (parsed.args.length > 0) {
    io.stderr(`lib ${command}: unexpected argument "${parsed.args[0]}" (see lib ${command} --help)`);
    return ExitCode.Usage;
  }
  const flags = parsed.options as CodegenFlags;
  const usage = (message: string): ExitCodeValue => {
    io.stderr(`lib ${command}: ${message} (see lib ${command} --help)`);
    return ExitCode.Usage;
  };
  if (flags.backend === undefined) return usage(`--backend is required: ${listBackends()}`);
  const backend = String(flags.backend);
  if (!isBackend(backend)) {
    return usage(`unknown backend "${backend}": use ${listBackends()}`);
  }
  for (const name of ["database", "config", "out"] as const) {
    const value = flags[name];
    if (value === true || Array.isArray(value) || value === "") return usage(`--${name} needs one value`);
  }
  if (flags.config !== undefined && typeof flags.config !== "string") return usage("--config needs a file path");
  if (flags.check !== undefined && typeof flags.check !== "boolean") return usage("--check takes no value");
  const format = flags.format === undefined ? "text" : String(flags.format);
  if (format !== "text" && format !== "json") return usage(`--format takes text or json, got "${format}"`);
  if (flags.format !== undefined && flags.check !== true) return usage("--format needs --check");
  if (flags.fixture !== undefined && (typeof flags.fixture !== "string" || flags.fixture === ""))
    return usage("--fixture needs one path");
  const fixtureFlags = fixtureFlagsOf(flags);
  if (typeof fixtureFlags === "string") return usage(fixtureFlags);
  const views = flags.view === undefined ? undefined : (flags.view as unknown[]).map(String);
  if (views?.some((v) => v === "" || v === "true")) return usage("--view needs a view name");

  let env: Environment;
  try {
    env = environmentWithDotenv(io.cwd, io.env);
  } catch (error) {
    io.stderr(`lib ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.Usage;
  }
  return runCodegen(
    {
      backend,
      database: flags.database === undefined ? undefined : String(flags.database),
      config: flags.config === undefined ? undefined : String(flags.config),
      out: String(flags.out),
      views: views === undefined || views.length === 0 ? undefined : views,
      check: flags.check === true,
      format,
      fixture: flags.fixture === undefined ? undefined : String(flags.fixture),
      ...fixtureFlags,
      dtosOnly: command === "codegen-dto",
    },
    { ...io, env },
  );
}

/** A whole number ≥ `min` from a flag's text, or undefined. */
function wholeNumber(value: unknown, min: number): number | undefined {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
}

/** The `--fixture` family of flags as codegen options, or the usage message that refuses them. */
function fixtureFlagsOf(
  flags: CodegenFlags,
): Pick<CodegenOptions, "sample" | "allowPartial" | "record" | "verify"> | string {
  const given = (name: keyof CodegenFlags) => flags[name] !== undefined;
  let sample: CodegenOptions["sample"];
  if (flags.sample !== undefined) {
    if (String(flags.sample).trim().toLowerCase() === "all") {
      const maxRows = flags.maxRows === undefined ? DEFAULT_MAX_ROWS : wholeNumber(flags.maxRows, 1);
      if (maxRows === undefined) return `--max-rows needs a positive integer, got ${String(flags.maxRows)}`;
      sample = { kind: "all", maxRows };
    } else {
      const rows = wholeNumber(flags.sample, 0);
      if (rows === undefined) return `--sample needs a non-negative integer or "all", got ${String(flags.sample)}`;
      sample = { kind: "rows", rows };
    }
  }
  if (given("maxRows") && sample?.kind !== "all") return "--max-rows applies only to --sample all";
  const fixtureOnly = (["sample", "allowPartial", "record"] as const).filter(given);
  if (fixtureOnly.length > 0 && flags.fixture === undefined) {
    return `${fixtureOnly.map((f) => `--${f.replace(/([A-Z])/g, "-$1").toLowerCase()}`).join(" and ")} need --fixture`;
  }
  const recordOnly = (["recordLimit", "queries", "verify"] as const).filter(given);
  if (recordOnly.length > 0 && flags.record === undefined) {
    return `${recordOnly.map((f) => `--${f.replace(/([A-Z])/g, "-$1").toLowerCase()}`).join(" and ")} need --record`;
  }
  let record: CodegenOptions["record"];
  if (flags.record !== undefined) {
    if (sample?.kind !== "all") {
      return `--record needs --sample all: recorded answers are the warehouse's answers over every row, and a fixture with ${sample === undefined ? "no rows" : `at most ${sample.rows} rows per table`} answers from other rows`;
    }
    const limit = flags.recordLimit === undefined ? DEFAULT_RECORD_LIMIT : wholeNumber(flags.recordLimit, 1);
    if (limit === undefined) return `--record-limit needs a positive integer, got ${String(flags.recordLimit)}`;
    if (flags.queries !== undefined && (typeof flags.queries !== "string" || flags.queries === ""))
      return "--queries needs a file path";
    record = { limit, queriesFile: flags.queries === undefined ? undefined : String(flags.queries) };
  }
  return { sample, allowPartial: flags.allowPartial === true, record, verify: flags.verify === true };
}

/** The flags both commands take: what to introspect, where to write, `--check`. */
function targetFlags(
  command: Command,
  checkHelp = "Write nothing; exit 1 when the output directory is not current",
): Command {
  return command
    .option("--backend <backend>", `Backend to introspect: ${listBackends()} (required)`)
    .option("--database <path>", "Backend C database file (default: $BACKEND_C_DATABASE)")
    .option(
      "--config <path>",
      "Connection configuration file (default: .lib.toml; backends A/B read [connections.<backend>])",
    )
    .option("--out <dir>", "Output directory", { default: "generated" })
    .option("--view <name>", "Generate only this view (repeatable)", { type: [] })
    .option("--check", checkHelp);
}

/**
 * cac prints help and the version with console.info; route that to `io.stdout`, so a caller that
 * runs the CLI in-process (tests, tools) gets all of its output through `io`. `fn` is synchronous.
 */
function printingTo<T>(write: (line: string) => void, fn: () => T): T {
  const info = console.info;
  console.info = (...args: unknown[]) => write(format(...args));
  try {
    return fn();
  } finally {
    console.info = info;
  }
}

/** The matched command's own exit-status table; without a command, where to find them. */
function exitStatusSection(command: string | undefined): { body: string }[] {
  if (command !== undefined && Object.hasOwn(EXIT_CODE_HELP, command))
    return [{ body: EXIT_CODE_HELP[command as CommandWithExitCodes] }];
  return [{ body: "Exit status: each command lists its own (lib <command> --help)" }];
}

/** ` (did you mean --database?)` for cac's "Unknown option `--databse`", else "". */
function flagHint(error: unknown, options: readonly { readonly rawName: string; readonly name: string }[]): string {
  const unknown = error instanceof Error ? /^Unknown option `(-{1,2}[^`]+)`/.exec(error.message)?.[1] : undefined;
  if (unknown === undefined) return "";
  const flags = options.map((o) => `--${o.name.replace(/([A-Z])/g, "-$1").toLowerCase()}`);
  const closest = closestFieldName(
    unknown.replace(/^-+/, ""),
    flags.map((f) => f.slice(2)),
  );
  return closest === undefined ? "" : ` (did you mean --${closest}?)`;
}
