/**
 * The built-in engine binds a where_clause's literal values as parameters (one rewrite, type probe
 * and prepare per filter shape). Differential: random predicates over every value type run twice on
 * real DuckDB — bound, and as written (the same call in a statement with a parameter of its own,
 * which the engine never lifts) — and must answer identically, errors included.
 */
import { expect } from "chai";
import type { PooledConnection } from "lib";
import { Decimal } from "../../runtime/values/decimal.js";
import { duckdbLiteral } from "../../runtime/dialects/duckdb/duckdb-literals.js";
import { statementCachePrepares } from "../../runtime/dialects/duckdb/duckdb-statement-cache.js";
import { liftWhereClauseValues } from "../../runtime/semantic/call/lift-where-values.js";
import { semanticQueryCacheStats } from "../../runtime/semantic/call/typed-query.js";
import { mulberry32 } from "../../scripts/prng.js";
import { useSeededConnection } from "../support/engines.js";
import { HOSTILE_VALUES } from "../support/hostile-values.js";
import { useTempDir } from "../support/temp-dir.js";
import { pick } from "./support/random-choice.js";

const COLUMNS = {
  i: "INTEGER",
  ti: "TINYINT",
  b: "BIGINT",
  h: "HUGEINT",
  ub: "UBIGINT",
  d2: "DECIMAL(10,2)",
  d0: "DECIMAL(38,0)",
  dbl: "DOUBLE",
  s: "VARCHAR",
  dt: "DATE",
  ts: "TIMESTAMP",
  tz: "TIMESTAMPTZ",
  bo: "BOOLEAN",
} as const;
type Column = keyof typeof COLUMNS;
const NAMES = Object.keys(COLUMNS) as Column[];

const STRINGS = ["", "a", "it's", "back\\slash", "50%", "a_b", "Zürich", "日本", "😀", ...HOSTILE_VALUES.slice(0, 6)];
const ROWS = 60;

/** Column values of row r (NULL every seventh row). */
function rowValues(r: number): string {
  if (r % 7 === 6) return NAMES.map(() => "NULL").join(", ");
  const sign = r % 2 === 0 ? 1 : -1;
  const values: Record<Column, unknown> = {
    i: sign * r * 37,
    ti: (r % 50) * sign,
    b: BigInt(sign) * (2n ** 53n + BigInt(r)),
    h: BigInt(sign) * (2n ** 100n + BigInt(r)),
    ub: 2n ** 63n + BigInt(r),
    d2: new Decimal(BigInt(sign * r * 1234), 2),
    d0: BigInt(sign) * (10n ** 37n + BigInt(r)),
    dbl: sign * r * 0.25,
    s: STRINGS[r % STRINGS.length],
    dt: new Date(Date.UTC(2024, 0, 1 + r)),
    ts: new Date(Date.UTC(2024, 0, 1, r % 24, r, r % 60, r * 7)),
    tz: new Date(Date.UTC(2024, 0, 1 + (r % 3), r % 24)),
    bo: r % 3 === 0,
  };
  return NAMES.map((c) => `${duckdbLiteral(values[c])}::${COLUMNS[c]}`).join(", ");
}

/** A random literal for a comparison with column c: usually of its kind, sometimes another. */
function literal(random: () => number, c: Column): string {
  const r = Math.floor(random() * ROWS);
  const sign = random() < 0.5 ? -1 : 1;
  const numbers = [
    String(sign * r * 37),
    String(sign * (r % 50)),
    String(sign * 300),
    `${sign * r}.25`,
    `${sign * r * 12}.34`,
    `${sign * r}.000`,
    `${sign * r}.125`,
    "1e3",
    "-2.5e-1",
    (BigInt(sign) * (2n ** 53n + BigInt(r))).toString(),
    (BigInt(sign) * (2n ** 100n + BigInt(r))).toString(),
    (2n ** 63n + BigInt(r)).toString(),
    (10n ** 37n + BigInt(r)).toString(),
    "170141183460469231731687303715884105727",
    "-170141183460469231731687303715884105728",
  ];
  const day = `2024-01-${String(1 + (r % 28)).padStart(2, "0")}`;
  switch (pick(random, ["own", "own", "own", "number", "string", "bool"] as const)) {
    case "number":
      return duckdbLiteral(Number(pick(random, numbers.slice(0, 9))));
    case "string":
      return duckdbLiteral(pick(random, [...STRINGS, day, "12", "x1"]));
    case "bool":
      return pick(random, ["TRUE", "FALSE"]);
    case "own":
      break;
  }
  if (c === "s") return duckdbLiteral(pick(random, STRINGS));
  if (c === "bo") return pick(random, ["TRUE", "FALSE"]);
  if (c === "dt" || c === "ts") {
    return pick(random, [`DATE '${day}'`, `TIMESTAMP '${day} 0${r % 10}:1${r % 6}:00.${r}'`, `'${day}'`]);
  }
  if (c === "tz") return pick(random, [`TIMESTAMPTZ '${day} 10:00:00+02'`, `TIMESTAMP '${day} 03:00:00'`]);
  return pick(random, numbers);
}

