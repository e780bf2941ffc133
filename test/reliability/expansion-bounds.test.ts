/**
 * Issue 22 item 2 through the engine: a view whose facts and derived metrics each use the previous
 * member twice (26 levels froze the process; inlined, the SQL doubles per level) is created and
 * queried on backend C, and the semantic layer checks the query's cancellation before it expands.
 * The expansion's own size tests are in test/semantic/shared-members.test.ts.
 */
import { expect } from "chai";
import { BackendCConfig, createEngine, type Engine } from "lib";
import { typedSemanticQuery } from "../../runtime/semantic/call/typed-query.js";
import type { SqlSession } from "../../runtime/semantic/semantic-layer.js";
import { defineView } from "../semantic/support/definitions.js";

const LEVELS = 26;

function deepViewDdl(): string {
  const facts = ["o.f0 AS o.amount"];
  const metrics = ["o.m0 AS SUM(o.f0)"];
  for (let i = 1; i <= LEVELS; i++) {
    facts.push(`o.f${i} AS o.f${i - 1} + o.f${i - 1}`);
    metrics.push(`m${i} AS m${i - 1} + m${i - 1}`);
  }
  return `CREATE SEMANTIC VIEW deep AS TABLES (o AS deep_orders PRIMARY KEY (id))
    FACTS (${facts.join(", ")}) DIMENSIONS (o.top AS o.f${LEVELS}) METRICS (${metrics.join(", ")})`;
}

describe("reliability: semantic expansion is bounded (issue 22 item 2)", () => {
  let engine: Engine;
  before(() => {
    engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
  });
  after(() => engine.dispose());

  it(`a ${LEVELS}-level doubling chain is created and answered exactly`, async () => {
    await using conn = await engine.connect();
    await conn.run("CREATE TABLE deep_orders AS SELECT range AS id, range % 7 AS amount FROM range(100)");
    await conn.run(deepViewDdl());
    const scale = 2n ** BigInt(LEVELS);
    const [total] = await conn.all("SELECT SUM(amount)::BIGINT AS s FROM deep_orders");
    const sum = total!.s as bigint;
    const [row] = await conn.all(`SELECT * FROM semantic_view('deep', metrics := ['m${LEVELS}'])`);
    expect(row).to.deep.equal({ [`m${LEVELS}`]: sum * scale });
    const filtered = await conn.all(
      `SELECT * FROM semantic_view('deep', dimensions := ['top'], metrics := ['m${LEVELS}'], where_clause := 'top > 0') ORDER BY top LIMIT 1`,
    );
    expect(filtered).to.deep.equal([{ top: scale, [`m${LEVELS}`]: 15n * scale }]);
  });

  it("a cancelled statement is refused before its expansion runs", async () => {
    const issued: string[] = [];
    const cancelled = new Error("INTERRUPT Error: Interrupted!");
    const session: SqlSession = {
      query: async (sql) => {
        issued.push(sql);
        return { columns: [], rows: [] };
      },
      checkpoint: async () => {
        throw cancelled;
      },
    };
    const view = defineView({
      name: "v",
      tables: [{ alias: "o", table: "orders", primaryKey: ["id"] }],
      metrics: { "o.n": "COUNT(*)" },
    });
    const request = { dimensions: [], metrics: ["n"], facts: [] };
    const error = await typedSemanticQuery(session, view, request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.equal(cancelled);
    expect(issued, "no type probe ran").to.deep.equal([]);
  });
});
