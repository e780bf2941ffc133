/**
 * The whole `lib codegen` flow (kysely-codegen's `generate.ts`, shrunk): resolve the target,
 * connect, introspect, generate, then write or `--check`. The CLI is a thin layer over `runCodegen`.
 */
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { type BackendType, Secret } from "../runtime/config/index.js";
import {
  dialectOf,
  type IntrospectionSource,
  type SampleRows,
  type ViewMetadata,
  type ViewSummary,
} from "../runtime/internal.js";
import { ConnectFailure, engineConnector, type Connector, type IntrospectionConnection } from "./connect.js";
import { DtoConfigError, type GenerateResult, type GeneratedFile } from "./emit/generated-file.js";
import { CodegenExit, ExitCode, type ExitCodeValue } from "./exit-codes.js";
import { findDrift, writeOutput } from "./output.js";
import { checkOutput, type CheckFormat } from "./drift/check.js";
import { readDtoSpecs, resolveTarget, type CodegenTarget, type Environment } from "./codegen-settings.js";
import {
  readFixture,
  readQueriesFile,
  writeFixtureModule,
  type FixtureOptions,
  type ReadFixture,
} from "./fixture/fixture-flow.js";

export interface CodegenOptions {
  readonly backend: BackendType;
  readonly database?: string | undefined;
  /** Default `.lib.toml`, relative to `cwd`. */
  readonly config?: string | undefined;
  /** Default `generated`, relative to `cwd`. */
  readonly out?: string | undefined;
  /** Generate only these views (the output directory then holds only them). */
  readonly views?: readonly string[] | undefined;
  readonly check?: boolean | undefined;
  /** With `check`: the summary as text (default) or one JSON document. */
  readonly format?: CheckFormat | undefined;
  /** Also write a backend C fixture module to this path (relative to `cwd`). */
  readonly fixture?: string | undefined;
  /** With `fixture`: copy at most this many rows per base table, or every row (`--sample all`). */
  readonly sample?: SampleRows | undefined;
  /** With `fixture`: write it even when constructs could not be translated (else exit 2). */
  readonly allowPartial?: boolean | undefined;
  /** With `fixture` and every row: run these queries on the warehouse and store their answers. */
  readonly record?: { readonly limit: number; readonly queriesFile?: string | undefined } | undefined;
  /** With `record`: replay the recorded queries on the fixture offline (exit 1 on a difference). */
  readonly verify?: boolean | undefined;
  /**
   * `lib codegen-dto`: write (or `--check`) only the DTO modules, `<view>.dto.ts`, exactly as
   * `lib codegen` writes them, and manage only such files in the output directory.
   */
  readonly dtosOnly?: boolean | undefined;
}

const isDtoModule = (path: string): boolean => path.endsWith(".dto.ts");

export interface CodegenIo {
  readonly cwd: string;
  /** Already including `.env` (see `environmentWithDotenv`). */
  readonly env: Environment;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly connector?: Connector | undefined;
}

export async function runCodegen(options: CodegenOptions, io: CodegenIo): Promise<ExitCodeValue> {
  const configPath = resolve(io.cwd, options.config ?? ".lib.toml");
  const outDir = resolve(io.cwd, options.out ?? "generated");
  const shownOut = relative(io.cwd, outDir) || ".";
  const command = options.dtosOnly ? "lib codegen-dto" : "lib codegen";
  const owns = options.dtosOnly ? isDtoModule : () => true;
  let secrets: string[] = [];
  try {
    if (options.config !== undefined && !existsSync(configPath)) {
      throw new CodegenExit(ExitCode.Usage, `--config ${configPath} does not exist`);
    }
    // Mistakes in the file come first: they need no connection.
    const dtos = readDtoSpecs(configPath);
    const target = resolveTarget({
      backend: options.backend,
      database: options.database,
      configPath,
      env: io.env,
      cwd: io.cwd,
    });
    secrets = secretsOf(target);
    const fixtureOptions = await fixtureOptionsOf(options, io.cwd);
    let fixture: ReadFixture | undefined;
    const views = await introspect(
      target,
      options.views,
      io.connector ?? engineConnector,
      async (source, described) => {
        if (fixtureOptions === undefined) return;
        fixture = await readFixture(options.backend, source, described, fixtureOptions);
      },
    );
    let fixtureExit: ExitCodeValue = ExitCode.Ok;
    if (fixture !== undefined && fixtureOptions !== undefined && !options.check) {
      fixtureExit = await writeFixtureModule(fixture, fixtureOptions, io);
    }
    const selected = new Set(views.map((v) => v.name));
    for (const dto of dtos) {
      if (
        !selected.has(dto.view) &&
        ![...selected].some((v) => v.toLowerCase() === dto.view.toLowerCase()) &&
        options.views === undefined
      ) {
        throw new CodegenExit(
          ExitCode.ViewNotFound,
          `DTO ${dto.name} names semantic view "${dto.view}", which was not found (views: ${[...selected].join(", ") || "none"})`,
        );
      }
    }
    const wanted =
      options.views === undefined
        ? dtos
        : dtos.filter((d) => [...selected].some((v) => v.toLowerCase() === d.view.toLowerCase()));
    const { files, renamed } = await generateFiles(views, options.backend, wanted);
    for (const note of renamed) io.stderr(`${command}: warning: renamed ${note}`);
    const output = { command, outDir, shownOut, owns, files: files.filter((f) => owns(f.path)) };
    if (!options.check) {
      const written = await write(output, views.length, io);
      return written === ExitCode.Ok ? fixtureExit : written;
    }
    // lib codegen --check also classifies the model's changes (drift/check.ts); codegen-dto compares its files.
    return options.dtosOnly
      ? await check(output, io)
      : await checkOutput(outDir, shownOut, files, options.format ?? "text", io);
  } catch (error) {
    const exit = toExit(error);
    io.stderr(`${command}: ${redact(exit.message, secrets)}`);
    return exit.exitCode;
  }
}

