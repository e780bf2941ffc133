import { expect } from "chai";
import { tokenize, significant } from "../../runtime/semantic/sql/lexer.js";
import { identEquals, quoteIdent, quoteLiteral } from "../../runtime/semantic/sql/quote.js";
import { isKeyword, isName } from "../../runtime/semantic/sql/tokens.js";
import { closestName, didYouMean, levenshtein } from "../../runtime/text/suggest.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";

const kinds = (sql: string) => significant(tokenize(sql)).map((t) => [t.kind, t.value]);

describe("semantic sql lexer", () => {
  it("keeps exact source slices that concatenate back to the input", () => {
    const sql = `SELECT "a""b", 'it''s', $$x;y$$, $t$ $$ $t$ -- c\n/* a /* nested */ b */ 1.5e3 FROM t;`;
    const tokens = tokenize(sql);
    expect(tokens.map((t) => t.text).join("")).to.equal(sql);
    for (const t of tokens) expect(sql.slice(t.start, t.end)).to.equal(t.text);
  });

  it("classifies tokens and unescapes values", () => {
    expect(kinds(`select "a""b", 'it''s', $$x;y$$, $t$ $$ $t$, 42, .5, x.y`)).to.deep.equal([
      ["ident", "select"],
      ["quoted_ident", 'a"b'],
      ["punct", ","],
      ["string", "it's"],
      ["punct", ","],
      ["dollar_string", "x;y"],
      ["punct", ","],
      ["dollar_string", " $$ "],
      ["punct", ","],
      ["number", "42"],
      ["punct", ","],
      ["number", ".5"],
      ["punct", ","],
      ["ident", "x"],
      ["punct", "."],
      ["ident", "y"],
    ]);
  });

  it("lexes multi-character operators", () => {
    expect(kinds("a := [1]::int <> b >= c || d")).to.deep.equal([
      ["ident", "a"],
      ["op", ":="],
      ["punct", "["],
      ["number", "1"],
      ["punct", "]"],
      ["op", "::"],
      ["ident", "int"],
      ["op", "<>"],
      ["ident", "b"],
      ["op", ">="],
      ["ident", "c"],
      ["op", "||"],
      ["ident", "d"],
    ]);
  });

  it("treats comments and whitespace as their own tokens", () => {
    const t = tokenize("a -- x\n/* y /* z */ */b");
    expect(t.map((x) => x.kind)).to.deep.equal(["ident", "whitespace", "comment", "whitespace", "comment", "ident"]);
  });

  for (const [sql, what, pos] of [
    ["select 'abc", "quoted string", 7],
    ['select "abc', "quoted identifier", 7],
    ["select $$abc", "dollar-quoted string", 7],
    ["select /* x", "comment", 7],
  ] as const) {
    it(`reports an unterminated ${what} with its position`, () => {
      expect(() => tokenize(sql))
        .to.throw(SemanticViewError, `unterminated ${what} at line 1, column ${pos + 1} (position ${pos})`)
        .with.property("kind", "parse");
    });
  }

  it("quotes identifiers and literals", () => {
    expect(quoteIdent('a"b')).to.equal('"a""b"');
    expect(quoteLiteral("it's")).to.equal("'it''s'");
    expect(identEquals("Sales", "SALES")).to.equal(true);
    expect(identEquals("sales", "sale")).to.equal(false);
  });

  it("reads names and keywords from tokens", () => {
    const [a, , b] = tokenize('select "Mixed Case"');
    expect(isKeyword(a, "SELECT")).to.equal(true);
    expect(isKeyword(b, "mixed")).to.equal(false);
    expect(isName(b) && b.value).to.equal("Mixed Case");
  });

  it("suggests the closest name within three edits, case-insensitively", () => {
    expect(levenshtein("kitten", "sitting")).to.equal(3);
    expect(levenshtein("Revenue", "REVENUE")).to.equal(0);
    expect(closestName("revenu", ["cost", "revenue", "region"])).to.equal("revenue");
    expect(closestName("xyzzy", ["cost", "revenue"])).to.equal(undefined);
    expect(didYouMean("contry", ["country", "region"])).to.equal(" Did you mean 'country'?");
    expect(didYouMean("abcdef", ["country"])).to.equal("");
  });
});
