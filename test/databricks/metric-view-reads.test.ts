/**
 * Backend B reads metric views only through aggregates (issue 20, item 7): Spark's ResolveMetricView
 * resolves an Aggregate over the view, `SELECT *` is UNSUPPORTED_METRIC_VIEW_USAGE.SELECT_STAR_NOT_SUPPORTED.
 * `.facts()` is refused at compile time; the stand-in refuses what the service refuses. Sessions carry the
 * driver's metric-view metadata flag (item 10).
 */
import { expect } from "chai";
import { Dimension, Fact, Metric, NotSupportedError, SemanticView, ValidationError } from "lib";
import { standInEngine, useStandIn } from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { failureOf } from "../support/failures.js";

/** A hand-written declaration with a fact, as codegen never emits one for backend B. */
class SalesWithFact extends SemanticView("sales", {
  revenue: Metric<bigint>(),
  country: Dimension<string>(),
  region: Fact<string>(),
}) {}

describe("backend B: metric views are read through aggregates only", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it(".facts() is a ValidationError at compile time, naming the fact; nothing is sent", async () => {
    await using engine = standInEngine(fixture.standIn);
    const sent = fixture.standIn.statements.length;
    const query = SalesWithFact.query().facts(SalesWithFact.region);
    expect(() => query.compile({ dialect: "backend_b" }))
      .to.throw(ValidationError)
      .with.property("message")
      .that.matches(/has no facts.*"region".*Dimension\(\)/);
    const error = await failureOf(query.using(engine).execute());
    expect(error).to.be.instanceOf(ValidationError);
    expect(fixture.standIn.statements.length).to.equal(sent);
  });

  it("the stand-in refuses SELECT * and a non-aggregate read of a metric view, as Databricks does", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using conn = await engine.connect();
    const star = await failureOf(conn.all("SELECT * FROM `sales`"));
    expect(star).to.be.instanceOf(NotSupportedError);
    expect(star.message).to.match(/UNSUPPORTED_METRIC_VIEW_USAGE\.SELECT_STAR_NOT_SUPPORTED/);
    const projection = await failureOf(conn.all("SELECT `country` FROM `sales`"));
    expect(projection).to.be.instanceOf(NotSupportedError);
    expect(projection.message).to.match(/UNSUPPORTED_METRIC_VIEW_USAGE/);
    // The aggregate forms resolve.
    expect(await conn.all("SELECT `country` FROM `sales` GROUP BY ALL ORDER BY 1")).to.deep.equal([
      { country: "DE" },
      { country: "FR" },
      { country: "JP" },
      { country: "US" },
    ]);
    expect(await conn.all("SELECT MEASURE(`revenue`) AS r FROM `sales`")).to.deep.equal([{ r: 1035n }]);
  });

  it("each session is opened with the driver's metric-view metadata flag (metric views reported as METRIC_VIEW)", async () => {
    await using engine = standInEngine(fixture.standIn);
    const opened = fixture.standIn.sessionConfigurations.length;
    {
      await using conn = await engine.connect();
      await conn.all("SELECT 1 AS one");
    }
    const configuration = fixture.standIn.sessionConfigurations.slice(opened);
    expect(configuration).to.have.length(1);
    expect(configuration[0]).to.deep.include({
      "spark.sql.thriftserver.metadata.metricview.enabled": "true",
      TIMEZONE: "UTC",
    });
  });
});
