/**
 * fetchArrow() on DuckDB copies fixed-width vectors whole (typed arrays plus validity bits) instead
 * of converting every value: the table must equal the one built value by value from the same rows,
 * nulls, null counts, negative decimals and chunk boundaries included.
 */
import { expect } from "chai";
import { RecordBatchStreamWriter, Table, tableFromIPC, type RecordBatch } from "apache-arrow";
import { ArrowTableBuilder } from "../../runtime/cursor/arrow-table.js";
import { appendValidity } from "../../runtime/cursor/arrow-sinks.js";
import { loadArrow } from "../../runtime/cursor/load-arrow.js";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import { plainEngine } from "../support/engines.js";

const SQL = `SELECT
  CASE WHEN i % 7 = 0 THEN NULL ELSE i::INTEGER - 2500 END AS n,
  (i % 100 - 50)::TINYINT AS ti, (i % 200)::UTINYINT AS uti, (i * 3 - 7000)::SMALLINT AS si, (i * 9)::USMALLINT AS usi,
  CASE WHEN i % 11 = 0 THEN NULL ELSE (i - 2500)::BIGINT * 1000000007 END AS bi,
  (i / 8 - 300)::FLOAT AS f, CASE WHEN i % 13 = 0 THEN NULL ELSE i / 3 - 700 END AS dbl,
  ((i % 999) - 500)::DECIMAL(4,1) / 10 AS d4, ((i - 2500) * 1.25)::DECIMAL(9,2) AS d9,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (-i * 1.125 + 2000)::DECIMAL(18,3) END AS d18,
  (i * 7 - 9000)::DECIMAL(12,0) AS d12z, (i % 90)::DECIMAL(5,0) AS d5z,
  CASE WHEN i % 17 = 0 THEN NULL ELSE DATE '1969-12-25' + (i - 2500)::INTEGER END AS dt,
  (i % 2 = 0) AS ok, 'row ' || i AS s,
  CASE WHEN i % 19 = 0 THEN NULL ELSE (i - 2500)::HUGEINT * 3000000000000 END AS hi,
  CASE WHEN i % 23 = 0 THEN NULL ELSE TIMESTAMP '1969-12-31 23:59:58.250' + INTERVAL (i * 997) SECOND END AS ts,
  ((i - 2500) * 1.000000001)::DECIMAL(38,9) AS d38
  FROM range(5000) t(i)`;

function expectSameTable(actual: Table, expected: Table): void {
  expect(actual.numRows).to.equal(expected.numRows);
  expect(actual.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).to.deep.equal(
    expected.schema.fields.map((f) => `${f.name}:${String(f.type)}`),
  );
  for (const field of expected.schema.fields) {
    const [got, want] = [actual.getChild(field.name)!, expected.getChild(field.name)!];
    expect(got.nullCount, `${field.name} nulls`).to.equal(want.nullCount);
    expect([...got].map(String), field.name).to.deep.equal([...want].map(String));
  }
}

describe("cursor: fetchArrow() from DuckDB's typed vectors", () => {
  it("equals the table built value by value, for every fixed-width type, nulls and chunk boundaries; so do streamArrow()'s batches", async () => {
    await using engine = plainEngine();
    let expected: Table;
    {
      await using conn = await engine.connect();
      const { rows, columns } = await conn.execute(SQL);
      await loadArrow();
      const fromRows = new ArrowTableBuilder(columns);
      fromRows.appendChunk(rows.slice(0, 3));
      fromRows.appendChunk(rows.slice(3));
      expected = fromRows.finish();
    }
    await using cursor = await openCursor(await engine.connect(), { sql: SQL, parameters: [] });
    expectSameTable(await cursor.fetchArrow(), expected);
    expect(expected.getChild("n")!.nullCount).to.equal(715);
    await using streamed = await openCursor(await engine.connect(), { sql: SQL, parameters: [] });
    const batches: RecordBatch[] = [];
    for await (const batch of streamed.streamArrow()) batches.push(batch);
    expectSameTable(new Table(batches), expected);
  });

  it("typed chunks after a row chunk of odd length land at the right bits", async () => {
    await using engine = plainEngine();
    await using conn = await engine.connect();
    const { rows: first, columns } = await conn.execute(`${SQL} LIMIT 3`);
    const { rows: all } = await conn.execute(SQL);
    await loadArrow();
    const fromRows = new ArrowTableBuilder(columns);
    fromRows.appendChunk(first);
    fromRows.appendChunk(all);
    const mixed = new ArrowTableBuilder(columns);
    mixed.appendChunk(first);
    const stream = await conn.stream(SQL);
    expect(stream.preferColumns?.({ typedArrays: true })).to.equal(true);
    for await (const chunk of stream) mixed.appendColumns(chunk as never);
    expectSameTable(mixed.finish(), fromRows.finish());
  });

  it("every batch of a stream has the same schema, so an IPC writer keeps one stream when nulls start late", async () => {
    // No null in the first batch, nulls in the second: a schema inferred per batch would differ in
    // nullability and make RecordBatchStreamWriter end its stream and start another.
    const sql = `SELECT CASE WHEN i > 70000 AND i % 3 = 0 THEN NULL ELSE i END AS n FROM range(80000) t(i)`;
    await using engine = plainEngine();
    await using cursor = await openCursor(await engine.connect(), { sql, parameters: [] });
    const batches: RecordBatch[] = [];
    for await (const batch of cursor.streamArrow()) batches.push(batch);
    expect(batches.length).to.equal(2);
    const fields = (b: RecordBatch) => b.schema.fields.map((f) => `${f.name}:${String(f.type)}:${f.nullable}`);
    expect(fields(batches[1]!)).to.deep.equal(fields(batches[0]!));
    const read = tableFromIPC(RecordBatchStreamWriter.writeAll(batches).toUint8Array(true));
    expect(read.numRows).to.equal(80_000);
    expect(read.getChild("n")!.nullCount).to.equal(3_333);
    expect(read.schema.fields[0]!.nullable).to.equal(true);
  });

  it("appendValidity writes bits at any offset, counts nulls and leaves nothing set past the end", () => {
    const bitmap = new Uint8Array(4);
    expect(appendValidity(bitmap, 0, null, 3)).to.equal(0); // rows 0-2 valid
    expect(appendValidity(bitmap, 3, Uint8Array.of(0b101), 3)).to.equal(1); // rows 3, 5 valid; 4 null
    expect([...bitmap]).to.deep.equal([0b101111, 0, 0, 0]);
    expect(appendValidity(bitmap, 8, Uint8Array.of(0xff, 0x0f), 10)).to.equal(0); // rows 8-17 valid
    expect([...bitmap]).to.deep.equal([0b101111, 0xff, 0b11, 0]);
    expect(appendValidity(bitmap, 24, Uint8Array.of(0b11110000), 6)).to.equal(4); // rows 28, 29 valid
    expect([...bitmap]).to.deep.equal([0b101111, 0xff, 0b11, 0b110000]);
  });
});
