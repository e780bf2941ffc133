/**
 * Backend A names created quoted in lower case (issue 20, item 3): a view `"sales_v"`, members
 * `"revenue"` and `"order region"`. A bare lower-case declaration stands for Snowflake's folded
 * upper-case name, so codegen declares these in their exact quoted form, the compiler sends that
 * verbatim, and GET_DDL is asked for the quoted name (docs: identifiers-syntax, identifier-literal).
 */
import { expect } from "chai";
import { Dimension, Metric, SemanticView, ValidationError, WarehouseError } from "lib";
import { getDdlSql } from "../../runtime/dialects/snowflake/snowflake-introspector.js";
import {
  codegenModuleFrom,
  standInEngine,
  useSnowflakeStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { salesTableSql } from "../support/sales-fixture.js";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

/** What codegen writes for the view (checked below). */
class SalesV extends SemanticView('"sales_v"', {
  orderRegion: Dimension<string>({ name: '"order region"' }),
  country: Dimension<string>(),
  revenue: Metric<bigint>({ name: '"revenue"' }),
}) {}

describe("backend A: names created quoted in lower case", function () {
  this.timeout(30_000);
  const stand = useSnowflakeStandIn({
    seedSql: salesTableSql("DECIMAL(38,0)"),
    semanticViews: [
      {
        name: "sales_v",
        table: "sales_data",
        dimensions: { "order region": "region", COUNTRY: "country" },
        metrics: { revenue: "SUM(revenue)" },
      },
    ],
  });
  const tmp = useTempDir("all");

  it("codegen declares them in the exact quoted form", async () => {
    const source = await codegenModuleFrom(stand.standIn, tmp.path, "sales-v");
    // A view name that is not an identifier is declared under a portable name, with the warehouse's as { name }.
    expect(source).to.contain('export class SalesV extends SemanticView("salesV", {\n');
    expect(source).to.contain('}, {\n  name: "\\"sales_v\\"",\n}) {}\n');
    expect(source).to.contain('  orderRegion: Dimension<string>({ name: "\\"order region\\"" }),\n');
    expect(source).to.contain("  country: Dimension<string>(),\n");
    expect(source).to.contain('  revenue: Metric<bigint>({ name: "\\"revenue\\"" }),\n');
  });

  it("the compiler sends the quoted names verbatim and the rows come back", async () => {
    await using engine = standInEngine(stand.standIn);
    const query = SalesV.query()
      .dimensions(SalesV.orderRegion)
      .metrics(SalesV.revenue)
      .where(SalesV.country.eq("DE"))
      .orderBy(SalesV.orderRegion.asc());
    expect(query.toSql({ dialect: "backend_a" })).to.equal(
      'SELECT * FROM SEMANTIC_VIEW("sales_v" DIMENSIONS "order region" AS "orderRegion" METRICS "revenue" AS "revenue" WHERE "COUNTRY" = ?) ORDER BY "orderRegion" ASC NULLS LAST',
    );
    // Backends B and C have no folding: the quotes only mark the name as exact.
    expect(query.toSql({ dialect: "backend_b" })).to.match(/^SELECT `order region` AS `orderRegion`.* FROM `sales_v`/);
    await using cursor = await query.using(engine).execute();
    expect(await cursor.fetchAllRows()).to.deep.equal([
      { orderRegion: "Bavaria", revenue: 120n },
      { orderRegion: "Berlin", revenue: 300n },
    ]);
  });

  it("a bare lower-case declaration means the folded name, which Snowflake does not find", async () => {
    class Folded extends SemanticView("sales_v", { revenue: Metric<bigint>() }) {}
    await using engine = standInEngine(stand.standIn);
    const error = await failureOf(Folded.query().metrics(Folded.revenue).using(engine).execute());
    expect(error.message).to.match(/SALES_V/);
  });

  it("GET_DDL is asked for the quoted name; unquoted, the name folds and is not found", async () => {
    await using engine = standInEngine(stand.standIn);
    await using conn = await engine.connect();
    expect(getDdlSql("sales_v")).to.equal(`SELECT GET_DDL('SEMANTIC_VIEW', '"sales_v"')`);
    const [row] = await conn.all(getDdlSql("sales_v"));
    expect(String(Object.values(row!)[0])).to.match(/^create or replace semantic view sales_v/);
    const error = await failureOf(conn.all(`SELECT GET_DDL('SEMANTIC_VIEW', 'sales_v')`));
    expect(error).to.be.instanceOf(WarehouseError);
    expect(error.message).to.match(/Semantic view 'sales_v' does not exist/);
  });

  it("a declared name with an unterminated quote is a ValidationError naming it", () => {
    expect(() => Metric({ name: '"revenue' }))
      .to.throw(ValidationError)
      .with.property("message")
      .that.matches(/unterminated double quote/);
    expect(() => SemanticView('"sales_v', {})).to.throw(ValidationError);
  });
});
