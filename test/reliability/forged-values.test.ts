/**
 * Issue 9 items 3 and 10: only genuine values reach SQL, and a value a backend cannot hold exactly
 * is a ValidationError naming the field (or parameter) and the value, on every path where a value
 * becomes SQL text or a bind: the field methods, the three compilers (which re-check nodes built
 * without a field), and raw parameters through the real drivers (DuckDB in-process, snowflake-sdk
 * and @databricks/sql against their loopback stand-ins).
 */
import { expect } from "chai";
import {
  BackendCConfig,
  Decimal,
  Dimension,
  Fact,
  Metric,
  SemanticView,
  ValidationError,
  createEngine,
  type Engine,
} from "lib";
import { conditionOf } from "../../runtime/query/condition.js";
import { ConditionNode } from "../../runtime/operation-node/condition-node.js";
import { FieldNode } from "../../runtime/operation-node/field-node.js";
import type { FilterValue } from "../../runtime/operation-node/filter-value.js";
import {
  standInEngine as backendAEngine,
  startStandIn as startBackendA,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import {
  standInEngine as backendBEngine,
  useStandIn as useBackendB,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { failureOf, thrownBy } from "../support/failures.js";

class Nums extends SemanticView("nums", {
  big: Dimension<bigint>(),
  huge: Dimension<bigint>(),
  dbl: Dimension<number>(),
  at: Dimension<Date>(),
  money: Dimension<Decimal>(),
  n: Metric<bigint>(),
}) {}

/** The backend A stand-in's ORDERS view (quantity is NUMBER(9,0): 3, 1, 2). */
class Orders extends SemanticView("orders", { quantity: Fact<number>() }) {}

const DIALECTS = ["backend_a", "backend_b", "backend_c"] as const;

/** Objects that claim to be a Decimal or a Date without being one, or that could change what SQL reads from them. */
function forgeries(): [string, unknown][] {
  class SneakyDecimal extends Decimal {
    override toString(): string {
      return "0) OR 1=1 --";
    }
  }
  class SneakyDate extends Date {
    override toISOString(): string {
      return "2024-01-01'); DROP TABLE t; --";
    }
  }
  return [
    [
      "a Symbol.for('lib.Decimal')-tagged object",
      {
        [Symbol.for("lib.Decimal")]: true,
        unscaled: 1n,
        scale: "0)); DROP TABLE t; --",
        toString: () => "1; DROP TABLE t",
      },
    ],
    ["Object.create(Decimal.prototype)", Object.create(Decimal.prototype)],
    ["a Proxy of a Decimal", new Proxy(Decimal.parse("1.5"), {})],
    ["a Decimal subclass", new SneakyDecimal(15n, 1)],
    ["a Date subclass", new SneakyDate(0)],
    ["a Proxy of a Date", new Proxy(new Date(0), {})],
    ["a boxed string", new String("US")],
  ];
}

describe("reliability: forged and out-of-range values", () => {
  it("field methods refuse forgeries and inexact numbers with a ValidationError naming the field (no bare TypeError)", () => {
    const inexact: [string, unknown][] = [
      ["-0", -0],
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
    ];
    for (const [what, value] of [...forgeries(), ...inexact]) {
      for (const method of ["eq", "gt"] as const) {
        const error = thrownBy(() => (Nums.money[method] as (v: unknown) => unknown)(value));
        expect(error, `${method}(${what})`).to.be.instanceOf(ValidationError);
        expect((error as ValidationError).message, what).to.contain(`nums.money.${method}()`);
        expect((error as ValidationError).field).to.equal("money");
      }
      expect(
        thrownBy(() => Nums.at.in([new Date(0), value as Date])),
        `in(${what})`,
      ).to.be.instanceOf(ValidationError);
    }
    expect((thrownBy(() => Nums.dbl.eq(-0)) as Error).message).to.contain("-0");
  });

  it("the compilers of A, B and C re-check values of nodes built without a field", () => {
    const field = FieldNode.create("nums", "money", "dimension");
    for (const [what, value] of [...forgeries(), ["-0", -0] as [string, unknown]]) {
      const condition = conditionOf<"nums", never>(ConditionNode.comparison(field, "=", value as FilterValue));
      for (const dialect of DIALECTS) {
        const error = thrownBy(() => Nums.query().dimensions(Nums.money).where(condition).compile({ dialect }));
        expect(error, `${dialect}: ${what}`).to.be.instanceOf(ValidationError);
        expect((error as Error).message, `${dialect}: ${what}`).to.match(/^nums\.money: /);
        expect((error as Error).message).not.to.contain("DROP");
      }
    }
  });

  it("integer ranges per dialect: HUGEINT on C, 38 digits on A and B; inside them, exact SQL", () => {
    const q = (v: bigint | number) => Nums.query().dimensions(Nums.big).where(Nums.big.eq(v));
    // C writes literals: beyond HUGEINT DuckDB would read UHUGEINT/DOUBLE (2^127 matched 2^127-1).
    expect((thrownBy(() => q(2n ** 127n).compile({ dialect: "backend_c" })) as Error).message).to.equal(
      "nums.big: 170141183460469231731687303715884105728n is outside DuckDB's HUGEINT range (-170141183460469231731687303715884105728 to 170141183460469231731687303715884105727), so it cannot be compared exactly",
    );
    expect(q(-(2n ** 127n)).compile({ dialect: "backend_c" }).sql).to.contain(
      `"big" = -170141183460469231731687303715884105728`,
    );
    // A whole number beyond 2^53 is written as its exact digits, not the shortest text (9223372036854776000 != 2^63).
    expect(q(2 ** 63).compile({ dialect: "backend_c" }).sql).to.contain(`"big" = 9223372036854775808'`);
    expect(q(1e300).compile({ dialect: "backend_c" }).sql).to.contain(`"big" = 1e+300'`);
    // A and B: 38 digits at most; B binds a bigint as BIGINT, so a wider one is cast from exact text.
    for (const dialect of ["backend_a", "backend_b"] as const) {
      const error = thrownBy(() => q(10n ** 38n).compile({ dialect }));
      expect(error, dialect).to.be.instanceOf(ValidationError);
      expect((error as Error).message).to.contain("100000000000000000000000000000000000000n is outside");
    }
    const b = q(2n ** 64n).compile({ dialect: "backend_b" });
    expect(b.sql).to.contain("`big` = CAST(? AS DECIMAL(38,0))");
    expect(b.parameters).to.deep.equal(["18446744073709551616"]);
    expect(q(2n ** 62n).compile({ dialect: "backend_b" }).parameters).to.deep.equal([2n ** 62n]);
    // A: the sdk would send 2^63 as the inexact FIXED text 9223372036854776000; its exact digits go as
    // NUMBER(38,0) text (issue 22: it was a DOUBLE cast), and only beyond 38 digits as DOUBLE text.
    const a = q(2 ** 63).compile({ dialect: "backend_a" });
    expect(a.sql).to.contain(`"BIG" = CAST(? AS NUMBER(38,0))`);
    expect(a.parameters).to.deep.equal(["9223372036854775808"]);
    const huge = q(1e300).compile({ dialect: "backend_a" });
    expect(huge.sql).to.contain(`"BIG" = CAST(? AS DOUBLE)`);
    expect(Number(huge.parameters[0])).to.equal(1e300);
    const tooWide = Decimal.parse(`0.${"1".repeat(38)}`);
    for (const dialect of DIALECTS) {
      expect(
        (
          thrownBy(() =>
            Nums.query().dimensions(Nums.money).where(Nums.money.eq(tooWide)).compile({ dialect }),
          ) as Error
        ).message,
        dialect,
      ).to.match(/^nums\.money: Decimal 0\.1+ needs precision 39; \w+ allows at most 38 digits$/);
    }
  });

  describe("backend C: executed on DuckDB", () => {
    let engine: Engine;
    beforeEach(() => {
      engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
      engine._pool.on("connect", async (conn) => {
        await conn.run("CREATE TABLE nums_data (big BIGINT, huge HUGEINT, v INTEGER)");
        await conn.run("INSERT INTO nums_data VALUES (9223372036854775807, 9223372036854775900, 1), (1, 1, 1)");
        await conn.run(
          "CREATE SEMANTIC VIEW nums AS TABLES (nums_data) DIMENSIONS (nums_data.big AS big, nums_data.huge AS huge) METRICS (nums_data.n AS SUM(v))",
        );
        await conn.run("COMMIT");
      });
    });
    afterEach(() => engine.dispose());

    it("a whole number >= 2^63 compares by its exact value (its shortest text 9223372036854776000 is another integer)", async () => {
      const run = async (condition: Parameters<ReturnType<typeof Nums.query>["where"]>[0]) => {
        await using cursor = await Nums.query()
          .dimensions(Nums.big)
          .where(condition)
          .orderBy(Nums.big.asc())
          .using(engine)
          .execute();
        return (await cursor.fetchAllRows()).map((r) => r.big);
      };
      expect(await run(Nums.big.eq(2 ** 63))).to.deep.equal([]);
      expect(await run(Nums.big.lt(2 ** 63))).to.deep.equal([1n, 2n ** 63n - 1n]);
      expect(await run(Nums.huge.gt(2 ** 63))).to.deep.equal([2n ** 63n - 1n]); // huge = 2^63 + 92
      expect(await run(Nums.huge.lt(2 ** 63))).to.deep.equal([1n]);
    });

    it("raw parameters DuckDB would change are ValidationErrors naming position and value", async () => {
      await using conn = await engine.connect();
      const cases: [unknown, RegExp][] = [
        [2n ** 127n, /^Parameter 1 \(170141183460469231731687303715884105728n\): outside DuckDB's HUGEINT range/],
        [-(2n ** 127n) - 1n, /^Parameter 1 \(-170141183460469231731687303715884105729n\): outside/],
        [2 ** 63, /^Parameter 1 \(9223372036854776000\): a whole number beyond BIGINT/],
        [-0, /^Parameter 1 \(-0\): -0 would be sent as 0/],
        [Number.NaN, /^Parameter 1 \(NaN\): NaN is not a finite number/],
        ...forgeries().map(([, value]) => [value, /^Parameter 1 \(.*\): unsupported type/] as [unknown, RegExp]),
      ];
      for (const [value, message] of cases) {
        const error = await failureOf(conn.all("SELECT ? AS x", [value]));
        expect(error, String(message)).to.be.instanceOf(ValidationError);
        expect((error as Error).message).to.match(message);
      }
      // The edges themselves bind exactly.
      const [row] = await conn.all("SELECT ? AS lo, ? AS hi, ? AS big", [-(2n ** 127n), 2n ** 127n - 1n, -(2 ** 63)]);
      expect(row).to.deep.equal({ lo: -(2n ** 127n), hi: 2n ** 127n - 1n, big: -(2n ** 63n) });
    });
  });

  describe("backend A: snowflake-sdk against the stand-in", () => {
    it("raw parameters the sdk would send inexactly, and forgeries, are ValidationErrors", async () => {
      const standIn = await startBackendA();
      try {
        await using engine = backendAEngine(standIn);
        await using conn = await engine.connect();
        const values: [string, unknown][] = [
          ["2^63", 2 ** 63],
          ["1e21", 1e21],
          ["-0", -0],
          ["10^38", 10n ** 38n],
          ...forgeries(),
        ];
        for (const [what, value] of values) {
          const error = await failureOf(conn.all("SELECT ? AS x", [value]));
          expect(error, what).to.be.instanceOf(ValidationError);
          expect((error as Error).message).to.match(/^Parameter 1 \(/);
        }
        const [row] = await conn.all("SELECT ? AS x", [2 ** 53 - 1]);
        expect(Number(row!["x"])).to.equal(2 ** 53 - 1);
        // Through the compiler the same values run: 2^63 and a wide bigint as exact NUMBER(38,0) text.
        const quantities = async (condition: Parameters<ReturnType<typeof Orders.query>["where"]>[0]) => {
          await using cursor = await Orders.query()
            .facts(Orders.quantity)
            .where(condition)
            .orderBy(Orders.quantity.asc())
            .using(engine)
            .execute();
          return (await cursor.fetchAllRows()).map((r) => r.quantity);
        };
        expect(await quantities(Orders.quantity.lt(2 ** 63))).to.deep.equal([1, 2, 3]);
        expect(await quantities(Orders.quantity.gt(-(2n ** 100n)))).to.deep.equal([1, 2, 3]);
        expect(await quantities(Orders.quantity.gte(2 ** 63))).to.deep.equal([]);
        expect(standIn.queries.at(-1)!.sqlText).to.contain("CAST(? AS NUMBER(38,0))");
      } finally {
        await standIn.close();
      }
    });
  });

  describe("backend B: @databricks/sql against the stand-in", () => {
    const fixture = useBackendB();
    it("raw parameters beyond BIGINT, -0 and forgeries are ValidationErrors", async () => {
      await using engine = backendBEngine(fixture.standIn);
      await using conn = await engine.connect();
      const values: [string, unknown][] = [
        ["2^63", 2n ** 63n],
        ["-2^63-1", -(2n ** 63n) - 1n],
        ["-0", -0],
        ...forgeries(),
      ];
      for (const [what, value] of values) {
        const error = await failureOf(conn.all("SELECT ? AS x", [value]));
        expect(error, what).to.be.instanceOf(ValidationError);
        expect((error as Error).message).to.match(/^Parameter 1 \(/);
      }
      const [row] = await conn.all("SELECT ? AS x", [2n ** 63n - 1n]);
      expect(row!["x"]).to.equal(2n ** 63n - 1n);
    });
  });
});
