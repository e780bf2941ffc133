/** The documented exit status of `lib codegen` (also printed by `lib codegen --help`). */
export const ExitCode = Object.freeze({
  /** Generated (or `--check`: output is current, or only changes no caller can notice, with a notice). */
  Ok: 0,
  /** `--check`: a model change that can break a caller, or files that differ while the model did not change. */
  Drift: 1,
  /** `--verify`: the fixture answers a recorded query differently from the warehouse. */
  Different: 1,
  /** Usage or configuration error: unknown flag/backend, missing section, missing database path, bad DTO config. */
  Usage: 2,
  /** A view named by `--view` (or by a DTO) does not exist. */
  ViewNotFound: 3,
  /** The warehouse could not be reached, opened or authenticated against. */
  Connection: 4,
  /** The warehouse rejected an introspection statement, or another unexpected failure. */
  Failure: 5,
});

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure that ends the command with a specific exit status and a one-line message. */
export class CodegenExit extends Error {
  override readonly name = "CodegenExit";
  constructor(
    readonly exitCode: ExitCodeValue,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TARGET_EXIT_CODES = {
  2: "usage or configuration error (unknown flag or backend, missing [connections.<backend>] section,\n     no backend C database path, invalid configuration or DTO setting)",
  3: "semantic view not found (--view, or a view named by a DTO)",
  4: "connection or authentication failure (unreachable warehouse, unreadable or corrupt database file)",
  5: "the warehouse rejected an introspection statement, or another unexpected failure",
} as const;

function exitTable(rows: readonly (readonly [number, string])[]): string {
  return ["Exit status:", ...rows.map(([code, text]) => `  ${code}  ${text}`)].join("\n");
}

/**
 * The exit-status table each command prints in its `--help`: every line is a status that command can
 * end with, for a reason that command can meet (codegen-dto has no --fixture/--verify; mcp
 * introspects nothing and never drifts).
 */
export const EXIT_CODE_HELP = Object.freeze({
  codegen: exitTable([
    [
      0,
      "ok (with --check: generated files are current, or the model only gained members, views or\n     allowed pairs: a notice lists them)",
    ],
    [
      1,
      "--check found a change that can break a caller (a view or member removed or renamed, a value\n     type changed, a metric-dimension pair no longer allowed), or files that differ otherwise;\n     or --verify found a recorded query the fixture answers differently",
    ],
    [
      2,
      `${TARGET_EXIT_CODES[2]};\n     or --fixture could not translate some construct (listed; --allow-partial writes it anyway),\n     or --sample all met a table over --max-rows`,
    ],
    [3, TARGET_EXIT_CODES[3]],
    [4, TARGET_EXIT_CODES[4]],
    [5, TARGET_EXIT_CODES[5]],
  ]),
  "codegen-dto": exitTable([
    [0, "ok (with --check: the DTO modules are current)"],
    [1, "--check found a DTO module that differs from the generated output (changed, missing or extra)"],
    [2, TARGET_EXIT_CODES[2]],
    [3, TARGET_EXIT_CODES[3]],
    [4, TARGET_EXIT_CODES[4]],
    [5, TARGET_EXIT_CODES[5]],
  ]),
  mcp: exitTable([
    [0, "the server stopped normally (stdin closed, or SIGINT/SIGTERM)"],
    [
      2,
      "usage or configuration error (missing --views, a module that cannot be imported, a bad --http or\n     --host, no or invalid configuration file, @modelcontextprotocol/sdk not installed)",
    ],
    [4, "the connection's first connection could not be opened (unreachable warehouse, unreadable database)"],
    [5, "the server could not start (for example, the --http port is taken), or another unexpected failure"],
  ]),
});

/** The commands that print an exit-status table. */
export type CommandWithExitCodes = keyof typeof EXIT_CODE_HELP;
