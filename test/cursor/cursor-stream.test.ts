/**
 * `stream()`, `streamBatches()` and `streamArrow()`: the result streamed as row objects, arrays of
 * row objects per driver chunk, or apache-arrow RecordBatches per driver chunk, pulling one chunk at
 * a time (backpressure), closing the cursor however the loop ends.
 */
import { expect } from "chai";
import { Int32, Utf8 } from "apache-arrow";
import { LibError } from "../../runtime/errors.js";
import { BATCH_ROWS } from "../../runtime/cursor/arrow-batches.js";
import { useHarness } from "./support/cursor-harness.js";
import { failureOf } from "../support/failures.js";

const ROWS = "SELECT i::INTEGER AS i, 'row ' || i AS label FROM range(20000) t(i) ORDER BY i";

describe("cursor: streaming reads", () => {
  const h = useHarness();

  it("stream() yields the same rows as fetchAllRows(), one chunk ahead at most, and gives the connection back", async () => {
    const expected = JSON.stringify(await (await h.cursor(ROWS)).fetchAllRows());
    const cursor = await h.cursor(ROWS);
    const before = h.pulls();
    const rows: unknown[] = [];
    let maxAhead = 0;
    for await (const row of cursor.stream()) {
      rows.push(row);
      maxAhead = Math.max(maxAhead, h.pulls() - before - Math.ceil(rows.length / 2048));
    }
    expect(JSON.stringify(rows)).to.equal(expected);
    expect(maxAhead).to.be.at.most(1);
    expect(cursor.closed).to.equal(true);
    expect(h.borrowed()).to.equal(0);
  });

  it("streamBatches() yields one array of row objects per driver chunk", async () => {
    await using cursor = await h.cursor(ROWS);
    const sizes: number[] = [];
    let next = 0;
    let wrong = 0;
    for await (const batch of cursor.streamBatches()) {
      sizes.push(batch.length);
      for (const row of batch) if (row.i !== next || row.label !== `row ${next++}`) wrong++;
    }
    expect(next).to.equal(20_000);
    expect(wrong).to.equal(0);
    expect(sizes.length).to.be.greaterThan(8);
    expect(sizes.every((n) => n <= 2048)).to.equal(true);
    expect(h.borrowed()).to.equal(0);
  });

  it("streamArrow() yields typed RecordBatches of up to BATCH_ROWS rows; their rows equal fetchArrow()'s", async () => {
    const many = ROWS.replace("range(20000)", `range(${2 * BATCH_ROWS + 1000})`);
    const table = await (await h.cursor(many)).fetchArrow();
    await using cursor = await h.cursor(many);
    let rows = 0;
    let batches = 0;
    for await (const batch of cursor.streamArrow()) {
      batches++;
      expect(batch.schema.fields.map((f) => f.name)).to.deep.equal(["i", "label"]);
      expect(batch.schema.fields[0]!.type).to.be.instanceOf(Int32);
      expect(batch.schema.fields[1]!.type).to.be.instanceOf(Utf8);
      const ids = batch.getChild("i")!;
      expect(ids.get(0)).to.equal(table.getChild("i")!.get(rows));
      expect(batch.getChild("label")!.get(batch.numRows - 1)).to.equal(`row ${rows + batch.numRows - 1}`);
      expect(batch.numRows).to.be.at.most(BATCH_ROWS);
      rows += batch.numRows;
    }
    expect(rows).to.equal(table.numRows);
    expect(batches).to.equal(3);
    expect(h.borrowed()).to.equal(0);
  });

  it("streamArrow() of a column with no Arrow mapping fails naming it, and gives the connection back", async () => {
    const cursor = await h.cursor("SELECT 1::INTEGER AS i, [1, 2] AS xs");
    const error = await failureOf(cursor.streamArrow().next());
    expect(error).to.be.instanceOf(LibError).with.property("message").that.contains('column "xs" has type INTEGER[]');
    expect(cursor.closed).to.equal(true);
    expect(h.borrowed()).to.equal(0);
  });

  it("an empty result streams one empty RecordBatch with the schema, and no rows", async () => {
    const empty = "SELECT 1::INTEGER AS i WHERE false";
    const batches = [];
    for await (const batch of (await h.cursor(empty)).streamArrow()) batches.push(batch);
    expect(batches).to.have.length(1);
    expect(batches[0]!.numRows).to.equal(0);
    expect(batches[0]!.schema.fields.map((f) => f.name)).to.deep.equal(["i"]);
    const rows = [];
    for await (const row of (await h.cursor(empty)).stream()) rows.push(row);
    expect(rows).to.deep.equal([]);
    expect(h.borrowed()).to.equal(0);
  });

  it("leaving the loop early closes the cursor; mixing read modes throws naming both", async () => {
    const cursor = await h.cursor(ROWS);
    for await (const row of cursor.stream()) if ((row as { i: number }).i === 3) break;
    expect(cursor.closed).to.equal(true);
    expect(h.borrowed()).to.equal(0);

    const mixed = await h.cursor(ROWS);
    await mixed.fetchOne();
    expect(() => mixed.streamArrow()).to.throw(LibError, /streamArrow\(\).*fetchOne/);
    await mixed.close();
    const streaming = await h.cursor(ROWS);
    const iterator = streaming.stream();
    await iterator.next();
    const error = await failureOf(streaming.fetchAllRows());
    expect(error).to.be.instanceOf(LibError);
    expect((error as Error).message).to.match(/fetchAllRows\(\).*stream\(\)/);
    await iterator.return?.(undefined);
    expect(h.borrowed()).to.equal(0);
  });
});
