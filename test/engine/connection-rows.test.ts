/**
 * `conn.all()` turns row arrays into objects as a cursor does: every column an own, enumerable
 * property in result order, a column named `__proto__` included (assigning it would set or ignore the
 * prototype and lose the column), a later duplicate name winning at the first one's position.
 */
import { expect } from "chai";
import { BackendCConfig, createEngine } from "lib";

describe("engine: conn.all() row objects", () => {
  it("keeps a column named __proto__ as an own property, and a later duplicate name wins", async () => {
    await using engine = createEngine(new BackendCConfig({ database: ":memory:" }));
    await using conn = await engine.connect();
    const [row] = await conn.all(`SELECT 1 AS "__proto__", 2 AS x, 3 AS x, 4 AS y`);
    expect(Object.getPrototypeOf(row)).to.equal(Object.prototype);
    expect(Object.keys(row!)).to.deep.equal(["__proto__", "x", "y"]);
    expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).to.equal(1);
    expect(row).to.include({ x: 3, y: 4 });
  });
});
