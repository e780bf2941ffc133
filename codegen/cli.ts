/**
 * `lib codegen` command line (cac): flags, help with the exit-status table, version, and usage
 * errors (exit 2). Everything else is `runCodegen`.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cac } from "cac";
import { runCodegen } from "./codegen.js";
import { runMcpCommand, type McpFlags } from "./mcp-command.js";
import type { Connector } from "./connect.js";
import { EXIT_CODE_HELP, ExitCode, type ExitCodeValue } from "./exit-codes.js";
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
  readonly allowPartial?: unknown;
}

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
  cli
    .command("codegen", "Introspect semantic views and generate view classes and TypeBox DTO schemas")
    .option("--backend <backend>", `Backend to introspect: ${listBackends()} (required)`)
    .option("--database <path>", "Backend C database file (default: $BACKEND_C_DATABASE)")
    .option(
      "--config <path>",
      "Connection configuration file (default: .lib.toml; backends A/B read [connections.<backend>])",
    )
    .option("--out <dir>", "Output directory", { default: "generated" })
    .option("--view <name>", "Generate only this view (repeatable)", { type: [] })
    .option(
      "--check",
      "Write nothing; list what changed in the model; exit 1 when a change can break a caller (or the files differ otherwise)",
    )
    .option("--format <format>", "With --check: text (default) or json")
    .option(
      "--fixture <path>",
      "Also write a backend C fixture module recreating the views' tables and views in-process",
    )
    .option("--sample <n>", "With --fixture: copy at most n rows per base table (default: none)")
    .option("--allow-partial", "With --fixture: write it even when some constructs cannot be translated")
    .action(() => undefined)
    .example("  lib codegen --backend backend_c --database demo.duckdb")
    .example("  lib codegen --backend backend_a --check")
    .example("  lib codegen --backend backend_c --database demo.duckdb --view sales --out src/generated");
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
    { body: EXIT_CODE_HELP },
  ]);
  cli.version(packageVersion());

  let parsed: { args: readonly string[]; options: Record<string, unknown> };
  try {
    parsed = cli.parse(["node", "lib", ...argv], { run: false });
    // cac checks unknown flags and missing flag values only when it runs the matched command.
    if (cli.matchedCommand && !parsed.options["help"]) await cli.runMatchedCommand();
  } catch (error) {
    io.stderr(
      `lib: ${error instanceof Error ? error.message : String(error)}${flagHint(error, cli.matchedCommand?.options ?? [])} (see lib ${cli.matchedCommandName === "mcp" ? "mcp" : "codegen"} --help)`,
    );
    return ExitCode.Usage;
  }
  if (parsed.options["help"] || parsed.options["version"]) return ExitCode.Ok;
  if (cli.matchedCommandName === "mcp") {
    if (parsed.args.length > 0) {
      io.stderr(`lib mcp: unexpected argument "${parsed.args[0]}" (see lib mcp --help)`);
      return ExitCode.Usage;
    }
    return runMcpCommand(parsed.options as McpFlags, io);
  }
  if (cli.matchedCommandName !== "codegen") {
    if (parsed.args.length > 0)
      io.stderr(`lib: unknown command "${parsed.args[0]}" (the commands are lib codegen and lib mcp)`);
    else cli.outputHelp();
    return ExitCode.Usage;
  }
  if (parsed.args.length > 0) {
    io.stderr(`lib codegen: unexpected argument "${parsed.args[0]}" (see lib codegen --help)`);
    return ExitCode.Usage;
  }
  const flags = parsed.options as CodegenFlags;
  const usage = (message: string): ExitCodeValue => {
    io.stderr(`lib codegen: ${message} (see lib codegen --help)`);
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
  const sample = flags.sample === undefined ? undefined : Number(flags.sample);
  if (sample !== undefined && (!Number.isInteger(sample) || sample < 0))
    return usage(`--sample needs a non-negative integer, got ${String(flags.sample)}`);
  if ((sample !== undefined || flags.allowPartial !== undefined) && flags.fixture === undefined)
    return usage("--sample and --allow-partial need --fixture");
  const views = flags.view === undefined ? undefined : (flags.view as unknown[]).map(String);
  if (views?.some((v) => v === "" || v === "true")) return usage("--view needs a view name");

  let env: Environment;
  try {
    env = environmentWithDotenv(io.cwd, io.env);
  } catch (error) {
    io.stderr(`lib codegen: ${error instanceof Error ? error.message : String(error)}`);
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
      sample,
      allowPartial: flags.allowPartial === true,
    },
    { ...io, env },
  );
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
