/** Backend A streaming: chunked rows from `statement.streamRows()`, early close, cursor iteration. */
import { expect } from "chai";
import { Type } from "typebox";
import { Sales } from "../support/sales-fixture.js";
import {
  standInEngine,
  withSnowflakeStandIn,
  useStandInEngine,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";

describe("backend A streaming", function () {
  this.timeout(20_000);
  const fixture = useStandInEngine();

  it("streams rows in chunks of the requested size, values normalized", async () => {
    await using conn = await fixture.engine.connect();
    const stream = await conn.stream(
      "SELECT range AS i, CAST(range AS DECIMAL(10,2)) * 0.25 AS q FROM range(2500) ORDER BY i",
      [],
      { chunkRows: 1000 },
    );
    expect(stream.columns.map((c) => [c.name, c.kind])).to.deep.equal([
      ["i", "bigint"],
      ["q", "decimal"],
    ]);
    const sizes: number[] = [];
    let last: unknown[] | undefined;
    for await (const chunk of stream) {
      sizes.push(chunk.length);
      last = chunk.at(-1);
    }
    expect(sizes).to.deep.equal([1000, 1000, 500]);
    expect(last![0]).to.equal(2499n);
    expect(String(last![1])).to.equal("624.7500");
  });

  it("closing a stream early leaves the connection usable", async () => {
    await using conn = await fixture.engine.connect();
    const stream = await conn.stream("SELECT range AS i FROM range(5000)", [], { chunkRows: 100 });
    for await (const chunk of stream) {
      expect(chunk).to.have.length(100);
      break;
    }
    await stream.close();
    await stream.close();
    expect(await conn.all("SELECT 2 AS two")).to.deep.equal([{ two: 2 }]);
  });

  it("a stream its reader abandons does not block the next statement, nor the next user", async () => {
    {
      await using conn = await fixture.engine.connect();
      const abandoned = await conn.stream("SELECT range AS i FROM range(10)");
      expect(abandoned.columns.map((c) => c.name)).to.deep.equal(["i"]);
      expect(await conn.all("SELECT 3 AS three")).to.deep.equal([{ three: 3 }]);
      await conn.stream("SELECT range AS i FROM range(10)"); // never read, never closed
    }
    await using again = await fixture.engine.connect();
    expect(await again.all("SELECT 4 AS four")).to.deep.equal([{ four: 4 }]);
  });

  it("a large result arrives in result chunks the sdk downloads; streamed and fully read alike", async () => {
    await withSnowflakeStandIn({ chunkRows: 700 }, async (chunked) => {
      await using chunkedEngine = standInEngine(chunked);
      await using conn = await chunkedEngine.connect();
      const sql =
        "SELECT range AS i, CAST(range AS DECIMAL(12,2)) * 0.01 AS d, 'row ' || range AS t FROM range(5000) ORDER BY i";
      const all = await conn.execute(sql);
      expect(all.rows).to.have.length(5000);
      expect(all.rows[4999]).to.deep.equal([4999n, all.rows[4999]![1], "row 4999"]);
      expect(String(all.rows[4999]![1])).to.equal("49.9900");
      expect(chunked.chunkDownloads).to.equal(7);
      let count = 0;
      let expected = 0n;
      for await (const chunk of await conn.stream(sql, [], { chunkRows: 1000 })) {
        for (const row of chunk) {
          expect(row[0]).to.equal(expected++);
          count++;
        }
      }
      expect(count).to.equal(5000);
      expect(chunked.chunkDownloads).to.equal(14);
      expect(chunked.refusedChunkRequests).to.deep.equal([]);
    });
  });

  it("a cursor iterates a semantic query into models", async () => {
    const Row = Type.Object({ country: Type.String(), revenue: Type.Integer() }, { title: "Row" });
    await using cursor = await Sales.query()
      .metrics(Sales.revenue)
      .dimensions(Sales.country)
      .orderBy(Sales.country.asc())
      .using(fixture.engine)
      .execute();
    const seen: string[] = [];
    for await (const row of cursor.iterInto(Row)) seen.push(row.country);
    expect(seen).to.deep.equal(["DE", "FR", "JP", "US"]);
  });
});
