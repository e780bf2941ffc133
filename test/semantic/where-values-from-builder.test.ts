/**
 * A builder query's where_clause values reach the built-in engine already lifted: the DuckDB
 * compiler notes them in typed form as it writes them (duckdb-lifted-values.ts), so a new value
 * costs no lexing and no per-text cache entry. The compiler's form must be exactly what the lexer
 * reads out of the compiled text (call/lift-where-values.ts, whose answers where-values-bound.test.ts
 * checks against the literal form): random conditions over every value kind and condition form are
 * compared, then run on real DuckDB through `execute()` against the same SQL run as written.
 */
import { expect } from "chai";
import { and, Decimal, Dimension, Metric, not, or, SemanticView, type RowCondition } from "lib";
import { compilerFor } from "../../runtime/dialects/dialects.js";
import { liftedValuesOf } from "../../runtime/dialects/duckdb/duckdb-lifted-values.js";
import { statementCachePrepares } from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { liftWhereClauseValues, textLiftCount } from "../../runtime/semantic/call/lift-where-values.js";
import { semanticQueryCacheStats } from "../../runtime/semantic/call/typed-query.js";
import { mulberry32 } from "../../scripts/prng.js";
import { useSeededConnection } from "../support/engines.js";
import { HOSTILE_VALUES } from "../support/hostile-values.js";
import { useTempDir } from "../support/temp-dir.js";
import { pick } from "./support/random-choice.js";

class B extends SemanticView("bv", {
  k: Dimension<number>(),
  i: Dimension<number>(),
  h: Dimension<bigint>(),
  d2: Dimension<Decimal>(),
  dbl: Dimension<number>(),
  s: Dimension<string>(),
  ts: Dimension<Date>(),
  bo: Dimension<boolean>(),
  n: Metric<bigint>(),
}) {}

const STRINGS = ["", "a", "it's", "50%", "a_b", "Zürich", "😀", "x\0y", ...HOSTILE_VALUES.slice(0, 4)];
const ROWS = 40;

/** k, i INTEGER, h HUGEINT, d2 DECIMAL(10,2), dbl DOUBLE, s VARCHAR, ts TIMESTAMP, bo BOOLEAN (NULLs every 7th row). */
function row(r: number): string {
  if (r % 7 === 6) return `(${r}, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`;
  const sign = r % 2 === 0 ? 1 : -1;
  const s = STRINGS[r % STRINGS.length]!.replaceAll("\0", "").replaceAll("'", "''");
  const ts = `2024-01-${String(1 + (r % 28)).padStart(2, "0")} ${String(r % 24).padStart(2, "0")}:00:00`;
  return `(${r}, ${sign * r * 37}, ${sign}*(2::HUGEINT**100 + ${r}), ${sign * r * 12.34}, ${sign * r * 0.25}, '${s}', TIMESTAMP '${ts}', ${r % 3 === 0})`;
}

type Field = "i" | "h" | "d2" | "dbl" | "s" | "ts" | "bo";

/** A value for field f: usually of its kind, sometimes one DuckDB must cast or refuse. */
function value(random: () => number, f: Field): unknown {
  const r = Math.floor(random() * ROWS);
  const sign = random() < 0.5 ? -1 : 1;
  const kinds: Record<Field, () => unknown> = {
    i: () => pick(random, [sign * r * 37, sign * r, 1.5 * sign, 2 ** 53 + r, 1e21, 1e-7 * sign]),
    h: () => pick(random, [BigInt(sign) * (2n ** 100n + BigInt(r)), BigInt(r), -(2n ** 127n)]),
    d2: () =>
      pick(random, [Decimal.from(`${sign * r * 12}.34`), Decimal.from(`${r}.505`), sign * r * 12.34, BigInt(r)]),
    dbl: () => pick(random, [sign * r * 0.25, r, Decimal.from(`${r}.125`), 1e300]),
    s: () => pick(random, STRINGS),
    ts: () => new Date(Date.UTC(2024, 0, 1 + (r % 28), r % 24, r % 60, 0, r * 7)),
    bo: () => random() < 0.5,
  };
  if (random() < 0.1) return kinds[pick(random, ["i", "s", "bo"] as const)]();
  return kinds[f]();
}

type Cond = RowCondition<"bv">;

