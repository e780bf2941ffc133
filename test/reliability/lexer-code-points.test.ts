/**
 * Issue 22 item 1: the statement guard's lexer and DuckDB classify every code point alike. DuckDB's
 * own parser is the oracle (`json_serialize_sql`), asked in batches: every non-ASCII code point is
 * one part of a long qualified name `a.<c>x<c>.<c>x<c>...`, where it starts the part and follows an
 * identifier character, so each part comes back whole (an identifier character) or as `x` (space).
 * Both sides read the same text; their lists of parts must be equal. Plain ASCII is asked per
 * character, inside (`a<c>b`) and at token start (`<c>b`). The contexts in which DuckDB's parser
 * leaves a Unicode space alone (its pre-pass thinks it is quoted) are checked separately.
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { expect } from "chai";
import { significant, tokenize, type Token } from "../../runtime/semantic/sql/lexer.js";
import { isPunct } from "../../runtime/semantic/sql/tokens.js";

type CodePointClass = "identifier" | "whitespace" | "other";

interface SelectItem {
  readonly alias: string;
  readonly column_names?: string[];
}

/** The select list DuckDB parses from `sql`, or undefined when it does not parse. */
function selectList(serialized: string): SelectItem[] | undefined {
  const parsed = JSON.parse(serialized) as { error: boolean; statements?: { node: { select_list: SelectItem[] } }[] };
  return parsed.error ? undefined : parsed.statements![0]!.node.select_list;
}

/** DuckDB's class of `c` from the parse of `<prefix>a<c>b` (or `<c>b` when `prefix` is undefined). */
function duckdbClass(items: SelectItem[] | undefined, c: string, atStart: boolean): CodePointClass {
  const last = items?.[items.length - 1];
  const names = last?.column_names;
  if (last === undefined || names === undefined) return "other";
  const name = names[names.length - 1]!;
  if (last.alias === "" && name.endsWith(atStart ? `${c}b` : `a${c}b`)) return "identifier";
  if (atStart ? name === "b" && last.alias === "" : name.endsWith("a") && last.alias === "b") return "whitespace";
  return "other";
}

/** Our lexer's class of `c` in `sql`, which ends `a<c>b` (or `<c>b` at token start). */
function lexerClass(sql: string, c: string, atStart: boolean): CodePointClass {
  let tokens: Token[];
  try {
    tokens = tokenize(sql);
  } catch {
    return "other"; // an unterminated quote: DuckDB cannot parse it either
  }
  const words = significant(tokens);
  const last = words[words.length - 1];
  if (last?.kind === "ident" && last.text.endsWith(atStart ? `${c}b` : `a${c}b`)) return "identifier";
  const before = tokens[tokens.length - 2];
  if (last?.text === "b" && before?.kind === "whitespace" && before.text === c) return "whitespace";
  return "other";
}

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

interface BatchAnswer {
  readonly count: number;
  /** Code points whose part did not come back whole, with the part read. */
  readonly differing: readonly (readonly [number, string])[];
}

function batchProbe(lo: number, hi: number): { sql: string; codePoints: number[] } {
  const codePoints: number[] = [];
  for (let cp = lo; cp < hi; cp++) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(cp);
  const parts = codePoints.map((cp) => `${String.fromCodePoint(cp)}x${String.fromCodePoint(cp)}`);
  return { sql: `SELECT a.${parts.join(".")}.z`, codePoints };
}

/** The answer from the parts read for `SELECT a.<p1>.<p2>....z`: those not read whole as `<c>x<c>`. */
function answerOf(codePoints: readonly number[], parts: readonly string[]): BatchAnswer {
  const differing = codePoints.flatMap((cp, i) => {
    const c = String.fromCodePoint(cp);
    return parts[i] === `${c}x${c}` ? [] : [[cp, parts[i] ?? ""] as const];
  });
  return { count: parts.length, differing };
}

