import { expect } from "chai";
import { unifiedDiff } from "../../codegen/diff.js";

describe("codegen unified diff", () => {
  it("shows changed lines with context and line numbers", () => {
    const before = ["a", "b", "c", "d", "e", "f"].join("\n") + "\n";
    const after = ["a", "b", "C", "d", "e", "f", "g"].join("\n") + "\n";
    expect(unifiedDiff(before, after, "x.ts")).to.equal(
      ["--- a/x.ts", "+++ b/x.ts", "@@ -1 +1 @@", " a", " b", "-c", "+C", " d", " e", " f", "+g"].join("\n"),
    );
  });

  it("truncates long diffs", () => {
    const after = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    const diff = unifiedDiff("", after, "y.ts", 10).split("\n");
    expect(diff).to.have.length(2 + 10 + 1);
    expect(diff.at(-1)).to.equal("... (41 more lines)");
  });

  it("shows a deleted file as all minus lines", () => {
    expect(unifiedDiff("x\ny\n", "", "z.ts")).to.equal("--- a/z.ts\n+++ b/z.ts\n@@ -1 +1 @@\n-x\n-y");
  });
});
