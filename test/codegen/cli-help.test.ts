/**
 * Each command's `--help` prints its own exit-status table, and every line of it is true for that
 * command: `lib codegen-dto` has no --fixture/--verify flags, `lib mcp` never introspects or drifts.
 */
import { expect } from "chai";
import { runLib } from "./support/run-cli.js";

/** The "Exit status:" section of a help text: status → its text (continuation lines joined). */
async function exitTable(command: string): Promise<Map<number, string>> {
  const help = await runLib([command, "--help"], { cwd: process.cwd() });
  expect(help.code, help.stderr).to.equal(0);
  expect(help.stdout).to.contain(`$ lib ${command}`);
  const section = help.stdout.slice(help.stdout.indexOf("Exit status:"));
  const table = new Map<number, string>();
  let current: number | undefined;
  for (const line of section.split("\n").slice(1)) {
    const row = /^ {2}(\d) {2}(.*)$/.exec(line);
    if (row) table.set((current = Number(row[1])), row[2]!);
    else if (current !== undefined && /^ {5}\S/.test(line)) table.set(current, `${table.get(current)} ${line.trim()}`);
    else if (line.trim() !== "") break;
  }
  return table;
}

describe("lib <command> --help: one exit-status table per command", () => {
  it("lib codegen lists 0–5, with the --check, --fixture and --verify reasons", async () => {
    const table = await exitTable("codegen");
    expect([...table.keys()]).to.deep.equal([0, 1, 2, 3, 4, 5]);
    expect(table.get(1)).to.contain("--check found a change that can break a caller").and.contain("--verify found");
    expect(table.get(2)).to.contain("--fixture could not translate").and.contain("--max-rows");
    expect(table.get(3)).to.contain("semantic view not found");
  });

  it("lib codegen-dto lists 0–5 without the flags it does not take", async () => {
    const table = await exitTable("codegen-dto");
    expect([...table.keys()]).to.deep.equal([0, 1, 2, 3, 4, 5]);
    const text = [...table.values()].join("\n");
    for (const flag of ["--fixture", "--verify", "--sample", "--max-rows", "--allow-partial", "--record"])
      expect(text).not.to.contain(flag);
    // Its --check compares its files; it does not classify model changes as lib codegen does.
    expect(table.get(1)).to.contain("DTO module that differs").and.not.contain("can break a caller");
  });

  it("lib mcp lists only what serving can end with: 0, 2, 4, 5", async () => {
    const table = await exitTable("mcp");
    expect([...table.keys()]).to.deep.equal([0, 2, 4, 5]);
    const text = [...table.values()].join("\n");
    for (const word of ["--check", "--fixture", "--verify", "introspection", "--view "])
      expect(text).not.to.contain(word);
    expect(table.get(0)).to.contain("stopped");
    expect(table.get(2)).to.contain("--views").and.contain("@modelcontextprotocol/sdk");
  });

  it("lib --help points to the commands' own tables", async () => {
    const help = await runLib(["--help"], { cwd: process.cwd() });
    expect(help.stdout).to.contain("Exit status: each command lists its own (lib <command> --help)");
    expect(help.stdout).not.to.contain("--verify found");
  });
});
