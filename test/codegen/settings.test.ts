/** Which values `lib codegen` resolves: .env under the environment, the TOML file over both. */
import { expect } from "chai";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { environmentWithDotenv, loadDotenv, readDtoSpecs, resolveTarget } from "../../codegen/codegen-settings.js";
import { CodegenExit } from "../../codegen/exit-codes.js";
import { tempDir } from "../support/temp-dir.js";

const SECTION = `
[connections.backend_a]
type = "backend_a"
account = "acme-xy12345"
user = "codegen"
password = "from-file"

[codegen.dtos.RevenueByCountry]
view = "sales"
fields = ["country", "revenue"]
`;

describe("codegen settings resolution", () => {
  it("lets a value in the file win over .env and the environment, and fills gaps from them", async () => {
    await using dir = await tempDir({
      ".lib.toml": SECTION,
      ".env": "BACKEND_A_PASSWORD=from-dotenv\nBACKEND_A_WAREHOUSE=wh_dotenv\nBACKEND_A_ROLE=role_dotenv\n",
    });
    const env = environmentWithDotenv(dir.path, { BACKEND_A_PASSWORD: "from-env", BACKEND_A_ROLE: "role_env" });
    const target = resolveTarget({ backend: "backend_a", configPath: join(dir.path, ".lib.toml"), env, cwd: dir.path });
    expect(target.backend).to.equal("backend_a");
    if (!("settings" in target)) throw new Error("expected settings for backend_a");
    const settings = target.settings as Extract<typeof target.settings, { type: "backend_a" }>;
    expect(settings.password?.reveal()).to.equal("from-file");
    expect(settings.warehouse).to.equal("wh_dotenv");
    expect(settings.role).to.equal("role_env");
    expect(settings.user).to.equal("codegen");
  });

  it("the executable loads .env into its process environment under what is set (loadDotenv, codegen/bin.ts)", async () => {
    await using dir = await tempDir({ ".env": "BACKEND_C_DATABASE=from-dotenv.duckdb\nBACKEND_C_POOL_SIZE=3\n" });
    const env: Record<string, string | undefined> = { BACKEND_C_DATABASE: "already-set.duckdb" };
    loadDotenv(dir.path, env);
    expect(env).to.deep.equal({ BACKEND_C_DATABASE: "already-set.duckdb", BACKEND_C_POOL_SIZE: "3" });
    // An unreadable .env (here a folder) changes nothing; runCli reports it with exit status 2.
    await using folder = await tempDir();
    await mkdir(join(folder.path, ".env"));
    const untouched: Record<string, string | undefined> = { A: "1" };
    loadDotenv(folder.path, untouched);
    expect(untouched).to.deep.equal({ A: "1" });
    expect(() => environmentWithDotenv(folder.path, {})).to.throw(CodegenExit, /\.env cannot be read/);
  });

  it("resolves a relative backend C path against the working directory and ignores sections", async () => {
    await using dir = await tempDir({
      ".lib.toml": '[connections.backend_c]\ntype = "backend_c"\ndatabase = "ignored.duckdb"\n',
    });
    await mkdir(join(dir.path, "data"));
    await writeFile(join(dir.path, "data/x.duckdb"), ""); // only its existence is checked here
    const target = resolveTarget({
      backend: "backend_c",
      database: "data/x.duckdb",
      configPath: join(dir.path, ".lib.toml"),
      env: {},
      cwd: dir.path,
    });
    expect(target).to.deep.equal({ backend: "backend_c", database: join(dir.path, "data/x.duckdb") });
    expect(() =>
      resolveTarget({ backend: "backend_c", configPath: join(dir.path, ".lib.toml"), env: {}, cwd: dir.path }),
    )
      .to.throw(CodegenExit, /--database <path> or set BACKEND_C_DATABASE/)
      .with.property("exitCode", 2);
    expect(() =>
      resolveTarget({ backend: "backend_c", database: ":memory:", configPath: "x", env: {}, cwd: dir.path }),
    ).to.throw(CodegenExit, /:memory:/);
    expect(() =>
      resolveTarget({ backend: "backend_c", database: "data/typo.duckdb", configPath: "x", env: {}, cwd: dir.path }),
    )
      .to.throw(CodegenExit, /database file .*typo\.duckdb does not exist/)
      .with.property("exitCode", 2);
  });

  it("reads DTO declarations from [codegen.dtos]", async () => {
    await using dir = await tempDir({ ".lib.toml": SECTION });
    expect(readDtoSpecs(join(dir.path, ".lib.toml"))).to.deep.equal([
      { name: "RevenueByCountry", view: "sales", fields: ["country", "revenue"] },
    ]);
    expect(readDtoSpecs(join(dir.path, "absent.toml"))).to.deep.equal([]);
  });
});
