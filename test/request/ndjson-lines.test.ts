/**
 * The NDJSON writer reads DuckDB's columnar chunks (typed arrays for fixed-width columns) and other
 * drivers' row arrays, and must write exactly what the per-row writer (`rowJsonWriter`) writes for the
 * same rows, for every value kind, nulls, edge values and chunk boundaries (dates that repeat, and
 * days 1,024 apart that share a slot of the date writer's cache); every line parses back to the same
 * exact values. A cap cuts the stream at the right row and closes the cursor.
 */
import { expect } from "chai";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import type { ColumnInfo, ValueKind } from "../../runtime/driver/query-result.js";
import { parseRequestJson } from "../../runtime/request/request-json.js";
import { chunkLines, NdjsonLines } from "../../runtime/request/ndjson-lines.js";
import { rowJsonWriter } from "../../runtime/request/row-json.js";
import { Decimal } from "../../runtime/values/decimal.js";
import { plainEngine } from "../support/engines.js";

const SQL = `SELECT
  CASE WHEN i % 7 = 0 THEN NULL ELSE i::INTEGER - 2500 END AS n,
  (i % 100 - 50)::TINYINT AS ti, (i % 200)::UTINYINT AS uti, (i * 3 - 7000)::SMALLINT AS si, (i * 9)::USMALLINT AS usi,
  (i * 100000)::UINTEGER AS ui,
  CASE WHEN i % 11 = 0 THEN NULL ELSE (i - 2500)::BIGINT * 1000000007 END AS bi,
  CASE i % 6 WHEN 0 THEN 9223372036854775807 WHEN 1 THEN -9223372036854775808 WHEN 2 THEN 9007199254740993
    WHEN 3 THEN -9007199254740992 WHEN 4 THEN 4294967296 ELSE -4294967297 END::BIGINT AS edge,
  (i * 1000)::UBIGINT AS ubi,
  (i / 8 - 300)::FLOAT AS f, CASE WHEN i % 13 = 0 THEN NULL ELSE i / 3 - 700 END AS dbl,
  CASE i % 5 WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE WHEN 3 THEN -0.0 ELSE 1e300 END AS odd,
  ((i % 999) - 500)::DECIMAL(4,1) / 10 AS d4, ((i - 2500) * 1.25)::DECIMAL(9,2) AS d9,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (-i * 1.125 + 2000)::DECIMAL(18,3) END AS d18,
  CASE i % 4 WHEN 0 THEN 999999999999.999999 WHEN 1 THEN -0.000001 WHEN 2 THEN 0 ELSE -999999999999.999999 END::DECIMAL(18,6) AS d18e,
  (i * 7 - 9000)::DECIMAL(12,0) AS d12z, (i % 90)::DECIMAL(5,0) AS d5z,
  ((i - 2500) * 1.000000001)::DECIMAL(38,9) AS d38,
  CASE WHEN i % 17 = 0 THEN NULL ELSE DATE '1969-12-25' + (i - 2500)::INTEGER END AS dt,
  CASE i % 6 WHEN 0 THEN 'infinity'::DATE WHEN 1 THEN '-infinity'::DATE WHEN 2 THEN DATE '0999-12-31'
    WHEN 3 THEN DATE '10000-01-01' WHEN 4 THEN DATE '0001-01-01' ELSE DATE '2024-02-29' END AS dte,
  DATE '2000-01-01' + ((i % 3 - 1) * 1024)::INTEGER AS dtc,
  (i % 2 = 0) AS ok,
  CASE WHEN i % 3 = 0 THEN NULL ELSE 'row ' || i || chr(0) || '"\\' || chr(10) || chr(8232) || 'é😀' END AS s,
  CASE WHEN i % 19 = 0 THEN NULL ELSE (i - 2500)::HUGEINT * 3000000000000000 END AS hi,
  CASE WHEN i % 23 = 0 THEN NULL ELSE TIMESTAMP '1969-12-31 23:59:58.250' + INTERVAL (i * 997) SECOND END AS ts,
  TIMESTAMPTZ '2024-03-31 01:30:00+00' + INTERVAL (i) MINUTE AS tz,
  [i, NULL] AS list, {'a': i} AS struct, 'ab'::BLOB AS blob, uuid() IS NOT NULL AS has_uuid
  FROM range(5000) t(i)`;

/** Whether `text` (one JSON value as written) is exactly `value`. */
function sameValue(parsed: unknown, value: unknown, kind: ValueKind): boolean {
  if (value === null) return parsed === null;
  const text = typeof parsed === "object" && parsed !== null ? (parsed as { text: string }).text : String(parsed);
  switch (kind) {
    case "bigint":
      return BigInt(text) === value;
    case "decimal":
      return Decimal.parse(text).equals(value as Decimal);
    case "integer":
    case "float":
      return Number.isFinite(value) ? parsed === value || (Object.is(value, -0) && parsed === 0) : parsed === null;
    case "date":
      return Number.isNaN((value as Date).getTime())
        ? parsed === null
        : new Date(text).getTime() === (value as Date).getTime();
    case "timestamp":
      return new Date(text).getTime() === (value as Date).getTime();
    default:
      return true; // compared as text with rowJsonWriter above
  }
}

