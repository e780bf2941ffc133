/**
 * The ways a Databricks warehouse hands results to `@databricks/sql`, each through the real driver
 * and the library: direct results (status, metadata and rows inside the ExecuteStatement answer),
 * CloudFetch (Arrow files downloaded from presigned links on separate storage; the driver asks for it
 * by default) and LZ4-framed Arrow. Values stay exact on every path.
 */
import { expect } from "chai";
import { Decimal } from "lib";
import { DatabricksDriver } from "../../runtime/dialects/databricks/databricks-driver.js";
import { lz4Codec } from "../support/stand-ins/databricks/result-delivery.js";
import { STAND_IN_OPTIONS, driverSettings, standInEngine, useStandIn } from "./databricks-stand-in-fixture.js";

const ROWS = 2500;
const WIDE = `SELECT CAST(range AS BIGINT) + 9007199254740000 AS big, CAST(range AS DECIMAL(38,2)) * -1 - 123456789012345678901234567890.25 AS debt
  FROM range(0, ${ROWS}) ORDER BY big`;

function expectExact(rows: readonly Record<string, unknown>[]): void {
  expect(rows).to.have.length(ROWS);
  expect(rows[0]!["big"]).to.equal(9007199254740000n);
  expect(rows.at(-1)!["big"]).to.equal(9007199254740000n + BigInt(ROWS - 1));
  expect(Decimal.isDecimal(rows.at(-1)!["debt"])).to.equal(true);
  expect(String(rows.at(-1)!["debt"])).to.equal(`-123456789012345678901234${(567890.25 + ROWS - 1).toFixed(2)}`);
}

describe("backend B: direct results", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it("a small result arrives inside the ExecuteStatement answer: no FetchResults round trip", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const before = { direct: fixture.standIn.directResultsServed, fetches: fixture.standIn.fetchResultsCalls };
    const [row] = await conn.all(
      "SELECT CAST(-12345678901234567890.125 AS DECIMAL(38,3)) AS debt, CAST(9007199254740993 AS BIGINT) AS big",
    );
    expect(String(row!["debt"])).to.equal("-12345678901234567890.125");
    expect(row!["big"]).to.equal(9007199254740993n);
    expect(fixture.standIn.directResultsServed).to.equal(before.direct + 1);
    expect(fixture.standIn.fetchResultsCalls).to.equal(before.fetches);
  });

  it("a stream caps the direct rows at its chunk size, so the first chunk is no larger than the rest", async () => {
    const driver = new DatabricksDriver(driverSettings(fixture.standIn));
    const connection = await driver.openConnection();
    try {
      const stream = await connection.stream("SELECT range AS n FROM range(0, 25)", undefined, { chunkRows: 10 });
      const sizes: number[] = [];
      for await (const chunk of stream) sizes.push(chunk.length);
      expect(sizes).to.deep.equal([10, 10, 5]);
      expect(fixture.standIn.statements.at(-1)!.directRows).to.equal(10);
    } finally {
      await connection.close();
      await driver.destroy();
    }
  });
});

describe("backend B: CloudFetch and LZ4", function () {
  this.timeout(30_000);
  const fixture = useStandIn({
    ...STAND_IN_OPTIONS,
    cloudFetchAboveRows: 100,
    cloudFetchFileRows: 1000,
    compressCloudFetch: true,
  });

  it("a large result comes as LZ4-framed Arrow files downloaded from separate storage, exact", async function () {
    if (lz4Codec() === undefined) this.skip(); // lz4-napi is an optional dependency of the driver
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const downloads = fixture.standIn.cloudFetchDownloads;
    expectExact(await conn.all(WIDE));
    expect(fixture.standIn.cloudFetchDownloads - downloads).to.equal(3);
    expect(fixture.standIn.refusedStorageRequests).to.deep.equal([]);
    expect(fixture.standIn.lz4Results).to.be.greaterThan(0);
    // What the driver (2.1.0) asks for by default: CloudFetch, and then never inline LZ4.
    expect(fixture.standIn.statements.at(-1)).to.include({ canDownloadResult: true, canDecompressLZ4Result: false });
  });

  it("streaming a CloudFetch result reads file by file", async function () {
    if (lz4Codec() === undefined) this.skip();
    const driver = new DatabricksDriver(driverSettings(fixture.standIn));
    const connection = await driver.openConnection();
    try {
      const stream = await connection.stream(WIDE, undefined, { chunkRows: 1000 });
      const sizes: number[] = [];
      const rows: Record<string, unknown>[] = [];
      for await (const chunk of stream) {
        sizes.push(chunk.length);
        rows.push(...chunk.map((r) => ({ big: r[0], debt: r[1] })));
      }
      expect(sizes).to.deep.equal([1000, 1000, 500]);
      expectExact(rows);
    } finally {
      await connection.close();
      await driver.destroy();
    }
  });
});
