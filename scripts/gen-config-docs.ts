/** Rewrites the configuration reference block of README.md from the field tables. */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderConfigReference, spliceConfigReference } from "../runtime/dialects/config-reference.js";

const readmePath = fileURLToPath(new URL("../README.md", import.meta.url));
const before = readFileSync(readmePath, "utf8");
const after = spliceConfigReference(before, renderConfigReference());
if (after === before) {
  console.log("README.md configuration reference is up to date");
} else {
  writeFileSync(readmePath, after);
  console.log("README.md configuration reference rewritten");
}
