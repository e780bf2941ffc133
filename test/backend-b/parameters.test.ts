/**
 * Backend B parameters as the warehouse reads them: Decimals typed DECIMAL(p,s) (a bare DECIMAL is
 * DECIMAL(10,0) there), and `Date`s against TIMESTAMP_NTZ and TIMESTAMP columns on a warehouse
 * whose default session time zone is not UTC.
 */
import { expect } from "chai";
import { Decimal, ValidationError } from "lib";
import { STAND_IN_OPTIONS, standInEngine, useStandIn } from "./databricks-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";

describe("backend B: parameters on a warehouse in America/New_York", function () {
  this.timeout(20_000);
  const fixture = useStandIn({
    ...STAND_IN_OPTIONS,
    sessionTimeZone: "America/New_York",
    setupSql: [
      ...(STAND_IN_OPTIONS.setupSql ?? []),
      // `wall` is a TIMESTAMP_NTZ (a wall clock), `zoned` a TIMESTAMP (an instant).
      "CREATE TABLE events (id INTEGER, wall TIMESTAMP, zoned TIMESTAMPTZ)",
      "INSERT INTO events VALUES (1, TIMESTAMP '2024-03-10 12:00:00.250', TIMESTAMPTZ '2024-03-10 12:00:00.250+00'), (2, TIMESTAMP '2024-07-01 23:30:00', TIMESTAMPTZ '2024-07-01 23:30:00+00')",
    ],
  });

  it("a Decimal parameter is typed DECIMAL(p,s) from its digits, so nothing is rounded or overflows", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const before = fixture.standIn.statements.length;
    const [row] = await conn.all("SELECT ? AS small, ? AS big, ? AS tiny", [
      Decimal.parse("5.2"),
      Decimal.parse("-12345678901234567890.125"),
      Decimal.parse("0.001"),
    ]);
    expect([String(row!["small"]), String(row!["big"]), String(row!["tiny"])]).to.deep.equal([
      "5.2",
      "-12345678901234567890.125",
      "0.001",
    ]);
    expect(fixture.standIn.statements[before]!.parameters.map((p) => p.type)).to.deep.equal([
      "DECIMAL(2,1)",
      "DECIMAL(23,3)",
      "DECIMAL(4,3)",
    ]);
  });

  it("a Decimal beyond 38 digits is refused before it is sent, naming the parameter", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const error = await failureOf(conn.all("SELECT ? AS x", [Decimal.parse("1" + "0".repeat(38))]));
    expect(error).to.be.instanceOf(ValidationError); // a value the backend cannot hold, as on every raw parameter path
    expect((error as Error).message).to.match(/Parameter 1 \(Decimal\(1000+\)\): .*precision 39/);
  });

  it("sessions run in UTC: Date filters match TIMESTAMP_NTZ (UTC wall clock) and TIMESTAMP (instant) columns alike", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const rows = await conn.all("SELECT id, wall, zoned FROM events ORDER BY id");
    expect(
      rows.map((r) => [r["id"], (r["wall"] as Date).toISOString(), (r["zoned"] as Date).toISOString()]),
    ).to.deep.equal([
      [1, "2024-03-10T12:00:00.250Z", "2024-03-10T12:00:00.250Z"],
      [2, "2024-07-01T23:30:00.000Z", "2024-07-01T23:30:00.000Z"],
    ]);
    for (const r of rows) {
      expect(await conn.all("SELECT id FROM events WHERE wall = ?", [r["wall"]])).to.deep.equal([{ id: r["id"] }]);
      expect(await conn.all("SELECT id FROM events WHERE zoned = ?", [r["zoned"]])).to.deep.equal([{ id: r["id"] }]);
    }
    const since = new Date("2024-07-01T23:00:00Z");
    expect(await conn.all("SELECT id FROM events WHERE wall >= ? ORDER BY id", [since])).to.deep.equal([{ id: 2 }]);
    expect(fixture.standIn.statements.at(-1)!.timeZone).to.equal("UTC");
  });
});
