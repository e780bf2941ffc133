/**
 * Issue 11's UUID drift: codegen gave a DuckDB UUID column `Type.String()` while the runtime
 * classified it as "other", so a generated DTO failed `into()` strict with LibSchemaMismatchError.
 */
import { expect } from "chai";
import { Type } from "typebox";
import { BackendCConfig, createEngine, Dimension, SemanticView } from "lib";
import { schemaOf } from "../../codegen/emit/schema-helpers.js";
import { valueKindOf } from "../../codegen/type-mapping.js";
import { openCursor } from "../../runtime/cursor/open-cursor.js";

const ID = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";

/** The DTO codegen writes for a view with one UUID dimension (`id: Type.String()`). */
const ThingRow = Type.Object({ id: Type.String() }, { title: "ThingRow" });

class Things extends SemanticView("things", { id: Dimension<string>() }) {}

describe("values: a DuckDB UUID column under a generated DTO", () => {
  it("codegen maps UUID to Type.String()", () => {
    expect(schemaOf(valueKindOf("backend_c", "UUID")).call).to.equal("Type.String");
  });

  it("into() strict reads a UUID column of plain SQL as its string form", async () => {
    await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
    await using cursor = await openCursor(await engine.connect(), {
      sql: `SELECT '${ID}'::UUID AS id`,
      parameters: [],
    });
    expect(await cursor.into(ThingRow)).to.deep.equal([{ id: ID }]);
  });

  it("into() strict reads a UUID dimension of a semantic query as its string form", async () => {
    await using engine = createEngine(new BackendCConfig({ database: ":memory:", poolSize: 1 }));
    {
      await using conn = await engine.connect();
      await conn.run("INSTALL semantic_views; LOAD semantic_views");
      await conn.run("CREATE TABLE things_data (id UUID)");
      await conn.run("INSERT INTO things_data VALUES (?::UUID)", [ID]);
      await conn.run("CREATE SEMANTIC VIEW things AS TABLES (things_data) DIMENSIONS (things_data.id AS id)");
      await conn.commit();
    }
    await using cursor = await Things.query().dimensions(Things.id).using(engine).execute();
    expect(await cursor.into(ThingRow)).to.deep.equal([{ id: ID }]);
  });
});
