/** The result cache's configuration: `[connections.<name>.cache]` in `.lib.toml` and `cache: { ttl, maxBytes }`. */
import { readFileSync } from "node:fs";
import { expect } from "chai";
import { BackendCConfig, createEngine } from "lib";
import { loadConnectionSettings } from "lib/config";
import { section, TempConfigDir, validationError } from "../config/support/config-fixtures.js";

describe("result cache: configuration", () => {
  let tmp: TempConfigDir;
  beforeEach(() => {
    tmp = new TempConfigDir();
  });
  afterEach(() => tmp.remove());

  it("reads [connections.<name>.cache] with ttl and max_bytes; an empty table takes the defaults", () => {
    const path = tmp.write(
      section("cached", "backend_c", "pool_size = 1", "[connections.cached.cache]", "ttl = 30", "max_bytes = 4096") +
        section("defaults", "backend_c", "[connections.defaults.cache]") +
        section("plain", "backend_c"),
    );
    const settings = (name: string) => loadConnectionSettings(name, { configPath: path, env: {} });
    expect(settings("cached").cache).to.deep.equal({ ttl: 30, maxBytes: 4096 });
    expect(settings("defaults").cache).to.deep.equal({ ttl: 60, maxBytes: 64 * 1024 * 1024 });
    expect(settings("plain").cache).to.equal(undefined);
  });

  it("an engine with a cache section has a result cache; one without has none", async () => {
    const path = tmp.write(
      section("cached", "backend_c", "[connections.cached.cache]", "ttl = 5") + section("plain", "backend_c"),
    );
    const cached = createEngine("cached", { configPath: path });
    const plain = createEngine("plain", { configPath: path });
    try {
      expect(cached.resultCache?.defaultTtlSeconds).to.equal(5);
      expect(cached.resultCache?.stats().entries).to.equal(0);
      expect(plain.resultCache).to.equal(undefined);
    } finally {
      await cached.dispose();
      await plain.dispose();
    }
  });

  it("lib/cache exports the scope helpers; package.json points at it", async () => {
    expect(Object.keys(await import("lib/cache")).sort()).to.deep.equal(["currentQueryScope", "withQueryScope"]);
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, { default: string }>;
    };
    expect(pkg.exports["./cache"]?.default).to.equal("./dist/runtime/result-cache/index.js");
  });

  it("bad keys and values are ValidationErrors naming cache.<key>, with a suggestion", () => {
    const load = (...lines: string[]) => {
      const path = tmp.write(section("x", "backend_c", "[connections.x.cache]", ...lines));
      return validationError(() => loadConnectionSettings("x", { configPath: path, env: {} })).message;
    };
    expect(load("maxBytes = 10")).to.include("cache.maxBytes").and.include("did you mean max_bytes?");
    expect(load("size = 10")).to.include("cache.size").and.include("known keys: ttl, max_bytes");
    expect(load("ttl = -1")).to.include("cache.ttl");
    expect(load("max_bytes = 0")).to.include("cache.max_bytes");
    expect(load('ttl = "60"')).to.include("cache.ttl");
    const objectError = validationError(
      () => new BackendCConfig({ database: ":memory:", cache: { ttl: 1, max_bytes: 10 } as never }, { env: {} }),
    );
    expect(objectError.message).to.include("cache.max_bytes").and.include("did you mean maxBytes?");
    const notTable = validationError(() => new BackendCConfig({ cache: 60 as never }, { env: {} }));
    expect(notTable.message).to.include("cache").and.include("a table of ttl, maxBytes");
  });
});
