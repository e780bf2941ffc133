/**
 * `lib mcp --config .lib.toml [--connection name] --views <module> [--http <port>] [--host <addr>]`:
 * opens the engine of one configured connection, imports the view module (the generated
 * `index.ts`, compiled, or any module exporting view classes and their row DTOs) and serves it over
 * MCP on stdio (the default: stdout is the protocol, messages go to stderr) or Streamable HTTP.
 * Runs until stdin closes (stdio), or SIGINT/SIGTERM.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CliIo } from "./cli.js";
import { ExitCode, type ExitCodeValue } from "./exit-codes.js";

export interface McpFlags {
  readonly config?: unknown;
  readonly connection?: unknown;
  readonly views?: unknown;
  readonly http?: unknown;
  readonly host?: unknown;
}

export interface StartedMcp {
  readonly url: string | undefined;
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Starts the server (for tests: in-process); `runMcpCommand` waits for it to end. */
export async function startMcpCommand(flags: McpFlags, io: CliIo): Promise<StartedMcp | ExitCodeValue> {
  const usage = (message: string): ExitCodeValue => {
    io.stderr(`lib mcp: ${message} (see lib mcp --help)`);
    return ExitCode.Usage;
  };
  if (typeof flags.views !== "string" || flags.views === "") return usage("--views <module> is required");
  const modulePath = resolve(io.cwd, flags.views);
  if (!existsSync(modulePath)) return usage(`--views: no module at ${modulePath}`);
  const http = flags.http === undefined ? undefined : Number(flags.http);
  if (http !== undefined && (!Number.isInteger(http) || http < 0 || http > 65535))
    return usage("--http needs a port number");
  if (flags.host !== undefined && (typeof flags.host !== "string" || http === undefined))
    return usage("--host needs --http and an address");
  const connection = flags.connection === undefined ? "default" : String(flags.connection);
  const configPath = resolve(io.cwd, typeof flags.config === "string" ? flags.config : ".lib.toml");
  if (!existsSync(configPath)) return usage(`no configuration file at ${configPath}`);

  // Loaded only for this command: `lib codegen` never pays for the query path or the MCP SDK.
  const { createAsyncEngine, ValidationError, MissingPackageError } = await import("../runtime/index.js");
  const { serveMcp } = await import("../runtime/mcp/index.js");
  let views: Record<string, unknown>;
  try {
    views = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  } catch (error) {
    return usage(`--views: cannot import ${modulePath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let engine: Awaited<ReturnType<typeof createAsyncEngine>>;
  try {
    engine = await createAsyncEngine(connection, { configPath });
  } catch (error) {
    io.stderr(`lib mcp: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof ValidationError ? ExitCode.Usage : ExitCode.Connection;
  }
  try {
    const running = await serveMcp({
      views,
      engine,
      ...(http === undefined
        ? { transport: "stdio" }
        : { transport: "http", port: http, host: typeof flags.host === "string" ? flags.host : "127.0.0.1" }),
    });
    io.stderr(
      `lib mcp: serving ${Object.keys(views).length} exports of ${flags.views} on ${running.url ?? "stdio"} (connection "${connection}")`,
    );
    const close = async () => {
      await running.close();
      await engine.dispose();
    };
    return { url: running.url, closed: running.closed.then(() => engine.dispose()), close };
  } catch (error) {
    await engine.dispose();
    io.stderr(`lib mcp: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof ValidationError || error instanceof MissingPackageError ? ExitCode.Usage : ExitCode.Failure;
  }
}

/** The `lib mcp` command: serves until the transport ends or the process is asked to stop. */
export async function runMcpCommand(flags: McpFlags, io: CliIo): Promise<ExitCodeValue> {
  const started = await startMcpCommand(flags, io);
  if (typeof started === "number") return started;
  const stop = () => void started.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await started.closed;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  return ExitCode.Ok;
}
