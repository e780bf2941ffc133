/** Unit tests of the expander's building blocks and SQL shape (no database needed). */
import { expect } from "chai";
import { guardAggregates } from "../../runtime/semantic/expand/guard-aggregates.js";
import { rewriteReferences } from "../../runtime/semantic/sql/references.js";
import { expandSemanticQuery } from "../../runtime/semantic/expand/expand.js";
import { outputType } from "../../runtime/semantic/call/typed-query.js";
import { SemanticViewError } from "../../runtime/semantic/semantic-error.js";
import { defineView } from "./support/definitions.js";

const expandError = (fn: () => unknown): SemanticViewError => {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(SemanticViewError);
    return error as SemanticViewError;
  }
  return expect.fail("expected a SemanticViewError");
};

describe("semantic expansion building blocks", () => {
  describe("guardAggregates", () => {
    const key = `"c"."id"`;
    it("counts the key instead of rows", () => {
      expect(guardAggregates("COUNT(*)", key)).to.equal(`COUNT("c"."id")`);
      expect(guardAggregates("count( * ) + 1", key)).to.equal(`count("c"."id") + 1`);
    });
    it("wraps the first argument of other aggregates", () => {
      expect(guardAggregates("SUM(c.x)", key)).to.equal(`SUM(CASE WHEN "c"."id" IS NOT NULL THEN c.x END)`);
      expect(guardAggregates("COUNT(DISTINCT c.x)", key)).to.equal(
        `COUNT(DISTINCT CASE WHEN "c"."id" IS NOT NULL THEN c.x END)`,
      );
      expect(guardAggregates("string_agg(c.n, ',' ORDER BY c.n)", key)).to.equal(
        `string_agg(CASE WHEN "c"."id" IS NOT NULL THEN c.n END, ',' ORDER BY c.n)`,
      );
      expect(guardAggregates("SUM(1) / NULLIF(COUNT(*), 0)", key)).to.equal(
        `SUM(CASE WHEN "c"."id" IS NOT NULL THEN 1 END) / NULLIF(COUNT("c"."id"), 0)`,
      );
    });
  });

  describe("rewriteReferences", () => {
    it("never rewrites inside strings, quoted text or function names", () => {
      const out = rewriteReferences(`net + 's.net' + o.net + sum(net) + "net"`, (r) =>
        r.name === "net" ? "X" : undefined,
      );
      expect(out).to.equal(`X + 's.net' + X + sum(X) + X`);
    });
    it("leaves type names in casts alone", () => {
      const out = rewriteReferences(`CAST(date AS date) > date::date`, (r) => (r.name === "date" ? "X" : undefined));
      expect(out).to.equal(`CAST(X AS date) > X::date`);
    });
    it("leaves longer dotted chains alone", () => {
      expect(rewriteReferences("db.o.net", () => "X")).to.equal("db.o.net");
    });
  });

  describe("outputType", () => {
    it("narrows HUGEINT and flattens nested types like the extension", () => {
      expect(outputType("HUGEINT")).to.equal("BIGINT");
      expect(outputType("UHUGEINT")).to.equal("UBIGINT");
      expect(outputType("HUGEINT[]")).to.equal("BIGINT[]");
      expect(outputType("ENUM('a', 'b')")).to.equal("VARCHAR");
      expect(outputType("STRUCT(a INTEGER)")).to.equal("VARCHAR");
      expect(outputType("DECIMAL(38,2)")).to.equal(undefined);
      expect(outputType("BIGINT")).to.equal(undefined);
    });
  });
});

