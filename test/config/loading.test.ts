import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "chai";
import {
  BackendCConfig,
  loadConnectionSettings,
  loadConnectionSettingsIfPresent,
  resolveSettings,
} from "./support/config-api.js";
import { section, TempConfigDir, validationError } from "./support/config-fixtures.js";

describe("config: loading .lib.toml", () => {
  let tmp: TempConfigDir;
  beforeEach(() => {
    tmp = new TempConfigDir();
  });
  afterEach(() => tmp.remove());

  it("reads [connections.<name>] and defaults the name to `default`", () => {
    const path = tmp.write(
      section("default", "backend_c", "pool_size = 1") + section("analytics", "backend_c", 'database = "/a.db"'),
    );
    expect(loadConnectionSettings(undefined, { configPath: path, env: {} }).type).to.equal("backend_c");
    expect(loadConnectionSettings("analytics", { configPath: path, env: {} }).database).to.equal("/a.db");
  });

  it("defaults the path to .lib.toml in the current directory, and resolves relative paths against process.cwd()", () => {
    tmp.write(section("default", "backend_c", 'database = "/from-default-path.db"'));
    mkdirSync(join(tmp.dir, "conf"));
    tmp.write(section("default", "backend_c", 'database = "/from-relative-path.db"'), "conf/app.toml");
    const cwd = process.cwd();
    process.chdir(tmp.dir);
    try {
      expect(loadConnectionSettings("default", { env: {} }).database).to.equal("/from-default-path.db");
      expect(loadConnectionSettings("default", { configPath: "conf/app.toml", env: {} }).database).to.equal(
        "/from-relative-path.db",
      );
    } finally {
      process.chdir(cwd);
    }
    // And from elsewhere, a relative path still means relative to the cwd.
    const fromHere = relative(process.cwd(), join(tmp.dir, "conf/app.toml"));
    expect(loadConnectionSettings("default", { configPath: fromHere, env: {} }).database).to.equal(
      "/from-relative-path.db",
    );
  });

  it("a missing file raises ValidationError naming the path", () => {
    const path = join(tmp.dir, "nope.toml");
    const error = validationError(() => loadConnectionSettings("default", { configPath: path, env: {} }));
    expect(error.message).to.equal(`Configuration file ${path} does not exist (looking for [connections.default])`);
    expect(error.source).to.equal(path);
  });

  it("an unreadable path (a directory) raises ValidationError naming it", () => {
    const error = validationError(() => loadConnectionSettings("default", { configPath: tmp.dir, env: {} }));
    expect(error.message).to.equal(`Configuration file ${tmp.dir} cannot be read (EISDIR)`);
  });

  it("a missing section lists the sections that exist", () => {
    const path = tmp.write(section("default", "backend_c") + section("backend_a", "backend_a"));
    const error = validationError(() => loadConnectionSettings("analytics", { configPath: path, env: {} }));
    expect(error.message).to.equal(
      `${path} has no [connections.analytics] section; sections defined: default, backend_a`,
    );
  });

  it("a file without connections says so", () => {
    const path = tmp.write('title = "x"\n');
    const error = validationError(() => loadConnectionSettings("default", { configPath: path, env: {} }));
    expect(error.message).to.equal(
      `${path} has no [connections.default] section; it defines no [connections.<name>] sections`,
    );
  });

  it("connections that is not a table", () => {
    const path = tmp.write("connections = 3\n");
    const error = validationError(() => loadConnectionSettings("default", { configPath: path, env: {} }));
    expect(error.message).to.equal(`${path}: connections must be a table of [connections.<name>] sections`);
  });

  it("a section that is not a table", () => {
    const path = tmp.write('[connections]\ndefault = "backend_c"\n');
    const error = validationError(() => loadConnectionSettings("default", { configPath: path, env: {} }));
    expect(error.message).to.equal(
      `${path} [connections.default]: must be a table ([connections.<name>] with key = value lines)`,
    );
  });

  it("a TOML syntax error gives the line and column", () => {
    const path = tmp.write('[connections.default]\ntype = "backend_c"\npool_size = = 1\n');
    const error = validationError(() => loadConnectionSettings("default", { configPath: path, env: {} }));
    expect(error.message).to.match(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+: invalid TOML \\(line 3, column \\d+\\): `),
    );
    expect(error.message).not.to.include("\n");
    expect(error.source).to.equal(path);
  });

  it("a duplicate key is a TOML error", () => {
    const path = tmp.write('[connections.default]\ntype = "backend_c"\ntype = "backend_a"\n');
    expect(validationError(() => loadConnectionSettings("default", { configPath: path, env: {} })).message).to.match(
      /invalid TOML \(line 3/,
    );
  });

  describe("loadConnectionSettingsIfPresent (for codegen)", () => {
    it("returns undefined when the file is missing", () => {
      expect(
        loadConnectionSettingsIfPresent("backend_a", { configPath: join(tmp.dir, "missing.toml"), env: {} }),
      ).to.equal(undefined);
    });

    it("returns undefined when the section is missing", () => {
      const path = tmp.write(section("default", "backend_a"));
      expect(loadConnectionSettingsIfPresent("backend_a", { configPath: path, env: {} })).to.equal(undefined);
    });

    it("returns the settings when the section exists", () => {
      const path = tmp.write(section("backend_a", "backend_a", 'account = "acct"'));
      expect(
        loadConnectionSettingsIfPresent("backend_a", { configPath: path, env: { BACKEND_A_USER: "u" } }),
      ).to.include({
        type: "backend_a",
        account: "acct",
        user: "u",
      });
    });

    it("still throws for an invalid section or a syntax error", () => {
      const path = tmp.write(section("backend_a", "backend_a", "pool_size = 0"));
      expect(
        validationError(() => loadConnectionSettingsIfPresent("backend_a", { configPath: path, env: {} })).field,
      ).to.equal("pool_size");
      const broken = tmp.write("[connections.backend_a\n", "broken.toml");
      expect(
        validationError(() => loadConnectionSettingsIfPresent("backend_a", { configPath: broken, env: {} })).message,
      ).to.match(/invalid TOML/);
    });
  });

  describe("resolveSettings (for the engine)", () => {
    it("a name reads that section and returns it as the connection name", () => {
      const path = tmp.write(section("analytics", "backend_c", 'database = "/x.db"'));
      const resolved = resolveSettings("analytics", { configPath: path, env: {} });
      expect(resolved.connectionName).to.equal("analytics");
      expect(resolved.settings).to.include({ type: "backend_c", database: "/x.db", poolSize: 5 });
    });

    it("defaults to the `default` section", () => {
      const path = tmp.write(section("default", "backend_c"));
      expect(resolveSettings(undefined, { configPath: path, env: {} }).connectionName).to.equal("default");
    });

    it("a config object gives its settings and no connection name; configPath is not read", () => {
      const config = new BackendCConfig({ database: ":memory:", poolSize: 1 }, { env: {} });
      const resolved = resolveSettings(config, { configPath: join(tmp.dir, "does-not-exist.toml") });
      expect(resolved.connectionName).to.equal(undefined);
      expect(resolved.settings).to.equal(config.settings);
    });

    it("anything else is a ValidationError", () => {
      const error = validationError(() => resolveSettings({ database: ":memory:" } as unknown as BackendCConfig));
      expect(error.message).to.match(
        /Expected a connection name or a BackendAConfig\/BackendBConfig\/BackendCConfig object/,
      );
    });

    it("validation errors propagate from the file", () => {
      const path = tmp.write(section("default", "backend_c", "pool_size = 3"));
      expect(validationError(() => resolveSettings("default", { configPath: path, env: {} })).field).to.equal(
        "pool_size",
      );
    });
  });
});