async function introspect(
  target: CodegenTarget,
  only: readonly string[] | undefined,
  connector: Connector,
  alsoRead: (source: IntrospectionSource, views: readonly ViewMetadata[]) => Promise<void>,
): Promise<ViewMetadata[]> {
  let connection: IntrospectionConnection;
  try {
    connection = await connector(target);
  } catch (error) {
    if (error instanceof CodegenExit) throw error;
    throw new CodegenExit(ExitCode.Connection, error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  try {
    const introspector = dialectOf(target.backend).codegen.createIntrospector(connection.source);
    const listed = await introspector.listViews();
    const chosen = only === undefined ? listed : only.map((name) => findView(listed, name));
    const unique = [...new Map(chosen.map((v) => [v.name, v])).values()];
    const views: ViewMetadata[] = [];
    for (const view of unique) views.push(await introspector.describeView(view));
    await alsoRead(connection.source, views);
    return views;
  } catch (error) {
    if (error instanceof CodegenExit) throw error;
    throw new CodegenExit(
      ExitCode.Failure,
      `introspection failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await connection.close().catch(() => undefined);
  }
}

function findView(listed: readonly ViewSummary[], name: string): ViewSummary {
  const found = listed.find((v) => v.name === name) ?? listed.find((v) => v.name.toLowerCase() === name.toLowerCase());
  if (found) return found;
  const available = listed.map((v) => v.name).join(", ") || "none";
  throw new CodegenExit(ExitCode.ViewNotFound, `semantic view "${name}" not found (available: ${available})`);
}

async function generateFiles(
  views: readonly ViewMetadata[],
  backend: BackendType,
  dtos: ReturnType<typeof readDtoSpecs>,
): Promise<GenerateResult> {
  // ts-morph (and TypeScript) load only once there is something to emit.
  const { generate } = await import("./emit/generate.js");
  try {
    return generate(views, { backend, dtos });
  } catch (error) {
    if (error instanceof DtoConfigError) {
      throw new CodegenExit(error.kind === "view" ? ExitCode.ViewNotFound : ExitCode.Usage, error.message, {
        cause: error,
      });
    }
    throw error;
  }
}

/** What a run writes, where, and which files of that directory it manages. */
interface Output {
  readonly command: string;
  readonly outDir: string;
  readonly shownOut: string;
  readonly owns: (path: string) => boolean;
  readonly files: readonly GeneratedFile[];
}

async function check(output: Output, io: CodegenIo): Promise<ExitCodeValue> {
  const { command, shownOut, files } = output;
  const drift = await findDrift(output.outDir, files, output.owns);
  if (drift.length === 0) {
    io.stdout(`${command} --check: ${shownOut}/ is current (${files.length} files)`);
    return ExitCode.Ok;
  }
  const differ = drift.length === 1 ? "1 file differs" : `${drift.length} files differ`;
  io.stdout(`${command} --check: ${shownOut}/ is stale (${differ} from the generated output):`);
  for (const d of drift) io.stdout(`  ${d.status.padEnd(7)} ${shownOut}/${d.path}`);
  for (const d of drift) io.stdout(`\n${d.diff}`);
  io.stdout(`\nRe-run ${command} without --check to update ${shownOut}/.`);
  return ExitCode.Drift;
}

async function write(output: Output, viewCount: number, io: CodegenIo): Promise<ExitCodeValue> {
  const { command, shownOut } = output;
  const summary = await writeOutput(output.outDir, output.files, output.owns);
  for (const path of summary.written) io.stdout(`  wrote   ${shownOut}/${path}`);
  for (const path of summary.removed) io.stdout(`  removed ${shownOut}/${path}`);
  io.stdout(
    `${command}: ${viewCount} semantic view${viewCount === 1 ? "" : "s"} → ${shownOut}/ ` +
      `(${summary.written.length} written, ${summary.unchanged.length} unchanged, ${summary.removed.length} removed)`,
  );
  return ExitCode.Ok;
}

/** The fixture settings of a run, or undefined without `--fixture`; reads `--queries` before connecting. */
async function fixtureOptionsOf(options: CodegenOptions, cwd: string): Promise<FixtureOptions | undefined> {
  if (options.fixture === undefined) return undefined;
  const record = options.record;
  return {
    path: resolve(cwd, options.fixture),
    sample: options.sample,
    allowPartial: options.allowPartial === true,
    record:
      record === undefined
        ? undefined
        : {
            limit: record.limit,
            queries:
              record.queriesFile === undefined
                ? []
                : await readQueriesFile(
                    resolve(cwd, record.queriesFile),
                    relative(cwd, resolve(cwd, record.queriesFile)),
                  ),
          },
    verify: options.verify === true,
  };
}

function toExit(error: unknown): CodegenExit {
  if (error instanceof CodegenExit) return error;
  if (error instanceof ConnectFailure) return new CodegenExit(ExitCode.Connection, error.message, { cause: error });
  return new CodegenExit(ExitCode.Failure, error instanceof Error ? error.message : String(error), { cause: error });
}

/** Every secret value of the target, so no message can echo one (driver errors sometimes quote URIs). */
function secretsOf(target: CodegenTarget): string[] {
  if (!("settings" in target)) return [];
  return Object.values(target.settings)
    .filter((v): v is Secret => v instanceof Secret)
    .map((s) => s.reveal())
    .filter((s) => s.length >= 4);
}

function redact(message: string, secrets: readonly string[]): string {
  return secrets.reduce((text, secret) => text.split(secret).join("[redacted]"), message);
}
