/**
 * Backend B error mapping through the real driver: warehouse errors become `WarehouseError`
 * subclasses by SQLSTATE / error class (the driver's error is the cause), both when the statement
 * is refused at submission (the driver's `StatusError`, not an `Error`) and when it fails while
 * running (`OperationStateError`). A missing view is an `InternalError`, as on backend C.
 */
import { expect } from "chai";
import { DataError, InternalError, ProgrammingError, WarehouseError } from "lib";
import type { Engine } from "lib";
import { mapDatabricksError } from "../../runtime/dialects/databricks/databricks-errors.js";
import { decimalWordsToString } from "../../runtime/dialects/databricks/databricks-decimal-patch.js";
import {
  Ghost,
  TOKEN,
  standInEngine,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { Sales } from "../support/sales-fixture.js";
import { failureOf } from "../support/failures.js";

/** The WarehouseError `run` fails with. */
async function warehouseFailure(run: () => Promise<unknown>): Promise<WarehouseError> {
  const error = await failureOf(run);
  expect(error).to.be.instanceOf(WarehouseError);
  return error as WarehouseError;
}

async function rawFailure(engine: Engine, sql: string): Promise<WarehouseError> {
  return warehouseFailure(async () => {
    await using conn = await engine.connect();
    await conn.all(sql);
  });
}

describe("backend B: errors", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it("a syntax error refused at submission is a ProgrammingError with SQLSTATE 42601", async () => {
    await using engine = standInEngine(fixture.standIn);
    const error = await rawFailure(engine, "SELEC 1");
    expect(error).to.be.instanceOf(ProgrammingError);
    expect(error.code).to.equal("42601");
    expect(error.message).to.match(/PARSE_SYNTAX_ERROR/);
    expect(error.cause).to.have.property("name", "Status Error"); // the driver's StatusError (not an Error)
  });

  it("a missing metric view queried through the builder is an InternalError (TABLE_OR_VIEW_NOT_FOUND, 42P01)", async () => {
    await using engine = standInEngine(fixture.standIn);
    const error = await warehouseFailure(async () => {
      await using cursor = await Ghost.query().metrics(Ghost.revenue).dimensions(Ghost.country).using(engine).execute();
      await cursor.fetchAllRows();
    });
    expect(error).to.be.instanceOf(InternalError);
    expect(error.code).to.equal("42P01");
    expect(error.message).to.match(/TABLE_OR_VIEW_NOT_FOUND.*ghost_view/);
    expect(error.cause).to.be.instanceOf(Error); // OperationStateError from the running statement
    expect(engine._pool.borrowed).to.equal(0);
  });

  it("an unknown column is a ProgrammingError (42703); a bad cast is a DataError (22018)", async () => {
    await using engine = standInEngine(fixture.standIn);
    const unknown = await rawFailure(engine, "SELECT no_such_column FROM sales_data");
    expect(unknown).to.be.instanceOf(ProgrammingError);
    expect(unknown.code).to.equal("42703");
    const cast = await rawFailure(engine, "SELECT CAST('abc' AS INTEGER) AS x");
    expect(cast).to.be.instanceOf(DataError);
    expect(cast.code).to.equal("22018");
  });

  it("the connection stays usable after a warehouse error", async () => {
    await using engine = standInEngine(fixture.standIn);
    await rawFailure(engine, "SELEC 1");
    await using cursor = await Sales.query().metrics(Sales.revenue).using(engine).execute();
    expect(await cursor.fetchAllRows()).to.deep.equal([{ revenue: 1035n }]);
    expect(fixture.standIn.openedSessions).to.be.greaterThan(0);
  });

  describe("mapping rules", () => {
    it("maps by SQLSTATE class and error class, keeps the cause, redacts secrets", () => {
      const statusError = {
        name: "Status Error",
        message: `[INSUFFICIENT_PERMISSIONS] token ${TOKEN} lacks USE SQLSTATE: 42501`,
        code: 3,
      };
      const mapped = mapDatabricksError(statusError, [TOKEN]);
      expect(mapped).to.be.instanceOf(ProgrammingError);
      expect(mapped.code).to.equal("42501");
      expect(mapped.message).to.not.include(TOKEN);
      // The driver's error held the token: the cause is a redacted copy (name, message, code kept).
      expect(mapped.cause).to.include({ name: "Status Error", code: 3 });
      expect((mapped.cause as Error).message).to.equal(
        "[INSUFFICIENT_PERMISSIONS] token [redacted] lacks USE SQLSTATE: 42501",
      );
      const missing = Object.assign(new Error("x"), {
        errorCode: "ERROR",
        response: { sqlState: "42P01", errorMessage: "[TABLE_OR_VIEW_NOT_FOUND] nope" },
      });
      expect(mapDatabricksError(missing)).to.be.instanceOf(InternalError);
      expect(mapDatabricksError(missing, [TOKEN]).cause, "an error without a secret is kept as it is").to.equal(
        missing,
      );
      const cancelled = Object.assign(new Error("The operation was canceled by a client"), { errorCode: "CANCELED" });
      expect(mapDatabricksError(cancelled).name).to.equal("OperationalError");
      expect(mapDatabricksError(new Error("[DIVIDE_BY_ZERO] SQLSTATE: 22012"))).to.be.instanceOf(DataError);
      expect(mapDatabricksError(new Error("no state at all")).constructor).to.equal(WarehouseError);
    });

    it("formats Decimal128 words exactly, negative and positive", () => {
      const words = (value: bigint) => {
        let x = BigInt.asUintN(128, value);
        return Uint32Array.from({ length: 4 }, () => {
          const w = Number(x & 0xffffffffn);
          x >>= 32n;
          return w;
        });
      };
      expect(decimalWordsToString(words(-12345678901234567890125n), 3)).to.equal("-12345678901234567890.125");
      expect(decimalWordsToString(words(5n), 2)).to.equal("0.05");
      expect(decimalWordsToString(words(-5n), 2)).to.equal("-0.05");
      expect(decimalWordsToString(words(10n ** 37n), 0)).to.equal((10n ** 37n).toString());
    });
  });
});