describe("expandSemanticQuery", () => {
  const view = defineView({
    name: "v",
    tables: [
      { alias: "o", table: "main.orders", primaryKey: ["id"] },
      { alias: "c", table: `"Customer Table"` },
    ],
    relationships: [{ name: "oc", from: "o", fk: ["customer_id"], to: "c", ref: ["id"] }],
    facts: { "o.amount": "o.amount", "o.a": "o.b + 1", "o.b": "o.a * 2" },
    dimensions: { "c.name": "c.name", "o.status": "o.status" },
    metrics: {
      "o.total": "SUM(o.amount)",
      "c.n": "COUNT(*)",
      "o.bad_using": { expr: "COUNT(*)", using: ["nope"] },
      loop1: "loop2 + 1",
      loop2: "loop1 + 1",
    },
  });

  it("re-quotes physical table references part by part", () => {
    const { sql } = expandSemanticQuery(view, { dimensions: ["name"], metrics: ["total"], facts: [] });
    expect(sql).to.equal(
      [
        `SELECT`,
        `    c.name AS "name",`,
        `    (SUM((o.amount))) AS "total"`,
        `FROM "main"."orders" AS "o"`,
        `LEFT JOIN "memory"."main"."Customer Table" AS "c"`,
        `    ON "o"."customer_id" = "c"."id"`,
        `GROUP BY`,
        `    1`,
      ].join("\n"),
    );
  });

  it("rejects an unsafe table reference", () => {
    const bad = defineView({
      name: "b",
      tables: [{ alias: "t", table: "t; DROP TABLE x" }],
      dimensions: { "t.d": "t.d" },
    });
    expect(
      expandError(() => expandSemanticQuery(bad, { dimensions: ["d"], metrics: [], facts: [] })).message,
    ).to.contain("unsupported table reference");
  });

  it("treats a self-named fact as its column and detects fact and metric cycles", () => {
    expect(expandSemanticQuery(view, { dimensions: [], metrics: [], facts: ["amount"] }).sql).to.contain(
      `o.amount AS "amount"`,
    );
    expect(
      expandError(() => expandSemanticQuery(view, { dimensions: [], metrics: [], facts: ["a"] })).message,
    ).to.contain("cycle in facts");
    expect(
      expandError(() => expandSemanticQuery(view, { dimensions: [], metrics: ["loop1"], facts: [] })).message,
    ).to.contain("cycle in derived metrics");
  });

  it("refuses COUNT(*) on a joined table without a key, and unknown USING relationships", () => {
    const reverse = defineView({
      name: "r",
      tables: [
        { alias: "c", table: "c", primaryKey: ["id"] },
        { alias: "o", table: "o" },
      ],
      relationships: [{ name: "oc", from: "o", fk: ["cid"], to: "c" }],
      metrics: { "o.n": "COUNT(*)" },
    });
    expect(
      expandError(() => expandSemanticQuery(reverse, { dimensions: [], metrics: ["n"], facts: [] })).message,
    ).to.contain("uses COUNT(*) on joined table 'o'");
    expect(
      expandError(() => expandSemanticQuery(view, { dimensions: [], metrics: ["bad_using"], facts: [] })).message,
    ).to.contain("unknown relationship 'nope'");
  });

  it("builds one CTE per grain with NULL-safe keys", () => {
    const { sql, columns } = expandSemanticQuery(view, { dimensions: ["name"], metrics: ["total", "n"], facts: [] });
    expect(columns).to.deep.equal(["name", "total", "n"]);
    expect(sql).to.match(/^WITH __sv_grain_0 AS \(/);
    expect(sql).to.contain(`    FROM "memory"."main"."Customer Table" AS "c"\n    GROUP BY\n        1\n)`);
    expect(sql).to.contain(
      `FULL OUTER JOIN __sv_grain_1 AS __sv_g1\n    ON __sv_g0."__sv_d0" IS NOT DISTINCT FROM __sv_g1."__sv_d0"`,
    );
    expect(sql).to.contain(`COALESCE(__sv_g0."__sv_d0", __sv_g1."__sv_d0") AS "name"`);
  });

  it("rejects wildcards that match nothing as an empty request", () => {
    expect(
      expandError(() => expandSemanticQuery(view, { dimensions: [], metrics: [], facts: ["c.*"] })).message,
    ).to.contain("specify at least dimensions := [...], metrics := [...], or facts := [...]");
  });

  it("accepts quoted and qualified names case-insensitively, keeping the declared case", () => {
    const { columns } = expandSemanticQuery(view, { dimensions: [`C."NAME"`, "O.Status"], metrics: [], facts: [] });
    expect(columns).to.deep.equal(["name", "status"]);
    expect(
      expandError(() => expandSemanticQuery(view, { dimensions: ["o.name"], metrics: [], facts: [] })).message,
    ).to.contain("unknown dimension 'o.name'");
  });
});

describe("where_clause hygiene", () => {
  const view = defineView({
    name: "w",
    tables: [{ alias: "t", table: "t" }],
    dimensions: { "t.d": "t.d -- trailing note" },
  });
  const expand = (where: string) =>
    expandSemanticQuery(view, { dimensions: ["d"], metrics: [], facts: [], whereClause: where });

  it("keeps the predicate one balanced expression", () => {
    expect(expandError(() => expand("d = 1); DROP TABLE t; --")).message).to.contain("unbalanced ')'");
    expect(expandError(() => expand("d = 1; DROP TABLE t")).message).to.contain("single predicate");
    expect(expandError(() => expand("(d = 1")).message).to.contain("unbalanced '('");
    expect(expandError(() => expand("d = 'open")).kind).to.equal("parse");
  });

  it("drops comments so they cannot swallow generated SQL", () => {
    const { sql } = expand("d = ')' -- note");
    expect(sql).to.equal(`SELECT DISTINCT\n    t.d   AS "d"\nFROM "memory"."main"."t" AS "t"\nWHERE (t.d  ) = ')'  `);
  });
});
