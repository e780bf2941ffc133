/**
 * Service lifespan: engine registered as "default" while serving; shutdown stops accepting, lets the
 * in-flight request finish, then unregisters and disposes the engine. `npm start`'s entry point
 * exits 0 on SIGTERM and seeds its database only once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { getEngine } from "lib";
import { startService } from "../../example-service/lifespan.js";
import { poolOf, recordingLogger, seededEngine } from "./support.js";
import { tempDir } from "../support/temp-dir.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

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

  async function start(database: string): Promise<Started> {
    const child = spawn(process.execPath, ["--import", "tsx", "example-service/main.ts"], {
      cwd: repoRoot,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", BACKEND_C_DATABASE: database },
      stdio: ["ignore", "pipe", "pipe"],
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

  it("seeds on first run, serves, exits 0 on SIGTERM after disposing the engine, reuses the data next time", async function () {
    await using dir = await tempDir();
    const database = join(dir.path, "demo.duckdb");

    const first = await start(database);
    try {
      expect(first.output()).to.include(`seeded demo database ${database} (6000 sales rows)`);
      const rows = (await (await fetch(`${first.url}revenue`)).json()) as { country: string; revenue: number }[];
      expect(rows).to.have.length(36);
      for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.revenue).to.be.at.least(rows[i]!.revenue);
      expect(await (await fetch(`${first.url}revenue?country=${rows[0]!.country}`)).json()).to.deep.equal([rows[0]]);
      first.child.kill("SIGTERM");
      expect(await first.exited).to.equal(0);
      expect(first.output()).to.include("SIGTERM received").and.include("engine unregistered and disposed");
    } finally {
      first.child.kill("SIGKILL");
    }

    const second = await start(database);
    try {
      expect(second.output()).to.include(`using demo database ${database} (6000 sales rows)`);
      expect(((await (await fetch(`${second.url}revenue`)).json()) as unknown[]).length).to.equal(36);
      second.child.kill("SIGINT");
      expect(await second.exited).to.equal(0);
    } finally {
      second.child.kill("SIGKILL");
    }
  });
});
