/**
 * Issue 22 item 6: `--fixture` wrote warehouse text into `//` comments unescaped: a table name with
 * a line break became code that ran when the fixture was imported, and an ordinary two-line
 * Databricks filter made the module fail to compile. Every generated file (view class, DTOs,
 * index, fixture) is generated here from warehouse text holding every character that ends a
 * comment or literal, and each file must (1) parse without a syntax error, (2) hold nothing at top
 * level but imports and exported declarations, (3) run nothing when evaluated, and (4) give back,
 * from its string literals, exactly the warehouse text it was given.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runInNewContext } from "node:vm";
import { expect } from "chai";
import ts from "typescript";
import { generate } from "../../codegen/emit/generate.js";
import { commentLines, jsonSource, quoted, sourceText } from "../../codegen/emit/source-text.js";
import { fixtureStatements, renderFixture } from "../../codegen/fixture/render-fixture.js";
import type { FixtureModel } from "../../runtime/dialects/fixture/fixture-model.js";
import type { RecordedQuery } from "../../runtime/testing/recorded-query.js";
import type { ViewMetadata } from "../../runtime/dialects/introspect/metadata.js";
import { runCodegen } from "../../codegen/codegen.js";
import { BackendCConfig, createEngine } from "lib";
import { createDatabase } from "../codegen/support/databases.js";
import { tempDir } from "../support/temp-dir.js";

/** Each would set `globalThis.pwned` if it escaped its comment or literal. */
const HOSTILE = [
  "line\nglobalThis.pwned = 1; //",
  "crlf\r\nglobalThis.pwned = 2;",
  "cr\rglobalThis.pwned = 3;",
  "ls\u2028globalThis.pwned = 4;",
  "ps\u2029globalThis.pwned = 5;",
  "*/ globalThis.pwned = 6; /*",
  "`${(globalThis.pwned = 7)}`",
  'quote" + (globalThis.pwned = 8) + "',
  "back\\slash\\",
  "nul\u0000byte",
  "bidi\u202egnp.pwned\u202c zero\u200bwidth bom\ufeff",
  "two-line filter:\n  region = 'EU'\n  AND amount > 0",
] as const;

const VIEW: ViewMetadata = {
  name: "hostile_view",
  comment: HOSTILE.join(" | "),
  members: HOSTILE.map((text, i) => ({
    name: `m${i} ${text}`,
    kind: i % 3 === 0 ? ("metric" as const) : i % 3 === 1 ? ("dimension" as const) : ("fact" as const),
    type: "VARCHAR",
    comment: text,
  })),
};

const MODEL: FixtureModel = {
  backend: "backend_b",
  tables: HOSTILE.map((text, i) => ({
    name: `t${i} ${text}`,
    origin: `main.retail.\`t${i} ${text}\``,
    columns: [{ name: `c ${text}`, type: "VARCHAR" }],
    rows: [[text]],
  })),
  views: [
    `CREATE SEMANTIC VIEW v AS TABLES (t0) DIMENSIONS (t0.c AS c) COMMENT = '${HOSTILE.join("").replaceAll("'", "''")}'`,
  ],
  untranslated: HOSTILE.map((text) => ({
    note: `view "v": filter "${text}" (semantic_views has no view filter)`,
    views: [`v ${text}`],
    members: [`m ${text}`],
  })),
};

/** Recorded answers (`--record`) hold warehouse names and values too. */
// (The schema's static type of `op` is `never`, hence the cast.)
const RECORDED = HOSTILE.map((text) => ({
  view: `v ${text}`,
  dimensions: [`d ${text}`],
  where: [{ member: `d ${text}`, op: "eq", value: text }],
  columns: [`d ${text}`],
  rows: [[text], [{ $decimal: "1.5" }]],
})) as unknown as RecordedQuery[];

