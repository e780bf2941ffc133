import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import {
  REFERENCE_END,
  REFERENCE_START,
  renderConfigReference,
  spliceConfigReference,
} from "../../runtime/dialects/config-reference.js";
import { COMMON_FIELDS } from "../../runtime/config/fields.js";
import { BACKENDS, DIALECTS } from "../../runtime/dialects/dialects.js";

const readmePath = fileURLToPath(new URL("../../README.md", import.meta.url));

describe("config: README configuration reference", () => {
  it("matches the field tables (run `npx tsx scripts/gen-config-docs.ts` to update it)", () => {
    const readme = readFileSync(readmePath, "utf8");
    const start = readme.indexOf(REFERENCE_START);
    const end = readme.indexOf(REFERENCE_END);
    expect(start, "README.md lacks the config-reference markers").to.be.greaterThan(-1);
    expect(end).to.be.greaterThan(start);
    const current = readme.slice(start + REFERENCE_START.length, end);
    expect(current).to.equal(`\n${renderConfigReference()}\n`);
  });

  it("lists every field of every backend", () => {
    const text = renderConfigReference();
    const own = BACKENDS.flatMap((b) => DIALECTS[b].config.ownFields);
    expect(own).to.have.length.greaterThan(30);
    for (const field of [...COMMON_FIELDS, ...own]) {
      expect(text).to.include(`| \`${field.toml}\` |`);
    }
  });

  it("splicing touches only the text between the markers", () => {
    const readme = `# T\n\nbefore\n${REFERENCE_START}\nold\n${REFERENCE_END}\nafter\n`;
    expect(spliceConfigReference(readme, "new")).to.equal(
      `# T\n\nbefore\n${REFERENCE_START}\nnew\n${REFERENCE_END}\nafter\n`,
    );
    expect(() => spliceConfigReference("# no markers\n", "x")).to.throw(/needs/);
  });
});
