/**
 * A where_clause shape's literal form (runtime/semantic/call/literal-form.ts): values the shape ran
 * with before are written back into its SQL as the literals they were lifted from, so DuckDB keeps
 * the statement's plan (a statement with parameters that scans a table is planned again at every
 * run). Differential answers against the statement as written: where-values-bound.test.ts.
 */
import { expect } from "chai";
import { liftWhereClauseValues } from "../../runtime/semantic/call/lift-where-values.js";
import { LiteralForm, literalText } from "../../runtime/semantic/call/literal-form.js";

const call = (where: string) =>
  `SELECT * FROM semantic_view('v', dimensions := ['k'], where_clause := '${where.replaceAll("'", "''")}')`;

describe("where_clause values written back as literals (built-in engine)", () => {
  it("writes each lifted literal back as the text it was lifted from", () => {
    const texts = [
      "'it''s'",
      "''",
      "'50%'",
      "'日本 😀'",
      "42",
      "-7",
      "170141183460469231731687303715884105727",
      "12.50",
      "0012.50",
      "-0.125",
      "0.5",
      "1e3",
      "-2.5e-1",
      "TRUE",
      "FALSE",
    ];
    for (const text of texts) {
      const lifted = liftWhereClauseValues(call(`x = ${text}`));
      expect(lifted?.literals, text).to.have.length(1);
      expect(literalText(lifted!.literals[0]!), text).to.equal(text);
    }
    // Typed ones stand in the shape as CAST($k AS <type>): their string goes in there.
    const dated = liftWhereClauseValues(call(`d < DATE '2024-02-01' AND t >= TIMESTAMP '2024-01-01 10:00:00'`))!;
    expect(dated.shape).to.include("CAST($1 AS DATE)").and.include("CAST($2 AS TIMESTAMP)");
    expect(dated.literals.map(literalText)).to.deep.equal(["'2024-02-01'", "'2024-01-01 10:00:00'"]);
    expect(literalText({ kind: "string", value: "a\0b" }), "a string with NUL stays bound").to.equal(undefined);
  });

  it("replaces only parameter tokens: never text inside strings, identifiers or comments", () => {
    const shape = `SELECT '$1' AS "$2", x FROM t -- $1\nWHERE a = $1 AND b IN ($2, $1) AND c = CAST($3 AS DATE) /* $3 */`;
    const form = new LiteralForm(shape, 3);
    const literals = [
      { kind: "string", value: "o'k" },
      { kind: "integer", value: -5n },
      { kind: "date", text: "2024-01-02" },
    ] as const;
    expect(form.sql(literals)).to.equal(
      `SELECT '$1' AS "$2", x FROM t -- $1\nWHERE a = 'o''k' AND b IN (-5, 'o''k') AND c = CAST('2024-01-02' AS DATE) /* $3 */`,
    );
    expect(new LiteralForm("SELECT $2", 1).sql([{ kind: "boolean", value: true }]), "a parameter beyond the values").to
      .be.undefined;
    expect(new LiteralForm("SELECT 'open", 1).sql([{ kind: "boolean", value: true }]), "SQL that does not lex").to.be
      .undefined;
  });

  it("answers a value list only when the shape ran with it before, remembering the last 32", () => {
    const form = new LiteralForm("SELECT * FROM t WHERE a = $1", 1);
    const value = (n: number) => [{ kind: "integer", value: BigInt(n) }] as const;
    expect(form.sqlIfSeen(value(1)), "first run: bound").to.equal(undefined);
    expect(form.sqlIfSeen(value(1)), "run again: its literal form").to.equal("SELECT * FROM t WHERE a = 1");
    for (let n = 2; n <= 33; n++) expect(form.sqlIfSeen(value(n))).to.equal(undefined);
    expect(form.sqlIfSeen(value(33))).to.equal("SELECT * FROM t WHERE a = 33");
    expect(form.sqlIfSeen(value(1)), "the oldest was forgotten").to.equal(undefined);
    const long = [{ kind: "string", value: "x".repeat(1000) }] as const;
    form.sqlIfSeen(long);
    expect(form.sqlIfSeen(long), "a long value is never remembered: it stays bound").to.equal(undefined);
    const none = new LiteralForm("SELECT * FROM t", 0);
    expect(none.sqlIfSeen([]), "an empty value list, first run").to.equal(undefined);
    expect(none.sqlIfSeen([]), "an empty value list, run again").to.equal("SELECT * FROM t");
  });

  it("value lists: told apart whatever their texts hold, the last 32 kept as the memo wraps round", () => {
    const form = new LiteralForm("SELECT * FROM t WHERE a IN ($1, $2)", 2);
    const list = (a: string, b: string) =>
      [
        { kind: "string", value: a },
        { kind: "string", value: b },
      ] as const;
    expect(form.sqlIfSeen(list("x,y", "z"))).to.equal(undefined);
    expect(form.sqlIfSeen(list("x", "y,z")), "another split of the same characters").to.equal(undefined);
    expect(form.sqlIfSeen(list("x','y", "z")), "a quote in a value").to.equal(undefined);
    expect(form.sqlIfSeen(list("x,y", "z"))).to.equal(`SELECT * FROM t WHERE a IN ('x,y', 'z')`);
    expect(form.sqlIfSeen(list("x','y", "z"))).to.equal(`SELECT * FROM t WHERE a IN ('x'',''y', 'z')`);
    // 3 lists so far; 100 more wrap the memo round three times: only the last 32 stay.
    for (let n = 0; n < 100; n++) form.sqlIfSeen(list(`v${n}`, "w"));
    for (let n = 68; n < 100; n++) expect(form.sqlIfSeen(list(`v${n}`, "w")), `list ${n}`).to.not.equal(undefined);
    expect(form.sqlIfSeen(list("v67", "w")), "the 33rd newest").to.equal(undefined);
    expect(form.sqlIfSeen(list("x,y", "z")), "forgotten").to.equal(undefined);
  });
});