function predicate(random: () => number): string {
  const c = pick(random, NAMES);
  const m = `"${c}"`;
  switch (pick(random, ["cmp", "cmp", "in", "between", "like", "guard", "and"] as const)) {
    case "in": {
      const n = 1 + Math.floor(random() * 4);
      const items = Array.from({ length: n }, () => literal(random, c));
      return `${m} ${random() < 0.3 ? "NOT " : ""}IN (${items.join(", ")})`;
    }
    case "between":
      return `${m} BETWEEN ${literal(random, c)} AND ${literal(random, c)}`;
    case "like": {
      const pattern = pick(random, ["%a%", "it''s%", "50\\%", "a\\_b", "%\\\\%", "_", "Z%"]);
      return `"s" ${pick(random, ["LIKE", "NOT LIKE", "ILIKE"])} '${pattern}' ESCAPE '\\'`;
    }
    case "guard": {
      // The compiler's form for a fractional value (duckdb-decimal-guard.ts).
      const value = pick(random, ["1.5", "-12.34", "2.0", "0.125"]);
      const scale = value.length - value.indexOf(".") - 1;
      return `(CASE WHEN TRY_CAST(${m} AS DECIMAL(38,${scale})) IS NULL AND ${m} IS NOT NULL THEN FALSE ELSE ${m} >= ${value} END)`;
    }
    case "and":
      return `(${predicate(random)} ${pick(random, ["AND", "OR"])} "${pick(random, NAMES)}" IS ${random() < 0.5 ? "" : "NOT "}NULL)`;
    case "cmp":
      return `${m} ${pick(random, ["=", "<>", "<", "<=", ">", ">="])} ${literal(random, c)}`;
  }
}

const semanticView = (where: string) =>
  `semantic_view('v', dimensions := ['k'], metrics := ['n'], where_clause := '${where.replaceAll("'", "''")}')`;
const call = (where: string) => `SELECT * FROM ${semanticView(where)} ORDER BY k`;
/** The same query with a parameter of its own: its where_clause stays as written. */
const asWritten = (where: string) => `SELECT * FROM ${semanticView(where)} WHERE ?::INTEGER = 1 ORDER BY k`;

