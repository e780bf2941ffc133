/**
 * The headless Chromium the browser tests drive (Debian package `chromium`, through playwright-core,
 * no browser download), with the flags this machine needs, and the loud skip when it is missing.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const OUTPUT_DIR = fileURLToPath(new URL("../../test-output/", import.meta.url));

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