/** Every string literal in a source file, in order. */
function stringLiterals(file: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Parses, checks the top level, evaluates with stand-in imports; returns the string literals. */
function checkModule(path: string, text: string): string[] {
  const output = ts.transpileModule(text, {
    reportDiagnostics: true,
    fileName: path,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  expect(
    (output.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    path,
  ).to.deep.equal([]);
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const declares = (s: ts.Statement) =>
    ts.isImportDeclaration(s) ||
    ts.isExportDeclaration(s) ||
    ts.isClassDeclaration(s) ||
    ts.isVariableStatement(s) ||
    ts.isInterfaceDeclaration(s) ||
    ts.isTypeAliasDeclaration(s) ||
    ts.isFunctionDeclaration(s);
  const others = file.statements.filter((s) => !declares(s)).map((s) => s.getText(file));
  expect(others, `${path}: top-level statements other than declarations`).to.deep.equal([]);
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement) || ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) {
      const exported = ts.getCombinedModifierFlags(statement as ts.Declaration) & ts.ModifierFlags.Export;
      expect(exported, `${path}: every declaration is exported`).to.not.equal(0);
    }
  }
  // Any export of `lib` or `typebox` is a function returning a class (SemanticView(...) is extended).
  const stub = (): object => new Proxy({}, { get: () => () => class {} });
  const sandbox: Record<string, unknown> = {
    exports: {},
    require: () => new Proxy({}, { get: (_, key) => (key === "Type" ? stub() : () => class {}) }),
  };
  sandbox["module"] = { exports: sandbox["exports"] };
  runInNewContext(output.outputText, sandbox);
  expect(runInNewContext("globalThis.pwned", sandbox), `${path} ran warehouse text as code`).to.equal(undefined);
  return stringLiterals(file);
}

describe("reliability: warehouse text in generated code", () => {
  it("sourceText is the inside of a literal that reads back exactly, and a comment body on one line", () => {
    for (const text of HOSTILE) {
      expect(JSON.parse(quoted(text).replaceAll("\\/", "/"))).to.equal(text);
      expect(runInNewContext(quoted(text))).to.equal(text);
      expect(sourceText(text)).to.not.match(/[\n\r\u2028\u2029\u0000\u202e\u200b\ufeff]|\*\//);
      const value = { [text]: [text, 1, null, true, { $bigint: text }] };
      expect(runInNewContext(`(${jsonSource(value)})`)).to.deep.equal(value);
      expect(jsonSource(value)).to.not.match(/[\n\r\u2028\u2029\u0000\u202e\u200b\ufeff]|\*\//);
    }
    expect(commentLines("a\r\nb\u2028c*/")).to.deep.equal(["a", "b", "c*\\/"]);
  });

  it("view, DTO and index modules: compile, declare only, run nothing, keep every name exactly", () => {
    const { files } = generate([VIEW], {
      backend: "backend_c",
      dtos: [{ name: "Picked", view: "hostile_view", fields: ["m0LineGlobalThisPwned1"] }],
    });
    expect(files.map((f) => f.path)).to.deep.equal([
      "hostile-view.ts",
      "hostile-view.dto.ts",
      "index.ts",
      "lib-model.json",
    ]);
    for (const file of files) {
      if (file.path.endsWith(".json")) {
        // The model record is JSON: every warehouse name reads back exactly.
        const names = JSON.stringify(JSON.parse(file.text));
        for (const member of VIEW.members) expect(names).to.include(JSON.stringify(member.name));
        continue;
      }
      const literals = checkModule(file.path, file.text);
      if (file.path === "hostile-view.ts") {
        // Every member whose name is not a field name is declared with its exact warehouse name.
        expect(literals).to.include.members(VIEW.members.map((m) => m.name));
        for (const text of HOSTILE) {
          for (const line of commentLines(text)) expect(file.text, "the comment, escaped").to.include(line);
        }
      }
    }
  });

  it("the fixture module: compiles, declares only, runs nothing, reads back exactly (statements, notes, recorded answers)", () => {
    const text = renderFixture(MODEL, { sample: { kind: "rows", rows: 1 }, recorded: RECORDED });
    checkModule("fixture.ts", text);
    for (const note of MODEL.untranslated) expect(text).to.include(`//   - ${sourceText(note.note)}\n`);
    expect(text.split("\n").filter((line) => line.startsWith("// Rows:"))).to.have.length(1);
    // The module's exports read back exactly: statements, untranslated constructs, recorded answers.
    const exports: Record<string, unknown> = {};
    runInNewContext(ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText, {
      exports,
    });
    expect(exports["FIXTURE_STATEMENTS"]).to.deep.equal(fixtureStatements(MODEL));
    expect(exports["UNTRANSLATED"]).to.deep.equal(MODEL.untranslated);
    expect(exports["RECORDED_QUERIES"]).to.deep.equal(RECORDED);
  });

  it("end to end: `lib codegen --fixture --sample` from a DuckDB table whose name holds a line break", async function () {
    this.timeout(60_000);
    await using dir = await tempDir();
    const table = "sales\nglobalThis.pwned = 1; //";
    const quotedTable = `"${table}"`;
    const database = await createDatabase(dir.path, "hostile.duckdb", [
      `CREATE TABLE ${quotedTable} (country VARCHAR, revenue INTEGER)`,
      `INSERT INTO ${quotedTable} VALUES ('US', 10), ('line\nbreak */ \u2028', 5)`,
      `CREATE SEMANTIC VIEW sales AS TABLES (s AS ${quotedTable}) DIMENSIONS (s.country AS s.country) METRICS (s.revenue AS SUM(s.revenue))`,
    ]);
    const err: string[] = [];
    const exit = await runCodegen(
      { backend: "backend_c", database, fixture: "fixture.ts", sample: { kind: "rows", rows: 10 } },
      { cwd: dir.path, env: {}, stdout: () => {}, stderr: (line) => err.push(line) },
    );
    expect([exit, err]).to.deep.equal([0, []]);
    const path = join(dir.path, "fixture.ts");
    checkModule("fixture.ts", await readFile(path, "utf8"));
    const module = (await import(pathToFileURL(path).href)) as { fixture(conn: unknown): Promise<void> };
    expect((globalThis as { pwned?: unknown }).pwned, "importing the fixture ran nothing").to.equal(undefined);
    await using engine = createEngine(new BackendCConfig({ semanticViews: "builtin" }));
    engine._pool.on("connect", (conn) => module.fixture(conn));
    await using conn = await engine.connect();
    expect(await conn.all(`SELECT count(*) AS n FROM ${quotedTable}`)).to.deep.equal([{ n: 2n }]);
  });
});
