/**
 * Backend B connections through the real driver: token auth checked by the stand-in, URI mode,
 * failures at session open surfacing as `LibConnectionError` (wrong token, dead server, revoked
 * token) without any secret in the error, and catalog/schema reaching the session.
 */
import { inspect } from "node:util";
import { expect } from "chai";
import { BackendBConfig, LibConnectionError, OperationalError, createAsyncEngine, createEngine } from "lib";
import type { Engine } from "lib";
import {
  CATALOG,
  SCHEMA,
  STAND_IN_HTTP_PATH,
  TOKEN,
  standInEngine,
  startAnotherStandIn,
  useStandIn,
} from "./databricks-stand-in-fixture.js";
import { Sales } from "../support/sales-fixture.js";

async function revenueRows(engine: Engine) {
  await using cursor = await Sales.query()
    .metrics(Sales.revenue)
    .dimensions(Sales.country)
    .where(Sales.country.eq("FR"))
    .using(engine)
    .execute();
  return await cursor.fetchAllRows();
}

async function connectionFailure(run: () => Promise<unknown>): Promise<LibConnectionError> {
  try {
    await run();
  } catch (error) {
    expect(error).to.be.instanceOf(LibConnectionError);
    return error as LibConnectionError;
  }
  throw new Error("expected a LibConnectionError");
}

/** The whole error as printed (message, stack, cause chain, own properties): no secret may appear. */
function expectNoSecret(error: unknown, ...secrets: string[]): void {
  const printed = `${String(error)}\n${inspect(error, { depth: 8 })}\n${JSON.stringify(error)}`;
  for (const secret of secrets) expect(printed).to.not.include(secret);
}

describe("backend B: connections", function () {
  this.timeout(20_000);
  const fixture = useStandIn();

  it("connects with the token (checked by the stand-in) and opens the session in the configured catalog and schema", async () => {
    await using engine = standInEngine(fixture.standIn);
    const opened = fixture.standIn.openedSessions;
    expect(await revenueRows(engine)).to.deep.equal([{ country: "FR", revenue: 90n }]);
    expect(fixture.standIn.openedSessions).to.equal(opened + 1);
    expect(fixture.standIn.statements.at(-1)).to.include({ catalog: CATALOG, schema: SCHEMA });
  });

  it("connects in URI mode (https://token:<token>@host:port/http-path)", async () => {
    const uri = `https://token:${TOKEN}@127.0.0.1:${fixture.standIn.port}${STAND_IN_HTTP_PATH}`;
    await using engine = createEngine(new BackendBConfig({ uri, catalog: CATALOG, schema: SCHEMA, poolSize: 1 }));
    expect(await revenueRows(engine)).to.deep.equal([{ country: "FR", revenue: 90n }]);
  });

  it("a wrong token is refused at session open: LibConnectionError without the token anywhere in it", async () => {
    const wrong = "dapi-wrong-secret-9f8e7d6c5b4a";
    await using engine = standInEngine(fixture.standIn, { token: wrong });
    const error = await connectionFailure(() => revenueRows(engine));
    expect(error.message).to.match(/authentication failed/i);
    expect(error.message).to.include("127.0.0.1");
    expect(error.cause).to.be.instanceOf(Error);
    expectNoSecret(error, wrong, TOKEN);
    expect(fixture.standIn.rejectedAuth).to.include(`Bearer ${wrong}`);
  });

  it("a wrong token in URI mode: no part of the URI's secret in the error", async () => {
    const wrong = "dapi-uri-secret-1a2b3c4d";
    const uri = `https://token:${wrong}@127.0.0.1:${fixture.standIn.port}${STAND_IN_HTTP_PATH}`;
    await using engine = createEngine(new BackendBConfig({ uri, poolSize: 1 }));
    const error = await connectionFailure(() => revenueRows(engine));
    expectNoSecret(error, wrong, uri);
  });

  it("createAsyncEngine rejects with LibConnectionError for a wrong token", async () => {
    const wrong = "dapi-async-secret-5e6f";
    const error = await connectionFailure(() =>
      createAsyncEngine(
        new BackendBConfig({
          host: "127.0.0.1",
          port: fixture.standIn.port,
          httpPath: STAND_IN_HTTP_PATH,
          token: wrong,
          poolSize: 1,
        }),
      ),
    );
    expectNoSecret(error, wrong);
  });

  it("OAuth M2M: the driver refuses a non-Databricks host before any request; the client secret is not in the error", async () => {
    const clientSecret = "dose-m2m-client-secret-4242";
    await using engine = createEngine(
      new BackendBConfig({
        host: "127.0.0.1",
        port: fixture.standIn.port,
        httpPath: STAND_IN_HTTP_PATH,
        authType: "OAuthM2M",
        clientId: "service-principal-1",
        clientSecret,
        poolSize: 1,
      }),
    );
    const opened = fixture.standIn.openedSessions;
    const error = await connectionFailure(() => revenueRows(engine));
    expect(error.message).to.match(/OAuth/);
    expect(fixture.standIn.openedSessions).to.equal(opened);
    expectNoSecret(error, clientSecret);
  });

  describe("an unreachable or failing warehouse", () => {
    it("a server that is not listening: LibConnectionError at once (no long retry loop)", async () => {
      const dead = await startAnotherStandIn(fixture, { token: TOKEN });
      const port = dead.port;
      await dead.close();
      await using engine = standInEngine(fixture.standIn, { port });
      const error = await connectionFailure(() => revenueRows(engine));
      expect(error.message).to.match(/ECONNREFUSED|connect/i);
      expectNoSecret(error, TOKEN);
    });

    it("a warehouse that goes away: with pre_ping the next checkout fails with LibConnectionError", async () => {
      const standIn = await startAnotherStandIn(fixture);
      try {
        await using engine = standInEngine(standIn, { prePing: true });
        expect(await revenueRows(engine)).to.have.length(1);
        await standIn.stop();
        const error = await connectionFailure(() => revenueRows(engine));
        expectNoSecret(error, TOKEN);
      } finally {
        await standIn.close();
      }
    });

    it("a warehouse that goes away: without pre_ping the statement fails as a warehouse-side OperationalError", async () => {
      const standIn = await startAnotherStandIn(fixture);
      try {
        await using engine = standInEngine(standIn, { prePing: false });
        expect(await revenueRows(engine)).to.have.length(1);
        await standIn.stop();
        let error: unknown;
        try {
          await revenueRows(engine);
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(OperationalError);
        expectNoSecret(error, TOKEN);
      } finally {
        await standIn.close();
      }
    });

    it("a token revoked while connections are pooled: pre_ping replaces the connection and the reopen fails with LibConnectionError", async () => {
      const standIn = await startAnotherStandIn(fixture);
      try {
        await using engine = standInEngine(standIn, { prePing: true });
        expect(await revenueRows(engine)).to.have.length(1);
        standIn.rejectAllAuth = true;
        const error = await connectionFailure(() => revenueRows(engine));
        expect(error.message).to.match(/authentication failed/i);
        expectNoSecret(error, TOKEN);
      } finally {
        await standIn.close();
      }
    });
  });
});
