/**
 * The semantic router refuses every invalid request with an RFC 9457 problem that names the bad
 * field, before any SQL exists: the engine's log shows no statement for any of them. A warehouse
 * that cannot answer is 503 with Retry-After, and nothing of the error reaches the client.
 */
import { writeFile } from "node:fs/promises";
import { expect } from "chai";
import { BackendCConfig, createEngine } from "lib";
import {
  recordedEngine,
  post,
  serveRouter,
  views,
  type RecordedEngine,
  type RunningRouter,
} from "./support/router-fixture.js";
import { tempDir } from "../support/temp-dir.js";

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: { field: string; pointer: string; code: string; message: string; suggestion?: string }[];
}

describe("semantic router: invalid requests never reach the warehouse", function () {
  let recorded: RecordedEngine;
  let router: RunningRouter;
  const limits = {
    maxMembers: 3,
    maxConditionDepth: 3,
    maxConditions: 4,
    maxInList: 5,
    maxRows: 100,
    maxBodyBytes: 2_000,
  };

  before(async function () {
    recorded = recordedEngine();
    router = await serveRouter({ views, engine: recorded.engine, limits });
    // Warm up: the connection (and its seeding statements) exist before the counting starts.
    expect((await post(`${router.url}/views/sales/query`, { metrics: ["revenue"] })).status).to.equal(200);
    recorded.reset();
  });
  after(async function () {
    await router?.[Symbol.asyncDispose]();
    await recorded?.engine.dispose();
  });
  afterEach(function () {
    expect(recorded.statements, "statements sent to the warehouse").to.deep.equal([]);
  });

  async function problemOf(response: Response, status: number): Promise<ProblemBody> {
    expect(response.status).to.equal(status);
    expect(response.headers.get("content-type")).to.match(/^application\/problem\+json/);
    const body = (await response.json()) as ProblemBody;
    expect(body).to.include.keys("type", "title", "status", "detail", "instance");
    expect(body.status).to.equal(status);
    return body;
  }

  /** POSTs `body` to /views/`view`/query and expects one 422 problem per `fields` entry, in any order. */
  async function refused(body: unknown, fields: string[], view = "sales", status = 422): Promise<ProblemBody> {
    const problem = await problemOf(await post(`${router.url}/views/${view}/query`, body), status);
    expect(problem.instance).to.equal(`/api/views/${view}/query`);
    expect(problem.errors?.map((e) => e.field)).to.have.members(fields);
    return problem;
  }

  it("an unknown view is 404 with a suggestion", async () => {
    const problem = await problemOf(await post(`${router.url}/views/slaes/query`, { metrics: ["revenue"] }), 404);
    expect(problem.type).to.equal("urn:lib:problem:unknown-view");
    expect(problem.errors).to.deep.equal([
      {
        field: "view",
        pointer: "/view",
        code: "unknown_view",
        suggestion: "sales",
        message: 'no view "slaes"; did you mean "sales"? (views: orders, sales, big)',
      },
    ]);
    expect((await problemOf(await fetch(`${router.url}/views/slaes`), 404)).errors?.[0]?.suggestion).to.equal("sales");
  });

  it("unknown members are named with the closest member, each in its own error", async () => {
    const problem = await refused({ metrics: ["revenu"], dimensions: ["contry"] }, ["metrics[0]", "dimensions[0]"]);
    expect(problem.type).to.equal("urn:lib:problem:invalid-request");
    expect(problem.errors?.map((e) => e.suggestion)).to.have.members(["revenue", "country"]);
    expect(problem.errors?.find((e) => e.field === "metrics[0]")?.pointer).to.equal("/metrics/0");
  });

  it("a member listed under the wrong kind, and metrics with facts", async () => {
    const problem = await refused({ metrics: ["country"] }, ["metrics[0]"]);
    expect(problem.errors?.[0]?.message).to.equal('"country" is a dimension; list it under dimensions');
    await refused({ metrics: ["total"], facts: ["price"] }, ["facts"], "orders");
    await refused({ metrics: ["revenue", "revenue"] }, ["metrics[1]"]);
    await refused({ metrics: "revenue" }, ["metrics"]);
    await refused({}, ["metrics"]);
  });

  it("a metric in where is refused naming the rule", async () => {
    const problem = await refused({ metrics: ["revenue"], where: { field: "revenue", op: "gt", value: 1 } }, [
      "where.field",
    ]);
    expect(problem.errors?.[0]).to.include({ code: "wrong_kind" });
    expect(problem.errors?.[0]?.message).to.include("is a metric and cannot be filtered in where");
  });

  it("values of the wrong kind for the member's declared type", async () => {
    await refused({ metrics: ["revenue"], where: { field: "country", op: "eq", value: 5 } }, ["where.value"]);
    const problem = await refused(
      {
        metrics: ["total"],
        where: [
          { field: "orderedOn", op: "eq", value: "2024-02-30" },
          { field: "isRush", op: "eq", value: "yes" },
          { field: "status", op: "in", value: ["open", 3] },
        ],
      },
      ["where[0].value", "where[1].value", "where[2].value[1]"],
      "orders",
    );
    const more = await refused(
      {
        metrics: ["total"],
        where: [
          { field: "orderedAt", op: "between", value: ["2024-01-01"] },
          { field: "status", op: "like", value: 7 },
          { field: "isRush", op: "startsWith", value: "t" },
        ],
      },
      ["where[0].value", "where[1].value", "where[2]"],
      "orders",
    );
    expect(more.errors?.find((e) => e.field === "where[2]")?.message).to.include("applies to text members");
    expect(problem.errors?.[0]?.message).to.include("is not a calendar date");
  });

  it("operators, unknown keys and parameters get suggestions", async () => {
    const problem = await refused(
      { metrics: ["revenue"], dimension: ["country"], where: { field: "country", op: "eqq", value: "DE", valeu: 1 } },
      ["dimension", "where.op", "where.valeu"],
    );
    expect(problem.errors?.find((e) => e.field === "dimension")?.suggestion).to.equal("dimensions");
    expect(problem.errors?.find((e) => e.field === "where.op")?.suggestion).to.equal("eq");
  });

  it("orderBy of a field that is not selected, bad limits and offsets", async () => {
    const problem = await refused({ metrics: ["revenue"], orderBy: ["-country"] }, ["orderBy[0]"]);
    expect(problem.errors?.[0]?.message).to.include("is not selected");
    await refused({ metrics: ["revenue"], limit: 101 }, ["limit"]);
    await refused({ metrics: ["revenue"], limit: 0 }, ["limit"]);
    await refused({ metrics: ["revenue"], offset: -1 }, ["offset"]);
    const down = await refused({ metrics: ["revenue"], orderBy: [{ field: "revenue", direction: "down" }] }, [
      "orderBy[0].direction",
    ]);
    expect(down.errors?.[0]?.suggestion).to.equal("desc");
  });

  it("every limit: members, depth, comparisons, in-list length, body size", async () => {
    await refused({ metrics: ["total", "orderCount"], dimensions: ["status", "isRush"] }, ["metrics"], "orders");
    const deep = { not: { not: { not: { field: "country", op: "eq", value: "DE" } } } };
    expect((await refused({ metrics: ["revenue"], where: deep }, ["where.not.not.not"])).errors?.[0]?.code).to.equal(
      "limit_exceeded",
    );
    const many = Array.from({ length: 5 }, () => ({ field: "country", op: "eq", value: "DE" }));
    await refused({ metrics: ["revenue"], where: many }, ["where"]);
    await refused(
      { metrics: ["revenue"], where: { field: "country", op: "in", value: ["a", "b", "c", "d", "e", "f"] } },
      ["where.value"],
    );
    const large = await post(`${router.url}/views/sales/query`, { metrics: ["revenue"], pad: "x".repeat(3_000) });
    const tooLarge = await problemOf(large, 413);
    expect(tooLarge.errors?.[0]?.field).to.equal("body");
    expect(tooLarge.errors?.[0]?.message).to.include("(limit maxBodyBytes)");
    expect((tooLarge.errors?.[0] as { limit?: { name: string } }).limit?.name).to.equal("maxBodyBytes");
  });

  it("malformed bodies: not JSON (400), duplicate keys (400), not an object, wrong content type (415)", async () => {
    expect(
      (await problemOf(await post(`${router.url}/views/sales/query`, "{metrics:"), 400)).errors?.[0]?.field,
    ).to.equal("body");
    await problemOf(await post(`${router.url}/views/sales/query`, '{"limit": 1, "limit": 2}'), 400);
    await problemOf(await post(`${router.url}/views/sales/query`, "[1]"), 400);
    const text = await fetch(`${router.url}/views/sales/query`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    expect((await problemOf(text, 415)).errors?.[0]?.field).to.equal("Content-Type");
  });

  it("numbers a double cannot hold are refused or parsed exactly, never rounded", async () => {
    // 2^53 + 1 as a JSON number for an integer (±(2^53−1)) fact is refused; as a bigint it would be exact.
    await refused(
      { facts: ["quantity"], where: { field: "quantity", op: "eq", value: 9007199254740993 } },
      ["where.value"],
      "orders",
    );
    const response = await fetch(`${router.url}/views/orders/sql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"facts":["price"],"where":{"field":"price","op":"gt","value":0.12345678901234567890123}}',
    });
    expect(response.status).to.equal(200);
    expect(await response.text()).to.include("0.12345678901234567890123");
  });

  it("the GET form: unknown parameters, a where that is not JSON, a repeated limit", async () => {
    const unknown = await problemOf(await fetch(`${router.url}/views/sales/query?metric=revenue`), 422);
    expect(unknown.errors?.[0]).to.include({ field: "metric", suggestion: "metrics" });
    const where = await problemOf(
      await fetch(`${router.url}/views/sales/query?metrics=revenue&where=country%3DDE`),
      422,
    );
    expect(where.errors?.[0]?.field).to.equal("where");
    await problemOf(await fetch(`${router.url}/views/sales/query?metrics=revenue&limit=1&limit=2`), 422);
  });

  it("an Accept header it cannot serve is 406; a method it does not take is 405 with Allow", async () => {
    const notAcceptable = await fetch(`${router.url}/views/sales/query?metrics=revenue`, {
      headers: { accept: "text/csv" },
    });
    await problemOf(notAcceptable, 406);
    const put = await fetch(`${router.url}/views/sales/query`, { method: "PUT" });
    await problemOf(put, 405);
    expect(put.headers.get("allow")).to.equal("GET, POST");
  });
});

describe("semantic router: an unavailable warehouse", function () {
  it("answers 503 with Retry-After and keeps the error to the server", async () => {
    await using dir = await tempDir();
    const database = dir.file("broken.duckdb");
    await writeFile(database, "not a database\n".repeat(100));
    const engine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
    const logged: unknown[] = [];
    try {
      await using router = await serveRouter({
        views,
        engine,
        retryAfterSeconds: 7,
        onError: (e) => void logged.push(e),
      });
      const response = await post(`${router.url}/views/sales/query`, { metrics: ["revenue"] });
      expect(response.status).to.equal(503);
      expect(response.headers.get("retry-after")).to.equal("7");
      const text = await response.text();
      expect(JSON.parse(text)).to.include({
        type: "urn:lib:problem:warehouse-unavailable",
        detail: "Data warehouse is unavailable",
      });
      expect(text).not.to.include(database);
      expect(logged).to.have.length(1);
    } finally {
      await engine.dispose();
    }
  });
});
