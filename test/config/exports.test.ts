import { expect } from "chai";
import * as lib from "lib";
import * as libConfig from "lib/config";
import * as api from "./support/config-api.js";

describe("config: public exports of lib and lib/config", () => {
  it('"lib" exports the config objects; "lib/config" the loader, resolver, durations and Secret', () => {
    expect(lib.BackendAConfig).to.equal(api.BackendAConfig);
    expect(lib.BackendBConfig).to.equal(api.BackendBConfig);
    expect(lib.BackendCConfig).to.equal(api.BackendCConfig);
    expect(lib.ValidationError).to.equal(api.ValidationError);
    expect(libConfig.loadConnectionSettings).to.equal(api.loadConnectionSettings);
    expect(libConfig.loadConnectionSettingsIfPresent).to.equal(api.loadConnectionSettingsIfPresent);
    expect(libConfig.resolveSettings).to.equal(api.resolveSettings);
    expect(libConfig.parseDuration).to.equal(api.parseDuration);
    expect(libConfig.Secret).to.equal(api.Secret);
  });

  it("type-level: input types come from lib, settings types from lib/config", () => {
    const input: lib.BackendCConfigInput = { database: ":memory:", poolSize: 1 };
    const a: lib.BackendAConfigInput = { account: "x" };
    const b: lib.BackendBConfigInput = { host: "h", httpPath: "/p", token: "t" };
    const config = new lib.BackendCConfig(input, { env: {} });
    const resolved: libConfig.ResolvedConnection = libConfig.resolveSettings(config);
    const settings: libConfig.BackendCSettings = config.settings;
    expect([a, b, resolved.connectionName, settings.database]).to.deep.equal([
      { account: "x" },
      { host: "h", httpPath: "/p", token: "t" },
      undefined,
      ":memory:",
    ]);
  });
});
