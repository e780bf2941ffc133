/**
 * `tsx test/package/support/prepare-installs.ts <folder>`: prepares the package installs in the
 * (empty) folder and writes the outcome there; scripts/test.ts runs it beside mocha so the npm work
 * overlaps the whole suite (see package-installs.ts).
 */
import { prepareAndPublish } from "./package-installs.js";

const folder = process.argv[2];
if (folder === undefined) throw new Error("usage: prepare-installs.ts <empty folder>");
await prepareAndPublish(folder);
