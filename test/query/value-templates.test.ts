/**
 * Value templates (query-compiler/value-template.ts): a query that differs from one compiled before
 * only in its values is spliced into that compile's SQL. Differential: seeded random queries, every
 * condition form, values of every kind (bigint and Decimal edges, fractional scales, calendar days
 * and instants, hostile strings) and values the full path refuses (NaN, -0, out-of-range bigints and
 * Decimals, invalid and out-of-range Dates, look-alikes, NUL strings), built from raw nodes so no
 * builder check stops them first. Through `compile()` (templates) and a fresh full compile, each
 * query gives identical SQL, identical lifted values and identical errors.
 */
import { expect } from "chai";
import { Decimal, Dimension, Fact, Metric, SemanticView } from "lib";
import { compilerFor } from "../../runtime/dialects/dialects.js";
import { liftedValuesOf } from "../../runtime/dialects/duckdb/duckdb-lifted-values.js";
import { ConditionNode, type ComparisonOperator } from "../../runtime/operation-node/condition-node.js";
import type { FilterValue } from "../../runtime/operation-node/filter-value.js";
import { compilesDuring } from "../support/compiles-during.js";
import { valueShapeOf } from "../../runtime/query-compiler/value-template.js";
import { conditionOf } from "../../runtime/query/condition.js";
import { mulberry32 } from "../../scripts/prng.js";
import { HOSTILE_VALUES } from "../support/hostile-values.js";
import { pick } from "../semantic/support/random-choice.js";

class T extends SemanticView("vt", {
  n: Metric<bigint>(),
  k: Dimension<number>(),
  s: Dimension<string>({ name: "Label Text" }),
  day: Dimension<Date>(),
  at: Fact<Date>(),
  amount: Fact<Decimal>(),
  flag: Dimension<boolean>(),
}) {}

const FIELDS = [T.k, T.s, T.day, T.at, T.amount, T.flag] as const;

/** Valid values, a few per class so that value shapes repeat, plus values some check refuses. */
const VALUES: readonly (() => unknown)[] = [
  () => 7,
  () => -3,
  () => 2 ** 53 + 2,
  () => 1e21,
  () => 1.5,
  () => -0.25,
  () => 12.75,
  () => 1e-7,
  () => 0n,
  () => (1n << 127n) - 1n,
  () => -(1n << 127n),
  () => Decimal.from("12.50"),
  () => Decimal.from("-0.07"),
  () => Decimal.from("99999999999999999999999999999999999.999"),
  () => true,
  () => false,
  () => new Date(Date.UTC(2024, 1, 29)),
  () => new Date(Date.UTC(1969, 6, 20)),
  () => new Date(Date.UTC(2024, 2, 10, 12, 34, 56, 789)),
  () => new Date(Date.UTC(1, 0, 1, 0, 0, 0, 1)),
  () => "US",
  () => "",
  () => "50%_!",
  ...HOSTILE_VALUES.slice(0, 24).map((s) => () => s),
  // Refused by some check of the full path:
  () => Number.NaN,
  () => -0,
  () => Number.POSITIVE_INFINITY,
  () => 1n << 127n,
  () => Decimal.from("1234567890123456789012345678901234567.89"),
  () => new Date(Number.NaN),
  () => new Date(Date.UTC(10000, 0, 1)),
  () => new Date(Date.UTC(-1, 0, 1)),
  () => "nul\u0000inside",
  () => ({ toString: () => "1" }),
  () => Object.assign(Object.create(Date.prototype) as object, {}),
  () => null,
];

function randomCondition(random: () => number, depth = 0): ConditionNode {
  const field = pick(random, FIELDS).node;
  const value = () => pick(random, VALUES)() as FilterValue;
  const form = pick(random, ["cmp", "cmp", "cmp", "in", "between", "like", "null", "not", "and", "or", "const"]);
  switch (depth > 2 && ["not", "and", "or"].includes(form) ? "cmp" : form) {
    case "in":
      return ConditionNode.inList(field, Array.from({ length: Math.floor(random() * 4) }, value), random() < 0.3);
    case "between":
      return ConditionNode.between(field, value(), value());
    case "like":
      return ConditionNode.like(
        field,
        pick(random, ["%a%", "x\\_y", "it''s", "50!%", ...HOSTILE_VALUES]),
        random() < 0.5,
      );
    case "null":
      return ConditionNode.nullCheck(field, random() < 0.5);
    case "not":
      return ConditionNode.not(randomCondition(random, depth + 1));
    case "and":
    case "or": {
      const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomCondition(random, depth + 1));
      return form === "and" ? ConditionNode.and(parts) : ConditionNode.or(parts);
    }
    case "const":
      return ConditionNode.constant(random() < 0.5);
    default:
      return ConditionNode.comparison(
        field,
        pick(random, ["=", "<>", ">", ">=", "<", "<="] as ComparisonOperator[]),
        value(),
      );
  }
}

const query = (where: ConditionNode) =>
  T.query().metrics(T.n).dimensions(T.k).where(conditionOf<"vt", never>(where)).orderBy(T.k.desc()).limit(10);

