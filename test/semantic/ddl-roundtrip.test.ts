/**
 * Generated definitions (seeded, deterministic) survive get_ddl → CREATE unchanged: names that
 * are keywords, mixed case, contain quotes or spaces; comments and synonyms with quotes.
 */
import { expect } from "chai";
import { createBuiltinSemanticLayer } from "../../runtime/semantic/builtin-layer.js";
import { loadDefinition } from "../../runtime/semantic/catalog.js";
import { quoteIdent, quoteLiteral } from "../../runtime/semantic/sql/quote.js";
import { TestSession } from "./support/session.js";

const layer = createBuiltinSemanticLayer();

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  "amount",
  "Select",
  "order",
  "Group By",
  'we"ird',
  "using",
  "comment",
  "labels",
  "x1",
  "Ünïcode",
  "private",
  "as",
  "metrics",
  "end",
  "total sales",
];
const TEXTS = ["plain", "it's", "semi;colon", "-- not a comment", "/* nor this */", "dollar $$ sign", "line\nbreak"];

describe("get_ddl round trip over generated definitions", () => {
  let session: TestSession;
  before(async () => {
    session = await TestSession.open();
    await session.query(
      "CREATE TABLE facts_t (id INTEGER, dim_id INTEGER, amount DECIMAL(12,2), qty INTEGER, label VARCHAR)",
    );
    await session.query("CREATE TABLE dims_t (id INTEGER, name VARCHAR, grp VARCHAR)");
  });
  after(() => session.close());

  for (let seed = 1; seed <= 25; seed++) {
    it(`seed ${seed}`, async () => {
      const r = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const used = new Set<string>();
      const fresh = (): string => {
        for (;;) {
          const n = `${pick(NAMES)}${r() < 0.3 ? `_${Math.floor(r() * 9)}` : ""}`;
          if (!used.has(n.toLowerCase())) {
            used.add(n.toLowerCase());
            return n;
          }
        }
      };
      const annot = (allowFilter: boolean): string =>
        (r() < 0.4 ? ` COMMENT = ${quoteLiteral(pick(TEXTS))}` : "") +
        (r() < 0.3 ? ` WITH SYNONYMS (${quoteLiteral(pick(TEXTS))}, ${quoteLiteral(pick(TEXTS))})` : "") +
        (allowFilter && r() < 0.2 ? " LABELS = (FILTER)" : "");
      const f = fresh();
      const d = fresh();
      const view = `v${seed} ${pick(NAMES)}`;
      const fq = quoteIdent(f);
      const dq = quoteIdent(d);
      const facts = [`${fq}.${quoteIdent(fresh())} AS ${fq}.amount * 2${annot(true)}`];
      const factName = facts[0]!.split(" AS ")[0]!.split(".")[1]!;
      const dims = [
        `${dq}.${quoteIdent(fresh())} AS upper(${dq}.name)${annot(true)}`,
        `${fq}.${quoteIdent(fresh())} AS ${fq}.label || ${quoteLiteral(pick(TEXTS))}${annot(false)}`,
      ];
      const m1 = fresh();
      const m2 = fresh();
      const metrics = [
        `${r() < 0.5 ? "PRIVATE " : ""}${fq}.${quoteIdent(m1)} AS SUM(${fq}.${factName})${annot(false)}`,
        `${fq}.${quoteIdent(m2)}${r() < 0.5 ? " USING (rel)" : ""} AS COUNT(*)${annot(false)}`,
        `${quoteIdent(fresh())} AS ${quoteIdent(m1)} / NULLIF(${quoteIdent(m2)}, 0)${annot(false)}`,
      ];
      const ddl = `CREATE OR REPLACE SEMANTIC VIEW ${quoteIdent(view)}${r() < 0.5 ? ` COMMENT = ${quoteLiteral(pick(TEXTS))}` : ""} AS
        TABLES (${fq} AS facts_t PRIMARY KEY (id)${annot(false)}, ${dq} AS dims_t PRIMARY KEY (id)${r() < 0.5 ? " UNIQUE (name, grp)" : ""}${annot(false)})
        RELATIONSHIPS (rel AS ${fq}(dim_id) REFERENCES ${dq})
        FACTS (${facts.join(", ")})
        DIMENSIONS (${dims.join(", ")})
        METRICS (${metrics.join(", ")})`;
      if (process.env["SV_DEBUG"]) console.log(ddl);
      const created = await layer.handle(session, ddl);
      if (created.kind !== "result") throw new Error("expected a result");
      const name = String(created.rows[0]![0]);
      const before = await loadDefinition(session, quoteIdent(name));
      const rendered = await layer.handle(
        session,
        `SELECT get_ddl('SEMANTIC_VIEW', ${quoteLiteral(quoteIdent(name))})`,
      );
      if (rendered.kind !== "rewritten") throw new Error("expected a rewrite");
      const text = String((await session.query(rendered.sql)).rows[0]![0]);
      await layer.handle(session, `DROP SEMANTIC VIEW ${quoteIdent(name)}`);
      await layer.handle(session, text);
      const after = await loadDefinition(session, quoteIdent(name));
      expect({ ...after, createdOn: "" }).to.deep.equal({ ...before, createdOn: "" });
      await layer.handle(session, `DROP SEMANTIC VIEW ${quoteIdent(name)}`);
    });
  }
});