function condition(random: () => number, depth = 0): Cond {
  const f = pick(random, ["i", "h", "d2", "dbl", "s", "ts", "bo"] as const);
  const field = B[f] as unknown as {
    [op in "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "between" | "in" | "notIn"]: (...a: unknown[]) => Cond;
  };
  const form = pick(random, ["cmp", "cmp", "in", "between", "like", "null", "not", "and"] as const);
  switch (depth > 1 && (form === "not" || form === "and") ? "cmp" : form) {
    case "in": {
      const values = Array.from({ length: 1 + Math.floor(random() * 3) }, () => value(random, f));
      return random() < 0.3 ? field.notIn(values) : field.in(values);
    }
    case "between":
      return field.between(value(random, f), value(random, f));
    case "like": {
      const text = pick(
        random,
        STRINGS.filter((s) => !s.includes("\0")),
      );
      return pick(random, [B.s.like(`%${text}%`), B.s.startsWith(text), B.s.contains(text), B.s.endsWith(text)]);
    }
    case "null":
      return random() < 0.5 ? B[f].isNull() : B[f].isNotNull();
    case "not":
      return not(condition(random, depth + 1));
    case "and": {
      const parts = [condition(random, depth + 1), condition(random, depth + 1)];
      return random() < 0.5 ? and(...parts) : or(...parts);
    }
    case "cmp":
      return field[pick(random, ["eq", "ne", "gt", "gte", "lt", "lte"] as const)](value(random, f));
  }
}

const query = (where: Cond) => B.query().dimensions(B.k).metrics(B.n).where(where).orderBy(B.k.asc());

const compiler = compilerFor("backend_c");
const compile = (where: Cond) => compiler.compileSemanticQuery(query(where).toOperationNode());

/** Random conditions the compiler accepts (a value out of range is refused before SQL exists). */
function* conditions(seed: number, count: number): Generator<Cond> {
  const random = mulberry32(seed);
  for (let made = 0; made < count;) {
    let where: Cond;
    try {
      where = condition(random);
      compile(where);
    } catch {
      continue;
    }
    made++;
    yield where;
  }
}

describe("where_clause values lifted by the compiler (builder queries, built-in engine)", () => {
  it("notes exactly the shape and values the lexer reads out of the compiled text", () => {
    let lifted = 0;
    let nul = 0;
    for (const where of conditions(2026_11_27, 250)) {
      const compiled = compile(where);
      const fromCompiler = liftedValuesOf(compiled);
      if (compiled.sql.includes("chr(0)")) {
        nul++;
        expect(fromCompiler, compiled.sql).to.equal(undefined); // left to the text path
        continue;
      }
      expect(fromCompiler, compiled.sql).to.deep.equal(liftWhereClauseValues(compiled.sql));
      if (fromCompiler !== undefined) lifted++;
    }
    expect(lifted).to.be.greaterThan(150);
    expect(nul).to.be.greaterThan(0);
  });

  describe("on DuckDB", () => {
    const db = useSeededConnection(useTempDir("all"), async (setup) => {
      await setup.run(
        "CREATE TABLE bt (k INTEGER, i INTEGER, h HUGEINT, d2 DECIMAL(10,2), dbl DOUBLE, s VARCHAR, ts TIMESTAMP, bo BOOLEAN)",
      );
      await setup.run(`INSERT INTO bt VALUES ${Array.from({ length: ROWS }, (_, r) => row(r)).join(", ")}`);
      const dimensions = ["k", "i", "h", "d2", "dbl", "s", "ts", "bo"].map((c) => `bt.${c} AS ${c}`).join(", ");
      await setup.run(`CREATE SEMANTIC VIEW bv AS TABLES (bt) DIMENSIONS (${dimensions}) METRICS (bt.n AS count(*))`);
    });

    async function outcome(run: () => Promise<unknown[]>): Promise<unknown> {
      try {
        return await run();
      } catch (error) {
        await db.conn.rollback().catch(() => undefined);
        return { error: (error as Error).message.replace(/\(expanded SQL:[\s\S]*$/, "") };
      }
    }

    it("answers through execute() exactly as the compiled SQL run as written, errors included", async () => {
      let [errors, matched] = [0, 0];
      for (const where of conditions(2026_11_28, 32)) {
        const q = query(where).using(db.engine);
        const { sql } = q.compile();
        // A parameter of its own keeps the where_clause as written (never lifted).
        const asWritten = `SELECT * FROM (${sql}) AS q WHERE ?::INTEGER = 1 ORDER BY k`;
        const want = await outcome(() => db.conn.all(asWritten, [1]));
        const got = await outcome(async () => {
          await using cursor = await q.execute();
          return await cursor.fetchAllRows();
        });
        expect(got, sql).to.deep.equal(want);
        // Run again, as the same query and as one built anew: the same values, now in their literal form.
        for (const again of [q, query(where).using(db.engine)]) {
          const rows = await outcome(async () => {
            await using cursor = await again.execute();
            return await cursor.fetchAllRows();
          });
          expect(rows, `${sql} (run again)`).to.deep.equal(want);
        }
        if (!Array.isArray(want)) errors++;
        else if (want.length > 0) matched++;
      }
      expect([errors, matched]).to.satisfy(([e, m]: number[]) => e > 0 && m > 15, "some errors, mostly answers");
    });

    it("a query run again after more new values than the last splices kept: the same answers", async () => {
      const rows = async (q: ReturnType<typeof query>) => {
        await using cursor = await q.execute();
        return await cursor.fetchAllRows();
      };
      const built = (id: number, name: string) =>
        query(and(B.i.gte(id), B.s.ne(name), B.d2.notIn([Decimal.from("12.34"), Decimal.from(`${id}.50`)]))).using(
          db.engine,
        );
      const first = built(-400, "it's");
      const { sql } = first.compile();
      const want = await rows(first);
      expect(want.length).to.be.greaterThan(10);
      expect(await db.conn.all(`SELECT * FROM (${sql}) AS q WHERE ?::INTEGER = 1 ORDER BY k`, [1])).to.deep.equal(want);
      for (let n = 0; n < 40; n++) await rows(built(n * 5, `other ${n}`)); // more queries than the ring keeps
      for (const again of [first, first, built(-400, "it's")]) expect(await rows(again)).to.deep.equal(want);
      expect(first.compile(), "compile() hands out the same object").to.equal(first.compile());
    });

    it("a new value each query: no lexing, no type probe, no prepare", async () => {
      const run = async (id: number, name: string) => {
        await using cursor = await query(and(B.i.gte(id), B.s.ne(name), B.d2.notIn([Decimal.from("1.50"), id + 0.25])))
          .using(db.engine)
          .execute();
        return await cursor.fetchAllRows();
      };
      {
        await run(-1, "first");
        const before = [semanticQueryCacheStats().misses, statementCachePrepares(), textLiftCount()];
        for (let n = 0; n < 20; n++) {
          const rows = await run(n * 3, `name ${n} '"`);
          expect(rows.length).to.be.greaterThan(0);
        }
        const after = [semanticQueryCacheStats().misses, statementCachePrepares(), textLiftCount()];
        expect(after.map((a, i) => a - before[i]!)).to.deep.equal([0, 0, 0]); // probes, prepares, text lifts
      }
    });
  });
});
