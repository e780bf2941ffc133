import { expect } from "chai";
import { loadConnectionSettings } from "./support/config-api.js";
import { section, TempConfigDir, validationError } from "./support/config-fixtures.js";

/**
 * Every validation rule, through a TOML file: the message names the file, the section and the
 * field, and `error.source` / `error.field` carry them too.
 */
describe("config: validation errors (TOML)", () => {
  let tmp: TempConfigDir;
  beforeEach(() => {
    tmp = new TempConfigDir();
  });
  afterEach(() => tmp.remove());

  function fails(text: string, field: string, message: RegExp, name = "default", env: Record<string, string> = {}) {
    const path = tmp.write(text);
    const error = validationError(() => loadConnectionSettings(name, { configPath: path, env }));
    const source = `${path} [connections.${name}]`;
    expect(error.message.startsWith(`${source}: ${field} `), error.message).to.equal(true);
    expect(error.message).to.match(message);
    expect(error.source).to.equal(source);
    expect(error.field).to.equal(field);
    return error;
  }

  describe("type", () => {
    it("missing type", () => {
      fails(
        '[connections.default]\nuser = "u"\n',
        "type",
        /type is required: one of "backend_a", "backend_b", "backend_c"/,
      );
    });
    it("missing type, with a backend name under another key: the hint names both", () => {
      const error = fails(
        '[connections.default]\nbackend = "backend_c"\ndatabase = "x.duckdb"\n',
        "type",
        /type is required: one of .*; did you mean type = "backend_c" instead of backend = "backend_c"\?$/,
      );
      expect(error.message).to.not.contain("x.duckdb");
      // A secret's value is never shown, even one that reads like a backend name.
      const quiet = fails('[connections.default]\npassword = "backend_a"\n', "type", /type is required: one of [^;]*$/);
      expect(quiet.message).to.not.contain("password");
    });
    it("unknown type", () => {
      fails(
        section("default", "backend_d"),
        "type",
        /must be one of "backend_a", "backend_b", "backend_c", got "backend_d"/,
      );
    });
    it("type of the wrong TOML type", () => {
      fails("[connections.default]\ntype = 3\n", "type", /must be one of .*, got an integer/);
    });
  });

  describe("unknown fields", () => {
    it("suggests the closest known field", () => {
      fails(
        section("default", "backend_a", "pool_szie = 3"),
        "pool_szie",
        /is not a known field for type "backend_a"; did you mean pool_size\?/,
      );
      fails(section("default", "backend_a", 'acount = "x"'), "acount", /did you mean account\?/);
      fails(section("default", "backend_c", "readonly = true"), "readonly", /did you mean read_only\?/);
      fails(section("default", "backend_b", 'http_pth = "/p"'), "http_pth", /did you mean http_path\?/);
    });
    it("points a camelCase name at its snake_case spelling", () => {
      fails(
        section("default", "backend_c", "poolSize = 1"),
        "poolSize",
        /is not a known field; did you mean pool_size\?/,
      );
    });
    it("names the backend a field belongs to", () => {
      fails(
        section("default", "backend_a", "read_only = true"),
        "read_only",
        /is a backend_c field; it is not accepted for type "backend_a"/,
      );
      fails(section("default", "backend_c", 'warehouse = "w"'), "warehouse", /is a backend_a field/);
      fails(section("default", "backend_a", 'http_path = "/p"'), "http_path", /is a backend_b field/);
    });
    it("lists the known fields when nothing is close", () => {
      fails(
        section("default", "backend_c", "zzzzzzzzzzzz = 1"),
        "zzzzzzzzzzzz",
        /known fields: type, pool_size, .*read_only, create_if_missing, semantic_views/,
      );
    });
    it("a nested table is an unknown field", () => {
      fails(section("default", "backend_c", "[connections.default.extra]", "x = 1"), "extra", /is not a known field/);
    });
  });

  describe("wrong TOML types", () => {
    const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
      ["pool_size", 'pool_size = "5"', /must be an integer, got string "5"/],
      ["pool_size", "pool_size = 1.5", /must be an integer, got float 1.5/],
      ["timeout", "timeout = true", /must be an integer, got boolean true/],
      ["pre_ping", 'pre_ping = "true"', /must be a boolean \(true or false\), got string "true"/],
      ["pre_ping", "pre_ping = 1", /must be a boolean/],
      ["user", "user = 42", /must be a string, got integer 42/],
      ["user", 'user = ["a"]', /must be a string, got an array/],
      ["user", 'user = { name = "a" }', /must be a string, got a table/],
      ["user", "user = 1979-05-27", /must be a string, got a date/],
      ["protocol", "protocol = 1", /must be one of "http", "https", got integer 1/],
      [
        "login_timeout",
        "login_timeout = 30",
        /must be a duration string such as "30s" or "1m30s"; durations need a unit, e.g. "30s", got integer 30/,
      ],
      ["login_timeout", "login_timeout = true", /must be a duration string/],
    ];
    for (const [field, line, message] of cases) {
      it(`${line}`, () => {
        fails(section("default", "backend_a", line), field, message);
      });
    }
  });

  describe("enums", () => {
    it("protocol", () =>
      fails(
        section("default", "backend_a", 'protocol = "ftp"'),
        "protocol",
        /must be one of "http", "https", got "ftp"/,
      ));
    it("backend A auth_type", () =>
      fails(
        section("default", "backend_a", 'auth_type = "oauth"'),
        "auth_type",
        /must be one of "auth_jwt", "auth_ext_browser", .*"auth_wif", got "oauth"/,
      ));
    it("backend B auth_type (case-sensitive)", () =>
      fails(
        section("default", "backend_b", 'auth_type = "oauthu2m"', 'host = "h"', 'http_path = "/p"'),
        "auth_type",
        /must be one of "OAuthU2M", "OAuthM2M", got "oauthu2m"/,
      ));
    it("backend C semantic_views", () =>
      fails(
        section("default", "backend_c", 'semantic_views = "always"'),
        "semantic_views",
        /must be one of "auto", "builtin", "extension", got "always"/,
      ));
  });

  describe("durations", () => {
    for (const field of ["login_timeout", "request_timeout", "client_timeout", "jwt_expire_timeout"]) {
      it(`${field}: bad duration`, () => {
        fails(
          section("default", "backend_a", `${field} = "10 minutes"`),
          field,
          /is not a valid duration \(unexpected text at position 1.*\), got "10 minutes"/,
        );
      });
    }
    it("bare number string", () =>
      fails(section("default", "backend_a", 'login_timeout = "30"'), "login_timeout", /needs a unit/));
    it("empty string", () =>
      fails(section("default", "backend_a", 'login_timeout = ""'), "login_timeout", /must not be empty/));
  });

  describe("integer ranges", () => {
    const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
      ["pool_size", "pool_size = 0", /must be an integer >= 1, got 0/],
      ["pool_size", "pool_size = -2", /must be an integer >= 1, got -2/],
      ["max_overflow", "max_overflow = -1", /must be a non-negative integer, got -1/],
      ["timeout", "timeout = -1", /must be a non-negative integer, got -1/],
      ["recycle", "recycle = -5", /must be a non-negative integer, got -5/],
      ["port", "port = 0", /must be between 1 and 65535, got 0/],
      ["port", "port = 65536", /must be between 1 and 65535, got 65536/],
    ];
    for (const [field, line, message] of cases) {
      it(line, () => fails(section("default", "backend_c", 'database = "/f.db"', line), field, message));
    }
  });

  describe("app_name pattern", () => {
    for (const bad of ["1app", "a", "my app", "x".repeat(52), "_app", "app!"]) {
      it(`rejects ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 10)}...` : bad)}`, () => {
        fails(
          section("default", "backend_a", `app_name = "${bad}"`),
          "app_name",
          /must be a letter then 1 to 50 of A-Z a-z 0-9 \. _ -/,
        );
      });
    }
    it("accepts 51 characters", () => {
      const path = tmp.write(section("default", "backend_a", `app_name = "A${"b".repeat(50)}"`));
      expect(loadConnectionSettings("default", { configPath: path, env: {} })).to.have.property("appName");
    });
  });

  describe("backend C", () => {
    it("pool_size > 1 with database = :memory: explains to use a file path", () => {
      fails(
        section("default", "backend_c", 'database = ":memory:"', "pool_size = 2"),
        "pool_size",
        /pool_size = 2 is not allowed with database = ":memory:".*Use a database file path for concurrent connections/,
      );
    });
    it("pool_size > 1 with the default database (:memory:)", () => {
      fails(section("default", "backend_c", "pool_size = 4"), "pool_size", /not allowed with database = ":memory:"/);
    });
    it("pool_size > 1 from the environment with :memory: names the variable", () => {
      fails(
        section("default", "backend_c"),
        "pool_size",
        /pool_size \(from environment variable BACKEND_C_POOL_SIZE\) = 3 is not allowed/,
        "default",
        {
          BACKEND_C_POOL_SIZE: "3",
        },
      );
    });
    it("a :memory: database from the environment is named as such", () => {
      fails(
        section("default", "backend_c", "pool_size = 2"),
        "pool_size",
        /not allowed with database \(from environment variable BACKEND_C_DATABASE\) = ":memory:"/,
        "default",
        {
          BACKEND_C_DATABASE: ":memory:",
        },
      );
    });
    it("an explicit max_overflow > 0 with :memory: is rejected, naming the field", () => {
      fails(
        section("default", "backend_c", "max_overflow = 2"),
        "max_overflow",
        /max_overflow = 2 is not allowed with database = ":memory:".*Set it to 0 or use a database file path/,
      );
    });
    it("max_overflow > 0 from the environment with :memory: names the variable", () => {
      fails(
        section("default", "backend_c"),
        "max_overflow",
        /max_overflow \(from environment variable BACKEND_C_MAX_OVERFLOW\) = 1 is not allowed/,
        "default",
        {
          BACKEND_C_MAX_OVERFLOW: "1",
        },
      );
    });
    it("max_overflow = 0 with :memory:, and max_overflow > 0 with a file, are accepted", () => {
      const memory = tmp.write(section("default", "backend_c", "max_overflow = 0"));
      expect(loadConnectionSettings("default", { configPath: memory, env: {} })).to.include({ maxOverflow: 0 });
      const file = tmp.write(section("default", "backend_c", 'database = "/data/x.duckdb"', "max_overflow = 2"));
      expect(loadConnectionSettings("default", { configPath: file, env: {} })).to.include({ maxOverflow: 2 });
    });
    it("read_only with :memory:", () => {
      fails(section("default", "backend_c", "read_only = true"), "read_only", /needs a database file/);
    });
    it("empty database", () => {
      fails(section("default", "backend_c", 'database = ""'), "database", /must be a database file path or ":memory:"/);
    });
  });

  describe("backend A authentication", () => {
    it("private_key_path together with private_key_pem", () => {
      fails(
        section("default", "backend_a", 'private_key_path = "/k.p8"', 'private_key_pem = "PEM"'),
        "private_key_pem",
        /cannot be combined with private_key_path: they are mutually exclusive/,
      );
    });
    it("private_key_pem from the environment with private_key_path in the file", () => {
      fails(
        section("default", "backend_a", 'private_key_path = "/k.p8"'),
        "private_key_pem",
        /BACKEND_A_PRIVATE_KEY_PEM\) cannot be combined/,
        "default",
        {
          BACKEND_A_PRIVATE_KEY_PEM: "PEM",
        },
      );
    });
    it("auth_sso without sso_url", () => {
      fails(
        section("default", "backend_a", 'auth_type = "auth_sso"'),
        "sso_url",
        /is required when auth_type is "auth_sso"/,
      );
    });
    it("auth_oauth without oauth_token", () => {
      fails(
        section("default", "backend_a", 'auth_type = "auth_oauth"'),
        "oauth_token",
        /is required when auth_type is "auth_oauth"/,
      );
    });
    it("auth_jwt without a key", () => {
      fails(
        section("default", "backend_a", 'auth_type = "auth_jwt"'),
        "private_key_path",
        /\(or private_key_pem\) is required when auth_type is "auth_jwt"/,
      );
    });
  });

  describe("backend B modes", () => {
    const uri = 'uri = "databricks://token:t@h.example:443/sql/p"';
    for (const [field, line] of [
      ["host", 'host = "h"'],
      ["http_path", 'http_path = "/p"'],
      ["token", 'token = "t"'],
      ["port", "port = 443"],
    ] as const) {
      it(`uri with ${field} is ambiguous`, () => {
        fails(
          section("default", "backend_b", uri, line),
          field,
          /is ambiguous together with uri: use either uri or host \+ http_path \+ token, not both/,
        );
      });
    }
    it("decomposed mode missing host", () => {
      fails(
        section("default", "backend_b", 'http_path = "/p"', 'token = "t"'),
        "host",
        /is required: set uri, or host \+ http_path \+ token/,
      );
    });
    it("decomposed mode missing http_path", () => {
      fails(section("default", "backend_b", 'host = "h"', 'token = "t"'), "http_path", /is required/);
    });
    it("decomposed mode missing token", () => {
      fails(
        section("default", "backend_b", 'host = "h"', 'http_path = "/p"'),
        "token",
        /is required: set uri, or host \+ http_path \+ token/,
      );
    });
    it("nothing set at all", () => {
      fails(section("default", "backend_b"), "host", /is required/);
    });
    it("OAuthU2M still needs host and http_path", () => {
      fails(
        section("default", "backend_b", 'auth_type = "OAuthU2M"', 'host = "h"'),
        "http_path",
        /auth_type "OAuthU2M" replaces only the token/,
      );
    });
    it("OAuthM2M needs client_id", () => {
      fails(
        section(
          "default",
          "backend_b",
          'auth_type = "OAuthM2M"',
          'host = "h"',
          'http_path = "/p"',
          'client_secret = "s"',
        ),
        "client_id",
        /is required when auth_type is "OAuthM2M"/,
      );
    });
    it("OAuthM2M needs client_secret", () => {
      fails(
        section("default", "backend_b", 'auth_type = "OAuthM2M"', 'host = "h"', 'http_path = "/p"', 'client_id = "c"'),
        "client_secret",
        /is required when auth_type is "OAuthM2M"/,
      );
    });

    const badUris: ReadonlyArray<readonly [string, RegExp]> = [
      ["not a url", /is not a valid URL/],
      ["databricks://user:tok@h.example/sql/p", /must carry the user name "token"/],
      ["databricks://h.example/sql/p", /must carry the user name "token"/],
      ["databricks://token@h.example/sql/p", /has no token/],
      ["databricks://token:tok@h.example", /has no HTTP path/],
      ["databricks://token:tok@h.example/", /has no HTTP path/],
      ["databricks://token:tok@h.example/sql/p?x=1", /must not have a query string or fragment/],
      ["databricks://token:tok@h.example:99999/sql/p", /is not a valid URL/],
      ["databricks://token:%E0%A4%A@h.example/sql/p", /has invalid percent-encoding/],
    ];
    for (const [text, problem] of badUris) {
      it(`malformed uri: ${problem.source}`, () => {
        const error = fails(section("default", "backend_b", `uri = "${text}"`), "uri", problem);
        expect(error.message).to.include("expected the form <scheme>://token:<token>@<host>:<port>/<http-path>");
        expect(error.message).not.to.include(text);
      });
    }
  });

  it("names a non-default section", () => {
    fails(section("analytics", "backend_c", "pool_size = 0"), "pool_size", /must be an integer >= 1/, "analytics");
  });

  it("quotes a section name that needs quoting", () => {
    const path = tmp.write('[connections."eu.prod"]\ntype = "backend_c"\npool_size = 0\n');
    const error = validationError(() => loadConnectionSettings("eu.prod", { configPath: path, env: {} }));
    expect(error.message).to.include(`${path} [connections."eu.prod"]: pool_size`);
  });
});
