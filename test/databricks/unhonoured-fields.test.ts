import { expect } from "chai";
import { createEngine } from "lib";
import { BACKEND_B_UNHONOURED_WARNING_CODE } from "../../runtime/dialects/databricks/databricks-unhonoured.js";
import { standInBackendBConfig, useStandIn } from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { Sales } from "../support/sales-fixture.js";
import { captureWarnings } from "../support/warnings.js";

/** The unhonoured-field warnings emitted while `body` runs (captured: nothing is printed). */
function warningsDuring(body: () => Promise<void>): Promise<Error[]> {
  return captureWarnings(BACKEND_B_UNHONOURED_WARNING_CODE, body);
}

const PASSWORD = "hunter2-not-for-logs";

describe("backend B: common fields it cannot honour are accepted but warned about", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it("user, password, database and protocol = http: one warning naming each field and its replacement; queries still work", async () => {
    const warnings = await warningsDuring(async () => {
      await using engine = createEngine(
        standInBackendBConfig(fixture.standIn, {
          user: "analyst",
          password: PASSWORD,
          database: "warehouse",
          protocol: "http",
        }),
      );
      await using cursor = await Sales.query()
        .metrics(Sales.revenue)
        .dimensions(Sales.country)
        .where(Sales.country.eq("FR"))
        .using(engine)
        .execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([{ country: "FR", revenue: 90n }]);
    });
    expect(warnings).to.have.length(1);
    const message = warnings[0]?.message ?? "";
    expect(message).to.contain("`protocol` (use nothing: backend B always connects over https)");
    expect(message).to.contain("`user` (use `token`");
    expect(message).to.contain("`password` (use `token`)");
    expect(message).to.contain("`database` (use `catalog`)");
    expect(message).not.to.contain(PASSWORD);
  });

  it("protocol = https and no user/password/database: no warning", async () => {
    const warnings = await warningsDuring(async () => {
      await using engine = createEngine(standInBackendBConfig(fixture.standIn, { protocol: "https" }));
      expect(engine.backend).to.equal("backend_b");
    });
    expect(warnings).to.deep.equal([]);
  });
});