async function expectedLines(engine: ReturnType<typeof plainEngine>, sql: string) {
  await using cursor = await openCursor(await engine.connect(), { sql, parameters: [] });
  const rows = await cursor.fetchAllRows();
  const write = rowJsonWriter(cursor.columns);
  return { rows, columns: cursor.columns, lines: rows.map((row) => `${write(row)}\n`) };
}

describe("NDJSON lines from chunks", function () {
  this.timeout(30_000);

  it("DuckDB's typed columnar chunks give exactly the per-row writer's text, and parse back exactly", async () => {
    await using engine = plainEngine();
    const { rows, columns, lines } = await expectedLines(engine, SQL);
    await using cursor = await openCursor(await engine.connect(), { sql: SQL, parameters: [] });
    const stream = new NdjsonLines(cursor, undefined);
    let text = "";
    let chunks = 0;
    for await (const part of stream) {
      text += part;
      chunks++;
    }
    expect(chunks).to.be.greaterThan(2);
    expect(stream.truncated).to.equal(false);
    expect(cursor.closed).to.equal(true);
    const got = text.split(/(?<=\n)/);
    expect(got.length).to.equal(lines.length);
    const first = got.findIndex((line, i) => line !== lines[i]);
    if (first !== -1) expect(got[first], `row ${first}`).to.equal(lines[first]);
    for (let i = 0; i < rows.length; i += 29) {
      const parsed = parseRequestJson(got[i]!) as Record<string, unknown>;
      for (const c of columns) {
        if (!sameValue(parsed[c.name], rows[i]![c.name], c.kind)) expect.fail(`row ${i} ${c.name}: ${got[i]}`);
      }
    }
    expect(got[0]).to.contain('"dte":null').and.contain('"edge":9223372036854775807');
    expect(got[2]).to.contain('"dte":"0999-12-31"').and.contain('"edge":9007199254740993');
    expect(got[3]).to.contain('"dte":"+010000-01-01"').and.contain('"odd":0,');
  });

  it("row arrays (other drivers, cached results) give the same text, for any value in any column", () => {
    const kinds: ValueKind[] = [
      "integer",
      "bigint",
      "decimal",
      "float",
      "string",
      "boolean",
      "date",
      "timestamp",
      "other",
    ];
    const columns: ColumnInfo[] = [
      ...kinds.map((kind) => ({ name: kind, type: kind === "decimal" ? "DECIMAL(10,2)" : kind.toUpperCase(), kind })),
      { name: "__proto__", type: "VARCHAR", kind: "string" },
      { name: "integer", type: "INTEGER", kind: "integer" }, // a duplicate name: the later value is written twice
    ];
    const odd: unknown[] = [
      null,
      undefined,
      0,
      -0,
      NaN,
      Infinity,
      -1.5e-7,
      2 ** 53 + 2,
      -(2n ** 70n),
      12n,
      Decimal.parse("-0.05"),
      Decimal.parse("123456789012345678901234567890.123"),
      "",
      '\u0000\u2028\ud800 "\\',
      true,
      false,
      new Date(Date.UTC(2024, 1, 29)),
      new Date(-62198755200000),
      new Date(NaN),
      [1n, "x"],
      { a: Decimal.parse("1.0") },
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const rows = Array.from({ length: 600 }, () => columns.map(() => odd[Math.floor(random() * odd.length)]));
    const write = rowJsonWriter(columns);
    const objects = rows.map((row) => {
      const object: Record<string, unknown> = {};
      columns.forEach((c, i) =>
        Object.defineProperty(object, c.name, { value: row[i], enumerable: true, writable: true, configurable: true }),
      );
      return object;
    });
    const text = chunkLines(columns, false)(rows, rows.length);
    expect(text).to.equal(objects.map((o) => `${write(o)}\n`).join(""));
    expect(chunkLines([], false)([[], []], 2)).to.equal("{}\n{}\n");
  });

  it("a cap cuts the stream inside a chunk, says so, and gives the connection back", async () => {
    await using engine = plainEngine();
    const sql = "SELECT i AS id, i::DECIMAL(9,2) / 4 AS q FROM range(5000) t(i) ORDER BY i";
    const { lines } = await expectedLines(engine, sql);
    for (const cap of [0, 2047, 2049]) {
      await using cursor = await openCursor(await engine.connect(), { sql, parameters: [] });
      const stream = new NdjsonLines(cursor, cap);
      let text = "";
      for await (const part of stream) text += part;
      expect(text, `cap ${cap}`).to.equal(lines.slice(0, cap).join(""));
      expect(stream.truncated).to.equal(true);
      expect(stream.delivered).to.equal(cap);
      expect(cursor.closed).to.equal(true);
    }
    expect(engine._pool.borrowed).to.equal(0);
  });
});
