import { expect } from "chai";
import * as lib from "lib";
import * as api from "./config-api.js";

describe("config: public exports of lib", () => {
  it("exports the config objects and functions", () => {
    expect(lib.BackendAConfig).to.equal(api.BackendAConfig);
    expect(lib.BackendBConfig).to.equal(api.BackendBConfig);
    expect(lib.BackendCConfig).to.equal(api.BackendCConfig);
    expect(lib.loadConnectionSettings).to.equal(api.loadConnectionSettings);
    expect(lib.loadConnectionSettingsIfPresent).to.equal(api.loadConnectionSettingsIfPresent);
    expect(lib.resolveSettings).to.equal(api.resolveSettings);
    expect(lib.parseDuration).to.equal(api.parseDuration);
    expect(lib.ValidationError).to.equal(api.ValidationError);
    expect(lib.Secret).to.equal(api.Secret);
  });

  it("type-level: input types are exported", () => {
    const input: lib.BackendCConfigInput = { database: ":memory:", poolSize: 1 };
    const a: lib.BackendAConfigInput = { account: "x" };
    const b: lib.BackendBConfigInput = { host: "h", httpPath: "/p", token: "t" };
    const config = new lib.BackendCConfig(input, { env: {} });
    const resolved: lib.ResolvedConnection = lib.resolveSettings(config);
    expect([a, b, resolved.connectionName]).to.deep.equal([
      { account: "x" },
      { host: "h", httpPath: "/p", token: "t" },
      undefined,
    ]);
  });
});
