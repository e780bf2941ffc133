/**
 * Issue 22 item 8, exact comparisons:
 * - backend C: a DECIMAL or fractional filter value made DuckDB cast the *column* to DECIMAL(38, s)
 *   and fail (`DataError`) on rows the filter is not about (a HUGEINT or DECIMAL(38,0) beyond
 *   10^37). Every comparison form now answers, exactly, on every row;
 * - backend A: a whole number beyond 2^53 was sent as a DOUBLE cast, so `2 ** 63` matched
 *   9223372036854775807 as well; it is now compared by its exact value, as the README promises.
 */
import { expect } from "chai";
import {
  BackendCConfig,
  Decimal,
  Dimension,
  Metric,
  SemanticView,
  createEngine,
  type Engine,
  type RowCondition,
} from "lib";
import { SEED_SQL, standInEngine, startStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";

class Wide extends SemanticView("wide", {
  id: Dimension<number>(),
  h: Dimension<bigint>(),
  d: Dimension<Decimal>(),
  s: Dimension<Decimal>(),
  f: Dimension<number>(),
  n: Metric<bigint>(),
}) {}

const HUGE = 170141183460469231731687303715884105727n; // HUGEINT max, 39 digits
const D38 = "99999999999999999999999999999999999999"; // DECIMAL(38,0) max
const S38 = "1234567890123456789012345678.0123456789"; // DECIMAL(38,10), 28 integer digits

/** id, h (HUGEINT), d (DECIMAL(38,0)), s (DECIMAL(38,10)), f (DOUBLE) */
const ROWS = [
  `(1, ${HUGE}, ${D38}, ${S38}, 1e300)`,
  `(2, -${HUGE}, -${D38}, -${S38}, -1e300)`,
  "(3, 1, 1, 1.5, 1.5)",
  "(4, 2, 2, 2.25, 2.25)",
  "(5, NULL, NULL, NULL, NULL)",
];

async function wideEngine(): Promise<Engine> {
  const engine = createEngine(new BackendCConfig({ semanticViews: "builtin" }));
  engine._pool.on("connect", async (conn) => {
    await conn.run("CREATE TABLE wide_t (id INTEGER, h HUGEINT, d DECIMAL(38,0), s DECIMAL(38,10), f DOUBLE)");
    await conn.run(`INSERT INTO wide_t VALUES ${ROWS.join(", ")}`);
    await conn.run(
      "CREATE SEMANTIC VIEW wide AS TABLES (wide_t) DIMENSIONS (wide_t.id AS id, wide_t.h AS h, wide_t.d AS d, wide_t.s AS s, wide_t.f AS f) METRICS (wide_t.n AS COUNT(*))",
    );
    await conn.commit();
  });
  return engine;
}

async function ids(engine: Engine, condition: RowCondition<"wide">): Promise<number[]> {
  await using cursor = await Wide.query()
    .dimensions(Wide.id)
    .metrics(Wide.n)
    .where(condition)
    .orderBy(Wide.id.asc())
    .using(engine)
    .execute();
  return (await cursor.fetchAllRows()).map((r) => r.id);
}

describe("reliability: exact comparisons", function () {
  this.timeout(30_000);

  describe("backend C: fractional values never make DuckDB cast a wide column", () => {
    let engine: Engine;
    before(async () => {
      engine = await wideEngine();
    });
    after(() => engine.dispose());

    const half = Decimal.parse("1.5");
    const all: [string, RowCondition<"wide">, number[]][] = [
      ["HUGEINT = 1.5", Wide.h.eq(1.5), []],
      ["HUGEINT <> 1.5", Wide.h.ne(1.5), [1, 2, 3, 4]],
      ["HUGEINT > 1.5", Wide.h.gt(1.5), [1, 4]],
      ["HUGEINT >= Decimal 1.5", Wide.h.gte(half), [1, 4]],
      ["HUGEINT < 1.5", Wide.h.lt(1.5), [2, 3]],
      ["HUGEINT <= Decimal 1.5", Wide.h.lte(half), [2, 3]],
      ["DECIMAL(38,0) in [0.5, 2.0 (Decimal)]", Wide.d.in([Decimal.parse("0.5"), Decimal.parse("2.0")]), [4]],
      ["DECIMAL(38,0) notIn [1.5]", Wide.d.notIn([1.5]), [1, 2, 3, 4]],
      ["DECIMAL(38,0) between 0.5 and 1.5", Wide.d.between(0.5, 1.5), [3]],
      ["DECIMAL(38,10) = 2.25 (scale 2)", Wide.s.eq(2.25), [4]],
      ["DECIMAL(38,10) > Decimal 1.00000000001 (scale 11)", Wide.s.gt(Decimal.parse("1.00000000001")), [1, 3, 4]],
      ["DOUBLE = 1.5 (compared in DOUBLE, as before)", Wide.f.eq(1.5), [3]],
      ["DOUBLE < -1e299 (a DOUBLE literal)", Wide.f.lt(-1e299), [2]],
    ];
    for (const [name, condition, expected] of all) {
      it(name, async () => {
        expect(await ids(engine, condition)).to.deep.equal(expected);
      });
    }
  });

  describe("backend A: a whole number beyond 2^53 is compared by its exact value", () => {
    it("2 ** 63 matches 9223372036854775808 and not 9223372036854775807", async () => {
      const standIn = await startStandIn({
        seedSql: [
          ...SEED_SQL,
          "CREATE TABLE big_ids (id DECIMAL(38,0), k INTEGER)",
          "INSERT INTO big_ids VALUES (9223372036854775807, 1), (9223372036854775808, 2), (9223372036854775809, 3)",
        ],
        semanticViews: [
          { name: "BIG", table: "big_ids", dimensions: { ID: "id", K: "k" }, metrics: { N: "COUNT(*)" } },
        ],
      });
      try {
        class Big extends SemanticView("big", {
          id: Dimension<bigint>(),
          k: Dimension<number>(),
          n: Metric<bigint>(),
        }) {}
        await using engine = standInEngine(standIn);
        const ks = async (condition: RowCondition<"big">) => {
          await using cursor = await Big.query()
            .dimensions(Big.k)
            .metrics(Big.n)
            .where(condition)
            .orderBy(Big.k.asc())
            .using(engine)
            .execute();
          return (await cursor.fetchAllRows()).map((r) => r.k);
        };
        expect(await ks(Big.id.eq(2 ** 63))).to.deep.equal([2]); // a DOUBLE comparison matched 1, 2 and 3
        expect(await ks(Big.id.lt(2 ** 63))).to.deep.equal([1]);
        expect(await ks(Big.id.gt(2 ** 63))).to.deep.equal([3]);
        expect(standIn.queries.at(-1)!.sqlText).to.contain("CAST(? AS NUMBER(38,0))");
      } finally {
        await standIn.close();
      }
    });
  });
});
