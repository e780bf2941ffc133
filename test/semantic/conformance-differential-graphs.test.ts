/**
 * Differential test over random relationship trees (seeded): edges point either way, the base
 * table sits anywhere in the tree, and requests mix metrics at different grains (including a
 * derived metric over two tables' grains). Each request is
 * compared with the oracle's independently written SQL, or must raise the fan-trap error.
 */
import { expect } from "chai";
import { clearSemanticQueryCache } from "../../runtime/semantic/call/typed-query.js";
import { quoteLiteral } from "../../runtime/semantic/sql/quote.js";
import { DocsRunner } from "./support/docs-runner.js";
import { mulberry32 as prng } from "../../scripts/prng.js";
import { subset } from "./support/random-choice.js";
import {
  createViewSql,
  diamondTable,
  dimensionName,
  metricName,
  oracle,
  randomGraph,
  setupSql,
  type RandomGraph,
  type RandomMetric,
  type RandomRequest,
} from "./support/random-graph.js";

const GRAPHS = 10;
const REQUESTS_PER_GRAPH = 10;

describe("semantic_view() differential over random relationship graphs", () => {
  let db: DocsRunner;
  const random = prng(20261123);
  const graphs: RandomGraph[] = [];
  let diamonds = 0;
  let fanTraps = 0;

  before(async () => {
    clearSemanticQueryCache();
    db = await DocsRunner.open();
    while (graphs.length < GRAPHS) {
      const g = randomGraph(random, `g${graphs.length}_${diamonds}`);
      for (const sql of setupSql(g, random)) await db.session.query(sql);
      const view = `${g.prefix}_view`;
      const diamond = diamondTable(g);
      if (diamond !== undefined) {
        // The same random shapes also exercise the validator's diamond rule.
        const e = await db.error(createViewSql(g, view));
        expect(e.message).to.contain(`Diamond detected: table 't${diamond}' is reachable via multiple paths`);
        diamonds++;
        continue;
      }
      await db.run(createViewSql(g, view));
      graphs.push(g);
    }
  });
  after(() => {
    db.close();
  });

  const list = (names: readonly string[]): string => `[${names.map(quoteLiteral).join(", ")}]`;

  for (let gi = 0; gi < GRAPHS; gi++) {
    for (let n = 0; n < REQUESTS_PER_GRAPH; n++) {
      it(`graph ${gi + 1}, request ${n + 1}`, async () => {
        const g = graphs[gi]!;
        const tables = Array.from({ length: g.size }, (_, i) => i);
        const dims = subset(random, tables, 0, 2);
        const choices: RandomMetric[] = [
          ...tables.flatMap((t) => [
            { table: t, kind: "count" as const },
            { table: t, kind: "sum" as const },
          ]),
          { table: -1, kind: "combo" },
        ];
        const metrics = subset(random, choices, dims.length === 0 ? 1 : 0, 3);
        const req: RandomRequest = { dims, metrics };
        const args = [quoteLiteral(`${g.prefix}_view`)];
        if (dims.length > 0) args.push(`dimensions := ${list(dims.map(dimensionName))}`);
        if (metrics.length > 0) args.push(`metrics := ${list(metrics.map(metricName))}`);
        const semantic = `SELECT * FROM semantic_view(${args.join(", ")}) ORDER BY ALL`;
        const expected = oracle(g, req);
        const shape = `base t${g.order[0]}, edges ${g.edges.map((e) => `t${e.from}->t${e.to}`).join(" ")}`;
        if (expected.fanTrap) {
          const e = await db.error(semantic);
          expect(e.message, `${semantic} (${shape})`).to.contain("fan trap detected -- metric '");
          fanTraps++;
          return;
        }
        const actual = await db.run(semantic);
        const hand = await db.session.query(expected.sql);
        expect(actual.columns.map((c) => c.name)).to.deep.equal([
          ...dims.map(dimensionName),
          ...metrics.map(metricName),
        ]);
        expect(actual.rows, `${semantic} (${shape})\n-- vs --\n${expected.sql}`).to.deep.equal(hand.rows);
      });
    }
  }

  it("covered both outcomes and the diamond rule", () => {
    expect(fanTraps, "some requests hit a fan trap").to.be.greaterThan(0);
    expect(fanTraps, "most requests are answered").to.be.lessThan((GRAPHS * REQUESTS_PER_GRAPH) / 2);
    expect(diamonds, "some random trees were diamonds").to.be.greaterThan(0);
  });
});
