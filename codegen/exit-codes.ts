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

export const EXIT_CODE_HELP = [
  "Exit status:",
  "  0  ok (with --check: generated files are current, or the model only gained members, views or",
  "     allowed pairs: a notice lists them)",
  "  1  --check found a change that can break a caller (a view or member removed or renamed, a value",
  "     type changed, a metric-dimension pair no longer allowed), or files that differ otherwise;",
  "     or --verify found a recorded query the fixture answers differently",
  "  2  usage or configuration error (unknown flag or backend, missing [connections.<backend>] section,",
  "     no backend C database path, invalid configuration), or --fixture could not translate some",
  "     construct (listed; --allow-partial writes it anyway) or --sample all met a table over --max-rows",
  "  3  semantic view not found (--view, or a view named by a DTO)",
  "  4  connection or authentication failure (unreachable warehouse, unreadable or corrupt database file)",
  "  5  the warehouse rejected an introspection statement, or another unexpected failure",
].join("\n");
