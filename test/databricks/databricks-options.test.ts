/**
 * Backend B settings → `@databricks/sql` connect options (the table in databricks-options.ts):
 * token and OAuth auth types, URI fallback, fixed safety options, the extra-CA environment variable.
 */
import { writeFile } from "node:fs/promises";
import { expect } from "chai";
import { BackendBConfig, ValidationError } from "lib";
import type { BackendBSettings } from "../../runtime/dialects/databricks/databricks-settings.js";
import { Secret } from "../../runtime/config/secret.js";
import {
  CA_CERT_ENV,
  connectOptionsOf,
  secretsOf,
  sessionRequestOf,
} from "../../runtime/dialects/databricks/databricks-options.js";
import { tempDir } from "../support/temp-dir.js";

const base: BackendBSettings = {
  type: "backend_b",
  host: "adb-123.azuredatabricks.net",
  httpPath: "/sql/1.0/warehouses/abc",
  poolSize: 1,
  maxOverflow: 0,
  timeout: 30,
  recycle: 3600,
  prePing: false,
};

describe("backend B: settings → driver options", () => {
  let previousCa: string | undefined;
  before(() => {
    previousCa = process.env[CA_CERT_ENV];
    delete process.env[CA_CERT_ENV];
  });
  after(() => {
    if (previousCa === undefined) delete process.env[CA_CERT_ENV];
    else process.env[CA_CERT_ENV] = previousCa;
  });

  it("token mode: host, default port 443, path, bearer token, and the fixed safety options", () => {
    const options = connectOptionsOf({ ...base, token: new Secret("dapi-x") }) as unknown as Record<string, unknown>;
    expect(options).to.include({
      host: "adb-123.azuredatabricks.net",
      port: 443,
      path: "/sql/1.0/warehouses/abc",
      authType: "access-token",
      token: "dapi-x",
      preserveBigNumericPrecision: true,
      telemetryEnabled: false,
      retryMaxAttempts: 3,
    });
    expect(options).to.not.have.property("customCaCert");
    expect(options).to.not.have.property("checkServerCertificate");
  });

  it("OAuth M2M: databricks-oauth with client id and secret; U2M: no secret", () => {
    const m2m = connectOptionsOf({
      ...base,
      authType: "OAuthM2M",
      clientId: "sp-1",
      clientSecret: new Secret("s3cr3t"),
    }) as unknown as Record<string, unknown>;
    expect(m2m).to.include({ authType: "databricks-oauth", oauthClientId: "sp-1", oauthClientSecret: "s3cr3t" });
    expect(m2m).to.not.have.property("token");
    const u2m = connectOptionsOf({ ...base, authType: "OAuthU2M" }) as unknown as Record<string, unknown>;
    expect(u2m).to.include({ authType: "databricks-oauth" });
    expect(u2m).to.not.have.property("oauthClientSecret");
  });

  it("OAuth on Azure: the Entra tenant or Databricks' own OAuth reach the driver, from the file or the environment", () => {
    const plain = connectOptionsOf({
      ...base,
      authType: "OAuthM2M",
      clientId: "sp-1",
      clientSecret: new Secret("s3cr3t"),
    }) as unknown as Record<string, unknown>;
    expect(plain).to.not.have.property("azureTenantId");
    expect(plain).to.not.have.property("useDatabricksOAuthInAzure");

    const env = { BACKEND_B_AZURE_TENANT_ID: "0000-tenant", BACKEND_B_CLIENT_SECRET: "s3cr3t" };
    const entra = new BackendBConfig(
      { host: base.host, httpPath: base.httpPath, authType: "OAuthM2M", clientId: "sp-1" },
      { env },
    );
    expect(entra.settings).to.include({ azureTenantId: "0000-tenant" });
    expect(connectOptionsOf(entra.settings))
      .to.include({ authType: "databricks-oauth", azureTenantId: "0000-tenant" })
      .and.not.have.property("useDatabricksOAuthInAzure");

    const own = new BackendBConfig(
      { host: base.host, httpPath: base.httpPath, authType: "OAuthM2M", clientId: "sp-1", clientSecret: "s3cr3t" },
      { env: { BACKEND_B_USE_DATABRICKS_OAUTH_IN_AZURE: "true" } },
    );
    expect(connectOptionsOf(own.settings))
      .to.include({ authType: "databricks-oauth", useDatabricksOAuthInAzure: true })
      .and.not.have.property("azureTenantId");

    expect(
      () =>
        new BackendBConfig(
          {
            host: base.host,
            httpPath: base.httpPath,
            authType: "OAuthM2M",
            clientId: "sp-1",
            clientSecret: "s3cr3t",
            useDatabricksOAuthInAzure: true,
            azureTenantId: "t",
          },
          { env: {} },
        ),
    ).to.throw(ValidationError, /azure_tenant_id|azureTenantId/);
  });

  it("uri only (host/path not derived yet): parsed as a fallback; its token counts as a secret", () => {
    const settings: BackendBSettings = {
      ...base,
      host: undefined,
      httpPath: undefined,
      uri: new Secret("https://token:dapi-u@h.example:8443/sql/1.0/x"),
    };
    const options = connectOptionsOf(settings) as unknown as Record<string, unknown>;
    expect(options).to.include({ host: "h.example", port: 8443, path: "/sql/1.0/x", token: "dapi-u" });
    expect(secretsOf(settings)).to.include("dapi-u");
  });

  it("catalog and schema go to openSession", () => {
    expect(sessionRequestOf({ ...base, catalog: "main", schema: "retail" })).to.deep.equal({
      initialCatalog: "main",
      initialSchema: "retail",
      configuration: { TIMEZONE: "UTC" },
    });
    expect(sessionRequestOf(base)).to.deep.equal({ configuration: { TIMEZONE: "UTC" } });
  });

  it(`${CA_CERT_ENV} adds a trusted CA (verification stays on); an unreadable path is a clear error`, async () => {
    await using dir = await tempDir();
    try {
      const path = dir.file("ca.pem");
      await writeFile(path, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
      process.env[CA_CERT_ENV] = path;
      const options = connectOptionsOf({ ...base, token: new Secret("t") }) as unknown as Record<string, unknown>;
      expect(String(options["customCaCert"])).to.include("BEGIN CERTIFICATE");
      expect(options).to.not.have.property("checkServerCertificate");
      process.env[CA_CERT_ENV] = dir.file("missing.pem");
      expect(() => connectOptionsOf({ ...base, token: new Secret("t") })).to.throw(/BACKEND_B_CA_CERT.*missing\.pem/);
    } finally {
      delete process.env[CA_CERT_ENV];
    }
  });
});
