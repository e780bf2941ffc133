/**
 * The query compiler's statement (a projection of one semantic_view() call, ordered and limited) is
 * rewritten as one SELECT over the expansion with the output casts in it (call/flat-projection.ts):
 * the same rows, names, types and order as the statement rewritten in place; anything else keeps the
 * in-place rewrite.
 */
import { expect } from "chai";
import { clearSemanticQueryCache } from "../../runtime/semantic/call/typed-query.js";
import { rewriteSemanticViewCalls } from "../../runtime/semantic/call/rewrite-semantic-view-calls.js";
import { defineView, fixedCatalog } from "./support/definitions.js";
import { TestSession } from "./support/session.js";

describe("semantic_view(): the compiler's projection as one SELECT", () => {
  const view = defineView({
    name: "t",
    tables: [{ alias: "t", table: "moods" }],
    // An ENUM dimension arrives as VARCHAR: its order is the text's, not the enum's.
    dimensions: { "t.mood": "t.mood", "t.k": "t.k" },
    metrics: { "t.total": "SUM(t.v)" },
  });
  const catalog = fixedCatalog(view);
  let session: TestSession;
  const call = `semantic_view('t', dimensions := ['mood'], metrics := ['total'])`;
  const rewrite = async (sql: string) => (await rewriteSemanticViewCalls(session, sql, catalog))!;

  before(async () => {
    clearSemanticQueryCache();
    session = await TestSession.open();
    await session.query("CREATE TYPE mood AS ENUM ('zz', 'mm', 'aa')");
    await session.query(
      "CREATE TABLE moods AS SELECT (['zz', 'mm', 'aa'])[1 + i % 3]::mood AS mood, i % 2 AS k, i::INTEGER AS v FROM range(10) r(i)",
    );
  });
  after(() => session.close());

  it("answers as the statement rewritten in place: rows, names, types and order", async () => {
    for (const tail of [
      ` ORDER BY "mood" ASC NULLS LAST`,
      ` ORDER BY "how_much" DESC NULLS LAST, "mood" LIMIT 2 OFFSET 1`,
      ``,
    ]) {
      const compiled = `SELECT "MOOD" AS "mood", "total" AS "how_much" FROM ${call}${tail}`;
      const flat = await rewrite(compiled);
      expect(flat, "one SELECT over the expansion").not.to.contain("AS semantic_view");
      expect(
        flat.startsWith(`SELECT "mood"::VARCHAR AS "mood", "total"::BIGINT AS "how_much"\nFROM (\n`),
        flat,
      ).to.equal(true);
      // An alias written after the call keeps the in-place rewrite: the reference answer.
      const inPlace = await rewrite(compiled.replace(`${call}`, `${call} AS sv`));
      expect(inPlace).to.contain(") AS sv");
      expect(await session.query(flat), tail).to.deep.equal(await session.query(inPlace));
    }
    const ordered = await session.query(
      await rewrite(`SELECT "mood" AS "mood", "total" AS "total" FROM ${call} ORDER BY "mood"`),
    );
    expect(
      ordered.rows.map((r) => r[0]),
      "the VARCHAR's order, as in place",
    ).to.deep.equal(["aa", "mm", "zz"]);
  });

  it("keeps the in-place rewrite for any other statement", async () => {
    for (const sql of [
      `SELECT * FROM ${call}`,
      `SELECT "mood" AS "mood" FROM ${call} WHERE "total" > 0`,
      `SELECT "mood" AS "mood", "total" AS "t" FROM ${call} ORDER BY "total"`, // a name the projection renamed
      `SELECT "mood" AS "mood", "total" AS "total" FROM ${call} ORDER BY semantic_view.total`,
      `SELECT "mood" AS "mood", "total" AS "total" FROM ${call} ORDER BY "total" + 1`,
      `SELECT "mood" AS "mood", "nope" AS "nope" FROM ${call}`,
      `SELECT DISTINCT "mood" AS "mood" FROM ${call}`,
      `SELECT "mood" AS "mood" FROM (${call})`,
      `SELECT "mood" AS "moods" FROM ${call}, moods`, // another table joined in, named as an output
    ]) {
      const rewritten = await rewrite(sql).catch(() => "(fails in place too)");
      expect(rewritten, sql).not.to.match(/^SELECT "mood"::VARCHAR AS/);
    }
    // No cast to make: the typed query is the expansion itself, nothing to save.
    const plain = await rewrite(`SELECT "k" AS "k" FROM semantic_view('t', dimensions := ['k']) ORDER BY "k"`);
    expect(plain).to.contain("AS semantic_view ORDER BY");
  });
});
