/**
 * DATE values arrive as `CalendarDate`s (a `Date` at UTC midnight whose JSON form is the ISO day) on
 * every read path and backend converter, so `toJson`, `JSON.stringify` and the MCP answers write a
 * DATE as `"2024-02-29"`, like the HTTP answers, while a TIMESTAMP stays a date-time. Such a value is
 * still a `Date` everywhere else and binds back as a parameter.
 */
import { expect } from "chai";
import { toJson } from "lib";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import { normalizeValue } from "../../runtime/dialects/databricks/databricks-values.js";
import { convertRow, snowflakeColumn } from "../../runtime/dialects/snowflake/snowflake-values.js";
import { jsonSafe } from "../../runtime/mcp/json-safe.js";
import { cachedStream } from "../../runtime/result-cache/cached-result.js";
import { CalendarDate } from "../../runtime/values/calendar-date.js";
import { isGenuineDate } from "../../runtime/values/genuine.js";
import { plainEngine } from "../support/engines.js";

const SQL = `SELECT DATE '2024-02-29' AS day, TIMESTAMP '2024-02-29 00:00:00' AS at, DATE '1969-12-31' AS before,
  'infinity'::DATE AS never, NULL::DATE AS nothing`;
const JSON_TEXT =
  '{"day":"2024-02-29","at":"2024-02-29T00:00:00.000Z","before":"1969-12-31","never":null,"nothing":null}';

describe("DATE values write the ISO day on every JSON path", () => {
  it("DuckDB rows, streams and cached replays: CalendarDate for DATE, Date for TIMESTAMP", async () => {
    await using engine = plainEngine();
    await using all = await openCursor(await engine.connect(), { sql: SQL, parameters: [] });
    const [row] = await all.fetchAllRows();
    expect(row!["day"]).to.be.instanceOf(CalendarDate).and.instanceOf(Date);
    expect(Object.getPrototypeOf(row!["at"])).to.equal(Date.prototype);
    expect((row!["day"] as Date).toISOString()).to.equal("2024-02-29T00:00:00.000Z");
    expect(toJson(row)).to.equal(JSON_TEXT);
    expect(JSON.stringify(row)).to.equal(JSON_TEXT);
    expect(JSON.stringify(jsonSafe(row))).to.equal(JSON_TEXT);

    await using streamed = await openCursor(await engine.connect(), { sql: SQL, parameters: [] });
    for await (const r of streamed.stream()) expect(toJson(r)).to.equal(JSON_TEXT);

    const replay = cachedStream({
      columns: all.columns,
      chunks: [[Object.values(row!)]],
      rowCount: 1,
      bytes: 0,
      origin: "warehouse",
    });
    for await (const chunk of replay) {
      expect(chunk[0]![0]).to.be.instanceOf(CalendarDate).and.not.equal(row!["day"]);
      expect(Object.getPrototypeOf(chunk[0]![1])).to.equal(Date.prototype);
    }

    // Read back, it binds like any Date (a genuine value, not a look-alike subclass).
    expect(isGenuineDate(row!["day"])).to.equal(true);
    expect(isGenuineDate(new (class extends Date {})())).to.equal(false);
    await using conn = await engine.connect();
    const { rows } = await conn.execute("SELECT ?::DATE = DATE '2024-02-29' AS same", [row!["day"]]);
    expect(rows).to.deep.equal([[true]]);
  });

  it("Snowflake and Databricks converters make DATE values CalendarDates, TIMESTAMPs plain Dates", () => {
    const column = (type: string) => ({
      getName: () => type,
      getType: () => type,
      getScale: () => 3,
      getPrecision: () => 0,
    });
    const instant = new Date("2024-02-29T00:00:00Z");
    const [day, at] = convertRow(
      [snowflakeColumn(column("date")), snowflakeColumn(column("timestamp_ntz"))],
      [instant, instant],
    );
    expect(toJson({ day, at })).to.equal('{"day":"2024-02-29","at":"2024-02-29T00:00:00.000Z"}');
    const databricks = (type: "DATE" | "TIMESTAMP", kind: "date" | "timestamp", value: unknown) =>
      normalizeValue(value, { name: "x", type, kind });
    expect(toJson(databricks("DATE", "date", "2024-02-29"))).to.equal('"2024-02-29"');
    expect(toJson(databricks("DATE", "date", instant))).to.equal('"2024-02-29"');
    expect(toJson(databricks("DATE", "date", "0099-01-01"))).to.equal('"0099-01-01"');
    expect(toJson(databricks("TIMESTAMP", "timestamp", "2024-02-29 00:00:00"))).to.equal('"2024-02-29T00:00:00.000Z"');
  });
});
