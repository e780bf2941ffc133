/**
 * The request core below HTTP: the exact-number JSON reader, value parsing by declared type, the
 * registry built from generated exports, limits, and errors naming every field at once.
 */
import { expect } from "chai";
import { BackendCConfig, Decimal, Dimension, Metric, SemanticView, ValidationError, createEngine } from "lib";
import {
  ExactNumber,
  InvalidRequestError,
  ViewRegistry,
  createSemanticApi,
  parseRequestJson,
  type ViewSource,
} from "lib/request";
import { parseMemberValue } from "../../runtime/request/member-values.js";
import * as generated from "../../generated/index.js";
import * as views from "../support/served-views.js";
import { failureOf } from "../support/failures.js";

describe("request core: the JSON reader", () => {
  it("keeps numbers a double cannot hold as their text, and takes the others as numbers", () => {
    const parsed = parseRequestJson(
      '{"a": 9007199254740993, "b": 0.1, "c": 1e2, "d": 1.0000000000000001, "e": -0}',
    ) as Record<string, unknown>;
    expect(parsed["a"]).to.deep.equal(new ExactNumber("9007199254740993"));
    expect(parsed["b"]).to.equal(0.1);
    expect(parsed["c"]).to.equal(100);
    expect(parsed["d"]).to.deep.equal(new ExactNumber("1.0000000000000001"));
    expect(Object.getPrototypeOf(parsed)).to.equal(null);
  });

  it("refuses duplicate keys, trailing text and bad escapes, naming the position", () => {
    for (const text of ['{"a":1,"a":2}', '{"a":1} x', '{"a":"\\q"}', "[1,]", '{"__proto__": 1, "__proto__": 2}']) {
      expect(() => parseRequestJson(text), text).to.throw(InvalidRequestError, /not valid JSON: .* at position \d+/);
    }
    expect(JSON.stringify(parseRequestJson('{"__proto__":{"x":1}}'))).to.equal('{"__proto__":{"x":1}}');
  });
});

describe("request core: values by declared type", () => {
  const ok = (type: Parameters<typeof parseMemberValue>[0], value: unknown) => {
    const parsed = parseMemberValue(type, value);
    if (!parsed.ok) throw new Error(parsed.problem);
    return parsed.value;
  };

  it("parses strings exactly into bigint, Decimal and Date", () => {
    expect(ok("bigint", "123456789012345678901234567890")).to.equal(123456789012345678901234567890n);
    expect(ok("bigint", new ExactNumber("9007199254740993"))).to.equal(9007199254740993n);
    expect((ok("decimal", "12.50") as Decimal).toString()).to.equal("12.50");
    expect((ok("date", "2024-02-29") as Date).toISOString()).to.equal("2024-02-29T00:00:00.000Z");
    expect((ok("timestamp", "2024-02-29T12:00:00+02:00") as Date).toISOString()).to.equal("2024-02-29T10:00:00.000Z");
    expect((ok("timestamp", "2024-02-29 12:34:56.789") as Date).toISOString()).to.equal("2024-02-29T12:34:56.789Z");
    // A timestamp also takes a day alone (its first instant, UTC).
    expect((ok("timestamp", "2024-02-29") as Date).toISOString()).to.equal("2024-02-29T00:00:00.000Z");
    expect(ok("integer", "42")).to.equal(42);
    expect(ok("boolean", "false")).to.equal(false);
  });

  it("refuses what it would have to change or guess", () => {
    const problems = [
      ["integer", "9007199254740993"],
      ["integer", 1.5],
      ["bigint", "12x"],
      ["decimal", "1,5"],
      ["date", "2023-02-29"],
      ["timestamp", "2024-02-29T12:00:00.0001Z"],
      ["date", "2024-02-29T00:00:00Z"],
      ["timestamp", 1709164800000],
      ["date", 1709164800000],
      ["string", 5],
      ["boolean", "yes"],
      ["number", "NaN"],
      ["unknown", new ExactNumber("9007199254740993")],
    ] as const;
    for (const [type, value] of problems)
      expect(parseMemberValue(type, value).ok, `${type} ${String(value)}`).to.equal(false);
  });
});

