/**
 * Issue 22 item 3: a secret ending in a newline or CR (a secrets file with a final newline) or
 * holding NUL appeared in clear text in an error's cause chain and in `log` events, because
 * redaction matched only the exact configured bytes while the driver echoed another form. Every
 * check prints the whole error (message, stack, cause chain, own properties, JSON) and every log
 * event, and looks for every form of the secret: raw, trimmed, escaped, around its NUL.
 */
import { inspect } from "node:util";
import { expect } from "chai";
import { BackendBConfig, LibConnectionError, ValidationError, createEngine, type Engine, type LogEvent } from "lib";
import { engineFromSettings } from "../../runtime/engine/create-engine.js";
import { Secret } from "../../runtime/config/secret.js";
import { redactText, secretForms, withoutSecrets } from "../../runtime/driver/secret-redaction.js";
import { SnowflakeDriverError } from "../../runtime/dialects/snowflake/snowflake-driver-error.js";
import {
  STAND_IN_HTTP_PATH,
  TOKEN,
  driverSettings,
  useStandIn,
} from "../support/stand-ins/databricks/databricks-stand-in-fixture.js";
import { standInConfig, useSnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in-fixture.js";
import type { SnowflakeStandIn } from "../support/stand-ins/snowflake/snowflake-stand-in.js";

/** Everything printing `value` could show. */
function printed(value: unknown): string {
  let json = "";
  try {
    json = JSON.stringify(value) ?? "";
  } catch {
    json = "";
  }
  return `${String(value)}\n${inspect(value, { depth: 10 })}\n${json}`;
}

/** The visible core of the secret (without edge whitespace), and its pieces around control characters. */
function expectNowhere(value: unknown, secret: string): void {
  const text = printed(value);
  const core = secret.trim();
  for (const piece of [core, ...core.split(/[\x00-\x1f]+/).filter((p) => p.length >= 6)]) {
    expect(text, `the secret piece ${JSON.stringify(piece)} in ${text.slice(0, 400)}`).to.not.include(piece);
  }
  expect(text).to.not.include(JSON.stringify(core).slice(1, -1));
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("reliability: secrets in every form stay out of errors and log events", () => {
  describe("the redaction itself", () => {
    const token = "dapi-0f1e2d3c4b5a\n";
    it("expands a secret into the forms a driver or printer produces", () => {
      const forms = secretForms([token]);
      for (const shown of [
        "Bearer dapi-0f1e2d3c4b5a\n is not a legal HTTP header value",
        "Bearer dapi-0f1e2d3c4b5a is not a legal HTTP header value",
        '{"Authorization":"Bearer dapi-0f1e2d3c4b5a\\n"}',
        `Basic ${Buffer.from("token:dapi-0f1e2d3c4b5a").toString("base64")}`,
      ]) {
        expect(redactText(shown, forms)).to.not.include("dapi-0f1e2d3c4b5a");
        expect(redactText(shown, forms)).to.not.include(Buffer.from("token:dapi-0f1e2d3c4b5a").toString("base64"));
      }
      const nul = secretForms(["dapi-abcdef\u0000123456"]);
      expect(redactText("Bearer dapi-abcdef", nul)).to.equal("Bearer [redacted]"); // a C string cut at NUL
      expect(redactText('"dapi-abcdef\\u0000123456"', nul)).to.equal('"[redacted]"');
    });

    it("an error that holds a form anywhere is replaced by a redacted copy; a clean one is kept as it is", () => {
      const forms = secretForms([token]);
      const clean = new Error("connection refused");
      expect(withoutSecrets(clean, forms)).to.equal(clean);
      const inner = Object.assign(new TypeError("Bearer dapi-0f1e2d3c4b5a\n is not a legal HTTP header value"), {
        code: "ERR_INVALID_CHAR",
        request: { headers: { authorization: `Bearer ${token}` } },
      });
      const outer = new Error("fetch failed", { cause: inner });
      const copy = withoutSecrets(outer, forms) as Error;
      expect(copy).to.not.equal(outer);
      expectNowhere(copy, token);
      expect((copy.cause as Error).name).to.equal("TypeError");
      expect(copy.cause).to.have.property("code", "ERR_INVALID_CHAR");
      expect(copy.cause).to.not.have.property("request");
    });
  });

  describe("backend B (the real driver against the stand-in)", function () {
    this.timeout(20_000);
    const fixture = useStandIn();
    const engineWith = (token: string, events: LogEvent[]): Engine =>
      createEngine(
        new BackendBConfig({
          host: "127.0.0.1",
          port: fixture.standIn.port,
          httpPath: STAND_IN_HTTP_PATH,
          token,
          poolSize: 1,
        }),
        { log: (event) => events.push(event) },
      );

    it("the right token with a final newline or CR connects: the header loses edge whitespace, as a service would", async () => {
      for (const token of [`${TOKEN}\n`, `${TOKEN}\r\n`, ` ${TOKEN}\t`]) {
        const events: LogEvent[] = [];
        await using engine = engineWith(token, events);
        await using conn = await engine.connect();
        expect(await conn.all("SELECT 1 AS one")).to.deep.equal([{ one: 1 }]);
      }
    });

    for (const token of ["dapi-wrong-77aa66bb\n", "dapi-wrong-77aa66bb\r", "dapi-wrong-77aa66bb\r\n"]) {
      it(`a wrong token ${JSON.stringify(token)}: refused, and in no form in the error chain or a log event`, async () => {
        const events: LogEvent[] = [];
        await using engine = engineWith(token, events);
        const error = await failureOf(() => engine.connect());
        expect(error).to.be.instanceOf(LibConnectionError);
        expect((error as Error).message).to.match(/authentication failed/);
        expect(events.some((e) => e.type === "connection" && e.action === "open-error")).to.equal(true);
        expectNowhere(error, token);
        expectNowhere(events, token);
      });
    }

    it("a token holding NUL or an inner line break is refused at configuration, the value hidden", () => {
      for (const token of ["dapi-aa\u0000bbccddeeff", "dapi-aabbcc\nddeeff"]) {
        const error = (() => {
          try {
            new BackendBConfig({ host: "h", httpPath: "/p", token });
          } catch (e) {
            return e;
          }
          return undefined;
        })();
        expect(error).to.be.instanceOf(ValidationError);
        expect((error as ValidationError).field).to.equal("token");
        expect((error as Error).message).to.match(/control character/);
        expectNowhere(error, token);
      }
      const uri = `https://token:dapi-aa%00bbccddeeff@h:443${STAND_IN_HTTP_PATH}`;
      expect(() => new BackendBConfig({ uri })).to.throw(ValidationError, /control character/);
    });

    it("a NUL token that bypasses configuration (settings built by hand) fails without showing it", async () => {
      const token = "dapi-nul-11223344\u000055667788";
      const events: LogEvent[] = [];
      await using engine = engineFromSettings(driverSettings(fixture.standIn, token), {
        log: (event) => events.push(event),
      });
      const error = await failureOf(() => engine.connect());
      expect(error).to.be.instanceOf(LibConnectionError);
      expectNowhere(error, token);
      expectNowhere(events, token);
    });
  });

  describe("backend A (the real snowflake-sdk against the stand-in)", function () {
    this.timeout(20_000);
    const stand = useSnowflakeStandIn();

    for (const [field, secret] of [
      ["password", "pw-wrong-5566778899\n"],
      ["password", "pw-wrong-55667788\u000099"],
      ["oauthToken", "oauth-wrong-aabbccdd\r\n"],
    ] as const) {
      it(`a wrong ${field} ${JSON.stringify(secret)}: in no form in the error chain or a log event`, async () => {
        const events: LogEvent[] = [];
        const extra =
          field === "password"
            ? { password: secret }
            : { authType: "auth_oauth", oauthToken: secret, password: undefined };
        await using engine = createEngine(standInConfig(stand.standIn, extra as never), {
          log: (event) => events.push(event),
        });
        const error = await failureOf(() => engine.connect());
        expect(error).to.be.instanceOf(LibConnectionError);
        expectNowhere(error, secret);
        expectNowhere(events, secret);
      });
    }

    it("the sdk error copy redacts every form of each secret", () => {
      const forms = secretForms(["hunter2-secret\n"]);
      const copy = SnowflakeDriverError.from(new Error('login failed: {"PASSWORD":"hunter2-secret\\n"}'), forms);
      expect(copy.message).to.equal('login failed: {"PASSWORD":"[redacted]"}');
      expect(new Secret("x").toString()).to.equal("[redacted]");
    });
  });
});
