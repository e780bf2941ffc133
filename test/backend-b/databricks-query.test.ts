/**
 * The query builder on backend B, end to end: the real `@databricks/sql` driver against the
 * loopback stand-in (Thrift over HTTPS, DuckDB behind it). Rows are exact, values are bound as
 * `?` parameters (the stand-in records what it received), streaming reads in chunks.
 */
import { expect } from "chai";
import { Type } from "typebox";
import { Decimal, DecimalType, BigIntType } from "lib";
import { CATALOG, SCHEMA, Sales, standInEngine, useStandIn } from "./databricks-stand-in-fixture.js";

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

describe("backend B: queries through the Databricks driver", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  async function rowsOf(q: ReturnType<typeof revenueByCountry>, engine: ReturnType<typeof standInEngine>) {
    await using cursor = await q.using(engine).execute();
    return await cursor.fetchAllRows();
  }

  it("the SPEC example: revenue per country, ordered by revenue descending, as bigint", async () => {
    await using engine = standInEngine(fixture.standIn);
    expect(await rowsOf(revenueByCountry(), engine)).to.deep.equal([
      { country: "US", revenue: 425n },
      { country: "DE", revenue: 420n },
      { country: "JP", revenue: 100n },
      { country: "FR", revenue: 90n },
    ]);
  });

  it("sends the metric-view SQL with the filter value as an ordinal parameter, in the configured catalog and schema", async () => {
    await using engine = standInEngine(fixture.standIn);
    const before = fixture.standIn.statements.length;
    const rows = await rowsOf(revenueByCountry().where(Sales.country.eq("US")), engine);
    expect(rows).to.deep.equal([{ country: "US", revenue: 425n }]);
    const received = fixture.standIn.statements.slice(before).filter((s) => s.sql.includes("MEASURE"));
    expect(received).to.have.length(1);
    expect(received[0]!.sql).to.equal(
      "SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales` WHERE `country` = ? GROUP BY ALL ORDER BY `revenue` DESC NULLS LAST",
    );
    expect(received[0]!.parameters).to.deep.equal([{ type: "STRING", value: "US" }]);
    expect(received[0]!).to.include({ catalog: CATALOG, schema: SCHEMA });
  });

  it("an unknown country returns no rows, and a hostile value stays data", async () => {
    await using engine = standInEngine(fixture.standIn);
    expect(await rowsOf(revenueByCountry().where(Sales.country.eq("Atlantis")), engine)).to.deep.equal([]);
    expect(await rowsOf(revenueByCountry().where(Sales.country.eq("US' OR '1'='1")), engine)).to.deep.equal([]);
  });

  it("money measures arrive as exact Decimals (DECIMAL(38,2) sums beyond double precision)", async () => {
    await using engine = standInEngine(fixture.standIn);
    await using cursor = await Sales.query()
      .metrics(Sales.money)
      .dimensions(Sales.country)
      .orderBy(Sales.country.asc())
      .using(engine)
      .execute();
    const rows = await cursor.fetchAllRows();
    expect(rows.map((r) => [r.country, (r.money as Decimal).toString()])).to.deep.equal([
      ["DE", "100000000000.00"],
      ["FR", "1.00"],
      ["JP", "5.83"],
      ["US", "30.35"],
    ]);
    expect(Decimal.isDecimal(rows[0]!.money)).to.equal(true);
  });

  it("into() a TypeBox model with bigint and Decimal fields, strict validation", async () => {
    await using engine = standInEngine(fixture.standIn);
    const Model = Type.Object(
      { country: Type.String(), revenue: BigIntType(), money: DecimalType() },
      { title: "RevenueAndMoney" },
    );
    await using cursor = await Sales.query()
      .metrics(Sales.revenue, Sales.money)
      .dimensions(Sales.country)
      .where(Sales.country.in(["FR", "JP"]))
      .orderBy(Sales.country.asc())
      .using(engine)
      .execute();
    const models = await cursor.into(Model);
    expect(models.map((m) => ({ country: m.country, revenue: m.revenue, money: String(m.money) }))).to.deep.equal([
      { country: "FR", revenue: 90n, money: "1.00" },
      { country: "JP", revenue: 100n, money: "5.83" },
    ]);
  });

  it("limit/offset paging, a metrics-only grand total, and a nullable dimension", async () => {
    await using engine = standInEngine(fixture.standIn);
    expect(await rowsOf(revenueByCountry().limit(2).offset(1), engine)).to.deep.equal([
      { country: "DE", revenue: 420n },
      { country: "JP", revenue: 100n },
    ]);
    await using total = await Sales.query().metrics(Sales.revenue, Sales.cost).using(engine).execute();
    expect(await total.fetchAllRows()).to.deep.equal([{ revenue: 1035n, cost: 445n }]);
    await using regions = await Sales.query()
      .metrics(Sales.revenue)
      .dimensions(Sales.region)
      .where(Sales.region.isNull())
      .using(engine)
      .execute();
    expect(await regions.fetchAllRows()).to.deep.equal([{ region: null, revenue: 40n }]);
  });

  it("iterInto() streams the result", async () => {
    await using engine = standInEngine(fixture.standIn);
    const Model = Type.Object({ country: Type.String(), revenue: Type.Integer() }, { title: "RevenueByCountry" });
    await using cursor = await revenueByCountry().using(engine).execute();
    const seen: string[] = [];
    for await (const row of cursor.iterInto(Model)) seen.push(`${row.country}=${row.revenue}`);
    expect(seen).to.deep.equal(["US=425", "DE=420", "JP=100", "FR=90"]);
  });

  it("toSql() for the engine's dialect is the backtick/MEASURE form", async () => {
    await using engine = standInEngine(fixture.standIn);
    expect(revenueByCountry().using(engine).toSql()).to.match(
      /^SELECT `country` AS `country`, MEASURE\(`revenue`\) AS `revenue` FROM `sales`/,
    );
  });
});