describe("request core: the view registry", () => {
  it("pairs each generated view with its row DTO", () => {
    const registry = ViewRegistry.from(generated);
    expect(registry.names).to.deep.equal(["sales"]);
    expect(registry.get("sales")!.members.map((m) => `${m.name}:${m.kind}:${m.type}`)).to.deep.equal([
      "country:dimension:string",
      "region:dimension:string",
      "revenue:metric:bigint",
      "cost:metric:bigint",
    ]);
  });

  it("takes classes alone (members typed unknown) or with an explicit row", () => {
    class Plain extends SemanticView("plain", { n: Metric(), k: Dimension() }) {}
    const registry = ViewRegistry.from([Plain, { view: views.Orders, row: views.OrdersRow }]);
    expect(registry.get("plain")!.members.map((m) => m.type)).to.deep.equal(["unknown", "unknown"]);
    expect(registry.get("orders")!.member("total")!.type).to.equal("decimal");
    expect(() => ViewRegistry.from([{ view: views.Orders, row: views.SalesRow }])).to.throw(
      ValidationError,
      /does not have exactly its fields/,
    );
    expect(() => ViewRegistry.from({})).to.throw(ValidationError, /no view classes found/);
  });

  it("types facts from the <View>Facts DTO beside codegen's <View>Row, which leaves them out", () => {
    const orders = ViewRegistry.from(views).get("orders")!;
    expect(orders.rowSchema).to.equal(views.OrdersRow);
    expect(orders.factsSchema).to.equal(views.OrdersFacts);
    expect(orders.members.map((m) => `${m.name}:${m.kind}:${m.type}`)).to.deep.equal([
      "total:metric:decimal",
      "orderCount:metric:bigint",
      "status:dimension:string",
      "orderedAt:dimension:timestamp",
      "orderedOn:dimension:date",
      "isRush:dimension:boolean",
      "quantity:fact:integer",
      "price:fact:decimal",
      "statusCode:fact:string",
    ]);
    // Paired by shape when the export names do not say it, or given explicitly.
    const byShape = ViewRegistry.from({ Orders: views.Orders, OrdersRow: views.OrdersRow, Lines: views.OrdersFacts });
    expect(byShape.get("orders")!.member("price")!.type).to.equal("decimal");
    const explicit = ViewRegistry.from([{ view: views.Orders, row: views.OrdersRow, facts: views.OrdersFacts }]);
    expect(explicit.get("orders")!.member("quantity")!.type).to.equal("integer");
    // Without a facts DTO the facts are typed unknown (their values pass as JSON gives them).
    const untyped = ViewRegistry.from({ Orders: views.Orders, OrdersRow: views.OrdersRow }).get("orders")!;
    expect(untyped.factsSchema).to.equal(undefined);
    expect(untyped.member("total")!.type).to.equal("decimal");
    expect(untyped.member("price")!.type).to.equal("unknown");
    const { price: _p, ...missingFact } = views.OrdersFacts.properties;
    expect(() =>
      ViewRegistry.from([{ view: views.Orders, facts: { ...views.OrdersFacts, properties: missingFact } }]),
    ).to.throw(
      ValidationError,
      /facts schema given for "orders" does not have exactly its facts \(quantity, price, statusCode\)/,
    );
    const { total: _t, ...missingMetric } = views.OrdersRow.properties;
    expect(() =>
      ViewRegistry.from([{ view: views.Orders, row: { ...views.OrdersRow, properties: missingMetric } }]),
    ).to.throw(ValidationError, /does not have exactly its fields/);
  });

  it("parses a fact's filter values by its type: a decimal fact's string is bound as a decimal", async () => {
    // An engine that never connects: preparing and compiling need its dialect only.
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }));
    const request = { facts: ["price"], where: { field: "price", op: "eq", value: "99999999999999.99" } } as const;
    const compiled = async (served: ViewSource) => {
      const api = createSemanticApi({ views: served, engine });
      return (await api.prepare(request, { view: "orders", context: undefined })).compile("backend_a");
    };
    // Typed, the value is a Decimal: bound exactly, in its own precision.
    expect(await compiled(views)).to.deep.equal({
      sql: 'SELECT * FROM SEMANTIC_VIEW("ORDERS" FACTS "PRICE" WHERE "PRICE" = CAST(? AS NUMBER(16,2))) ORDER BY 1 ASC NULLS LAST LIMIT 10001',
      parameters: ["99999999999999.99"],
    });
    // Untyped (no facts DTO), the same text would be compared as a string.
    const { OrdersFacts: _f, ...withoutFacts } = views;
    expect((await compiled(withoutFacts)).sql).to.include('"PRICE" = ?)');
    const api = createSemanticApi({ views, engine });
    const error = await failureOf(
      api.prepare(
        { facts: ["quantity"], where: { field: "quantity", op: "eq", value: "2.5" } },
        { view: "orders", context: undefined },
      ),
    );
    expect(error).to.be.instanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).errors.map((e) => `${e.field}: ${e.message}`)).to.deep.equal([
      'where.value: quantity: "2.5" is not an integer (write integers as plain digits, without a fraction or exponent)',
    ]);
  });

  it("refuses unknown or non-positive limits", () => {
    expect(() => createSemanticApi({ views, limits: { maxRow: 5 } as never })).to.throw(
      ValidationError,
      /unknown limit "maxRow"; did you mean "maxRows"\?/,
    );
    expect(() => createSemanticApi({ views, limits: { maxRows: 0 } })).to.throw(
      ValidationError,
      /maxRows: expected a positive integer/,
    );
  });
});

describe("request core: prepare", () => {
  const api = createSemanticApi({ views, limits: { maxRows: 50 } });

  it("lists every problem of a request at once", async () => {
    try {
      await api.prepare(
        {
          metrics: ["revenu", "country"],
          where: {
            and: [
              { field: "cost", op: "gt", value: 1 },
              { field: "region", op: "in", value: "x" },
            ],
          },
        },
        { view: "sales", context: undefined },
      );
      expect.fail("prepare() accepted it");
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidRequestError).and.instanceOf(ValidationError);
      expect((error as InvalidRequestError).errors.map((e) => `${e.field} ${e.code}`)).to.deep.equal([
        "metrics[0] unknown_member",
        "metrics[1] wrong_kind",
        "where.and[0].field wrong_kind",
        "where.and[1].value invalid_value",
      ]);
    }
  });

  it("compiles for every dialect, with the scope and a stable order for paging", async () => {
    // An engine that never connects: preparing and compiling need its dialect only.
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }));
    const scoped = createSemanticApi<{ tenant: string }>({
      views,
      engine,
      scope: (c) => ({ field: "country", op: "eq", value: c.tenant }),
    });
    const prepared = await scoped.prepare(
      { metrics: ["revenue"], dimensions: ["region"] },
      { view: "sales", context: { tenant: "DE" }, mode: "page" },
    );
    expect(prepared.compile("backend_b")).to.deep.equal({
      sql: "SELECT `region` AS `region`, MEASURE(`revenue`) AS `revenue` FROM `sales` WHERE `country` = ? GROUP BY ALL ORDER BY `region` ASC NULLS LAST LIMIT 10001",
      parameters: ["DE"],
    });
    expect(prepared.next(10_000)).to.deep.equal({
      view: "sales",
      dimensions: ["region"],
      metrics: ["revenue"],
      offset: 10_000,
    });
  });
});
