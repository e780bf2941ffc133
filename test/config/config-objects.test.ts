import { expect } from "chai";
import {
  BackendAConfig,
  BackendBConfig,
  BackendCConfig,
  Secret,
  type BackendAConfigInput,
  type BackendASettings,
  type BackendBConfigInput,
  type BackendBSettings,
  type BackendCConfigInput,
  type BackendCSettings,
} from "./support/config-api.js";
import { validationError } from "./support/config-fixtures.js";

// Compile-time: the input types have exactly the settings' fields (minus `type`), with matching value types.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Unwrap<T> = T extends Secret ? string : T extends number ? number : T;
/** Durations are strings in the input and milliseconds in the settings. */
type DurationKey =
  | "loginTimeout"
  | "requestTimeout"
  | "clientTimeout"
  | "heartbeatInterval"
  | "jwtExpireTimeout"
  | "socketTimeout"
  | "connectTimeout";
/** Tables (`cache`) take each of their keys optionally; the settings hold them with defaults filled in. */
type PartialTable<T> = { readonly [C in keyof T]?: T[C] | undefined };
type InputFromSettings<S> = {
  readonly [K in Exclude<keyof S, "type">]?:
    | (K extends DurationKey ? string : K extends "cache" ? PartialTable<NonNullable<S[K]>> : Unwrap<NonNullable<S[K]>>)
    | undefined;
};
const inputsMatchSettings: [
  Equal<Required<BackendAConfigInput>, Required<InputFromSettings<BackendASettings>>>,
  Equal<Required<BackendBConfigInput>, Required<InputFromSettings<BackendBSettings>>>,
  Equal<Required<BackendCConfigInput>, Required<InputFromSettings<BackendCSettings>>>,
] = [true, true, true];

