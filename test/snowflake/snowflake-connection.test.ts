/**
 * Backend A connections: login with each way of authenticating the stand-in can check, secrets
 * kept out of errors, pooling (reuse, pre_ping through heartbeats), cancellation through
 * abort-request, and an unreachable warehouse failing fast with LibConnectionError.
 */
import { generateKeyPairSync, createPublicKey, verify } from "node:crypto";
import { inspect } from "node:util";
import { expect } from "chai";
import { eventually } from "../support/eventually.js";
import {
  LibConnectionError,
  OperationalError,
  QueryCancelledError,
  ValidationError,
  createEngine,
  BackendAConfig,
} from "lib";
import { Sales } from "../support/sales-fixture.js";
import { ReturningWarehouse } from "../support/stand-ins/snowflake/returning-warehouse.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";
import {
  PASSWORD,
  USER,
  standInConfig,
  standInEngine,
  startStandIn,
} from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";

const revenueByCountry = () =>
  Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());

/** Everything an error exposes: message, stack, cause chain, own properties. */
function everythingIn(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    parts.push(String(current), inspect(current, { depth: 5, showHidden: true }));
    try {
      parts.push(JSON.stringify(current, Object.getOwnPropertyNames(current)));
    } catch {
      // circular
    }
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join("\n");
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a failure"),
    (error: unknown) => error,
  );
}

