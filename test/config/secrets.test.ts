import { inspect } from "node:util";
import { expect } from "chai";
import {
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  loadConnectionSettings,
  Secret,
} from "./support/config-api.js";
import { expectNoSecret, section, TempConfigDir, validationError } from "./support/config-fixtures.js";

/** Distinctive secret values, asserted absent from every error and printout. */
const PW = "pw-Zq81x-SECRET";
const TOKEN = "dapiTOKEN-4471-SECRET";
const PEM = "PEM-BODY-9f3e-SECRET";
const PASSPHRASE = "phrase-77aa-SECRET";
const OAUTH = "oauth-bearer-c0de-SECRET";
const CLIENT_SECRET = "client-secret-beef-SECRET";
const ALL = [PW, TOKEN, PEM, PASSPHRASE, OAUTH, CLIENT_SECRET];

describe("config: secrets never leak", () => {
  let tmp: TempConfigDir;
  beforeEach(() => {
    tmp = new TempConfigDir();
  });
  afterEach(() => tmp.remove());
  const loadError = (text: string, env: Record<string, string> = {}) =>
    validationError(() => loadConnectionSettings("default", { configPath: tmp.write(text), env }));

  const secretsA = [
    `password = "${PW}"`,
    `private_key_pem = "${PEM}"`,
    `private_key_passphrase = "${PASSPHRASE}"`,
    `oauth_token = "${OAUTH}"`,
  ];

  it("an error in a section holding secrets does not print them", () => {
    expectNoSecret(loadError(section("default", "backend_a", ...secretsA, "pool_size = 0")), ...ALL);
    expectNoSecret(loadError(section("default", "backend_a", ...secretsA, 'private_key_path = "/k"')), ...ALL);
    expectNoSecret(
      loadError(section("default", "backend_b", `token = "${TOKEN}"`, `client_secret = "${CLIENT_SECRET}"`)),
      ...ALL,
    );
  });

  it("a misspelled secret field does not print its value", () => {
    const error = loadError(section("default", "backend_a", `pasword = "${PW}"`));
    expect(error.message).to.match(/pasword is not a known field .*did you mean password\?/);
    expectNoSecret(error, PW);
    expectNoSecret(loadError(section("default", "backend_b", `tokn = "${TOKEN}"`)), TOKEN);
  });

  it("a secret field of the wrong type shows only the type", () => {
    const error = loadError(section("default", "backend_a", `password = ${1234567890123}`));
    expect(error.message).to.match(/password must be a string, got an integer$/);
    expect(error.message).not.to.include("1234567890123");
    const object = validationError(() => new BackendBConfig({ token: [TOKEN] as unknown as string }, { env: {} }));
    expect(object.message).to.match(/token must be a string, got an array/);
    expectNoSecret(object, TOKEN);
  });

  it("a malformed backend B uri is never echoed, not even its token", () => {
    for (const uri of [
      `databricks://token:${TOKEN}@`,
      `databricks://tokn:${TOKEN}@h.example/sql/p`,
      `databricks://token:${TOKEN}@h.example`,
      `databricks://token:${TOKEN}@h.example/p?q=${TOKEN}`,
      `databricks:/${TOKEN}`,
      `${TOKEN}`,
    ]) {
      const error = loadError(section("default", "backend_b", `uri = "${uri}"`));
      expect(error.field).to.equal("uri");
      expectNoSecret(error, TOKEN, uri);
    }
  });

  it("an ambiguous uri + token does not print either", () => {
    const error = loadError(
      section("default", "backend_b", `uri = "databricks://token:${TOKEN}@h/p"`, `token = "${CLIENT_SECRET}"`),
    );
    expect(error.message).to.match(/ambiguous/);
    expectNoSecret(error, TOKEN, CLIENT_SECRET);
  });

  it("a TOML syntax error on a line holding a secret does not quote the line", () => {
    const error = loadError(`[connections.default]\ntype = "backend_a"\npassword = "${PW}\nuser = "u"\n`);
    expect(error.message).to.match(/invalid TOML \(line 3, column \d+\)/);
    expectNoSecret(error, PW);
    const error2 = loadError(`[connections.default]\ntype = "backend_a"\npassword = ${PW}\n`);
    expectNoSecret(error2, PW);
  });

  it("errors from the environment do not print secret variables", () => {
    const error = loadError(section("default", "backend_a", 'private_key_path = "/k"'), {
      BACKEND_A_PRIVATE_KEY_PEM: PEM,
      BACKEND_A_PASSWORD: PW,
    });
    expect(error.message).to.match(/BACKEND_A_PRIVATE_KEY_PEM/);
    expectNoSecret(error, PEM, PW);
    const uriError = loadError(section("default", "backend_b"), { BACKEND_B_URI: `nope:${TOKEN}` });
    expectNoSecret(uriError, TOKEN);
  });

  it("config-object errors do not print secrets", () => {
    expectNoSecret(
      validationError(() => new BackendAConfig({ password: PW, oauthToken: OAUTH, authType: "auth_jwt" }, { env: {} })),
      ...ALL,
    );
    expectNoSecret(
      validationError(
        () => new BackendBConfig({ uri: `databricks://token:${TOKEN}@h`, clientSecret: CLIENT_SECRET }, { env: {} }),
      ),
      ...ALL,
    );
  });

  describe("resolved settings and config objects print [redacted]", () => {
    it("Secret values in loaded settings", () => {
      const s = loadConnectionSettings("default", {
        configPath: tmp.write(section("default", "backend_a", ...secretsA)),
        env: {},
      });
      for (const text of [JSON.stringify(s), inspect(s, { depth: 5 }), String(s.password), `${String(s.password)}`]) {
        for (const secret of ALL) expect(text).not.to.include(secret);
      }
      expect(JSON.parse(JSON.stringify(s)).password).to.equal("[redacted]");
      expect(s.password).to.be.instanceOf(Secret);
    });

    const configs = () => [
      new BackendAConfig(
        {
          user: "alice",
          password: PW,
          privateKeyPem: PEM,
          privateKeyPassphrase: PASSPHRASE,
          oauthToken: OAUTH,
          authType: "auth_oauth",
        },
        { env: {} },
      ),
      new BackendBConfig(
        { uri: `databricks://token:${TOKEN}@h.example/sql/p`, clientSecret: CLIENT_SECRET },
        { env: {} },
      ),
      new BackendBConfig({ host: "h.example", httpPath: "/p", token: TOKEN, password: PW }, { env: {} }),
      new BackendCConfig({ database: ":memory:", password: PW }, { env: {} }),
    ];

    it("String(), template strings, JSON.stringify and util.inspect", () => {
      for (const config of configs()) {
        const texts = [
          String(config),
          `${config}`,
          JSON.stringify(config),
          inspect(config),
          inspect({ nested: config }, { depth: 10 }),
          inspect(config.settings),
        ];
        for (const text of texts) {
          for (const secret of ALL) expect(text, text).not.to.include(secret);
          expect(text).to.include("redacted");
        }
      }
    });

    it("the printout still shows the non-secret fields", () => {
      const [a] = configs();
      expect(String(a)).to.match(/^BackendAConfig \{ type: 'backend_a', .*user: 'alice', password: \[redacted\]/);
      expect(JSON.parse(JSON.stringify(a))).to.include({
        type: "backend_a",
        user: "alice",
        password: "[redacted]",
        oauthToken: "[redacted]",
      });
    });

    it("the driver can still reveal the secret", () => {
      const [a, b] = configs();
      expect(a?.settings.password?.reveal()).to.equal(PW);
      expect(b instanceof BackendBConfig && b.settings.token?.reveal()).to.equal(TOKEN);
    });
  });
});
