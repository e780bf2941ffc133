import { expect } from "chai";
import {
  loadConnectionSettings,
  Secret,
  type BackendASettings,
  type BackendBSettings,
  type BackendCSettings,
} from "./support/config-api.js";
import { section, TempConfigDir } from "./support/config-fixtures.js";

/** Settings with every Secret replaced by `{ secret: <value> }`, for deep comparison. */
function revealed(settings: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [key, value instanceof Secret ? { secret: value.reveal() } : value]),
  );
}

describe("config: fields and defaults per backend (TOML)", () => {
  let tmp: TempConfigDir;
  beforeEach(() => {
    tmp = new TempConfigDir();
  });
  afterEach(() => tmp.remove());
  const load = (text: string, name = "default") =>
    loadConnectionSettings(name, { configPath: tmp.write(text), env: {} });

  describe("defaults", () => {
    it("backend A: common defaults, ocsp_fail_open_mode true, other booleans false", () => {
      const s = load(section("default", "backend_a")) as BackendASettings;
      expect(revealed(s)).to.deep.equal({
        type: "backend_a",
        poolSize: 5,
        maxOverflow: 3,
        timeout: 30,
        recycle: 3600,
        disposeTimeout: 10,
        prePing: false,
        tlsSkipVerify: false,
        ocspFailOpenMode: true,
        keepSessionAlive: false,
        disableTelemetry: false,
        cacheMfaToken: false,
        storeTempCreds: false,
      });
      expect(s.user).to.equal(undefined);
      expect(s.password).to.equal(undefined);
      expect(s.loginTimeout).to.equal(undefined);
      expect(s.authType).to.equal(undefined);
    });

    it("backend B: common defaults only", () => {
      const s = load(
        section("default", "backend_b", 'host = "h.example"', 'http_path = "/sql/1.0/warehouses/w"', 'token = "t"'),
      );
      expect(revealed(s)).to.deep.equal({
        type: "backend_b",
        poolSize: 5,
        maxOverflow: 3,
        timeout: 30,
        recycle: 3600,
        disposeTimeout: 10,
        prePing: false,
        host: "h.example",
        httpPath: "/sql/1.0/warehouses/w",
        token: { secret: "t" },
      });
    });

    it("backend C: database :memory:, pool_size 1, read_only false, semantic_views auto", () => {
      const s = load(section("default", "backend_c")) as BackendCSettings;
      expect(revealed(s)).to.deep.equal({
        type: "backend_c",
        poolSize: 1,
        maxOverflow: 3,
        timeout: 30,
        recycle: 3600,
        disposeTimeout: 10,
        prePing: false,
        database: ":memory:",
        readOnly: false,
        createIfMissing: false,
        semanticViews: "auto",
      });
    });

    it("backend C: a database file defaults pool_size to 5", () => {
      const s = load(section("default", "backend_c", 'database = "/data/app.duckdb"'));
      expect(s.poolSize).to.equal(5);
      expect(s.database).to.equal("/data/app.duckdb");
    });

    it('backend C: an explicit database = ":memory:" with pool_size = 1 is accepted', () => {
      const s = load(section("default", "backend_c", 'database = ":memory:"', "pool_size = 1"));
      expect(s.poolSize).to.equal(1);
    });
  });

  describe("every field", () => {
    it("backend A: every common, backend and authentication field", () => {
      const s = load(
        section(
          "default",
          "backend_a",
          "pool_size = 7",
          "max_overflow = 0",
          "timeout = 12",
          "recycle = 0",
          "pre_ping = true",
          'user = "alice"',
          'password = "pw-a"',
          'database = "ANALYTICS"',
          'schema = "PUBLIC"',
          'host = "acct.example.com"',
          "port = 8443",
          'protocol = "https"',
          'account = "xy12345.eu-central-1"',
          'warehouse = "COMPUTE_WH"',
          'role = "ANALYST"',
          'region = "eu-central-1"',
          'login_timeout = "1m30s"',
          'request_timeout = "300ms"',
          'client_timeout = "1h2m3.5s"',
          "tls_skip_verify = true",
          "ocsp_fail_open_mode = false",
          "keep_session_alive = true",
          'app_name = "my-app_1.0"',
          "disable_telemetry = true",
          "cache_mfa_token = true",
          "store_temp_creds = true",
          'auth_type = "auth_jwt"',
          'private_key_path = "/keys/rsa_key.p8"',
          'private_key_passphrase = "pass-a"',
          'jwt_expire_timeout = "59s"',
          'oauth_token = "oauth-a"',
          'sso_url = "https://sso.example.com"',
          'identity_provider = "AWS"',
        ),
      );
      expect(revealed(s)).to.deep.equal({
        type: "backend_a",
        poolSize: 7,
        maxOverflow: 0,
        timeout: 12,
        recycle: 0,
        disposeTimeout: 10,
        prePing: true,
        user: "alice",
        password: { secret: "pw-a" },
        database: "ANALYTICS",
        schema: "PUBLIC",
        host: "acct.example.com",
        port: 8443,
        protocol: "https",
        account: "xy12345.eu-central-1",
        warehouse: "COMPUTE_WH",
        role: "ANALYST",
        region: "eu-central-1",
        loginTimeout: 90_000,
        requestTimeout: 300,
        clientTimeout: 3_723_500,
        tlsSkipVerify: true,
        ocspFailOpenMode: false,
        keepSessionAlive: true,
        appName: "my-app_1.0",
        disableTelemetry: true,
        cacheMfaToken: true,
        storeTempCreds: true,
        authType: "auth_jwt",
        privateKeyPath: "/keys/rsa_key.p8",
        privateKeyPassphrase: { secret: "pass-a" },
        jwtExpireTimeout: 59_000,
        oauthToken: { secret: "oauth-a" },
        ssoUrl: "https://sso.example.com",
        identityProvider: "AWS",
      });
    });

    it("backend A: private_key_pem is a secret", () => {
      const pem = "-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----";
      const s = load(
        section("default", "backend_a", 'auth_type = "auth_jwt"', `private_key_pem = """${pem}"""`),
      ) as BackendASettings;
      expect(s.privateKeyPem).to.be.instanceOf(Secret);
      expect(s.privateKeyPem?.reveal()).to.equal(pem);
    });

    for (const authType of [
      "auth_jwt",
      "auth_ext_browser",
      "auth_oauth",
      "auth_mfa",
      "auth_sso",
      "auth_pat",
      "auth_wif",
    ]) {
      it(`backend A: auth_type = "${authType}" is accepted`, () => {
        const s = load(
          section(
            "default",
            "backend_a",
            `auth_type = "${authType}"`,
            'private_key_path = "/k.p8"',
            'oauth_token = "o"',
            'sso_url = "https://s"',
          ),
        ) as BackendASettings;
        expect(s.authType).to.equal(authType);
      });
    }

    it("backend B decomposed: every field", () => {
      const s = load(
        section(
          "default",
          "backend_b",
          'host = "dbc-1.cloud.example.com"',
          'http_path = "/sql/1.0/warehouses/abc"',
          'token = "dapi-b"',
          'catalog = "main"',
          'schema = "sales"',
          'user = "u"',
          'password = "pw-b"',
          'database = "d"',
          'protocol = "https"',
          "port = 443",
          'auth_type = "OAuthM2M"',
          'client_id = "cid"',
          'client_secret = "csecret"',
          "pool_size = 2",
          "pre_ping = true",
        ),
      );
      expect(revealed(s)).to.deep.equal({
        type: "backend_b",
        poolSize: 2,
        maxOverflow: 3,
        timeout: 30,
        recycle: 3600,
        disposeTimeout: 10,
        prePing: true,
        user: "u",
        password: { secret: "pw-b" },
        database: "d",
        schema: "sales",
        host: "dbc-1.cloud.example.com",
        port: 443,
        protocol: "https",
        httpPath: "/sql/1.0/warehouses/abc",
        token: { secret: "dapi-b" },
        catalog: "main",
        authType: "OAuthM2M",
        clientId: "cid",
        clientSecret: { secret: "csecret" },
      });
    });

    it("backend B uri: host, port, httpPath and token are derived for the driver", () => {
      const uri = "databricks://token:dapi%2Fxyz@dbc-1.cloud.example.com:443/sql/1.0/warehouses/abc";
      const s = load(section("default", "backend_b", `uri = "${uri}"`, 'catalog = "main"')) as BackendBSettings;
      expect(s.uri).to.be.instanceOf(Secret);
      expect(s.uri?.reveal()).to.equal(uri);
      expect(s.host).to.equal("dbc-1.cloud.example.com");
      expect(s.port).to.equal(443);
      expect(s.httpPath).to.equal("/sql/1.0/warehouses/abc");
      expect(s.token?.reveal()).to.equal("dapi/xyz");
      expect(s.catalog).to.equal("main");
    });

    it("backend B uri: a port other than 443, and no port meaning 443", () => {
      const withPort = load(
        section("default", "backend_b", 'uri = "databricks://token:t@h.example:8443/p"'),
      ) as BackendBSettings;
      expect(withPort.port).to.equal(8443);
      const withoutPort = load(
        section("default", "backend_b", 'uri = "databricks://token:t@h.example/p"'),
      ) as BackendBSettings;
      expect(withoutPort.port).to.equal(443);
    });

    it("backend B: OAuthU2M needs no token", () => {
      const s = load(
        section("default", "backend_b", 'host = "h"', 'http_path = "/p"', 'auth_type = "OAuthU2M"'),
      ) as BackendBSettings;
      expect(s.authType).to.equal("OAuthU2M");
      expect(s.token).to.equal(undefined);
    });

    it("backend C: every field", () => {
      const s = load(
        section(
          "default",
          "backend_c",
          'database = "/tmp/x.duckdb"',
          "read_only = true",
          'semantic_views = "builtin"',
          "pool_size = 4",
          "max_overflow = 1",
          "timeout = 5",
          "recycle = 60",
          "pre_ping = true",
          'schema = "main"',
          'user = "u"',
          'password = "pw-c"',
          'host = "localhost"',
          "port = 1",
          'protocol = "http"',
        ),
      );
      expect(revealed(s)).to.deep.equal({
        type: "backend_c",
        poolSize: 4,
        maxOverflow: 1,
        timeout: 5,
        recycle: 60,
        disposeTimeout: 10,
        prePing: true,
        user: "u",
        password: { secret: "pw-c" },
        database: "/tmp/x.duckdb",
        schema: "main",
        host: "localhost",
        port: 1,
        protocol: "http",
        readOnly: true,
        createIfMissing: false,
        semanticViews: "builtin",
      });
    });

    for (const mode of ["auto", "builtin", "extension"]) {
      it(`backend C: semantic_views = "${mode}"`, () => {
        expect(
          (load(section("default", "backend_c", `semantic_views = "${mode}"`)) as BackendCSettings).semanticViews,
        ).to.equal(mode);
      });
    }

    it("port accepts the bounds 1 and 65535", () => {
      expect(load(section("default", "backend_a", "port = 65535")).port).to.equal(65535);
      expect(load(section("default", "backend_a", "port = 1")).port).to.equal(1);
    });

    it("settings are frozen", () => {
      const s = load(section("default", "backend_c"));
      expect(Object.isFrozen(s)).to.equal(true);
    });
  });
});