async function answer(conn: PooledConnection, sql: string, parameters?: unknown[]): Promise<unknown> {
  try {
    return await conn.all(sql, parameters);
  } catch (error) {
    // A statement whose text holds a write word (a hostile value) runs in a transaction: end it.
    await conn.rollback();
    return { error: (error as Error).message.replace(/\(expanded SQL:[\s\S]*$/, "") };
  }
}

describe("where_clause values bound as parameters (built-in engine)", () => {
  const db = useSeededConnection(useTempDir("all"), async (setup) => {
    const columns = NAMES.map((c) => `${c} ${COLUMNS[c]}`).join(", ");
    await setup.run(`CREATE TABLE t (k INTEGER, ${columns})`);
    const rows = Array.from({ length: ROWS }, (_, r) => `(${r}, ${rowValues(r)})`);
    await setup.run(`INSERT INTO t VALUES ${rows.join(", ")}`);
    const dimensions = ["k", ...NAMES].map((c) => `t.${c} AS ${c}`).join(", ");
    await setup.run(`CREATE SEMANTIC VIEW v AS TABLES (t) DIMENSIONS (${dimensions}) METRICS (t.n AS count(*))`);
    await setup.run("SET TimeZone = 'America/New_York'");
  });

  it("answers exactly as the literal form for random predicates over every value type", async () => {
    const random = mulberry32(2026_11_27);
    let lifted = 0;
    const queries = 160;
    for (let q = 0; q < queries; q++) {
      const where = predicate(random);
      const sql = call(where);
      if (liftWhereClauseValues(sql) !== undefined) lifted++;
      const [got, want] = [await answer(db.conn, sql), await answer(db.conn, asWritten(where), [1])];
      expect(got, where).to.deep.equal(want);
      // Run again: the same values, now written back into the shape as literals (call/literal-form.ts).
      expect(await answer(db.conn, sql), `${where} (run again)`).to.deep.equal(want);
    }
    expect(lifted).to.be.greaterThan(queries * 0.8);
  });

  it("N distinct values of one shape: one type probe and one prepare", async () => {
    const where = (id: number, name: string) =>
      `"i" >= ${id} AND "s" <> ${duckdbLiteral(name)} AND "d2" NOT IN (1.50, ${id}.25)`;
    await db.conn.all(call(where(-1, "first")));
    const [probes, prepares] = [semanticQueryCacheStats().misses, statementCachePrepares()];
    const answers: unknown[] = [];
    for (let n = 0; n < 25; n++) answers.push(await db.conn.all(call(where(n * 3, `name ${n} '"`))));
    expect(semanticQueryCacheStats().misses - probes, "type probes").to.equal(0);
    expect(statementCachePrepares() - prepares, "prepares").to.equal(0);
    const streamed: unknown[][] = [];
    for await (const chunk of await db.conn.stream(call(where(3, `name 1 '"`)))) streamed.push(...chunk);
    expect(streamed.map(([k, n]) => ({ k, n }))).to.deep.equal(answers[1]); // stream() binds them too
    for (const [n, rows] of answers.entries()) {
      expect(rows).to.deep.equal(await db.conn.all(asWritten(where(n * 3, `name ${n} '"`)), [1]));
    }
  });

  it("values run again: their literal form is prepared once and then reused; new values still bind", async () => {
    const where = (id: number, name: string) =>
      `"i" >= ${id} AND "s" <> ${duckdbLiteral(name)} AND "dt" < DATE '2024-02-01'`;
    const want = await db.conn.all(asWritten(where(30, `it's "x"`)), [1]);
    expect(want).to.have.length.greaterThan(0);
    await db.conn.all(call(where(-1, "shape")));
    const prepares = statementCachePrepares();
    for (let n = 0; n < 4; n++) expect(await db.conn.all(call(where(30, `it's "x"`)))).to.deep.equal(want);
    expect(
      statementCachePrepares() - prepares,
      "the second run prepares its literal form, later ones reuse it",
    ).to.equal(1);
    const streamed: unknown[][] = [];
    for await (const chunk of await db.conn.stream(call(where(30, `it's "x"`)))) streamed.push(...chunk);
    expect(streamed.map(([k, n]) => ({ k, n }))).to.deep.equal(want);
    await db.conn.all(call(where(31, "new value")));
    expect(statementCachePrepares() - prepares, "stream() reads the same literal form; a new value binds").to.equal(1);
  });

  it("falls back to the literal form where a value cannot be bound exactly, and for hand-written parameters", async () => {
    const probes = semanticQueryCacheStats().misses;
    // 12.505 is not a DECIMAL(10,2): bound, it would round to 12.51; as written it matches nothing.
    expect(await db.conn.all(call(`"d2" = 12.505`))).to.deep.equal([]);
    expect(semanticQueryCacheStats().misses - probes).to.equal(2); // the shape's probe, then the literal statement's
    expect(await db.conn.all(call(`"d2" = -12.34`))).to.deep.equal([{ k: 1, n: 1n }]); // bound: the shape is known
    expect(semanticQueryCacheStats().misses - probes).to.equal(2);
    expect(await db.conn.all(call(`"dt" = '2024-01-02'`))).to.deep.equal([{ k: 1, n: 1n }]); // a string cast to DATE
    expect(liftWhereClauseValues(`SELECT * FROM semantic_view('v', where_clause := '"i" = 1') WHERE k = ?`)).to.equal(
      undefined,
    );
    expect(liftWhereClauseValues(call(`"i" + 1 = 2 * 3`))).to.equal(undefined); // no whole operand to lift
    const arithmetic = liftWhereClauseValues(call(`"i" + 1 = 2 * 3 AND "s" = 'x'`));
    expect(arithmetic?.literals).to.deep.equal([{ kind: "string", value: "x" }]); // only whole operands are lifted
  });
});
