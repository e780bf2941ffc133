import { expect } from "chai";
import {
  loadConnectionSettings,
  type BackendASettings,
  type BackendBSettings,
  type BackendCSettings,
} from "./support/config-api.js";
import { section, TempConfigDir, validationError } from "./support/config-fixtures.js";

describe("config: environment fallback", () => {
  let tmp: TempConfigDir;
  beforeEach(() => {
    tmp = new TempConfigDir();
  });
  afterEach(() => tmp.remove());
  const load = (text: string, env: Record<string, string>, name = "default") =>
    loadConnectionSettings(name, { configPath: tmp.write(text), env });

  it("reads a field left out from <PREFIX><FIELD> (BACKEND_A_PASSWORD, BACKEND_B_TOKEN, BACKEND_C_DATABASE)", () => {
    const a = load(section("default", "backend_a", 'user = "u"'), {
      BACKEND_A_PASSWORD: "pw-from-env",
    }) as BackendASettings;
    expect(a.password?.reveal()).to.equal("pw-from-env");
    const b = load(section("default", "backend_b", 'host = "h"', 'http_path = "/p"'), {
      BACKEND_B_TOKEN: "tok-env",
    }) as BackendBSettings;
    expect(b.token?.reveal()).to.equal("tok-env");
    const c = load(section("default", "backend_c"), { BACKEND_C_DATABASE: "/data/env.duckdb" }) as BackendCSettings;
    expect(c.database).to.equal("/data/env.duckdb");
    expect(c.poolSize).to.equal(5, "a file database from the environment gets the file default");
  });

  it("uses only the prefix of the section's own backend", () => {
    const a = load(section("default", "backend_a"), { BACKEND_B_USER: "b-user", BACKEND_C_USER: "c-user" });
    expect(a.user).to.equal(undefined);
    const a2 = load(section("default", "backend_a"), { BACKEND_A_USER: "a-user" });
    expect(a2.user).to.equal("a-user");
  });

  it("a value in the file wins over the environment", () => {
    const a = load(section("default", "backend_a", 'password = "file-pw"', "pool_size = 2", 'account = "file-acct"'), {
      BACKEND_A_PASSWORD: "env-pw",
      BACKEND_A_POOL_SIZE: "9",
      BACKEND_A_ACCOUNT: "env-acct",
    }) as BackendASettings;
    expect(a.password?.reveal()).to.equal("file-pw");
    expect(a.poolSize).to.equal(2);
    expect(a.account).to.equal("file-acct");
  });

  it("the environment wins over a default", () => {
    const a = load(section("default", "backend_a"), {
      BACKEND_A_POOL_SIZE: "9",
      BACKEND_A_OCSP_FAIL_OPEN_MODE: "false",
    }) as BackendASettings;
    expect(a.poolSize).to.equal(9);
    expect(a.ocspFailOpenMode).to.equal(false);
  });

  it("schema on backends A and B comes from the unprefixed SCHEMA", () => {
    const env = { SCHEMA: "from_schema", BACKEND_A_SCHEMA: "prefixed_a", BACKEND_B_SCHEMA: "prefixed_b" };
    expect(load(section("default", "backend_a"), env).schema).to.equal("from_schema");
    expect(load(section("default", "backend_b", 'host = "h"', 'http_path = "/p"', 'token = "t"'), env).schema).to.equal(
      "from_schema",
    );
    expect(load(section("default", "backend_a"), { BACKEND_A_SCHEMA: "prefixed_a" }).schema).to.equal(undefined);
  });

  it("schema in the file wins over SCHEMA", () => {
    expect(load(section("default", "backend_a", 'schema = "file_schema"'), { SCHEMA: "env_schema" }).schema).to.equal(
      "file_schema",
    );
  });

  it("schema on backend C comes from BACKEND_C_SCHEMA, not SCHEMA", () => {
    expect(load(section("default", "backend_c"), { SCHEMA: "x" }).schema).to.equal(undefined);
    expect(load(section("default", "backend_c"), { BACKEND_C_SCHEMA: "y" }).schema).to.equal("y");
  });

  it("type is never read from the environment", () => {
    const error = validationError(() =>
      load('[connections.default]\nuser = "u"\n', { BACKEND_A_TYPE: "backend_a", TYPE: "backend_a" }),
    );
    expect(error.message).to.match(/type is required/);
  });

  it("an empty variable counts as unset", () => {
    const a = load(section("default", "backend_a"), { BACKEND_A_POOL_SIZE: "", BACKEND_A_USER: "" });
    expect(a.poolSize).to.equal(5);
    expect(a.user).to.equal(undefined);
  });

  describe("conversion to the field's type", () => {
    it("integers (with surrounding whitespace and sign)", () => {
      const a = load(section("default", "backend_a"), {
        BACKEND_A_POOL_SIZE: " 12 ",
        BACKEND_A_MAX_OVERFLOW: "0",
        BACKEND_A_TIMEOUT: "+45",
        BACKEND_A_RECYCLE: "60",
        BACKEND_A_PORT: "443",
      });
      expect([a.poolSize, a.maxOverflow, a.timeout, a.recycle, a.port]).to.deep.equal([12, 0, 45, 60, 443]);
    });

    for (const [text, value] of [
      ["true", true],
      ["TRUE", true],
      ["1", true],
      ["yes", true],
      ["Yes", true],
      ["false", false],
      ["False", false],
      ["0", false],
      ["no", false],
      ["NO", false],
    ] as const) {
      it(`boolean ${JSON.stringify(text)} → ${value}`, () => {
        expect(load(section("default", "backend_c"), { BACKEND_C_PRE_PING: text }).prePing).to.equal(value);
      });
    }

    it("durations into milliseconds", () => {
      const a = load(section("default", "backend_a"), {
        BACKEND_A_LOGIN_TIMEOUT: "1m30s",
        BACKEND_A_REQUEST_TIMEOUT: "300ms",
        BACKEND_A_CLIENT_TIMEOUT: "1h2m3.5s",
        BACKEND_A_JWT_EXPIRE_TIMEOUT: "1h",
      }) as BackendASettings;
      expect([a.loginTimeout, a.requestTimeout, a.clientTimeout, a.jwtExpireTimeout]).to.deep.equal([
        90_000, 300, 3_723_500, 3_600_000,
      ]);
    });

    it("enums, checked against their values", () => {
      const c = load(section("default", "backend_c"), { BACKEND_C_SEMANTIC_VIEWS: "extension" }) as BackendCSettings;
      expect(c.semanticViews).to.equal("extension");
      const a = load(section("default", "backend_a"), {
        BACKEND_A_PROTOCOL: "http",
        BACKEND_A_AUTH_TYPE: "auth_ext_browser",
      }) as BackendASettings;
      expect(a.protocol).to.equal("http");
      expect(a.authType).to.equal("auth_ext_browser");
    });

    it("every secret field from the environment is wrapped in Secret", () => {
      const a = load(section("default", "backend_a", 'auth_type = "auth_jwt"'), {
        BACKEND_A_PASSWORD: "p1",
        BACKEND_A_PRIVATE_KEY_PEM: "p2",
        BACKEND_A_PRIVATE_KEY_PASSPHRASE: "p3",
        BACKEND_A_OAUTH_TOKEN: "p4",
      }) as BackendASettings;
      expect([
        a.password?.reveal(),
        a.privateKeyPem?.reveal(),
        a.privateKeyPassphrase?.reveal(),
        a.oauthToken?.reveal(),
      ]).to.deep.equal(["p1", "p2", "p3", "p4"]);
      const b = load(section("default", "backend_b", 'host = "h"', 'http_path = "/p"', 'auth_type = "OAuthM2M"'), {
        BACKEND_B_CLIENT_ID: "cid",
        BACKEND_B_CLIENT_SECRET: "cs",
      }) as BackendBSettings;
      expect(b.clientId).to.equal("cid");
      expect(b.clientSecret?.reveal()).to.equal("cs");
    });

    const badValues: ReadonlyArray<readonly [string, string, RegExp]> = [
      [
        "BACKEND_A_POOL_SIZE",
        "five",
        /pool_size \(from environment variable BACKEND_A_POOL_SIZE\) must be an integer, got "five"/,
      ],
      ["BACKEND_A_POOL_SIZE", "1.5", /BACKEND_A_POOL_SIZE\) must be an integer/],
      ["BACKEND_A_POOL_SIZE", "0", /BACKEND_A_POOL_SIZE\) must be an integer >= 1, got 0/],
      ["BACKEND_A_MAX_OVERFLOW", "-1", /BACKEND_A_MAX_OVERFLOW\) must be a non-negative integer, got -1/],
      ["BACKEND_A_PORT", "70000", /BACKEND_A_PORT\) must be between 1 and 65535/],
      [
        "BACKEND_A_PRE_PING",
        "maybe",
        /BACKEND_A_PRE_PING\) must be a boolean \(true\/false, 1\/0, yes\/no\), got "maybe"/,
      ],
      ["BACKEND_A_LOGIN_TIMEOUT", "30", /BACKEND_A_LOGIN_TIMEOUT\) is not a valid duration \(a duration needs a unit/],
      ["BACKEND_A_PROTOCOL", "ftp", /BACKEND_A_PROTOCOL\) must be one of "http", "https", got "ftp"/],
      ["BACKEND_A_AUTH_TYPE", "auth_magic", /BACKEND_A_AUTH_TYPE\) must be one of "auth_jwt"/],
      ["BACKEND_A_APP_NAME", "1bad", /BACKEND_A_APP_NAME\) must be a letter then/],
    ];
    for (const [variable, text, message] of badValues) {
      it(`a bad ${variable}=${JSON.stringify(text)} raises ValidationError naming the variable`, () => {
        const path = tmp.write(section("default", "backend_a"));
        const error = validationError(() =>
          loadConnectionSettings("default", { configPath: path, env: { [variable]: text } }),
        );
        expect(error.message).to.match(message);
        expect(error.message).to.include(`${path} [connections.default]`);
        expect(error.field).to.equal(variable.replace("BACKEND_A_", "").toLowerCase());
      });
    }
  });

  describe("backend B modes and the environment", () => {
    it("env BACKEND_B_URI alone selects the URI mode", () => {
      const b = load(section("default", "backend_b"), {
        BACKEND_B_URI: "databricks://token:tok@h.example:443/sql/p",
      }) as BackendBSettings;
      expect(b.host).to.equal("h.example");
      expect(b.token?.reveal()).to.equal("tok");
    });

    it("env host/http_path/token alone select the decomposed mode", () => {
      const b = load(section("default", "backend_b"), {
        BACKEND_B_HOST: "h.example",
        BACKEND_B_HTTP_PATH: "/sql/p",
        BACKEND_B_TOKEN: "tok",
      }) as BackendBSettings;
      expect([b.host, b.httpPath, b.token?.reveal(), b.uri]).to.deep.equal(["h.example", "/sql/p", "tok", undefined]);
    });

    it("a uri in the file ignores decomposed variables", () => {
      const b = load(section("default", "backend_b", 'uri = "databricks://token:file-tok@file.example/sql/p"'), {
        BACKEND_B_HOST: "env.example",
        BACKEND_B_TOKEN: "env-tok",
        BACKEND_B_PORT: "1234",
      }) as BackendBSettings;
      expect([b.host, b.token?.reveal(), b.port]).to.deep.equal(["file.example", "file-tok", 443]);
    });

    it("decomposed fields in the file ignore BACKEND_B_URI", () => {
      const b = load(section("default", "backend_b", 'host = "file.example"', 'http_path = "/p"'), {
        BACKEND_B_URI: "databricks://token:env-tok@env.example/sql/p",
        BACKEND_B_TOKEN: "env-token",
      }) as BackendBSettings;
      expect([b.host, b.uri, b.token?.reveal()]).to.deep.equal(["file.example", undefined, "env-token"]);
    });

    it("BACKEND_B_URI together with BACKEND_B_HOST (nothing in the file) is ambiguous", () => {
      const error = validationError(() =>
        load(section("default", "backend_b"), {
          BACKEND_B_URI: "databricks://token:SECRETTOK@h/p",
          BACKEND_B_HOST: "h",
        }),
      );
      expect(error.message).to.match(
        /host \(from environment variable BACKEND_B_HOST\) is ambiguous together with uri \(from environment variable BACKEND_B_URI\)/,
      );
      expect(error.message).not.to.include("SECRETTOK");
    });
  });
});