describe("config: config objects", () => {
  it("type-level: input interfaces mirror the settings types", () => {
    expect(inputsMatchSettings).to.deep.equal([true, true, true]);
  });

  it("BackendCConfig({ database: ':memory:', poolSize: 1 }) resolves with defaults", () => {
    const config = new BackendCConfig({ database: ":memory:", poolSize: 1 }, { env: {} });
    expect(config.type).to.equal("backend_c");
    expect(config.settings).to.deep.equal({
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

  it("no argument at all is an in-memory backend C", () => {
    expect(new BackendCConfig(undefined, { env: {} }).settings.database).to.equal(":memory:");
  });

  it("a file database with a larger pool", () => {
    const config = new BackendCConfig(
      { database: "/data/x.duckdb", poolSize: 8, maxOverflow: 0, readOnly: true, semanticViews: "builtin" },
      { env: {} },
    );
    expect(config.settings).to.include({
      database: "/data/x.duckdb",
      poolSize: 8,
      maxOverflow: 0,
      readOnly: true,
      semanticViews: "builtin",
    });
  });

  it("BackendAConfig: camelCase fields, durations parsed, secrets wrapped", () => {
    const config = new BackendAConfig(
      {
        account: "acct",
        user: "u",
        password: "pw",
        loginTimeout: "1m30s",
        jwtExpireTimeout: "1h",
        authType: "auth_jwt",
        privateKeyPath: "/k.p8",
        ocspFailOpenMode: false,
        appName: "MyApp",
      },
      { env: {} },
    );
    const s = config.settings;
    expect(s.loginTimeout).to.equal(90_000);
    expect(s.jwtExpireTimeout).to.equal(3_600_000);
    expect(s.password).to.be.instanceOf(Secret);
    expect(s.password?.reveal()).to.equal("pw");
    expect(s.ocspFailOpenMode).to.equal(false);
    expect(s.tlsSkipVerify).to.equal(false);
    expect(s.appName).to.equal("MyApp");
  });

  it("BackendBConfig: uri mode and decomposed mode", () => {
    const uri = new BackendBConfig(
      { uri: "databricks://token:tok@h.example:443/sql/1.0/warehouses/w", catalog: "main" },
      { env: {} },
    );
    expect(uri.settings).to.include({
      host: "h.example",
      port: 443,
      httpPath: "/sql/1.0/warehouses/w",
      catalog: "main",
    });
    expect(uri.settings.token?.reveal()).to.equal("tok");
    const parts = new BackendBConfig({ host: "h.example", httpPath: "/p", token: "tok", schema: "s" }, { env: {} });
    expect(parts.settings).to.include({ host: "h.example", httpPath: "/p", schema: "s" });
  });

  it("carries no connection name", () => {
    const config = new BackendCConfig({}, { env: {} });
    expect(config).not.to.have.property("name");
    expect(config).not.to.have.property("connectionName");
    expect(Object.keys(config)).to.deep.equal(["settings"]);
  });

  it("is frozen, and so are its settings", () => {
    const config = new BackendCConfig({}, { env: {} });
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.settings)).to.equal(true);
  });

  it("undefined values count as absent (defaults and environment apply)", () => {
    const config = new BackendCConfig(
      { database: undefined, poolSize: undefined },
      { env: { BACKEND_C_DATABASE: "/env.db" } },
    );
    expect(config.settings).to.include({ database: "/env.db", poolSize: 5 });
  });

  describe("environment fallback", () => {
    it("reads <PREFIX><FIELD> for fields left out; given fields win", () => {
      const env = { BACKEND_A_PASSWORD: "env-pw", BACKEND_A_USER: "env-user", SCHEMA: "env_schema" };
      const config = new BackendAConfig({ user: "given" }, { env });
      expect(config.settings.user).to.equal("given");
      expect(config.settings.password?.reveal()).to.equal("env-pw");
      expect(config.settings.schema).to.equal("env_schema");
    });

    it("defaults to process.env", () => {
      const name = "BACKEND_C_SEMANTIC_VIEWS";
      const before = process.env[name];
      process.env[name] = "extension";
      try {
        expect(new BackendCConfig().settings.semanticViews).to.equal("extension");
      } finally {
        if (before === undefined) delete process.env[name];
        else process.env[name] = before;
      }
    });

    it("a bad environment value names the class, the field and the variable", () => {
      const error = validationError(() => new BackendCConfig({}, { env: { BACKEND_C_READ_ONLY: "sometimes" } }));
      expect(error.message).to.equal(
        'BackendCConfig: readOnly (from environment variable BACKEND_C_READ_ONLY) must be a boolean (true/false, 1/0, yes/no), got "sometimes"',
      );
      expect(error.source).to.equal("BackendCConfig");
      expect(error.field).to.equal("readOnly");
    });
  });

  describe("validation, with the class as source and camelCase field names", () => {
    const cases: ReadonlyArray<readonly [string, () => unknown, string, RegExp]> = [
      [
        "max_overflow > 0 with :memory:",
        () => new BackendCConfig({ maxOverflow: 1 }, { env: {} }),
        "maxOverflow",
        /maxOverflow = 1 is not allowed with database = ":memory:"/,
      ],
      [
        "pool_size > 1 with :memory:",
        () => new BackendCConfig({ database: ":memory:", poolSize: 2 }, { env: {} }),
        "poolSize",
        /poolSize = 2 is not allowed with database = ":memory:".*Use a database file path/,
      ],
      [
        "poolSize 0",
        () => new BackendCConfig({ database: "/f", poolSize: 0 }, { env: {} }),
        "poolSize",
        /must be an integer >= 1, got 0/,
      ],
      [
        "a non-integer poolSize",
        () => new BackendCConfig({ database: "/f", poolSize: 2.5 }, { env: {} }),
        "poolSize",
        /must be an integer, got float 2.5/,
      ],
      [
        "a string poolSize (JS caller)",
        () => new BackendCConfig({ poolSize: "2" as unknown as number }, { env: {} }),
        "poolSize",
        /must be an integer, got string "2"/,
      ],
      [
        "a bad enum",
        () => new BackendCConfig({ semanticViews: "sometimes" as "auto" }, { env: {} }),
        "semanticViews",
        /must be one of "auto", "builtin", "extension"/,
      ],
      [
        "a bad duration",
        () => new BackendAConfig({ loginTimeout: "30" }, { env: {} }),
        "loginTimeout",
        /is not a valid duration/,
      ],
      [
        "a number for a duration",
        () => new BackendAConfig({ clientTimeout: 30 as unknown as string }, { env: {} }),
        "clientTimeout",
        /durations need a unit/,
      ],
      [
        "privateKeyPath with privateKeyPem",
        () => new BackendAConfig({ privateKeyPath: "/k", privateKeyPem: "p" }, { env: {} }),
        "privateKeyPem",
        /cannot be combined with privateKeyPath/,
      ],
      [
        "authSso without ssoUrl",
        () => new BackendAConfig({ authType: "auth_sso" }, { env: {} }),
        "ssoUrl",
        /is required when authType is "auth_sso"/,
      ],
      [
        "uri with host",
        () => new BackendBConfig({ uri: "databricks://token:t@h/p", host: "h" }, { env: {} }),
        "host",
        /is ambiguous together with uri: use either uri or host \+ httpPath \+ token/,
      ],
      [
        "decomposed without token",
        () => new BackendBConfig({ host: "h", httpPath: "/p" }, { env: {} }),
        "token",
        /is required: set uri, or host \+ httpPath \+ token/,
      ],
      [
        "M2M without clientSecret",
        () => new BackendBConfig({ host: "h", httpPath: "/p", authType: "OAuthM2M", clientId: "c" }, { env: {} }),
        "clientSecret",
        /is required when authType is "OAuthM2M"/,
      ],
      [
        "a snake_case field",
        () => new BackendCConfig({ pool_size: 1 } as BackendCConfigInput, { env: {} }),
        "pool_size",
        /is not a known field; did you mean poolSize\?/,
      ],
      [
        "a misspelled field",
        () => new BackendCConfig({ readOnyl: true } as BackendCConfigInput, { env: {} }),
        "readOnyl",
        /did you mean readOnly\?/,
      ],
      [
        "another backend's field",
        () => new BackendCConfig({ warehouse: "w" } as BackendCConfigInput, { env: {} }),
        "warehouse",
        /is a backend_a field/,
      ],
      [
        "a type field",
        () => new BackendCConfig({ type: "backend_c" } as BackendCConfigInput, { env: {} }),
        "type",
        /is not accepted: BackendCConfig is always type "backend_c"/,
      ],
    ];
    for (const [title, construct, field, message] of cases) {
      it(title, () => {
        const error = validationError(construct);
        const className = error.source ?? "";
        expect(["BackendAConfig", "BackendBConfig", "BackendCConfig"]).to.include(className);
        expect(error.message.startsWith(`${className}: ${field}`), error.message).to.equal(true);
        expect(error.message).to.match(message);
        expect(error.field).to.equal(field);
      });
    }

    it("a non-object input", () => {
      const error = validationError(() => new BackendCConfig(null as unknown as BackendCConfigInput, { env: {} }));
      expect(error.message).to.equal("BackendCConfig: expects an object of camelCase fields, got null");
    });
  });

  it("type-level: precise input types", () => {
    // @ts-expect-error poolSize is a number
    const badPool: BackendCConfigInput = { poolSize: "1" };
    // @ts-expect-error semanticViews is a union of three strings
    const badMode: BackendCConfigInput = { semanticViews: "sometimes" };
    // @ts-expect-error authType values of backend B are not backend A's
    const badAuth: BackendBConfigInput = { authType: "auth_jwt" };
    // @ts-expect-error readOnly is a backend C field
    const badField: BackendAConfigInput = { readOnly: true };
    const good: BackendAConfigInput = {
      authType: "auth_oauth",
      oauthToken: "t",
      loginTimeout: "5s",
      port: 443,
      protocol: "https",
    };
    expect([badPool, badMode, badAuth, badField, good]).to.have.length(5);
  });
});
