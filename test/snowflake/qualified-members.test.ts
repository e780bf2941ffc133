/**
 * Members that several logical tables share a name (`CUSTOMER.NAME`, `SUPPLIER.NAME`): codegen
 * declares them qualified instead of merging them, and the compiler writes `"CUSTOMER"."NAME"`
 * through the real snowflake-sdk to the stand-in.
 */
import { expect } from "chai";
import { Dimension, Fact, Metric, SemanticView } from "lib";
import {
  codegenModuleFrom,
  standInEngine,
  useSnowflakeStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { useTempDir } from "../support/temp-dir.js";
import { failureOf } from "../support/failures.js";

class Parties extends SemanticView("parties", {
  customerName: Dimension<string>({ name: "customer.name" }),
  supplierName: Dimension<string>({ name: "supplier.name" }),
  total: Metric<bigint>(),
}) {}

/** Facts of two logical tables with one name: FACTS take no alias, so both come back as NAME. */
class Deliveries extends SemanticView("deliveries_v", {
  supplierName: Fact<string>({ name: "supplier.name" }),
  customerName: Fact<string>({ name: "customer.name" }),
  amount: Fact<number>(),
}) {}

describe("backend A: members shared by several logical tables", function () {
  this.timeout(30_000);
  const stand = useSnowflakeStandIn({
    seedSql: [
      "CREATE TABLE deliveries (customer_name VARCHAR, supplier_name VARCHAR, amount INTEGER)",
      "INSERT INTO deliveries VALUES ('Ann', 'Acme', 5), ('Ann', 'Bolt', 7), ('Bob', 'Acme', 11)",
    ],
    semanticViews: [
      {
        name: "PARTIES",
        table: "deliveries",
        dimensions: { "CUSTOMER.NAME": "customer_name", "SUPPLIER.NAME": "supplier_name" },
        metrics: { TOTAL: "SUM(amount)" },
        // Snowflake groups a metric only by dimensions of related logical tables (many deliveries per party).
        relationships: [
          ["DELIVERIES", "CUSTOMER"],
          ["DELIVERIES", "SUPPLIER"],
        ],
      },
      {
        name: "DELIVERIES_V",
        table: "deliveries",
        dimensions: {},
        metrics: {},
        facts: { "SUPPLIER.NAME": "supplier_name", "CUSTOMER.NAME": "customer_name", AMOUNT: "amount" },
      },
    ],
  });
  const tmp = useTempDir("all");

  it("codegen declares each shared member qualified, under its own field", async () => {
    const source = await codegenModuleFrom(stand.standIn, tmp.path, "parties");
    expect(source).to.contain('  customerName: Dimension<string>({ name: "customer.name" }),\n');
    expect(source).to.contain('  supplierName: Dimension<string>({ name: "supplier.name" }),\n');
    expect(source).to.contain("  total: Metric<bigint>(),\n");
  });

  it('selects and filters both members, sent as "TABLE"."MEMBER"', async () => {
    await using engine = standInEngine(stand.standIn);
    const query = Parties.query()
      .dimensions(Parties.customerName, Parties.supplierName)
      .metrics(Parties.total)
      .where(Parties.supplierName.eq("Acme"))
      .orderBy(Parties.customerName.asc());
    expect(query.toSql({ dialect: "backend_a" })).to.contain(
      'DIMENSIONS "CUSTOMER"."NAME" AS "customerName", "SUPPLIER"."NAME" AS "supplierName"',
    );
    await using cursor = await query.using(engine).execute();
    expect(await cursor.fetchAllRows()).to.deep.equal([
      { customerName: "Ann", supplierName: "Acme", total: 5n },
      { customerName: "Bob", supplierName: "Acme", total: 11n },
    ]);
  });

  it("two facts of different logical tables with one name: selected with *, ordered and named by position", async () => {
    await using engine = standInEngine(stand.standIn);
    const query = Deliveries.query()
      .facts(Deliveries.supplierName, Deliveries.customerName, Deliveries.amount)
      .orderBy(Deliveries.customerName.desc(), Deliveries.amount.asc());
    expect(query.toSql({ dialect: "backend_a" })).to.equal(
      'SELECT * FROM SEMANTIC_VIEW("DELIVERIES_V" FACTS "SUPPLIER"."NAME", "CUSTOMER"."NAME", "AMOUNT") ORDER BY 2 DESC NULLS LAST, 3 ASC NULLS LAST',
    );
    await using cursor = await query.using(engine).execute();
    expect(await cursor.fetchAllRows()).to.deep.equal([
      { supplierName: "Acme", customerName: "Bob", amount: 11 },
      { supplierName: "Acme", customerName: "Ann", amount: 5 },
      { supplierName: "Bolt", customerName: "Ann", amount: 7 },
    ]);
    // The stand-in refuses a reference to the shared output name, as Snowflake does.
    await using conn = await engine.connect();
    const error = await failureOf(
      conn.all('SELECT "NAME" FROM SEMANTIC_VIEW("DELIVERIES_V" FACTS "SUPPLIER"."NAME", "CUSTOMER"."NAME")'),
    );
    expect(error.message).to.match(/ambiguous column name 'NAME'/);
  });
});
