/**
 * `--record`, `--verify` and `verifyFixture()` on a DuckDB file: what may be recorded (every row
 * only), the default query set and its cap, the user's query descriptors, queries the warehouse
 * refuses, `--sample all` over the row cap, and the per-query verdicts: identical, different (the
 * first differing row and column with both values), not replayable (the construct it depends on).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { formatFixtureReport, verifyFixture, type FixtureModule } from "lib/testing";
import { runCli } from "../../codegen/cli.js";
import { createDatabase } from "./support/databases.js";
import { useTempDir } from "../support/temp-dir.js";

const MODEL = [
  "CREATE TABLE customers (id INTEGER, segment VARCHAR, credit DECIMAL(10,2))",
  "CREATE TABLE orders (id INTEGER, customer_id INTEGER, day DATE, amount DECIMAL(12,2))",
  "INSERT INTO customers VALUES (1, 'retail', 100.50), (2, 'corporate', 2000.00), (3, 'retail', 0.01)",
  "INSERT INTO orders VALUES (1, 1, DATE '2024-03-01', 19.99), (2, 1, DATE '2024-03-02', 5.01), (3, 2, DATE '2024-03-01', 1000.00)",
  `CREATE SEMANTIC VIEW shop AS
    TABLES (o AS orders PRIMARY KEY (id), c AS customers PRIMARY KEY (id))
    RELATIONSHIPS (o_c AS o(customer_id) REFERENCES c)
    DIMENSIONS (o.day AS o.day, c.segment AS c.segment)
    METRICS (o.revenue AS SUM(o.amount), c.credit AS SUM(c.credit))`,
];

describe("lib codegen --record / --verify", function () {
  this.timeout(60_000);
  const dir = useTempDir("all");
  let database: string;
  before(async () => {
    database = await createDatabase(dir.path, "shop.duckdb", MODEL);
    await writeFile(join(dir.path, ".lib.toml"), "");
  });

  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(["codegen", "--backend", "backend_c", "--database", database, "--out", "gen", ...args], {
      cwd: dir.path,
      env: {},
      stdout: (l) => out.push(l),
      stderr: (l) => err.push(l),
    });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  const load = async (name: string) =>
    (await import(`${pathToFileURL(join(dir.path, name)).href}?${Date.now()}`)) as FixtureModule;

  it("usage: --record needs --sample all (a partial sample is refused), --verify and --queries need --record", async () => {
    const partial = await cli("--fixture", "f.ts", "--sample", "10", "--record");
    expect(partial.code).to.equal(2);
    expect(partial.err).to.contain(
      "--record needs --sample all: recorded answers are the warehouse's answers over every row, and a fixture with at most 10 rows per table answers from other rows",
    );
    expect((await cli("--fixture", "f.ts", "--record")).err).to.contain(
      "a fixture with no rows answers from other rows",
    );
    expect((await cli("--fixture", "f.ts", "--verify")).err).to.contain("--verify need --record");
    expect((await cli("--fixture", "f.ts", "--queries", "q.json")).err).to.contain("--queries need --record");
    expect((await cli("--fixture", "f.ts", "--sample", "3", "--max-rows", "5")).err).to.contain(
      "--max-rows applies only to --sample all",
    );
    expect((await cli("--fixture", "f.ts", "--sample", "all", "--record", "--record-limit", "0")).err).to.contain(
      "--record-limit needs a positive integer, got 0",
    );
    expect((await cli("--record")).err).to.contain("--record need --fixture");
    expect(existsSync(join(dir.path, "f.ts"))).to.equal(false);
  });

  it("--sample all refuses a table over --max-rows, naming it (exit 2, nothing written)", async () => {
    const r = await cli("--fixture", "big.ts", "--sample", "all", "--max-rows", "2");
    expect(r.code).to.equal(2);
    expect(r.err).to.match(
      /--sample all: base table "[^"]*"\."main"\."(orders|customers)" has more than 2 rows; raise --max-rows/,
    );
    expect(existsSync(join(dir.path, "big.ts"))).to.equal(false);
  });

  it("records the user's queries first, then the default set up to --record-limit; the warehouse's refusals are reported", async () => {
    const queries = [
      {
        view: "shop",
        dimensions: ["day"],
        metrics: ["revenue"],
        where: [
          { member: "segment", op: "eq", value: "retail" },
          { member: "day", op: "gte", value: { $date: "2024-03-02T00:00:00.000Z" } },
        ],
        orderBy: [{ member: "day", direction: "desc" }],
        limit: 5,
      },
    ];
    await writeFile(join(dir.path, "q.json"), JSON.stringify(queries));
    const r = await cli("--fixture", "rec.ts", "--sample", "all", "--record", "--queries", "q.json", "--verify");
    expect(r.code, r.err).to.equal(0);
    // credit (on customers) by day (on orders) is a fan trap: the warehouse refuses it.
    expect(r.err).to.contain("lib codegen --record: not recorded: shop: credit by day (the warehouse refused it:");
    const fixture = await load("rec.ts");
    const recorded = fixture.RECORDED_QUERIES!;
    expect(recorded.map((q) => [q.dimensions ?? [], q.metrics])).to.deep.equal([
      [["day"], ["revenue"]],
      [[], ["revenue"]],
      [[], ["credit"]],
      [["day"], ["revenue"]],
      [["segment"], ["revenue"]],
      [["segment"], ["credit"]],
    ]);
    // A DATE column's value is recorded as its day, as lib's JSON writers print it.
    expect(recorded[0]!.rows).to.deep.equal([[{ $date: "2024-03-02" }, { $decimal: "5.01" }]]);
    expect(recorded[5]!.rows).to.have.deep.members([
      ["retail", { $decimal: "100.51" }],
      ["corporate", { $decimal: "2000.00" }],
    ]);
    expect(r.out).to.contain("lib codegen --verify: identical       shop: revenue by day where segment eq and day gte");
    expect(r.out).to.contain("6 recorded queries: 6 identical, 0 different, 0 not replayable");
    expect(await readFile(join(dir.path, "rec.ts"), "utf8")).to.contain(
      "// Recorded answers: 6 queries; verifyFixture() from lib/testing replays them.",
    );

    const capped = await cli("--fixture", "cap.ts", "--sample", "all", "--record", "--record-limit", "2");
    expect(capped.code, capped.err).to.equal(0);
    expect((await load("cap.ts")).RECORDED_QUERIES).to.have.length(2);
    expect(capped.err).to.contain("4 default queries past --record-limit 2 not recorded (raise it to record them)");
  });

  it("a query file that is not a list of descriptors is a usage error naming the file and the field", async () => {
    await writeFile(join(dir.path, "bad.json"), JSON.stringify([{ view: "shop", metrics: ["revenue"], limit: -1 }]));
    const r = await cli("--fixture", "f.ts", "--sample", "all", "--record", "--queries", "bad.json");
    expect(r.code).to.equal(2);
    expect(r.err).to.contain("--queries bad.json: not a list of query descriptors");
    expect(r.err).to.contain("/0/limit must be >= 0");
  });

  it("verifyFixture(): identical, different (row, column, both values), not replayable (the construct), and a summary", async () => {
    const r = await cli("--fixture", "v.ts", "--sample", "all", "--record", "--record-limit", "3");
    expect(r.code, r.err).to.equal(0);
    const fixture = await load("v.ts");
    const [first, second, third] = fixture.RECORDED_QUERIES!;
    const edited: FixtureModule = {
      ...fixture,
      RECORDED_QUERIES: [first!, { ...second!, rows: [[{ $decimal: "2100.52" }]] }, third!],
      UNTRANSLATED: [
        { note: 'view "shop": measure revenue: something inexact', views: ["shop"], members: ["revenue"] },
      ],
    };
    const report = await verifyFixture(edited, { semanticViews: "builtin" });
    expect(report.results.map((q) => q.status)).to.deep.equal(["not replayable", "different", "not replayable"]);
    expect(report.results[1]).to.deep.include({
      status: "different",
      query: "shop: credit",
      difference: { row: 0, column: "credit", expected: "Decimal 2100.52", actual: "Decimal 2100.51" },
    });
    expect(report.ok).to.equal(false);
    expect(formatFixtureReport(report)).to.deep.equal([
      'not replayable  shop: revenue (depends on: view "shop": measure revenue: something inexact)',
      "different       shop: credit: row 1, credit: warehouse Decimal 2100.52, fixture Decimal 2100.51",
      'not replayable  shop: revenue by day (depends on: view "shop": measure revenue: something inexact)',
      "3 recorded queries: 0 identical, 1 different, 2 not replayable",
    ]);
    const untouched = await verifyFixture(fixture, { semanticViews: "builtin" });
    expect([untouched.ok, untouched.identical]).to.deep.equal([true, 3]);
    let error: unknown;
    await verifyFixture({ ...fixture, RECORDED_QUERIES: [{ view: "shop", columns: [], rows: "x" as never }] }).catch(
      (e: unknown) => (error = e),
    );
    expect(String(error)).to.contain(
      "RECORDED_QUERIES[0] is not a recorded query (/rows must be array); re-run lib codegen --record",
    );
  });
});
