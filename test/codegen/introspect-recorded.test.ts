import { expect } from "chai";
import { SnowflakeIntrospector } from "../../runtime/dialects/snowflake/snowflake-introspector.js";
import {
  DatabricksIntrospector,
  parseMetricViewJson,
} from "../../runtime/dialects/databricks/databricks-introspector.js";
import { DuckDBIntrospector } from "../../runtime/dialects/duckdb/duckdb-introspector.js";
import { RecordedSource } from "./support/recorded-source.js";

const DESCRIBE_COLUMNS = ["object_kind", "object_name", "parent_entity", "property", "property_value"];
/** SHOW SEMANTIC DIMENSIONS ... FOR METRIC: Snowflake's documented columns (the extension has the first four). */
const FOR_METRIC_A = ["table_name", "name", "data_type", "required", "synonyms", "comment"];
const FOR_METRIC_C = ["table_name", "name", "data_type", "required"];

describe("codegen introspection from recorded metadata", () => {
  describe("backend A (SHOW SEMANTIC VIEWS / DESCRIBE SEMANTIC VIEW)", () => {
    const source = new RecordedSource({
      "SHOW SEMANTIC VIEWS IN SCHEMA": {
        columns: [
          "created_on",
          "name",
          "database_name",
          "schema_name",
          "comment",
          "owner",
          "owner_role_type",
          "extension",
        ],
        rows: [["2026-01-01 00:00:00", "SALES", "DEMO", "PUBLIC", "Sales by country", "SYSADMIN", "ROLE", null]],
      },
      'DESCRIBE SEMANTIC VIEW "SALES"': {
        columns: DESCRIBE_COLUMNS,
        rows: [
          [null, null, null, "COMMENT", "Sales by country"],
          ["TABLE", "SALES_DATA", null, "BASE_TABLE_NAME", "SALES_DATA"],
          ["DIMENSION", "COUNTRY", "SALES_DATA", "TABLE", "SALES_DATA"],
          ["DIMENSION", "COUNTRY", "SALES_DATA", "EXPRESSION", "country"],
          ["DIMENSION", "COUNTRY", "SALES_DATA", "DATA_TYPE", "VARCHAR(16777216)"],
          ["DIMENSION", "COUNTRY", "SALES_DATA", "COMMENT", "ISO country"],
          ["METRIC", "REVENUE", "SALES_DATA", "EXPRESSION", "SUM(revenue)"],
          ["METRIC", "REVENUE", "SALES_DATA", "DATA_TYPE", "NUMBER(38,0)"],
          ["METRIC", "MARGIN", "SALES_DATA", "EXPRESSION", "SUM(revenue - cost) / 100"],
          ["METRIC", "MARGIN", "SALES_DATA", "DATA_TYPE", "NUMBER(38,6)"],
          ["METRIC", "SECRET_SAUCE", "SALES_DATA", "DATA_TYPE", "NUMBER(38,0)"],
          ["METRIC", "SECRET_SAUCE", "SALES_DATA", "ACCESS_MODIFIER", "PRIVATE"],
          ["FACT", "AMOUNT", "SALES_DATA", "DATA_TYPE", "NUMBER(9,0)"],
        ],
      },
      'SHOW SEMANTIC DIMENSIONS IN "SALES" FOR METRIC "REVENUE"': {
        columns: FOR_METRIC_A,
        rows: [["SALES_DATA", "COUNTRY", "VARCHAR(16777216)", "false", "[]", "ISO country"]],
      },
      'SHOW SEMANTIC DIMENSIONS IN "SALES" FOR METRIC "MARGIN"': { columns: FOR_METRIC_A, rows: [] },
      [`SELECT GET_DDL('SEMANTIC_VIEW', '"SALES"')`]: {
        columns: [`GET_DDL('SEMANTIC_VIEW', '"SALES"')`],
        rows: [
          [
            [
              "create or replace semantic view SALES",
              "\ttables (SALES_DATA)",
              "\tvariables (MIN_AMOUNT NUMBER(38,0), \"rate\" FLOAT := 0.5 comment 'a rate, optional')",
              "\tdimensions (SALES_DATA.COUNTRY as country)",
              '\tmetrics (SALES_DATA.REVENUE as SUM(CASE WHEN revenue >= MIN_AMOUNT THEN revenue * "rate" END));',
            ].join("\n"),
          ],
        ],
      },
    });

    it("lists views and folds DESCRIBE rows into typed members, skipping private ones", async () => {
      const introspector = new SnowflakeIntrospector(source);
      const views = await introspector.listViews();
      expect(views).to.deep.equal([{ name: "SALES", comment: "Sales by country" }]);
      const sales = await introspector.describeView(views[0]!);
      expect(sales.name).to.equal("SALES");
      expect(sales.comment).to.equal("Sales by country");
      expect(sales.members).to.deep.equal([
        {
          name: "COUNTRY",
          kind: "dimension",
          table: "SALES_DATA",
          type: "VARCHAR(16777216)",
          expression: "country",
          comment: "ISO country",
        },
        {
          name: "REVENUE",
          kind: "metric",
          table: "SALES_DATA",
          type: "NUMBER(38,0)",
          expression: "SUM(revenue)",
          comment: undefined,
          groupableBy: [{ name: "COUNTRY", table: "SALES_DATA" }],
        },
        {
          name: "MARGIN",
          kind: "metric",
          table: "SALES_DATA",
          type: "NUMBER(38,6)",
          expression: "SUM(revenue - cost) / 100",
          comment: undefined,
          groupableBy: [],
        },
        {
          name: "AMOUNT",
          kind: "fact",
          table: "SALES_DATA",
          type: "NUMBER(9,0)",
          expression: undefined,
          comment: undefined,
        },
      ]);
      // Variables come from the DDL's VARIABLES clause: a default (`DEFAULT` or `:=`) makes one optional.
      expect(sales.variables).to.deep.equal([
        { name: "MIN_AMOUNT", type: "NUMBER(38,0)", hasDefault: false },
        { name: "rate", type: "FLOAT", hasDefault: true, comment: "a rate, optional" },
      ]);
    });
  });

  describe("backend B (metric view JSON with YAML)", () => {
    const yaml = [
      "version: 1.1",
      "source: main.demo.sales_data",
      "comment: Revenue metrics",
      "dimensions:",
      "  - name: country",
      "    expr: country",
      "    comment: ISO country",
      "  - name: region",
      "    expr: region",
      "measures:",
      "  - name: revenue",
      "    expr: SUM(revenue)",
      "  - name: avg_price",
      "    expr: AVG(price)",
      "  - name: money",
      "    expr: SUM(amount)",
    ].join("\n");
    const json = JSON.stringify({
      table_name: "sales",
      catalog_name: "main",
      schema_name: "demo",
      type: "METRIC_VIEW",
      view_text: yaml,
      columns: [
        { name: "country", type: { name: "string" }, nullable: true },
        { name: "region", type: "string", nullable: true },
        { name: "revenue", type: { name: "bigint" }, nullable: true },
        { name: "avg_price", type: { name: "double" }, nullable: true },
        { name: "money", type: { name: "decimal", precision: 30, scale: 2 }, nullable: true },
      ],
    });

    it("tells dimensions from measures and reads column types", () => {
      const view = parseMetricViewJson("sales", json);
      expect(view?.comment).to.equal("Revenue metrics");
      expect(view?.members.map((m) => [m.name, m.kind, m.type, m.comment])).to.deep.equal([
        ["country", "dimension", "string", "ISO country"],
        ["region", "dimension", "string", undefined],
        ["revenue", "metric", "bigint", undefined],
        ["avg_price", "metric", "double", undefined],
        ["money", "metric", "decimal(30,2)", undefined],
      ]);
    });

    it("ignores plain views and lists only metric views", async () => {
      const plain = JSON.stringify({ table_name: "v", type: "VIEW", view_text: "SELECT 1", columns: [] });
      const source = new RecordedSource({
        "SELECT table_name, comment FROM information_schema.tables WHERE table_catalog = current_catalog() AND table_schema = current_schema() AND table_type IN ('METRIC_VIEW', 'VIEW') ORDER BY table_name":
          {
            columns: ["table_name", "comment"],
            rows: [
              ["plain_view", null],
              ["sales", null],
            ],
          },
        "DESCRIBE TABLE EXTENDED `plain_view` AS JSON": { columns: ["json_metadata"], rows: [[plain]] },
        "DESCRIBE TABLE EXTENDED `sales` AS JSON": { columns: ["json_metadata"], rows: [[json]] },
      });
      const introspector = new DatabricksIntrospector(source);
      const views = await introspector.listViews();
      expect(views.map((v) => v.name)).to.deep.equal(["sales"]);
      const sales = await introspector.describeView(views[0]!);
      expect(sales.members).to.have.length(5);
      expect(source.statements.filter((s) => s.includes("`sales`"))).to.have.length(1);
    });
  });

  describe("backend C (extension-shaped rows and a LIMIT 0 probe)", () => {
    const describe = {
      columns: DESCRIBE_COLUMNS,
      rows: [
        ["SEMANTIC_VIEW", "sales", "", "COMMENT", "Demo sales"],
        ["TABLE", "sales_data", "", "BASE_TABLE_NAME", "sales_data"],
        ["DIMENSION", "country", "sales_data", "EXPRESSION", "sales_data.country"],
        ["DIMENSION", "country", "sales_data", "DATA_TYPE", ""],
        ["DIMENSION", "region", "sales_data", "EXPRESSION", "sales_data.region"],
        ["METRIC", "revenue", "sales_data", "EXPRESSION", "SUM(sales_data.revenue)"],
        ["METRIC", "revenue", "sales_data", "ACCESS_MODIFIER", "PUBLIC"],
        ["DERIVED_METRIC", "margin", "", "EXPRESSION", "revenue - cost"],
        ["FACT", "unit_price", "sales_data", "EXPRESSION", "sales_data.price"],
      ],
    };

    const forMetric = {
      'SHOW SEMANTIC DIMENSIONS IN "sales" FOR METRIC "revenue"': {
        columns: FOR_METRIC_C,
        rows: [
          ["sales_data", "country", "", false],
          ["sales_data", "region", "", false],
        ],
      },
      'SHOW SEMANTIC DIMENSIONS IN "sales" FOR METRIC "margin"': {
        columns: FOR_METRIC_C,
        rows: [["sales_data", "country", "", false]],
      },
    };

    it("types members from one probe for dimensions and metrics and one for facts", async () => {
      const source = new RecordedSource({
        ...forMetric,
        "SELECT name, comment FROM list_semantic_views()": { columns: ["name", "comment"], rows: [["sales", ""]] },
        "SELECT object_kind, object_name, parent_entity, property, property_value FROM describe_semantic_view('sales')":
          describe,
        "SELECT * FROM semantic_view('sales', dimensions := ['country', 'region'], metrics := ['revenue', 'margin']) LIMIT 0":
          {
            columns: ["country", "region", "revenue", "margin"],
            types: ["VARCHAR", "VARCHAR", "BIGINT", "DECIMAL(38,2)"],
            rows: [],
          },
        "SELECT * FROM semantic_view('sales', facts := ['unit_price']) LIMIT 0": {
          columns: ["unit_price"],
          types: ["DOUBLE"],
          rows: [],
        },
      });
      const introspector = new DuckDBIntrospector(source);
      const [summary] = await introspector.listViews();
      expect(summary).to.deep.equal({ name: "sales", comment: undefined });
      const view = await introspector.describeView(summary!);
      expect(view.comment).to.equal("Demo sales");
      expect(view.members.map((m) => [m.name, m.kind, m.type])).to.deep.equal([
        ["country", "dimension", "VARCHAR"],
        ["region", "dimension", "VARCHAR"],
        ["revenue", "metric", "BIGINT"],
        ["margin", "metric", "DECIMAL(38,2)"],
        ["unit_price", "fact", "DOUBLE"],
      ]);
      // No table is reached by two relationships: the listings are taken as they are, without a query.
      expect(view.members.map((m) => m.groupableBy?.map((d) => d.name))).to.deep.equal([
        undefined,
        undefined,
        ["country", "region"],
        ["country"],
        undefined,
      ]);
    });

    it("confirms the listings of a role-playing view with LIMIT 0 queries, one dimension at a time when needed", async () => {
      const relationship = (name: string, column: string) => [
        ["RELATIONSHIP", name, "flights", "TABLE", "flights"],
        ["RELATIONSHIP", name, "flights", "REF_TABLE", "airports"],
        ["RELATIONSHIP", name, "flights", "FOREIGN_KEY", `["${column}"]`],
      ];
      const listing = {
        columns: FOR_METRIC_C,
        rows: [
          ["airports", "city", "", false],
          ["flights", "carrier", "", false],
        ],
      };
      const probe = (dimensions: string, metric: string) =>
        `SELECT * FROM semantic_view('flights', dimensions := [${dimensions}], metrics := ['${metric}']) LIMIT 0`;
      const empty = { columns: [], rows: [] };
      const source = new RecordedSource({
        "SELECT object_kind, object_name, parent_entity, property, property_value FROM describe_semantic_view('flights')":
          {
            columns: DESCRIBE_COLUMNS,
            rows: [
              ...relationship("dep_airport", "departure_code"),
              ...relationship("arr_airport", "arrival_code"),
              ["DIMENSION", "city", "airports", "EXPRESSION", "a.city"],
              ["DIMENSION", "carrier", "flights", "EXPRESSION", "f.carrier"],
              ["METRIC", "departure_count", "flights", "EXPRESSION", "COUNT(*)"],
              ["DERIVED_METRIC", "total_flights", "", "EXPRESSION", "departure_count + arrival_count"],
            ],
          },
        "SELECT * FROM semantic_view('flights', dimensions := ['city', 'carrier'], metrics := ['departure_count', 'total_flights']) LIMIT 0":
          new Error("dimension 'city' is ambiguous"),
        "SELECT * FROM semantic_view('flights', dimensions := ['city']) LIMIT 0": empty,
        "SELECT * FROM semantic_view('flights', dimensions := ['carrier']) LIMIT 0": empty,
        "SELECT * FROM semantic_view('flights', metrics := ['departure_count']) LIMIT 0": empty,
        "SELECT * FROM semantic_view('flights', metrics := ['total_flights']) LIMIT 0": empty,
        'SHOW SEMANTIC DIMENSIONS IN "flights" FOR METRIC "departure_count"': listing,
        'SHOW SEMANTIC DIMENSIONS IN "flights" FOR METRIC "total_flights"': listing,
        [probe("'city', 'carrier'", "departure_count")]: empty,
        [probe("'city', 'carrier'", "total_flights")]: new Error("dimension 'city' is ambiguous"),
        [probe("'city'", "total_flights")]: new Error("dimension 'city' is ambiguous"),
        [probe("'carrier'", "total_flights")]: empty,
      });
      const view = await new DuckDBIntrospector(source).describeView({ name: "flights" });
      expect(view.members.filter((m) => m.kind === "metric").map((m) => [m.name, m.groupableBy])).to.deep.equal([
        [
          "departure_count",
          [
            { name: "city", table: "airports" },
            { name: "carrier", table: "flights" },
          ],
        ],
        ["total_flights", [{ name: "carrier", table: "flights" }]],
      ]);
    });

    it("falls back to one probe per member when the combined probe is rejected", async () => {
      const source = new RecordedSource({
        ...forMetric,
        "SELECT object_kind, object_name, parent_entity, property, property_value FROM describe_semantic_view('sales')":
          describe,
        "SELECT * FROM semantic_view('sales', dimensions := ['country', 'region'], metrics := ['revenue', 'margin']) LIMIT 0":
          new Error("fan trap detected"),
        "SELECT * FROM semantic_view('sales', dimensions := ['country']) LIMIT 0": {
          columns: ["country"],
          types: ["VARCHAR"],
          rows: [],
        },
        "SELECT * FROM semantic_view('sales', dimensions := ['region']) LIMIT 0": {
          columns: ["region"],
          types: ["VARCHAR"],
          rows: [],
        },
        "SELECT * FROM semantic_view('sales', metrics := ['revenue']) LIMIT 0": {
          columns: ["revenue"],
          types: ["BIGINT"],
          rows: [],
        },
        "SELECT * FROM semantic_view('sales', metrics := ['margin']) LIMIT 0": new Error("boom"),
        "SELECT * FROM semantic_view('sales', facts := ['unit_price']) LIMIT 0": {
          columns: ["unit_price"],
          types: ["DOUBLE"],
          rows: [],
        },
      });
      const view = await new DuckDBIntrospector(source).describeView({ name: "sales" });
      expect(view.members.map((m) => m.type)).to.deep.equal(["VARCHAR", "VARCHAR", "BIGINT", "", "DOUBLE"]);
    });
  });
});