type Outcome = { sql: string; lifted: unknown } | { error: string; name: string; props: string };

/** Bigint-safe text of what a compile gave: SQL and lifted values, or the error with its properties. */
function outcome(compile: () => { sql: string }): Outcome {
  const text = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x) as unknown);
  try {
    const compiled = compile();
    return { sql: compiled.sql, lifted: text(liftedValuesOf(compiled)) };
  } catch (error) {
    const e = error as Error & Record<string, unknown>;
    return { error: e.message, name: e.constructor.name, props: text({ source: e["source"], field: e["field"] }) };
  }
}

describe("value templates: a new filter value is spliced, never compiled again", () => {
  it("random queries: identical SQL, lifted values and errors through the template and a full compile", () => {
    const random = mulberry32(2026_11_27);
    const full = compilerFor("backend_c");
    let spliced = 0;
    let refused = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 1500; i++) {
      const q = query(randomCondition(random));
      const node = q.toOperationNode();
      const key = valueShapeOf(node)?.key;
      let viaTemplate: Outcome | undefined;
      const compiles = compilesDuring(() => (viaTemplate = outcome(() => q.compile({ dialect: "backend_c" }))));
      const expected = outcome(() => full.compileSemanticQuery(node));
      expect(viaTemplate, `query ${i}`).to.deep.equal(expected);
      if (compiles === 0) {
        spliced++;
        expect(key !== undefined && seen.has(key), "spliced only into a value shape compiled before").to.equal(true);
      }
      if ("error" in expected) refused++;
      if (key !== undefined && !("error" in expected)) seen.add(key);
    }
    expect(spliced, "queries spliced").to.be.greaterThan(300);
    expect(refused, "queries refused").to.be.greaterThan(100);
  });

  it("a spliced query compiled again after many others: the same object, its values noted, no full compile", () => {
    const q = (id: number, label: string) => T.query().metrics(T.n).where(T.k.gte(id)).where(T.s.ne(label));
    q(0, "").compile({ dialect: "backend_c" }); // records the value shape's template
    const first = q(7, "it's");
    let compiled: { sql: string } | undefined;
    const compiles = compilesDuring(() => {
      compiled = first.compile({ dialect: "backend_c" });
      for (let i = 0; i < 40; i++) q(100 + i, `o'${i}`).compile({ dialect: "backend_c" });
      expect(first.compile({ dialect: "backend_c" })).to.equal(compiled);
    });
    expect(compiles, "every compile spliced").to.equal(0);
    const full = compilerFor("backend_c").compileSemanticQuery(first.toOperationNode());
    expect(compiled!.sql).to.equal(full.sql);
    expect(liftedValuesOf(compiled!)).to.deep.equal(liftedValuesOf(full)).and.not.equal(undefined);
  });

  it("the value-shape key tells apart what changes the SQL around a value", () => {
    const key = (where: ConditionNode) => valueShapeOf(query(where).toOperationNode())?.key;
    const cmp = (v: FilterValue, op: ComparisonOperator = ">=") => key(ConditionNode.comparison(T.k.node, op, v));
    expect(cmp(1))
      .to.equal(cmp(2))
      .and.to.equal(cmp(2 ** 53 + 2));
    expect(cmp(1.5)).to.equal(cmp(-2.5)).and.not.equal(cmp(1.25)); // DuckDB's DECIMAL(38,s) guard takes the scale
    expect(cmp(Decimal.from("1.50"))).to.not.equal(cmp(Decimal.from("1.5")));
    expect(cmp(1)).to.not.equal(cmp(1n)).and.not.equal(cmp("1")).and.not.equal(cmp(1, ">"));
    expect(cmp(new Date(Date.UTC(2024, 0, 1)))).to.not.equal(cmp(new Date(Date.UTC(2024, 0, 1, 1)))); // DATE or TIMESTAMP
    const list = (n: number) =>
      key(
        ConditionNode.inList(
          T.s.node,
          Array.from({ length: n }, () => "x"),
          false,
        ),
      );
    expect(list(2)).to.not.equal(list(3));
    expect(cmp("a\u0000b"), "a NUL string is written as an expression: never spliced").to.equal(undefined);
  });
});

describe("backend C: a calendar-day Date is a DATE literal", () => {
  it("midnight UTC compiles to DATE '…' (lifted as a date), any other instant to TIMESTAMP '…'", () => {
    const day = T.query()
      .metrics(T.n)
      .where(T.day.gte(new Date(Date.UTC(2024, 1, 29))))
      .compile({ dialect: "backend_c" });
    expect(day.sql).to.contain(`where_clause := '"day" >= DATE ''2024-02-29'''`);
    expect(liftedValuesOf(day)?.literals).to.deep.equal([{ kind: "date", text: "2024-02-29" }]);
    const at = T.query()
      .metrics(T.n)
      .where(T.at.lt(new Date(Date.UTC(2024, 1, 29, 0, 0, 0, 1))))
      .compile({ dialect: "backend_c" });
    expect(at.sql).to.contain(`"at" < TIMESTAMP ''2024-02-29 00:00:00.001''`);
  });
});
