import { expect } from "chai";
import { BackendCConfig, createEngine, OperationalError } from "lib";
import { plainEngine } from "../support/engines.js";
import { useTempDir } from "../support/temp-dir.js";
import { failureOf } from "../support/failures.js";

describe("engine: backend C `schema` is the connection's current schema", () => {
  const tmp = useTempDir();

  it("in memory: the schema is created and unqualified names resolve in it", async () => {
    await using engine = plainEngine({ schema: "analytics" });
    await using conn = await engine.connect();
    expect(await conn.all("SELECT current_schema() AS s")).to.deep.equal([{ s: "analytics" }]);
    await conn.run("CREATE TABLE t AS SELECT 1 AS x");
    expect(await conn.all("SELECT count(*)::INTEGER AS n FROM analytics.t")).to.deep.equal([{ n: 1 }]);
  });

  it("a quote in the schema name is escaped, not SQL", async () => {
    await using engine = plainEngine({ schema: `o'neil"s` });
    await using conn = await engine.connect();
    expect(await conn.all("SELECT current_schema() AS s")).to.deep.equal([{ s: `o'neil"s` }]);
  });

  it("a database file: every pooled connection uses the existing schema", async () => {
    const file = tmp.file();
    {
      await using setup = plainEngine({ database: file });
      await using conn = await setup.connect();
      await conn.run("CREATE SCHEMA sales; CREATE TABLE sales.orders AS SELECT 42 AS amount");
      await conn.commit();
    }
    await using engine = plainEngine({ database: file, schema: "sales", poolSize: 2, maxOverflow: 0 });
    await using a = await engine.connect();
    await using b = await engine.connect();
    expect(await a.all("SELECT amount FROM orders")).to.deep.equal([{ amount: 42 }]);
    expect(await b.all("SELECT current_schema() AS s")).to.deep.equal([{ s: "sales" }]);
  });

  it("a database file without that schema fails to connect, naming the field and value", async () => {
    await using engine = plainEngine({ database: tmp.file(), schema: "missing" });
    const error = await failureOf(engine.connect());
    // The pool wraps open failures in LibConnectionError; the driver's error is the cause.
    const cause = (error as Error).cause;
    expect(cause).to.be.instanceOf(OperationalError);
    expect((cause as Error).message).to.match(/schema = "missing"/);
  });

  it("BACKEND_C_SCHEMA from the environment is applied, with the built-in semantic layer", async () => {
    await using engine = createEngine(
      new BackendCConfig({ semanticViews: "builtin" }, { env: { BACKEND_C_SCHEMA: "mart" } }),
    );
    await using conn = await engine.connect();
    await conn.run("CREATE TABLE o AS SELECT * FROM (VALUES ('FR', 10), ('FR', 5), ('DE', 7)) v(country, amount)");
    await conn.run(
      "CREATE SEMANTIC VIEW s AS TABLES (o AS o PRIMARY KEY (country)) DIMENSIONS (o.country AS country) METRICS (o.revenue AS sum(amount))",
    );
    const rows = await conn.all(
      "SELECT * FROM semantic_view('s', dimensions := ['country'], metrics := ['revenue']) ORDER BY country",
    );
    expect(rows.map((r) => [r["country"], Number(r["revenue"])])).to.deep.equal([
      ["DE", 7],
      ["FR", 15],
    ]);
    expect(await conn.all("SELECT table_schema FROM information_schema.tables WHERE table_name = 'o'")).to.deep.equal([
      { table_schema: "mart" },
    ]);
  });
});