/**
 * DuckDB's parts of the batch: its parser's tree (`json_serialize_sql`), read here rather than with
 * DuckDB's JSON functions, which cost more than the parse itself.
 */
async function duckdbBatch(conn: DuckDBConnection, sql: string, codePoints: readonly number[]): Promise<BatchAnswer> {
  const serialized = (await conn.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql])).getRows()[0]![0];
  const items = selectList(serialized as string);
  expect(items, `DuckDB parses the batch from ${hex(codePoints[0]!)}`).to.not.equal(undefined);
  const names = items![0]!.column_names ?? [];
  expect([names[0], names[names.length - 1]]).to.deep.equal(["a", "z"]);
  return answerOf(codePoints, names.slice(1, -1));
}

/** The same answer from the lexer: `SELECT a . p1 . p2 ... . z`, a `.` before every part. */
function lexerBatch(sql: string, codePoints: readonly number[]): BatchAnswer {
  const body = significant(tokenize(sql)).slice(2, -2);
  const dots = body.filter((t, i) => i % 2 === 0 && isPunct(t, "."));
  const parts = body.filter((_, i) => i % 2 === 1).map((t) => t.value);
  const answer = answerOf(codePoints, parts);
  return dots.length === parts.length ? answer : { ...answer, count: -1 };
}