describe("backend A connections", function () {
  this.timeout(20_000);
  let standIn: SnowflakeStandIn;

  beforeEach(async () => {
    standIn = await startStandIn({ tokens: ["oauth-token-abc123", "pat-token-xyz789"] });
  });
  afterEach(async () => {
    await standIn.close();
  });

  describe("login", () => {
    it("basic auth sends user, password, account, database, schema, warehouse, role and the application name", async () => {
      await using engine = standInEngine(standIn, { appName: "lib-tests" });
      await using conn = await engine.connect();
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      expect(standIn.logins).to.have.length(1);
      const login = standIn.logins[0]!;
      expect(login.data).to.include({ LOGIN_NAME: USER, PASSWORD, ACCOUNT_NAME: "fake", AUTHENTICATOR: "SNOWFLAKE" });
      expect(login.query).to.include({
        databaseName: "ANALYTICS",
        schemaName: "PUBLIC",
        warehouse: "WH_XS",
        roleName: "ANALYST",
      });
      expect((login.data.CLIENT_ENVIRONMENT as Record<string, unknown>).APPLICATION).to.equal("lib-tests");
    });

    it("a wrong password is a LibConnectionError that names no secret", async () => {
      const wrong = "not-the-Pa55word-42";
      await using engine = standInEngine(standIn, { password: wrong });
      const error = await failure(revenueByCountry().using(engine).execute());
      expect(error).to.be.instanceOf(LibConnectionError);
      expect((error as Error).message).to.match(/Incorrect username or password/);
      const everything = everythingIn(error);
      expect(everything).not.to.contain(wrong);
      expect(everything).not.to.contain(PASSWORD);
      expect(standIn.logins.at(-1)!.data.PASSWORD).to.equal(wrong);
    });

    it("auth_oauth sends the token with the OAUTH authenticator, and the token never appears in errors", async () => {
      await using engine = standInEngine(standIn, {
        authType: "auth_oauth",
        oauthToken: "oauth-token-abc123",
        password: undefined,
      });
      await using conn = await engine.connect();
      await conn.all("SELECT 1 AS one");
      expect(standIn.logins[0]!.data).to.include({ AUTHENTICATOR: "OAUTH", TOKEN: "oauth-token-abc123" });

      await using bad = standInEngine(standIn, {
        authType: "auth_oauth",
        oauthToken: "revoked-token-000",
        password: undefined,
      });
      const error = await failure(bad.connect());
      expect(error).to.be.instanceOf(LibConnectionError);
      expect(everythingIn(error)).not.to.contain("revoked-token-000");
    });

    it("auth_pat sends the programmatic access token", async () => {
      await using engine = standInEngine(standIn, {
        authType: "auth_pat",
        oauthToken: "pat-token-xyz789",
        password: undefined,
      });
      await using conn = await engine.connect();
      await conn.all("SELECT 1 AS one");
      expect(standIn.logins[0]!.data).to.include({
        AUTHENTICATOR: "PROGRAMMATIC_ACCESS_TOKEN",
        TOKEN: "pat-token-xyz789",
      });
    });

    it("auth_jwt signs a JWT with private_key_pem that verifies with the public key", async () => {
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      await using engine = standInEngine(standIn, { authType: "auth_jwt", privateKeyPem: pem, password: undefined });
      await using conn = await engine.connect();
      await conn.all("SELECT 1 AS one");
      const data = standIn.logins[0]!.data;
      expect(data.AUTHENTICATOR).to.equal("SNOWFLAKE_JWT");
      const [header, payload, signature] = String(data.TOKEN).split(".");
      const ok = verify(
        "RSA-SHA256",
        Buffer.from(`${header}.${payload}`),
        createPublicKey(publicKey.export({ type: "spki", format: "pem" })),
        Buffer.from(signature!, "base64url"),
      );
      expect(ok).to.equal(true);
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as { sub: string };
      expect(claims.sub).to.equal(`FAKE.${USER.toUpperCase()}`);
    });

    it("tls_skip_verify over https is refused eagerly (the sdk cannot skip verification); over http it is moot", () => {
      expect(() =>
        createEngine(new BackendAConfig({ account: "fake", user: USER, password: PASSWORD, tlsSkipVerify: true })),
      )
        .to.throw(ValidationError)
        .with.property("field", "tls_skip_verify");
      const engine = createEngine(standInConfig(standIn, { tlsSkipVerify: true }));
      return engine.dispose();
    });
  });

  describe("pool", () => {
    it("reuses one session for sequential queries and deletes it at dispose", async () => {
      const engine = standInEngine(standIn);
      for (let i = 0; i < 3; i++) {
        await using cursor = await revenueByCountry().using(engine).execute();
        await cursor.fetchAllRows();
      }
      expect(standIn.logins).to.have.length(1);
      expect(new Set(standIn.queries.map((q) => q.sessionId)).size).to.equal(1);
      await engine.dispose();
      expect(standIn.sessionDeletes).to.equal(1);
      expect(standIn.openSessions).to.equal(0);
    });

    it("pre_ping sends a heartbeat at checkout and replaces a session the warehouse dropped", async () => {
      await using engine = standInEngine(standIn, { prePing: true });
      {
        await using conn = await engine.connect();
        await conn.all("SELECT 1 AS one");
      }
      {
        await using conn = await engine.connect();
        await conn.all("SELECT 1 AS one");
      }
      expect(standIn.heartbeats).to.be.greaterThan(0);
      expect(standIn.logins).to.have.length(1);
      standIn.dropSessions();
      {
        await using conn = await engine.connect();
        await conn.all("SELECT 1 AS one");
      }
      expect(standIn.logins).to.have.length(2);
      expect(standIn.queries.at(-1)!.sessionId).not.to.equal(standIn.queries[0]!.sessionId);
    });
  });

  describe("session tokens", () => {
    it("an expired session token is renewed with the master token and the statement goes through", async () => {
      await using engine = standInEngine(standIn);
      await using conn = await engine.connect();
      await conn.all("SELECT 1 AS one");
      standIn.expireSessionTokens();
      expect(await conn.all("SELECT 2 AS two")).to.deep.equal([{ two: 2 }]);
      expect(standIn.renewals).to.equal(1);
      expect(standIn.logins).to.have.length(1);
    });
  });

  describe("cancellation", () => {
    it("timeoutMs sends an abort-request for the running statement; the connection is reused afterwards", async () => {
      // One connection, no overflow: the next statement waits for the cancelled one's session (on a
      // loaded machine an overflow connection would log in beside it while the cancellation ends).
      await using engine = standInEngine(standIn, { maxOverflow: 0 });
      // Logged in first, so the deadline falls on the running statement even on a loaded machine.
      await (await engine.connect()).release();
      standIn.holdQueries = /SEMANTIC_VIEW/;
      const error = await failure(revenueByCountry().using(engine).execute({ timeoutMs: 500 }));
      expect(error).to.be.instanceOf(QueryCancelledError);
      await eventually(() => standIn.aborts.length > 0); // sent in the background after the rejection
      expect(standIn.aborts).to.have.length(1);
      expect(standIn.aborts[0]).to.equal(standIn.queries.at(-1)!.requestId);
      standIn.holdQueries = undefined;
      await using cursor = await revenueByCountry().using(engine).execute();
      expect(await cursor.fetchAllRows()).to.have.length(4);
      expect(standIn.logins).to.have.length(1);
    });

    it("the abort-request's success answer frees the session even while the statement's own answer is late", async () => {
      await using engine = standInEngine(standIn, { maxOverflow: 0 });
      await (await engine.connect()).release();
      standIn.stallQueries = /SEMANTIC_VIEW/; // the query-request is never answered, the abort-request is
      const error = await failure(revenueByCountry().using(engine).execute({ timeoutMs: 300 }));
      expect(error).to.be.instanceOf(QueryCancelledError);
      await using conn = await engine.connect();
      expect(standIn.aborts).to.have.length(1);
      expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      // Not given up as broken after the cancel grace: the same session runs the next statement.
      expect(standIn.logins).to.have.length(1);
    });

    it("an AbortSignal cancels a raw statement too", async () => {
      await using engine = standInEngine(standIn);
      standIn.holdQueries = /hold me/;
      const controller = new AbortController();
      const pending = revenueByCountry().using(engine).execute({ signal: controller.signal });
      controller.abort();
      expect(await failure(pending)).to.be.instanceOf(QueryCancelledError);
    });
  });

  describe("an unreachable warehouse", () => {
    it("fails a first connection fast with LibConnectionError (bounded login retries)", async () => {
      const port = standIn.port;
      await standIn.close();
      await using engine = standInEngine({ port });
      const error = await failure(revenueByCountry().using(engine).execute());
      expect(error).to.be.instanceOf(LibConnectionError);
      expect(everythingIn(error)).not.to.contain(PASSWORD);
    });

    it("with pre_ping, a warehouse that was up and went away gives LibConnectionError at checkout", async () => {
      await using engine = standInEngine(standIn, { prePing: true });
      {
        await using conn = await engine.connect();
        await conn.all("SELECT 1 AS one");
      }
      await standIn.close();
      const error = await failure(revenueByCountry().using(engine).execute());
      expect(error).to.be.instanceOf(LibConnectionError);
    });

    it("without pre_ping: the statement in flight is cancelled by its timeout, the broken session is dropped, the next request gets LibConnectionError", async () => {
      await using engine = standInEngine(standIn);
      {
        await using conn = await engine.connect();
        await conn.all("SELECT 1 AS one");
      }
      const port = standIn.port;
      await standIn.close();
      // The sdk keeps retrying the query request; timeoutMs interrupts, and the driver gives up
      // locally when the cancellation cannot reach the warehouse either.
      expect(await failure(revenueByCountry().using(engine).execute({ timeoutMs: 200 }))).to.be.instanceOf(
        QueryCancelledError,
      );
      expect(await failure(revenueByCountry().using(engine).execute())).to.be.instanceOf(LibConnectionError);
      // The sdk still retries the abandoned query request and its abort-request in the background
      // (sleeping up to 16 s between attempts, for about a minute). Let the warehouse come back so
      // both end at their next attempt instead of keeping the process alive.
      const back = await ReturningWarehouse.listen(port);
      try {
        expect(await back.waitForRequests(2, 20_000)).to.equal(2);
      } finally {
        await back.close();
      }
    });

    it("request_timeout bounds a statement the warehouse never answers", async () => {
      await using engine = standInEngine(standIn, { requestTimeout: "300ms" });
      standIn.holdQueries = /SEMANTIC_VIEW/;
      const error = await failure(revenueByCountry().using(engine).execute());
      expect(error).to.be.instanceOf(OperationalError);
      expect((error as Error).message).to.contain("request_timeout");
    });
  });
});
