/** E'..' escape strings: one string token (prefix included) whose end honours backslash escapes. */
import { expect } from "chai";
import { significant, tokenize } from "../../runtime/semantic/sql/lexer.js";
import { splitStatements } from "../../runtime/semantic/sql/split.js";

describe("semantic sql lexer: escape strings", () => {
  it("lexes E'..' as one string token with backslash escapes", () => {
    const sql = String.raw`SELECT E'it\'s; a\\', e'tab\there', x`;
    const tokens = significant(tokenize(sql));
    expect(tokens.map((t) => [t.kind, t.text])).to.deep.equal([
      ["ident", "SELECT"],
      ["string", String.raw`E'it\'s; a\\'`],
      ["punct", ","],
      ["string", String.raw`e'tab\there'`],
      ["punct", ","],
      ["ident", "x"],
    ]);
    expect(tokens[1]!.value).to.equal("it's; a\\");
    expect(tokens[3]!.value).to.equal("tab\there");
    expect(
      tokenize(sql)
        .map((t) => t.text)
        .join(""),
    ).to.equal(sql);
  });

  it("leaves a plain string after an identifier E separated by space alone", () => {
    expect(significant(tokenize("e 'a\\'")).map((t) => [t.kind, t.value])).to.deep.equal([
      ["ident", "e"],
      ["string", "a\\"],
    ]);
  });

  it("keeps a semicolon inside an escape string out of statement splitting", () => {
    expect(splitStatements(String.raw`SELECT E'a\';b'; SELECT 2`)).to.deep.equal([
      String.raw`SELECT E'a\';b'`,
      "SELECT 2",
    ]);
  });

  it("reports an unterminated escape string", () => {
    expect(() => tokenize(String.raw`SELECT E'abc\'`)).to.throw(/unterminated quoted string/);
  });
});
