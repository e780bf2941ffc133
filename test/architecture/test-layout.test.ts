/**
 * The test tree mirrors the runtime (README "Layout"): one folder per warehouse beside the others
 * (`test/snowflake/`, `test/databricks/`, `test/duckdb/`), and every helper in a `support/` folder,
 * so a file beside the tests is a test. Each failure names the files to move.
 */
import { expect } from "chai";
import { listFiles } from "./support/source-graph.js";

/** Type-level tests: checked by test/types/type-tests.test.ts (and `npm run typecheck`), not run by mocha themselves. */
const TYPE_TESTS = "test/types/";

/** Files in `test/` that are neither tests nor helpers under `support/`. */
export function misplacedTestFiles(files: readonly string[]): string[] {
  return files.filter(
    (file) =>
      file.startsWith("test/") &&
      file.endsWith(".ts") &&
      !file.endsWith(".test.ts") &&
      !file.startsWith(TYPE_TESTS) &&
      !file.split("/").includes("support"),
  );
}

/** The warehouses: the folders of runtime/dialects/ that hold a `<warehouse>-dialect.ts`. */
function warehouses(files: readonly string[]): string[] {
  return files.flatMap((file) => /^runtime\/dialects\/([\w-]+)\/\1-dialect\.ts$/.exec(file)?.[1] ?? []);
}

describe("architecture: the test tree", () => {
  const files = listFiles();

  it("keeps helpers under support/ folders: every other file in test/ is a test", () => {
    expect(misplacedTestFiles(files)).to.deep.equal([]);
  });

  it("has one folder per warehouse, beside the others, holding that warehouse's tests", () => {
    const names = warehouses(files);
    expect(names).to.include.members(["databricks", "duckdb", "snowflake"]);
    const empty = names.filter((name) => !files.some((f) => f.startsWith(`test/${name}/`) && f.endsWith(".test.ts")));
    expect(empty, "warehouses without a test folder").to.deep.equal([]);
  });

  it("the support/ rule names a helper left beside the tests", () => {
    expect(
      misplacedTestFiles([
        "test/query/golden.ts",
        "test/query/support/golden.ts",
        "test/query/builder.test.ts",
        "test/types/query-types.ts",
        "runtime/index.ts",
      ]),
    ).to.deep.equal(["test/query/golden.ts"]);
  });
});
