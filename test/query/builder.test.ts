/** The immutable builder: immutability, selection rules, validation errors. */
import { deepStrictEqual } from "node:assert";
import { expect } from "chai";
import { Dimension, Metric, SemanticView, ValidationError, and, not, or, type QueryEngine } from "lib";
import { Decimal, Orders, Sales } from "./support/views.js";

class Other extends SemanticView("other", { revenue: Metric<bigint>(), country: Dimension<string>() }) {}

const throwsValidation = (fn: () => unknown, pattern: RegExp, field?: string) => {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, "expected a ValidationError").to.be.instanceOf(ValidationError);
  expect((error as Error).message).to.match(pattern);
  if (field !== undefined) expect((error as ValidationError).field).to.equal(field);
};

describe("query builder", () => {
  it("is immutable: every call returns a new query and leaves the old one unchanged", () => {
    const q1 = Sales.query().metrics(Sales.revenue);
    const q2 = q1.dimensions(Sales.country);
    const q3 = q2.where(Sales.country.eq("US")).orderBy(Sales.revenue.desc()).limit(5).offset(1);
    expect(q1).to.not.equal(q2);
    expect(q1.toSql({ dialect: "backend_c" })).to.equal(
      `SELECT "revenue" AS "revenue" FROM semantic_view('sales', metrics := ['revenue'])`,
    );
    expect(q2.toSql({ dialect: "backend_c" })).to.equal(
      `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'])`,
    );
    expect(q3.toSql({ dialect: "backend_c" })).to.include("LIMIT 5 OFFSET 1");
    expect(Object.isFrozen(q3)).to.equal(true);
    expect(Object.isFrozen(q3.toOperationNode())).to.equal(true);
    expect(Object.isFrozen(q3.toOperationNode().dimensions)).to.equal(true);
  });

  it("compiles a query once per dialect: the same frozen result again; a failing compile fails every time", () => {
    const q = Sales.query().metrics(Sales.revenue).dimensions(Sales.country);
    const first = q.compile({ dialect: "backend_c" });
    expect(q.compile({ dialect: "backend_c" })).to.equal(first);
    expect(q.compile({ dialect: "backend_a" })).to.not.equal(first);
    expect(q.compile({ dialect: "backend_a" }).sql).to.not.equal(first.sql);
    // A node's second and third dialects are remembered beside its first.
    const [a, b] = [q.compile({ dialect: "backend_a" }), q.compile({ dialect: "backend_b" })];
    expect([q.compile({ dialect: "backend_a" }), q.compile({ dialect: "backend_b" })]).to.deep.equal([a, b]);
    expect(q.compile({ dialect: "backend_a" })).to.equal(a);
    expect(q.compile({ dialect: "backend_c" })).to.equal(first);
    const empty = Sales.query().where(Sales.country.eq("US"));
    for (let i = 0; i < 2; i++)
      throwsValidation(() => empty.compile({ dialect: "backend_c" }), /select at least one metric, dimension or fact/);
  });

  it("where(null) returns the same query", () => {
    const q = Sales.query().metrics(Sales.revenue);
    expect(q.where(null)).to.equal(q);
    expect(q.where(undefined)).to.equal(q);
  });

  it("compile() returns a frozen CompiledQuery", () => {
    const c = Sales.query().metrics(Sales.revenue).where(Sales.country.eq("US")).compile({ dialect: "backend_a" });
    expect(Object.isFrozen(c)).to.equal(true);
    expect(Object.isFrozen(c.parameters)).to.equal(true);
    expect(c.dialect).to.equal("backend_a");
    expect(c.query.viewName).to.equal("sales");
    // A plain object of exactly { sql, parameters } to strict deep equality (node:assert, Jest's toStrictEqual
    // compare prototypes too): dialect and query are non-enumerable own properties, not a class's getters.
    expect(Object.getPrototypeOf(c)).to.equal(Object.prototype);
    expect(Object.keys(c)).to.deep.equal(["sql", "parameters"]);
    deepStrictEqual(c, { sql: c.sql, parameters: c.parameters });
  });

  it("a Date value is copied, so mutating the caller's Date later changes nothing", () => {
    const at = new Date(Date.UTC(2024, 0, 1));
    const q = Orders.query().metrics(Orders.total).where(Orders.orderedAt.gte(at));
    at.setUTCFullYear(1999);
    expect(q.toSql({ dialect: "backend_c" })).to.include("DATE ''2024-01-01''"); // a calendar day: a DATE literal
  });

  it("toSql()/compile() without a dialect use the using() engine's backend", () => {
    const engine: QueryEngine = {
      backend: "backend_b",
      connect: () => Promise.reject(new Error("not used")),
    };
    const q = Sales.query().metrics(Sales.revenue).using(engine);
    expect(q.toSql()).to.equal("SELECT MEASURE(`revenue`) AS `revenue` FROM `sales`");
    expect(q.compile().dialect).to.equal("backend_b");
    expect(q.toSql({ dialect: "backend_c" })).to.equal(
      `SELECT "revenue" AS "revenue" FROM semantic_view('sales', metrics := ['revenue'])`,
    );
  });

  describe("rejects", () => {
    it("a field of another view in metrics(), dimensions(), where() and orderBy()", () => {
      const q = Sales.query().metrics(Sales.revenue);
      throwsValidation(
        () => q.metrics(Other.revenue as never),
        /"revenue" is a field of view "other", not "sales"/,
        "revenue",
      );
      throwsValidation(() => q.dimensions(Other.country as never), /is a field of view "other"/);
      throwsValidation(() => q.where(Other.country.eq("US") as never), /is a field of view "other"/);
      throwsValidation(
        () => q.where(and(Sales.country.eq("US"), Other.country.eq("US")) as never),
        /is a field of view "other"/,
      );
      throwsValidation(() => q.orderBy(Other.revenue.desc() as never), /is a field of view "other"/);
    });

    it("a metric inside where(), also nested", () => {
      const q = Sales.query().metrics(Sales.revenue);
      throwsValidation(
        () => q.where(Sales.revenue.gt(100n) as never),
        /metric "revenue" cannot be used in where\(\)/,
        "revenue",
      );
      throwsValidation(
        () => q.where(or(Sales.country.eq("US"), not(Sales.cost.lt(1))) as never),
        /metric "cost"/,
        "cost",
      );
    });

    it("a field of the wrong kind, naming the right method", () => {
      throwsValidation(
        () => Sales.query().metrics(Sales.country as never),
        /"country" is a dimension: select it with \.dimensions\(\)/,
        "country",
      );
      throwsValidation(
        () => Sales.query().dimensions(Sales.revenue as never),
        /"revenue" is a metric: select it with \.metrics\(\)/,
      );
      throwsValidation(
        () => Orders.query().metrics(Orders.quantity as never),
        /"quantity" is a fact: select it with \.facts\(\)/,
      );
    });

    it("selecting a field twice", () => {
      throwsValidation(
        // @ts-expect-error 'revenue' is already selected (a type error too)
        () => Sales.query().metrics(Sales.revenue).metrics(Sales.revenue),
        /"revenue" is already selected/,
      );
      // @ts-expect-error 'country' is already selected (a type error too)
      throwsValidation(() => Sales.query().dimensions(Sales.country, Sales.country), /"country" is already selected/);
    });

    it("selecting a field twice in a wide selection (over 16 fields: checked with a set, not a scan)", () => {
      const names = Array.from({ length: 20 }, (_, i) => `d${i}`);
      const Wide = SemanticView("wide", Object.fromEntries(names.map((n) => [n, Dimension<string>()])));
      const fields = names.map((n) => (Wide as unknown as Record<string, never>)[n]!);
      const all = Wide.query().dimensions(...fields);
      expect(all.compile({ dialect: "backend_c" }).sql).to.include("'d19'");
      for (const [first, second] of [
        [fields.slice(0, 10), fields.slice(9, 11)],
        [fields, [fields[19]!]],
      ] as const) {
        throwsValidation(
          () =>
            Wide.query()
              .dimensions(...first)
              .dimensions(...second),
          /"d9" is already selected|"d19" is already selected/,
        );
      }
      throwsValidation(() => Wide.query().dimensions(...fields, fields[3]!), /"d3" is already selected/, "d3");
    });

    it("metrics together with facts", () => {
      throwsValidation(
        // @ts-expect-error metrics and facts cannot be selected in the same query (a type error too)
        () => Orders.query().metrics(Orders.total).facts(Orders.quantity),
        /metrics and facts cannot be selected/,
      );
      throwsValidation(
        // @ts-expect-error metrics and facts cannot be selected in the same query (a type error too)
        () => Orders.query().facts(Orders.quantity).metrics(Orders.total),
        /metrics and facts cannot be selected/,
      );
    });

    it("compiling with nothing selected", () => {
      throwsValidation(
        () => Sales.query().where(Sales.country.eq("US")).toSql({ dialect: "backend_c" }),
        /select at least one metric, dimension or fact/,
      );
    });

    it("ordering by a field that is not selected (checked at compile time)", () => {
      const q = Sales.query().metrics(Sales.revenue).orderBy(Sales.cost.desc());
      // @ts-expect-error orderBy(): 'cost' is not selected (a type error too, where the query compiles)
      throwsValidation(() => q.toSql({ dialect: "backend_a" }), /"cost" is not selected/, "cost");
      // ...but the order of builder calls does not matter:
      expect(Sales.query().orderBy(Sales.cost.desc()).metrics(Sales.cost).toSql({ dialect: "backend_c" })).to.equal(
        `SELECT "cost" AS "cost" FROM semantic_view('sales', metrics := ['cost']) ORDER BY "cost" DESC NULLS LAST`,
      );
    });

    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "10", 10n]) {
      it(`limit(${typeof bad === "bigint" ? `${bad}n` : (JSON.stringify(bad) ?? String(bad))})`, () => {
        throwsValidation(() => Sales.query().limit(bad as number), /limit\(\): expected a non-negative integer/);
      });
    }

    it("limit(0) is valid: no rows, just the columns", () => {
      expect(Sales.query().metrics(Sales.revenue).limit(0).toSql({ dialect: "backend_c" })).to.equal(
        `SELECT "revenue" AS "revenue" FROM semantic_view('sales', metrics := ['revenue']) LIMIT 0`,
      );
    });

    for (const bad of [-1, 0.5, Number.NaN, "1"]) {
      it(`offset(${JSON.stringify(bad) ?? String(bad)})`, () => {
        throwsValidation(() => Sales.query().offset(bad as number), /offset\(\): expected a non-negative integer/);
      });
    }

    const badValues: [string, unknown, RegExp][] = [
      ["NaN", Number.NaN, /NaN is not a finite number/],
      ["Infinity", Number.POSITIVE_INFINITY, /Infinity is not a finite number/],
      ["an invalid Date", new Date(Number.NaN), /the Date is invalid/],
      ["a plain object", { toString: () => "x" }, /\[object Object\] is not a supported value/],
      ["an array", ["US"], /\[object Array\] is not a supported value/],
      ["undefined", undefined, /a undefined is not a supported value/],
      ["a symbol", Symbol("s"), /a symbol is not a supported value/],
    ];
    for (const [label, value, pattern] of badValues) {
      it(`${label} as a condition value, naming the field`, () => {
        throwsValidation(() => Sales.country.eq(value as string), pattern, "country");
        throwsValidation(() => Sales.country.in(["US", value as string]), pattern, "country");
        throwsValidation(() => Sales.country.between("A", value as string), pattern, "country");
      });
    }

    it("null where only lists and eq/ne accept it", () => {
      throwsValidation(() => Sales.country.gt(null as never), /null is only allowed/);
      throwsValidation(() => Sales.country.between(null as never, "b"), /null is only allowed/);
    });

    it("a non-string LIKE pattern or text", () => {
      throwsValidation(() => Sales.country.like(5 as never), /sales\.country\.like\(\): expected a string, got number/);
      throwsValidation(() => Sales.country.contains(null as never), /contains\(\): expected a string, got null/);
    });

    it("in() without an array", () => {
      throwsValidation(() => Sales.country.in("US" as never), /in\(\): expected an array/);
    });

    it("an invalid nulls placement", () => {
      throwsValidation(() => Sales.revenue.desc({ nulls: "middle" as never }), /nulls must be "first" or "last"/);
    });

    it("non-conditions in where(), and(), or(), not() and orderBy()", () => {
      throwsValidation(() => Sales.query().where("country = 'US'" as never), /expected a condition/);
      throwsValidation(() => and(Sales.country.eq("US"), "x" as never), /and\(\): argument 2 is not a condition/);
      throwsValidation(() => or({} as never), /or\(\): argument 1 is not a condition/);
      throwsValidation(() => not(null as never), /not\(\): a condition is required/);
      throwsValidation(() => Sales.query().orderBy("revenue DESC" as never), /expected an ordering/);
    });

    it("using() with something that is not an engine", () => {
      throwsValidation(() => Sales.query().using(42 as never), /expected an engine or a registered engine name/);
    });

    it("an unknown dialect", () => {
      throwsValidation(
        () =>
          Sales.query()
            .metrics(Sales.revenue)
            .toSql({ dialect: "backend_z" as never }),
        /unknown dialect "backend_z"/,
      );
    });

    it("a Date outside years 0000-9999 on backend C", () => {
      const q = Orders.query()
        .metrics(Orders.total)
        .where(Orders.orderedAt.lt(new Date(Date.UTC(10000, 0, 1))));
      throwsValidation(() => q.toSql({ dialect: "backend_c" }), /outside the years 0000-9999/);
      expect(q.compile({ dialect: "backend_b" }).parameters).to.have.length(1);
    });
  });

  it("accepts every numeric input for numeric fields", () => {
    const q = Orders.query()
      .metrics(Orders.total)
      .where(and(Orders.quantity.gt(1), Orders.quantity.lt(10n), Orders.price.gte(Decimal.parse("0.5"))));
    expect(q.compile({ dialect: "backend_a" }).parameters).to.deep.equal([1, "10", "0.5"]);
  });
});
