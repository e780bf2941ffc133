/**
 * The headless Chromium the browser tests drive (Debian package `chromium`, through playwright-core,
 * no browser download), with the flags this machine needs, and the loud skip when it is missing.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { BackendCConfig, createEngine } from "lib";
import { createApp } from "../../../example-service/app.js";
import { seedDemoDatabase } from "../../../scripts/seed-demo.js";
import { listen, recordingLogger } from "../../service/support/service-harness.js";
import { tempDir, type TempDir } from "../../support/temp-dir.js";

export const OUTPUT_DIR = fileURLToPath(new URL("../../../test-output/", import.meta.url));

// CHROMIUM_PATH, when set, is the only candidate (so the skip path can be exercised too).
export const CANDIDATES = process.env.CHROMIUM_PATH
  ? [process.env.CHROMIUM_PATH]
  : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
export const EXECUTABLE_PATH = CANDIDATES.find((p) => existsSync(p));

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
  "--lang=en-US",
];

let warned = false;

/** In a `beforeEach`: skips the test (with one loud banner per run) when no Chromium is installed. */
export function skipWithoutChromium(context: Mocha.Context): void {
  if (EXECUTABLE_PATH !== undefined) return;
  if (!warned) {
    warned = true;
    const banner = "!".repeat(78);
    console.error(
      `\n${banner}\n!! CHROMIUM NOT FOUND (looked for ${CANDIDATES.join(", ")}): the browser tests are SKIPPED.\n` +
        `!! Install it with: apt-get update && apt-get install -y chromium  (or set CHROMIUM_PATH)\n${banner}\n`,
    );
  }
  context.skip();
}

/** The example service over a fresh demo database, and a Chromium profile opened on it. */
export interface DemoInChromium extends AsyncDisposable {
  readonly url: string;
  readonly context: BrowserContext;
  /** The temporary folder holding the database and the profile. */
  readonly dir: TempDir;
}

/** Seeds the demo database in a temporary folder, serves the example app on it, and opens Chromium. */
export async function demoInChromium(viewportWidth: number): Promise<DemoInChromium> {
  const dir = await tempDir();
  await mkdir(OUTPUT_DIR, { recursive: true });
  const database = dir.file("demo.duckdb");
  await seedDemoDatabase(database);
  const engine = createEngine(new BackendCConfig({ database, readOnly: true }));
  const app = await listen(createApp({ engine, logger: recordingLogger() }));
  const context = await chromium.launchPersistentContext(dir.file("profile"), {
    executablePath: EXECUTABLE_PATH!,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: viewportWidth, height: 900 },
    locale: "en-US",
  });
  return {
    url: app.url,
    context,
    dir,
    async [Symbol.asyncDispose]() {
      await context.close();
      await app[Symbol.asyncDispose]();
      await engine.dispose();
      await dir[Symbol.asyncDispose]();
    },
  };
}

/**
 * Mocha hooks: {@link demoInChromium} for the whole `describe` (disposed after), and every test
 * skipped loudly when no Chromium is installed. `context` and `url` are readable inside its tests.
 */
export function useDemoInChromium(viewportWidth: number): { readonly context: BrowserContext; readonly url: string } {
  let demo: DemoInChromium | undefined;
  before(async () => {
    if (EXECUTABLE_PATH !== undefined) demo = await demoInChromium(viewportWidth);
  });
  after(async () => {
    await demo?.[Symbol.asyncDispose]();
    demo = undefined;
  });
  beforeEach(function () {
    skipWithoutChromium(this);
  });
  const current = (): DemoInChromium => {
    if (demo === undefined) throw new Error("useDemoInChromium(): the demo runs only inside the describe");
    return demo;
  };
  return {
    get context() {
      return current().context;
    },
    get url() {
      return current().url;
    },
  };
}
