/** Backend A settings → snowflake-sdk connection options (the mapping table in snowflake-options.ts). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect } from "chai";
import { BackendAConfig, ValidationError } from "lib";
import type { BackendAConfigInput } from "../../runtime/dialects/snowflake/snowflake-config.js";
import type { BackendASettings } from "../../runtime/dialects/snowflake/snowflake-settings.js";
import { resolveSettings } from "../../runtime/dialects/resolve-settings.js";
import { LOGIN_RETRIES, snowflakeConnectionOptions } from "../../runtime/dialects/snowflake/snowflake-options.js";

const require = createRequire(import.meta.url);

function settingsOf(input: BackendAConfigInput): BackendASettings {
  return resolveSettings(new BackendAConfig(input)).settings as BackendASettings;
}

const optionsOf = (input: BackendAConfigInput) => snowflakeConnectionOptions(settingsOf(input));

describe("backend A settings → snowflake-sdk options", () => {
  it("snowflake-sdk is pinned to the minor version tested here (its number handling changes between versions)", () => {
    // An optional peer dependency (installed by users of backend A), and a dev dependency here.
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Record<
      string,
      Record<string, string>
    >;
    const installed = (
      JSON.parse(readFileSync(require.resolve("snowflake-sdk/package.json"), "utf8")) as { version: string }
    ).version;
    expect(pkg["peerDependencies"]!["snowflake-sdk"]).to.equal("~3.3.0");
    expect(pkg["devDependencies"]!["snowflake-sdk"]).to.equal("~3.3.0");
    expect(installed).to.match(/^3\.3\.\d+$/);
  });

  it("basic fields, host/port/protocol as accessUrl, timeouts and flags", () => {
    expect(
      optionsOf({
        account: "acme-eu1",
        host: "127.0.0.1",
        port: 8080,
        protocol: "http",
        user: "alice",
        password: "pw-1",
        database: "DB",
        schema: "SCH",
        warehouse: "WH",
        role: "R",
        region: "eu-west-1",
        loginTimeout: "2m",
        clientTimeout: "45s",
        keepSessionAlive: true,
        appName: "my-app",
        storeTempCreds: true,
      } as BackendAConfigInput),
    ).to.deep.equal({
      accessUrl: "http://127.0.0.1:8080",
      account: "acme-eu1",
      region: "eu-west-1",
      username: "alice",
      password: "pw-1",
      database: "DB",
      schema: "SCH",
      warehouse: "WH",
      role: "R",
      application: "my-app",
      timeout: 45_000,
      retryTimeout: 120,
      sfRetryMaxLoginRetries: LOGIN_RETRIES,
      representNullAsStringNull: false,
      jsTreatIntegerAsBigInt: true,
      clientSessionKeepAlive: true,
      clientStoreTemporaryCredential: true,
    });
  });

  it("no host: the sdk builds the URL from the account; https is the default protocol", () => {
    const options = optionsOf({ account: "acme", user: "u", password: "p" });
    expect(options).not.to.have.property("accessUrl");
    expect(optionsOf({ host: "acme.snowflakecomputing.com", user: "u", password: "p" })).to.include({
      accessUrl: "https://acme.snowflakecomputing.com",
      account: "acme",
    });
  });

  it("each auth_type picks its authenticator and credentials", () => {
    expect(
      optionsOf({ account: "a", user: "u", authType: "auth_jwt", privateKeyPem: "PEM", privateKeyPassphrase: "pp" }),
    ).to.include({
      authenticator: "SNOWFLAKE_JWT",
      privateKey: "PEM",
      privateKeyPass: "pp",
    });
    expect(optionsOf({ account: "a", user: "u", authType: "auth_jwt", privateKeyPath: "/keys/k.p8" })).to.include({
      authenticator: "SNOWFLAKE_JWT",
      privateKeyPath: "/keys/k.p8",
    });
    expect(
      optionsOf({ account: "a", user: "u", authType: "auth_ext_browser", loginTimeout: "30s" } as BackendAConfigInput),
    ).to.include({
      authenticator: "EXTERNALBROWSER",
      browserActionTimeout: 30_000,
    });
    expect(optionsOf({ account: "a", authType: "auth_oauth", oauthToken: "tok" })).to.include({
      authenticator: "OAUTH",
      token: "tok",
    });
    expect(optionsOf({ account: "a", user: "u", password: "p", authType: "auth_mfa", cacheMfaToken: true })).to.include(
      {
        authenticator: "USERNAME_PASSWORD_MFA",
        clientRequestMFAToken: true,
      },
    );
    expect(
      optionsOf({ account: "a", user: "u", password: "p", authType: "auth_sso", ssoUrl: "https://acme.okta.com" }),
    ).to.include({
      authenticator: "https://acme.okta.com",
    });
    expect(optionsOf({ account: "a", user: "u", authType: "auth_pat", oauthToken: "pat" })).to.include({
      authenticator: "PROGRAMMATIC_ACCESS_TOKEN",
      token: "pat",
    });
    expect(optionsOf({ account: "a", authType: "auth_wif", identityProvider: "aws" })).to.include({
      authenticator: "WORKLOAD_IDENTITY",
      workloadIdentityProvider: "AWS",
    });
  });

  it("auth_wif needs a known identity_provider", () => {
    expect(() => optionsOf({ account: "a", authType: "auth_wif", identityProvider: "nope" }))
      .to.throw(ValidationError, /identity_provider/)
      .with.property("field", "identity_provider");
  });

  it("tls_skip_verify is refused over https and ignored over http", () => {
    expect(() => optionsOf({ account: "a", user: "u", password: "p", tlsSkipVerify: true }))
      .to.throw(ValidationError, /not supported/)
      .with.property("field", "tls_skip_verify");
    expect(optionsOf({ account: "a", host: "127.0.0.1", protocol: "http", tlsSkipVerify: true })).to.include({
      accessUrl: "http://127.0.0.1",
    });
  });

  it("error messages about options never carry the secrets", () => {
    try {
      optionsOf({ account: "a", password: "hunter2-secret", authType: "auth_wif", identityProvider: "x" });
      expect.fail("expected a ValidationError");
    } catch (error) {
      expect(String((error as Error).message)).not.to.contain("hunter2-secret");
    }
  });
});
