/**
 * The request core's errors as a demanding client reads them: every exceeded limit names itself (in
 * the message and as `limit: { name, value }`), near misses get a suggestion wherever a name, key,
 * operator, direction or placement is expected (including the spellings of other tools), a typo is
 * reported once rather than with the noise it causes, and values are parsed exactly or refused with
 * what to write instead.
 */
import { expect } from "chai";
import { BackendCConfig, createEngine, type Engine } from "lib";
import { createSemanticApi, InvalidRequestError, type RequestIssue, type SemanticApi } from "lib/request";
import { parseMemberValue } from "../../runtime/request/member-values.js";
import { rowSchema } from "../../runtime/request/request-schema.js";
import { rowJsonWriter } from "../../runtime/request/row-json.js";
import * as views from "../support/served-views.js";

describe("request core: errors a client can act on", () => {
  let engine: Engine;
  let api: SemanticApi;

  before(() => {
    engine = createEngine(new BackendCConfig({ database: ":memory:" }));
    api = createSemanticApi({
      views,
      engine,
      limits: { maxMembers: 3, maxInList: 2, maxConditions: 3, maxConditionDepth: 2, maxOrderBy: 1, maxRows: 50 },
    });
  });
  after(async () => {
    await engine.dispose();
  });

  async function issues(body: Record<string, unknown>, view = "sales"): Promise<RequestIssue[]> {
    try {
      await api.prepare(body, { context: undefined, view });
    } catch (error) {
      if (error instanceof InvalidRequestError) return [...error.errors];
      throw error;
    }
    throw new Error(`accepted: ${JSON.stringify(body)}`);
  }

  it("every limit is named, with its value, in the message and in the issue", async () => {
    const eq = { field: "country", op: "eq", value: "DE" };
    const cases: [Record<string, unknown>, string, string, number][] = [
      [{ metrics: ["revenue", "cost"], dimensions: ["country", "region"] }, "metrics", "maxMembers", 3],
      [
        { metrics: ["revenue"], where: { field: "country", op: "in", value: ["DE", "FR", "US"] } },
        "where.value",
        "maxInList",
        2,
      ],
      [{ metrics: ["revenue"], where: [eq, eq, eq, eq] }, "where", "maxConditions", 3],
      [{ metrics: ["revenue"], where: { and: [{ or: [{ not: eq }] }] } }, "where.and[0].or[0]", "maxConditionDepth", 2],
      [{ metrics: ["revenue", "cost"], orderBy: ["revenue", "cost"] }, "orderBy", "maxOrderBy", 1],
      [{ metrics: ["revenue"], limit: 51 }, "limit", "maxRows", 50],
      [{ metrics: ["revenue"], offset: 10_000_001 }, "offset", "maxOffset", 10_000_000],
    ];
    for (const [body, field, name, value] of cases) {
      const [issue, ...rest] = await issues(body);
      expect(rest, field).to.deep.equal([]);
      expect(issue).to.deep.include({ field, code: "limit_exceeded", limit: { name, value } });
      expect(issue!.message, field).to.include(`(limit ${name})`).and.include(String(value));
    }
    const [limit] = await issues({ metrics: ["revenue"], limit: 51 });
    expect(limit!.message).to.equal(
      "at most 50 rows, got 51 (limit maxRows); leave limit out to get the first page and the request that continues (next)",
    );
    // A stream's limit is maxStreamRows.
    const capped = createSemanticApi({ views, engine, limits: { maxStreamRows: 10 } });
    const stream = await capped
      .prepare({ metrics: ["revenue"], limit: 11 }, { context: undefined, view: "sales", mode: "stream" })
      .catch((e: InvalidRequestError) => e.errors[0]);
    expect(stream).to.deep.include({ field: "limit", limit: { name: "maxStreamRows", value: 10 } });
  });

  it("operators as other tools and SQL spell them get the operator meant", async () => {
    const spelled: [string, string][] = [
      ["equals", "eq"],
      ["=", "eq"],
      ["!=", "ne"],
      ["notEquals", "ne"],
      [">=", "gte"],
      ["not_in", "notIn"],
      ["starts_with", "startsWith"],
      ["set", "isNotNull"],
      ["notSet", "isNull"],
      ["inDateRange", "between"],
      ["eqq", "eq"],
      ["contain", "contains"],
    ];
    for (const [op, meant] of spelled) {
      const [issue] = await issues({ metrics: ["revenue"], where: { field: "country", op, value: "DE" } });
      expect(issue, op).to.deep.include({ field: "where.op", suggestion: meant });
      expect(issue!.message).to.match(
        new RegExp(`^unknown operator ".*"; did you mean "${meant}"\\? \\(operators: eq, ne,`),
      );
    }
  });

  it("a misspelt key is one issue with its suggestion, not the noise it causes", async () => {
    const andd = await issues({ metrics: ["revenue"], where: { andd: [{ field: "country", op: "eq", value: "DE" }] } });
    expect(andd).to.deep.equal([
      {
        field: "where.andd",
        code: "unknown_parameter",
        message:
          'unknown key "andd"; did you mean "and"? (a condition is { field, op, value }, { and: [...] }, { or: [...] } or { not: ... })',
        suggestion: "and",
      },
    ]);
    const feild = await issues({ metrics: ["revenue"], where: { feild: "country", op: "eq", value: "DE" } });
    expect(feild.map((i) => [i.field, i.suggestion])).to.deep.equal([["where.feild", "field"]]);
    const vaule = await issues({ metrics: ["revenue"], where: { field: "country", op: "eq", vaule: 5 } });
    // The value under the misspelt key is still checked against the member's type.
    expect(vaule.map((i) => [i.field, i.suggestion])).to.deep.equal([
      ["where.vaule", "value"],
      ["where.value", undefined],
    ]);
    expect(vaule[1]!.message).to.equal("country: expected a string for a string member, got a number");
  });

  it("orderBy: directions, nulls, members not selected and unknown names", async () => {
    const cases: [unknown, string, string | undefined, string][] = [
      [
        { field: "revenue", direction: "dsc" },
        "orderBy[0].direction",
        "desc",
        'direction is "asc" or "desc", got "dsc"; did you mean "desc"?',
      ],
      [
        "revenue:descending",
        "orderBy[0]",
        "desc",
        'direction is "asc" or "desc", got "descending"; did you mean "desc"?',
      ],
      [
        { field: "revenue", nulls: "lst" },
        "orderBy[0].nulls",
        "last",
        'nulls is "first" or "last", got "lst"; did you mean "last"?',
      ],
      [
        "-country",
        "orderBy[0]",
        undefined,
        '"country" is not selected; add it to dimensions to order by it (only selected members can be ordered by)',
      ],
      [
        "-revenu",
        "orderBy[0]",
        "revenue",
        'view "sales" has no member "revenu"; did you mean "revenue"? (only selected members can be ordered by: revenue)',
      ],
    ];
    for (const [ordering, field, suggestion, message] of cases) {
      const [issue, ...rest] = await issues({ metrics: ["revenue"], orderBy: [ordering] });
      expect(rest).to.deep.equal([]);
      expect(issue, String(ordering)).to.deep.include({ field, message });
      expect(issue!.suggestion).to.equal(suggestion);
    }
  });

  it("limits and offsets say what they got", async () => {
    for (const [limit, shown] of [
      [0, "0"],
      [-1, "-1"],
      [1.5, "1.5"],
      ["ten", '"ten"'],
    ] as const) {
      const [issue] = await issues({ metrics: ["revenue"], limit });
      expect(issue!.message).to.equal(`expected an integer of at least 1, got ${shown}`);
    }
    // A whole number past the double's exact range is still over the maximum, not "not an integer".
    for (const [limit, shown] of [
      ["99999999999999999999", "99999999999999999999"],
      [1e21, "1000000000000000000000"],
    ] as const) {
      const [issue, ...rest] = await issues({ metrics: ["revenue"], limit });
      expect(rest).to.deep.equal([]);
      expect(issue).to.deep.include({ field: "limit", code: "limit_exceeded" });
      expect(issue!.message).to.match(new RegExp(`^at most \\d+ rows, got ${shown} \\(limit maxRows\\)`));
    }
  });

  it("values: exact, or refused with what to write instead", () => {
    const value = (type: Parameters<typeof parseMemberValue>[0], input: unknown) => parseMemberValue(type, input);
    // Years 0–99 are years 0–99 (Date.UTC would read 1950).
    const early = value("date", "0050-03-01");
    expect(early.ok && (early.value as Date).toISOString()).to.equal("0050-03-01T00:00:00.000Z");
    const earlyTime = value("timestamp", "0099-12-31T23:59:59.999Z");
    expect(earlyTime.ok && (earlyTime.value as Date).toISOString()).to.equal("0099-12-31T23:59:59.999Z");
    expect(value("date", "0050-02-29")).to.deep.equal({
      ok: false,
      problem: '"0050-02-29" is not a calendar date or time',
    });
    // -0 is 0; a double out of range says so.
    expect(value("number", "-0")).to.deep.equal({ ok: true, value: 0 });
    expect(Object.is((value("number", "-0") as { value: number }).value, 0)).to.equal(true);
    expect(value("number", "1e400")).to.deep.equal({
      ok: false,
      problem: "1e400 is outside the range of a double-precision number",
    });
    // An integer written with an exponent or a fraction is refused with the form to use.
    expect(value("bigint", "1e3")).to.deep.equal({
      ok: false,
      problem: '"1e3" is not an integer (write integers as plain digits, without a fraction or exponent)',
    });
    expect(value("integer", "12x")).to.deep.equal({ ok: false, problem: '"12x" is not an integer' });
    // A malformed number says how to write one; a value of another kind says which kind it got.
    for (const text of [".5", "1,5", "+2", "0x10", "1.", "NaN"]) {
      expect(value("decimal", text)).to.deep.equal({
        ok: false,
        problem: `${JSON.stringify(text)} is not a number as JSON writes them (12.50, -3, 0.5, 1e6)`,
      });
    }
    expect(value("number", true)).to.deep.equal({
      ok: false,
      problem: "expected a number for a number member, got a boolean",
    });
    const exact = value("decimal", "12345678901234567890.123456789012345678");
    expect(exact.ok && String(exact.value)).to.equal("12345678901234567890.123456789012345678");
  });

  it("a decimal over 38 digits is refused at its JSON path, not named by the member", async () => {
    const digits39 = "123456789012345678901234567890.123456789";
    const [top] = await issues({ facts: ["price"], where: { field: "price", op: "eq", value: digits39 } }, "orders");
    expect(top).to.deep.include({ field: "where.value", code: "invalid_value" });
    expect(top!.message).to.equal(
      `price: ${digits39} has 39 digits; a decimal holds at most 38 (DECIMAL(38, s) on every backend)`,
    );
    const nested = await issues(
      {
        facts: ["price"],
        where: {
          and: [
            { field: "status", op: "eq", value: "open" },
            { field: "price", op: "in", value: ["1", digits39] },
          ],
        },
      },
      "orders",
    );
    expect(nested.map((i) => i.field)).to.deep.equal(["where.and[1].value[1]"]);
    // 38 digits pass.
    await api.prepare(
      { facts: ["price"], where: { field: "price", op: "eq", value: digits39.slice(1) } },
      {
        context: undefined,
        view: "orders",
      },
    );
  });

  it("DATE and TIMESTAMP members differ: format date vs date-time, in schemas, filters and rows", async () => {
    const described = api.describeView("orders").members;
    expect(described.find((m) => m.name === "orderedOn")!.type).to.equal("date");
    expect(described.find((m) => m.name === "orderedAt")!.type).to.equal("timestamp");
    const row = rowSchema(api.registry.get("orders")!) as { properties: Record<string, { format?: string }> };
    expect(row.properties["orderedOn"]!.format).to.equal("date");
    expect(row.properties["orderedAt"]!.format).to.equal("date-time");
    // A date-time on a DATE member is refused (it would compare the day with an instant), with the day to send.
    const [issue] = await issues(
      { metrics: ["total"], where: { field: "orderedOn", op: "gte", value: "2024-02-29T12:00:00Z" } },
      "orders",
    );
    expect(issue).to.deep.include({ field: "where.value", code: "invalid_value" });
    expect(issue!.message).to.equal(
      'orderedOn: "2024-02-29T12:00:00Z" is a date-time, but this member is a date: send the day alone (2024-02-29)',
    );
    // A timestamp takes a date-time, or a day meaning its first instant.
    for (const value of ["2024-02-29T12:00:00Z", "2024-02-29"])
      await api.prepare(
        { metrics: ["total"], where: { field: "orderedAt", op: "gte", value } },
        { context: undefined, view: "orders" },
      );
    // Rows: a DATE column's value is the ISO day, a TIMESTAMP's the ISO date-time.
    const write = rowJsonWriter([
      { name: "on", kind: "date", type: "DATE" },
      { name: "at", kind: "timestamp", type: "TIMESTAMP" },
    ] as never);
    const instant = new Date("2024-02-29T00:00:00Z");
    expect(write({ on: instant, at: instant })).to.equal('{"on":"2024-02-29","at":"2024-02-29T00:00:00.000Z"}');
  });
});
