/**
 * Backend A semantic-view variables (issue 20, item 5; docs.snowflake.com/en/user-guide/views-semantic/variables,
 * GA 2026-06-26): codegen reads them from the view's DDL and declares them with `Variable<T>()`, a query
 * sets them with `.variables({ ... })` (typed from the declaration), the compiler sends
 * `SEMANTIC_VIEW(... VARIABLES "NAME" => ?)` with the value bound, and a variable without a default that
 * the query does not set is a ValidationError before anything is sent (Snowflake would fail the query).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { Type } from "typebox";
import {
  BackendCConfig,
  BigIntType,
  createEngine,
  Dimension,
  Metric,
  SemanticView,
  ValidationError,
  Variable,
  WarehouseError,
} from "lib";
import { createSemanticApi, InvalidRequestError, type RequestIssue } from "lib/request";
import {
  codegenModuleFrom,
  standInEngine,
  useSnowflakeStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import { salesTableSql } from "../support/sales-fixture.js";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";

/** What codegen writes (checked below). */
class Promo extends SemanticView("promo", {
  country: Dimension<string>(),
  big_revenue: Metric<bigint>(),
  min_revenue: Variable<bigint>(),
  bonus: Variable<bigint>({ optional: true }),
}) {}

describe("backend A: semantic-view variables", function () {
  this.timeout(30_000);
  const stand = useSnowflakeStandIn({
    seedSql: salesTableSql("DECIMAL(38,0)"),
    semanticViews: [
      {
        name: "PROMO",
        table: "sales_data",
        dimensions: { COUNTRY: "country" },
        metrics: { BIG_REVENUE: "SUM(CASE WHEN revenue >= MIN_REVENUE THEN revenue + BONUS ELSE 0 END)" },
        variables: { MIN_REVENUE: { type: "NUMBER(38,0)" }, BONUS: { type: "NUMBER(38,0)", default: "0" } },
      },
    ],
  });
  const tmp = useTempDir("all");

  it("codegen declares each variable with its type; one with a default is optional", async () => {
    const source = await codegenModuleFrom(stand.standIn, tmp.path, "promo");
    expect(source).to.contain('import { Dimension, Metric, SemanticView, Variable } from "lib";');
    expect(source).to.contain("  min_revenue: Variable<bigint>(),\n");
    expect(source).to.contain("  bonus: Variable<bigint>({ optional: true }),\n");
    // The DTO module types them for the request core: PromoVariables, optional where the view has a default.
    const dto = await readFile(join(tmp.path, "generated", "promo.dto.ts"), "utf8");
    expect(dto).to.contain(
      [
        "export const PromoVariables = Type.Object(",
        "  {",
        '    min_revenue: BigIntType({ title: "Min Revenue" }),',
        '    bonus: Type.Optional(BigIntType({ title: "Bonus" })),',
        "  },",
        '  { title: "PromoVariables" },',
      ].join("\n"),
    );
    expect(stand.standIn.queries.map((q) => q.sqlText)).to.include(`SELECT GET_DDL('SEMANTIC_VIEW', '"PROMO"')`);
  });

  it("values are sent as VARIABLES with binds, never as SQL text, and the view computes with them", async () => {
    await using engine = standInEngine(stand.standIn);
    const query = Promo.query()
      .dimensions(Promo.country)
      .metrics(Promo.big_revenue)
      .variables({ min_revenue: 100n })
      .orderBy(Promo.country.asc());
    expect(query.compile({ dialect: "backend_a" })).to.deep.equal({
      sql: 'SELECT * FROM SEMANTIC_VIEW("PROMO" DIMENSIONS "COUNTRY" AS "country" METRICS "BIG_REVENUE" AS "big_revenue" VARIABLES "MIN_REVENUE" => CAST(? AS NUMBER(38,0))) ORDER BY "country" ASC NULLS LAST',
      parameters: ["100"],
    });
    {
      await using cursor = await query.using(engine).execute();
      expect(await cursor.fetchAllRows()).to.deep.equal([
        { country: "DE", big_revenue: 420n },
        { country: "FR", big_revenue: 0n },
        { country: "JP", big_revenue: 0n },
        { country: "US", big_revenue: 350n },
      ]);
    }
    // A later call replaces the values it names: the optional variable joins.
    await using cursor = await query.variables({ min_revenue: 100n, bonus: 1 }).using(engine).execute();
    expect((await cursor.fetchAllRows()).map((r) => r.big_revenue)).to.deep.equal([422n, 0n, 0n, 352n]);
    const sent = stand.standIn.queries.at(-1)!;
    expect(sent.sqlText).to.contain('VARIABLES "MIN_REVENUE" => CAST(? AS NUMBER(38,0)), "BONUS" => ?)');
    expect(sent.bindings).to.deep.equal({ "1": { type: "TEXT", value: "100" }, "2": { type: "FIXED", value: "1" } });
  });

  it("a required variable left unset is a ValidationError naming it, before anything is sent; Snowflake fails such a query", async () => {
    await using engine = standInEngine(stand.standIn);
    const sent = stand.standIn.queries.length;
    const error = await failureOf(Promo.query().metrics(Promo.big_revenue).using(engine).execute());
    expect(error).to.be.instanceOf(ValidationError);
    expect(error.message).to.match(/promo requires variable min_revenue.*\.variables\(\{ min_revenue: \.\.\. \}\)/);
    expect(stand.standIn.queries.length).to.equal(sent);
    await using conn = await engine.connect();
    const refused = await failureOf(conn.all('SELECT * FROM SEMANTIC_VIEW("PROMO" METRICS "BIG_REVENUE")'));
    expect(refused).to.be.instanceOf(WarehouseError);
    expect(refused.message).to.match(/MIN_REVENUE.*has no default value/);
  });

  it("only declared variables and genuine values are accepted", () => {
    const query = Promo.query().metrics(Promo.big_revenue);
    // @ts-expect-error: not a variable of the view
    expect(() => query.variables({ nope: 1 })).to.throw(
      ValidationError,
      /"nope" is not a variable of promo \(declared: min_revenue, bonus\)/,
    );
    // @ts-expect-error: a bigint variable takes numbers, not text
    expect(() => query.variables({ min_revenue: "100" })).not.to.throw();
    expect(() => query.variables({ min_revenue: Number.NaN })).to.throw(ValidationError, /min_revenue/);
    // @ts-expect-error: null is no value
    expect(() => query.variables({ min_revenue: null })).to.throw(ValidationError, /null is not a variable value/);
    // Backend C has no variables.
    expect(() => query.variables({ min_revenue: 1 }).compile({ dialect: "backend_c" })).to.throw(
      ValidationError,
      /backend C \(DuckDB semantic_views\) has no view variables/,
    );
  });

  describe("a request's variables (lib/request, the HTTP and MCP front doors)", () => {
    const PromoRow = Type.Object({ country: Type.String(), big_revenue: BigIntType() });
    const PromoVariables = Type.Object({ min_revenue: BigIntType(), bonus: Type.Optional(BigIntType()) });
    const views = { Promo, PromoRow, PromoVariables };

    async function issues(api: ReturnType<typeof createSemanticApi>, body: object): Promise<RequestIssue[]> {
      try {
        await api.prepare(body, { context: undefined, view: "promo" });
      } catch (error) {
        if (error instanceof InvalidRequestError) return [...error.errors];
        throw error;
      }
      throw new Error(`accepted: ${JSON.stringify(body)}`);
    }

    it("are typed by the generated DTO, bound as parameters, and answered by the view", async () => {
      await using engine = standInEngine(stand.standIn);
      const api = createSemanticApi({ views, engine });
      expect(api.describeView("promo").variables).to.deep.equal([
        { name: "min_revenue", type: "bigint", required: true },
        { name: "bonus", type: "bigint", required: false },
      ]);
      const body = {
        dimensions: ["country"],
        metrics: ["big_revenue"],
        variables: { min_revenue: "100", bonus: 1 },
        orderBy: ["country"],
      };
      const prepared = await api.prepare(body, { context: undefined, view: "promo" });
      expect(prepared.compile()).to.deep.include({ parameters: ["100", "1"] }); // both bigint, as the DTO says
      expect(prepared.compile().sql).to.contain(
        'VARIABLES "MIN_REVENUE" => CAST(? AS NUMBER(38,0)), "BONUS" => CAST(? AS NUMBER(38,0)))',
      );
      await using cursor = await prepared.execute();
      expect((await cursor.fetchAllRows()).map((r) => r["big_revenue"])).to.deep.equal([422n, 0n, 0n, 352n]);
      // The continuing request repeats them.
      expect(prepared.next(2)).to.deep.include({ variables: body.variables, offset: 2 });
    });

    it("are refused with the path of each problem before any SQL exists; text stays a value", async () => {
      await using engine = standInEngine(stand.standIn);
      const api = createSemanticApi({ views, engine });
      const sent = stand.standIn.queries.length;
      expect(await issues(api, { metrics: ["big_revenue"] })).to.deep.equal([
        {
          field: "variables.min_revenue",
          code: "missing",
          message: 'view "promo" requires variable "min_revenue" (the view defines no default)',
        },
      ]);
      const [unknown] = await issues(api, { metrics: ["big_revenue"], variables: { min_revenue: 1, bonnus: 2 } });
      expect(unknown).to.deep.include({ field: "variables.bonnus", code: "unknown_parameter", suggestion: "bonus" });
      const [wrong] = await issues(api, { metrics: ["big_revenue"], variables: { min_revenue: "1; DROP TABLE x" } });
      expect(wrong).to.deep.include({ field: "variables.min_revenue", code: "invalid_value" });
      expect(wrong!.message).to.equal('min_revenue: "1; DROP TABLE x" is not an integer');
      const [none] = await issues(api, { metrics: ["big_revenue"], variables: { min_revenue: null } });
      expect(none).to.deep.include({ field: "variables.min_revenue", code: "invalid_value" });
      const [list] = await issues(api, { metrics: ["big_revenue"], variables: [1] });
      expect(list).to.deep.include({ field: "variables", code: "invalid_value" });
      expect(stand.standIn.queries.length).to.equal(sent);
      // The request schema (OpenAPI, MCP tool input) states them.
      const { requestSchema } = await import("../../runtime/request/request-schema.js");
      const schema = requestSchema(api.registry.get("promo")!, "#/$defs/Where", api.limits);
      expect(schema["required"]).to.deep.equal(["variables"]);
      expect((schema["properties"] as Record<string, unknown>)["variables"]).to.deep.include({
        required: ["min_revenue"],
        additionalProperties: false,
      });
    });

    it("backend C refuses them with a clear error naming variables", async () => {
      await using engine = createEngine(new BackendCConfig({ database: ":memory:" }), { register: false });
      const api = createSemanticApi({ views, engine });
      const [issue, ...rest] = await issues(api, { metrics: ["big_revenue"], variables: { min_revenue: 1 } });
      expect(rest).to.deep.equal([]);
      expect(issue).to.deep.include({ field: "variables", code: "invalid_query" });
      expect(issue!.message).to.contain('backend C (DuckDB semantic_views) has no view variables: "min_revenue"');
    });
  });
});