describe("reliability: the lexer's character classes are DuckDB's", () => {
  let instance: DuckDBInstance;
  const connections: DuckDBConnection[] = [];
  before(async () => {
    instance = await DuckDBInstance.create(":memory:");
    for (let i = 0; i < 2; i++) connections.push(await instance.connect());
  });
  after(() => {
    for (const conn of connections) conn.closeSync();
    instance.closeSync();
  });

  it("ASCII: whitespace, identifier start and identifier part agree for every character", async () => {
    const rows = (
      await connections[0]!.runAndReadAll(
        `SELECT c, json_serialize_sql('SELECT a' || chr(c) || 'b') AS inside, json_serialize_sql('SELECT ' || chr(c) || 'b') AS start
         FROM (SELECT range::INTEGER AS c FROM range(128)) ORDER BY c`,
      )
    ).getRowObjectsJS();
    const disagreements: string[] = [];
    for (const row of rows) {
      const c = String.fromCharCode(Number(row["c"]));
      const inside = duckdbClass(selectList(row["inside"] as string), c, false);
      const start = duckdbClass(selectList(row["start"] as string), c, true);
      const ours = [lexerClass(`a${c}b`, c, false), lexerClass(`${c}b`, c, true)];
      if (ours[0] !== inside || ours[1] !== start) {
        disagreements.push(`${hex(c.charCodeAt(0))}: DuckDB ${inside}/${start}, lexer ${ours.join("/")}`);
      }
    }
    expect(disagreements).to.deep.equal([]);
    const spaces = rows
      .map((r) => Number(r["c"]))
      .filter((cp) => lexerClass(`a${String.fromCharCode(cp)}b`, String.fromCharCode(cp), false) === "whitespace");
    expect(spaces, "space, \\t, \\n, \\f, \\r (no vertical tab)").to.deep.equal([9, 10, 12, 13, 32]);
  });

  it("every non-ASCII code point (U+0080..U+10FFFF, no surrogates) is read alike at token start and inside an identifier", async function () {
    // About 2.5 s of CPU (parsing and lexing 3.3 M code points), so its wall time grows with the machine's load.
    this.timeout(120_000);
    const BATCH = 65_536;
    const batches: [number, number][] = [];
    for (let lo = 0x80; lo < 0x110000; lo += BATCH) batches.push([lo, Math.min(lo + BATCH, 0x110000)]);
    const disagreements: string[] = [];
    const spaces: number[] = [];
    let swept = 0;
    // Two connections parse in parallel while this thread lexes the same text.
    let next = 0;
    const worker = async (conn: DuckDBConnection) => {
      while (next < batches.length) {
        const [lo, hi] = batches[next++]!;
        const { sql, codePoints } = batchProbe(lo, hi);
        if (codePoints.length === 0) continue;
        const theirs = duckdbBatch(conn, sql, codePoints);
        const ours = lexerBatch(sql, codePoints);
        const answer = await theirs;
        expect([ours.count, answer.count], `parts read from ${hex(lo)}`).to.deep.equal([
          codePoints.length,
          codePoints.length,
        ]);
        const key = (d: readonly [number, string]) => `${hex(d[0])} as ${JSON.stringify(d[1])}`;
        const duck = new Set(answer.differing.map(key));
        const lexed = new Set(ours.differing.map(key));
        for (const d of duck) if (!lexed.has(d)) disagreements.push(`DuckDB reads ${d}, the lexer does not`);
        for (const d of lexed) if (!duck.has(d)) disagreements.push(`the lexer reads ${d}, DuckDB does not`);
        spaces.push(...answer.differing.filter((d) => d[1] === "x").map((d) => d[0]));
        swept += codePoints.length;
      }
    };
    await Promise.all(connections.map(worker));
    expect(disagreements).to.deep.equal([]);
    expect(swept).to.equal(0x110000 - 0x80 - 0x800);
    expect(spaces.sort((a, b) => a - b).map(hex)).to.deep.equal(
      [0xa0, ...Array.from({ length: 12 }, (_, i) => 0x2000 + i), 0x202f, 0x205f, 0x2060, 0x3000, 0xfeff].map(hex),
    );
  });

  describe("where DuckDB's parser leaves a Unicode space alone, the lexer does too", () => {
    // The 18 spaces DuckDB's parser may replace, a line separator it never does, and a letter.
    const CHARS = ["\u00a0", "\u2000", "\u200b", "\u202f", "\u205f", "\u2060", "\u3000", "\ufeff", "\u2028", "é"];
    const CONTEXTS: readonly [string, string][] = [
      ["plain", "SELECT "],
      ["after a block comment holding a quote (the pre-pass knows no block comments)", "SELECT /* it's */ "],
      ["after E'\\'' (the pre-pass knows no backslash escapes)", String.raw`SELECT E'\'', `],
      ["after a line comment holding a quote", "SELECT 1 -- it's\n, "],
      ["after a $ the pre-pass takes for a dollar tag", "SELECT x$q"],
      ["after a dollar quote holding a quote", "SELECT $_t$ it's $_t$, "],
    ];
    for (const [name, prefix] of CONTEXTS) {
      it(name, async () => {
        const probes = CHARS.map((c) => `${prefix}a${c}b`);
        const duck = await serializeAll(connections[0]!, probes);
        const found = CHARS.map((c, i) => [hex(c.codePointAt(0)!), duckdbClass(duck[i], c, false)]);
        const lexed = CHARS.map((c, i) => [hex(c.codePointAt(0)!), lexerClass(probes[i]!, c, false)]);
        expect(lexed).to.deep.equal(found);
      });
    }

    it("at the very end of the text (the pre-pass skips the last two bytes: U+00A0 stays an identifier character)", async () => {
      const probes = CHARS.map((c) => `SELECT a${c}`);
      const duck = await serializeAll(connections[0]!, probes);
      const found = CHARS.map((c, i) => duck[i]?.[0]?.column_names?.[0] === `a${c}`);
      const lexed = probes.map((sql, i) => significant(tokenize(sql))[1]?.text === `a${CHARS[i]}`);
      expect(lexed).to.deep.equal(found);
      expect(found.slice(0, 2)).to.deep.equal([true, false]);
    });
  });
});

async function serializeAll(conn: DuckDBConnection, probes: readonly string[]): Promise<(SelectItem[] | undefined)[]> {
  const out: (SelectItem[] | undefined)[] = [];
  for (const sql of probes) {
    const reader = await conn.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql]);
    out.push(selectList(reader.getRows()[0]![0] as string));
  }
  return out;
}
