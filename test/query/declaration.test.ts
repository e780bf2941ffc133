/** SemanticView / Metric / Dimension / Fact: static members, names, validation. */
import { expect } from "chai";
import { Dimension, Fact, Metric, SemanticView, ValidationError } from "lib";
import { RESERVED_FIELD_NAMES } from "../../runtime/view/names.js";
import { Orders, Sales } from "./support/views.js";

describe("semantic view declarations", () => {
  it("carries the view name and each field as a static member that knows its name, kind and view", () => {
    expect(Sales.viewName).to.equal("sales");
    expect(Sales.name).to.equal("Sales");
    expect(Sales.revenue.name).to.equal("revenue");
    expect(Sales.revenue.kind).to.equal("metric");
    expect(Sales.revenue.viewName).to.equal("sales");
    expect(Sales.country.kind).to.equal("dimension");
    expect(Orders.quantity.kind).to.equal("fact");
    expect(Sales.country.node).to.deep.equal({
      kind: "FieldNode",
      viewName: "sales",
      name: "country",
      warehouseName: "country",
      fieldKind: "dimension",
    });
    expect(String(Sales.country)).to.equal("sales.country");
  });

  it("fields, nodes and conditions are frozen", () => {
    expect(Object.isFrozen(Sales.country)).to.equal(true);
    expect(Object.isFrozen(Sales.country.node)).to.equal(true);
    const c = Sales.country.in(["US"]);
    expect(Object.isFrozen(c)).to.equal(true);
    expect(Object.isFrozen(c.node)).to.equal(true);
    expect(() => {
      (Sales as unknown as { revenue: unknown }).revenue = 1;
    }).to.throw(TypeError);
  });

  it("query() returns a new empty query each time", () => {
    expect(Sales.query()).to.not.equal(Sales.query());
    expect(Sales.query().viewName).to.equal("sales");
  });

  it("subclasses share the base's static members", () => {
    class Base extends SemanticView("base_view", { m: Metric(), d: Dimension() }) {}
    class Sub extends Base {}
    expect(Sub.m).to.equal(Base.m);
    expect(Sub.viewName).to.equal("base_view");
  });

  for (const bad of ["1st", "has space", "dash-ed", "dollar$", "", "ünïcode", "a".repeat(256)]) {
    it(`rejects the field name ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 5)}...` : bad)}`, () => {
      expect(() => SemanticView("v", { [bad]: Metric() })).to.throw(ValidationError, /not a valid identifier/);
    });
  }

  for (const reserved of RESERVED_FIELD_NAMES) {
    it(`rejects the reserved field name "${reserved}"`, () => {
      const fields = JSON.parse(`{"${reserved}": 0}`) as Record<string, unknown>;
      fields[reserved] = Dimension();
      let error: unknown;
      try {
        SemanticView("v", fields as never);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as ValidationError).message).to.include(`"${reserved}"`);
      expect((error as ValidationError).field).to.equal(reserved);
    });
  }

  it("rejects a member that is not Metric()/Dimension()/Fact()", () => {
    expect(() => SemanticView("v", { x: {} } as never)).to.throw(
      ValidationError,
      /field "x" must be Metric\(\), Dimension\(\), Fact\(\) or Variable\(\)/,
    );
  });

  for (const bad of ["", "a.b.c.d", "a..b", "has space", "semi;colon", "quote'", 'dq"']) {
    it(`rejects the view name ${JSON.stringify(bad)}`, () => {
      expect(() => SemanticView(bad, { m: Metric() })).to.throw(ValidationError, /view name/);
    });
  }

  it("accepts qualified view names and underscores", () => {
    const V = SemanticView("db.schema_1._view", { _private_ish: Fact(), m2: Metric() });
    expect(V.viewName).to.equal("db.schema_1._view");
    expect(V._private_ish.kind).to.equal("fact");
  });
});
