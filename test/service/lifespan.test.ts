/**
 * Service lifespan: engine registered as "default" while serving; shutdown stops accepting, lets the
 * in-flight request finish, then unregisters and disposes the engine. The service started as the
 * README's container CMD stops cleanly on SIGINT and seeds its database only once; `npm start` stops it
 * cleanly on SIGTERM (npm passes the signal on to its child, which the start script makes the service).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { getEngine } from "lib";
import { startService } from "../../example-service/lifespan.js";
import { poolOf, recordingLogger, seededEngine } from "./support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";
import { markedBlock } from "../support/readme-blocks.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function isRegistered(name: string): boolean {
  try {
    return getEngine(name) !== undefined;
  } catch {
    return false;
  }
}

describe("example service: lifespan", function () {
  it("finishes the in-flight request, then unregisters and disposes the engine", async function () {
    await using dir = await tempDir();
    const engine = await seededEngine(dir.path);
    // Hold the first connection open until the test says so: a request stays in flight meanwhile.
    let entered!: () => void;
    const requestInFlight = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    poolOf(engine).on("connect", async () => {
      entered();
      await gate;
    });
    const logger = recordingLogger();
    const service = await startService({ engine, port: 0, host: "127.0.0.1", logger });
    expect(getEngine("default")).to.equal(engine);

    const pending = fetch(`${service.url}revenue?country=DE`);
    await requestInFlight;
    const stopped = service.shutdown();
    expect(service.shutdown()).to.equal(stopped);
    // No new connections once shutdown began...
    const refused = await fetch(`${service.url}revenue`).then(
      () => "accepted",
      () => "refused",
    );
    expect(refused).to.equal("refused");
    // ...and the engine is still there for the request in flight.
    expect(getEngine("default")).to.equal(engine);
    release();
    const response = await pending;
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal([{ country: "DE", revenue: 420 }]);
    await stopped;
    expect(isRegistered("default")).to.equal(false);
    const afterDispose = await engine.connect().then(
      async (conn: { release(): Promise<void> }) => {
        await conn.release();
        return "connected";
      },
      () => "rejected",
    );
    expect(afterDispose).to.equal("rejected");
    expect(logger.lines.at(-1)).to.equal("engine unregistered and disposed");
  });
});

describe("example service: npm start entry point", function () {
  this.timeout(90_000);

  interface Started {
    child: ChildProcess;
    url: string;
    output: () => string;
    exited: Promise<number | null>;
  }

  /** The README's container `CMD`, with this node as `node`. */
  function containerCommand(): string[] {
    const cmd = /^CMD (\[.*\])$/m.exec(markedBlock("readme-container").code)?.[1];
    const [program, ...args] = JSON.parse(cmd ?? "[]") as string[];
    expect(program, "the README's container CMD starts node itself").to.equal("node");
    return [process.execPath, ...args];
  }

  async function start(database: string, [command, ...args]: readonly string[]): Promise<Started> {
    const child = spawn(command!, args, {
      cwd: repoRoot,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", BACKEND_C_DATABASE: database },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: stop() reaches a service that outlived npm, too
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (): void => {
        const match = /listening on (http:\/\/\S+?\/) /.exec(out);
        if (match) {
          child.stdout!.off("data", onData);
          resolve(match[1]!);
        }
      };
      child.stdout!.on("data", onData);
      void exited.then((code) => reject(new Error(`service exited early (${code}):\n${out}`)));
    });
    return { child, url, output: () => out, exited };
  }

  /** Kills whatever of the started process group is left (nothing, when the test passes). */
  function stop(started: Started): void {
    try {
      process.kill(-started.child.pid!, "SIGKILL");
    } catch {
      // the group is gone
    }
  }

  it("as the README's container CMD: seeds, serves, exits 0 on SIGINT; then npm start: exits 0 on SIGTERM to npm, after disposing the engine", async function () {
    await using dir = await tempDir();
    // A file in an existing directory: the service creates only its default demo-data/ directory.
    const database = join(dir.path, "demo.duckdb");
    const first = await start(database, containerCommand());
    try {
      expect(first.output()).to.include(`seeded demo database ${database} (6000 sales rows)`);
      const rows = (await (await fetch(`${first.url}revenue`)).json()) as { country: string; revenue: number }[];
      expect(rows).to.have.length(36);
      for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.revenue).to.be.at.least(rows[i]!.revenue);
      expect(await (await fetch(`${first.url}revenue?country=${rows[0]!.country}`)).json()).to.deep.equal([rows[0]]);
      first.child.kill("SIGINT");
      expect(await first.exited).to.equal(0);
      expect(first.output()).to.include("SIGINT received").and.include("engine unregistered and disposed");
    } finally {
      stop(first);
    }

    // npm start: SIGTERM to npm itself (what a container running `npm start` gets) stops the service.
    const second = await start(database, [NPM, "start"]);
    try {
      expect(second.output()).to.include(`using demo database ${database} (6000 sales rows)`);
      expect(((await (await fetch(`${second.url}revenue`)).json()) as unknown[]).length).to.equal(36);
      second.child.kill("SIGTERM");
      expect(await second.exited).to.equal(0);
      expect(second.output()).to.include("SIGTERM received").and.include("engine unregistered and disposed");
      const after = await fetch(`${second.url}revenue`).then(
        () => "still answering",
        () => "closed",
      );
      expect(after, "the service stopped with npm").to.equal("closed");
    } finally {
      stop(second);
    }
  });
});
