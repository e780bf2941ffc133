/** The router's OpenAPI 3.1 documents validate, and name the members as enums and rows from the DTOs. */
import { Validator } from "@seriousme/openapi-schema-validator";
import { expect } from "chai";
import {
  recordedEngine,
  serveRouter,
  views,
  type RecordedEngine,
  type RunningRouter,
} from "./support/router-fixture.js";

type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, { properties?: Record<string, { items?: { enum?: string[] } }> }> };
};

describe("semantic router: OpenAPI", function () {
  let recorded: RecordedEngine;
  let router: RunningRouter;

  before(async function () {
    recorded = recordedEngine();
    router = await serveRouter({ views, engine: recorded.engine, openApi: { title: "Test views" } });
  });
  after(async function () {
    await router?.[Symbol.asyncDispose]();
    await recorded?.engine.dispose();
  });

  for (const path of ["/openapi.json", "/views/sales/openapi.json", "/views/orders/openapi.json"]) {
    it(`${path} is a valid OpenAPI 3.1 document`, async () => {
      const doc = (await (await fetch(`${router.url}${path}`)).json()) as Doc;
      const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
      expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
      expect(result.valid).to.equal(true);
      if (path.includes("orders")) return;
      expect(doc.paths).to.have.property("/api/views/sales/query");
      const query = doc.components.schemas["SalesQuery"]!;
      expect(query.properties!["metrics"]!.items!.enum).to.deep.equal(["revenue", "cost"]);
      expect(query.properties!["dimensions"]!.items!.enum).to.deep.equal(["country", "region"]);
      expect(doc.components.schemas["SalesRow"]!.properties).to.have.keys("revenue", "cost", "country", "region");
    });
  }

  it("a view's document holds only that view", async () => {
    const doc = (await (await fetch(`${router.url}/views/orders/openapi.json`)).json()) as Doc;
    expect(Object.keys(doc.paths).filter((p) => p.includes("/sales"))).to.deep.equal([]);
    expect(doc.components.schemas["OrdersRow"]!.properties!["total"]).to.deep.include({ type: "number" });
    // Facts, which the row DTO leaves out, have their own row schema: a facts query answers those rows.
    expect(doc.components.schemas["OrdersFacts"]!.properties).to.deep.equal({
      quantity: { type: "integer", title: "Quantity" },
      price: { type: "number", title: "Price", "x-lib-type": "decimal" },
      statusCode: { type: "string", title: "Status Code" },
    });
    const answer = doc.paths["/api/views/orders/query"]!["post"] as {
      responses: { "200": { content: Record<string, { schema: { properties: { rows: { items: unknown } } } }> } };
    };
    expect(answer.responses["200"].content["application/json"]!.schema.properties.rows.items).to.deep.equal({
      anyOf: [{ $ref: "#/components/schemas/OrdersRow" }, { $ref: "#/components/schemas/OrdersFacts" }],
    });
  });
});
