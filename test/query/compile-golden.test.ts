/** Golden SQL for every operator and combination, on all three dialects (exact SQL + parameters). */
import { expect } from "chai";
import { ValidationError, and, not, or } from "lib";
import { expectSql } from "./support/golden.js";
import { Analytics, Decimal, Orders, Sales } from "./support/views.js";

const byCountry = () => Sales.query().dimensions(Sales.country).metrics(Sales.revenue);
const A_SALES = `SELECT * FROM SEMANTIC_VIEW("SALES" DIMENSIONS "COUNTRY" AS "country" METRICS "REVENUE" AS "revenue"`;
const B_SALES = "SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales`";
const C_SALES = `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue']`;

/** Golden SQL of `byCountry().where(condition)` with the filter text per dialect. */
function expectFilter(
  condition: Parameters<ReturnType<typeof byCountry>["where"]>[0],
  a: string,
  b: string,
  c: string,
  parameters: unknown[] = [],
): void {
  expectSql(byCountry().where(condition), {
    backend_a: { sql: `${A_SALES} WHERE ${a})`, parameters },
    backend_b: { sql: `${B_SALES} WHERE ${b} GROUP BY ALL`, parameters },
    backend_c: `${C_SALES}, where_clause := '${c}')`,
  });
}

describe("query compilers: golden SQL", () => {
  describe("selection shapes", () => {
    it("the SPEC example: revenue by country, ordered by revenue descending", () => {
      expectSql(byCountry().orderBy(Sales.revenue.desc()), {
        backend_a: { sql: `${A_SALES}) ORDER BY "revenue" DESC NULLS LAST` },
        backend_b: { sql: `${B_SALES} GROUP BY ALL ORDER BY \`revenue\` DESC NULLS LAST` },
        backend_c: `${C_SALES}) ORDER BY "revenue" DESC NULLS LAST`,
      });
    });

    it("the SPEC example filtered by country", () => {
      expectSql(byCountry().where(Sales.country.eq("US")).orderBy(Sales.revenue.desc()), {
        backend_a: { sql: `${A_SALES} WHERE "COUNTRY" = ?) ORDER BY "revenue" DESC NULLS LAST`, parameters: ["US"] },
        backend_b: {
          sql: `${B_SALES} WHERE \`country\` = ? GROUP BY ALL ORDER BY \`revenue\` DESC NULLS LAST`,
          parameters: ["US"],
        },
        backend_c: `${C_SALES}, where_clause := '"country" = ''US''') ORDER BY "revenue" DESC NULLS LAST`,
      });
    });

    it("dimensions come first whatever the call order", () => {
      expectSql(Sales.query().metrics(Sales.revenue).dimensions(Sales.country), {
        backend_a: { sql: `${A_SALES})` },
        backend_b: { sql: `${B_SALES} GROUP BY ALL` },
        backend_c: `${C_SALES})`,
      });
    });

    it("metrics only: one grand-total row, no GROUP BY", () => {
      expectSql(Sales.query().metrics(Sales.revenue, Sales.cost), {
        backend_a: { sql: `SELECT * FROM SEMANTIC_VIEW("SALES" METRICS "REVENUE" AS "revenue", "COST" AS "cost")` },
        backend_b: { sql: "SELECT MEASURE(`revenue`) AS `revenue`, MEASURE(`cost`) AS `cost` FROM `sales`" },
        backend_c: `SELECT "revenue" AS "revenue", "cost" AS "cost" FROM semantic_view('sales', metrics := ['revenue', 'cost'])`,
      });
    });

    it("dimensions only", () => {
      expectSql(Sales.query().dimensions(Sales.country, Sales.region), {
        backend_a: {
          sql: `SELECT * FROM SEMANTIC_VIEW("SALES" DIMENSIONS "COUNTRY" AS "country", "REGION" AS "region")`,
        },
        backend_b: { sql: "SELECT `country` AS `country`, `region` AS `region` FROM `sales` GROUP BY ALL" },
        backend_c: `SELECT "country" AS "country", "region" AS "region" FROM semantic_view('sales', dimensions := ['country', 'region'])`,
      });
    });

    it("facts alone: row level, not grouped; Snowflake's unaliased facts are ordered by position; refused on B", () => {
      expectSql(Orders.query().facts(Orders.quantity, Orders.price).orderBy(Orders.price.desc()), {
        backend_a: {
          sql: `SELECT * FROM SEMANTIC_VIEW("ORDERS" FACTS "QUANTITY", "PRICE") ORDER BY 2 DESC NULLS LAST`,
        },
        backend_b: { refused: /backend B \(Databricks metric views\) has no facts.*"quantity"/ },
        backend_c: `SELECT "quantity" AS "quantity", "price" AS "price" FROM semantic_view('orders', facts := ['quantity', 'price']) ORDER BY "price" DESC NULLS LAST`,
      });
    });

    it("facts with a dimension: row level on C; refused on A (Snowflake groups them) and B (no facts)", () => {
      expectSql(Orders.query().facts(Orders.quantity, Orders.price).dimensions(Orders.status), {
        backend_a: { refused: /backend A \(Snowflake\) does not return facts with dimensions row by row/ },
        backend_b: { refused: /backend B \(Databricks metric views\) has no facts/ },
        backend_c: `SELECT "status" AS "status", "quantity" AS "quantity", "price" AS "price" FROM semantic_view('orders', dimensions := ['status'], facts := ['quantity', 'price'])`,
      });
    });

    it("a qualified view name, with OFFSET but no LIMIT", () => {
      expectSql(Analytics.query().metrics(Analytics.revenue).offset(3), {
        backend_a: {
          sql: `SELECT * FROM SEMANTIC_VIEW("ANALYTICS"."PUBLIC"."SALES" METRICS "REVENUE" AS "revenue") LIMIT NULL OFFSET 3`,
        },
        backend_b: { sql: "SELECT MEASURE(`revenue`) AS `revenue` FROM `analytics`.`public`.`sales` OFFSET 3" },
        backend_c: `SELECT "revenue" AS "revenue" FROM semantic_view('analytics.public.sales', metrics := ['revenue']) OFFSET 3`,
      });
    });

    it("camelCase names are quoted exactly on Snowflake, lower-case ones folded to upper case", () => {
      expectSql(Orders.query().dimensions(Orders.orderedAt).metrics(Orders.orderCount), {
        backend_a: {
          sql: `SELECT * FROM SEMANTIC_VIEW("ORDERS" DIMENSIONS "orderedAt" AS "orderedAt" METRICS "orderCount" AS "orderCount")`,
        },
        backend_b: {
          sql: "SELECT `orderedAt` AS `orderedAt`, MEASURE(`orderCount`) AS `orderCount` FROM `orders` GROUP BY ALL",
        },
        backend_c: `SELECT "orderedAt" AS "orderedAt", "orderCount" AS "orderCount" FROM semantic_view('orders', dimensions := ['orderedAt'], metrics := ['orderCount'])`,
      });
    });
  });

  describe("comparison operators", () => {
    const cases = [
      ["eq", Sales.country.eq("US"), "="],
      ["ne", Sales.country.ne("US"), "<>"],
      ["gt", Sales.country.gt("US"), ">"],
      ["gte", Sales.country.gte("US"), ">="],
      ["lt", Sales.country.lt("US"), "<"],
      ["lte", Sales.country.lte("US"), "<="],
    ] as const;
    for (const [name, condition, op] of cases) {
      it(name, () => {
        expectFilter(condition, `"COUNTRY" ${op} ?`, `\`country\` ${op} ?`, `"country" ${op} ''US''`, ["US"]);
      });
    }
  });

  describe("null checks", () => {
    it("isNull and eq(null) are IS NULL", () => {
      for (const condition of [Sales.region.isNull(), Sales.region.eq(null)]) {
        expectFilter(condition, `"REGION" IS NULL`, "`region` IS NULL", `"region" IS NULL`);
      }
    });
    it("isNotNull and ne(null) are IS NOT NULL", () => {
      for (const condition of [Sales.region.isNotNull(), Sales.region.ne(null)]) {
        expectFilter(condition, `"REGION" IS NOT NULL`, "`region` IS NOT NULL", `"region" IS NOT NULL`);
      }
    });
  });

  describe("lists and ranges", () => {
    it("in", () => {
      expectFilter(
        Sales.country.in(["US", "DE"]),
        `"COUNTRY" IN (?, ?)`,
        "`country` IN (?, ?)",
        `"country" IN (''US'', ''DE'')`,
        ["US", "DE"],
      );
    });
    it("in([]) matches nothing: FALSE", () => {
      expectFilter(Sales.country.in([]), "FALSE", "FALSE", "FALSE");
    });
    it("notIn", () => {
      expectFilter(
        Sales.country.notIn(["US"]),
        `"COUNTRY" NOT IN (?)`,
        "`country` NOT IN (?)",
        `"country" NOT IN (''US'')`,
        ["US"],
      );
    });
    it("notIn([]) matches everything: TRUE", () => {
      expectFilter(Sales.country.notIn([]), "TRUE", "TRUE", "TRUE");
    });
    it("a null inside in() also matches NULL", () => {
      expectFilter(
        Sales.region.in(["EU", null]),
        `"REGION" IN (?) OR "REGION" IS NULL`,
        "`region` IN (?) OR `region` IS NULL",
        `"region" IN (''EU'') OR "region" IS NULL`,
        ["EU"],
      );
    });
    it("in([null]) is IS NULL", () => {
      expectFilter(Sales.region.in([null]), `"REGION" IS NULL`, "`region` IS NULL", `"region" IS NULL`);
    });
    it("a null inside notIn() also excludes NULL", () => {
      expectFilter(
        Sales.region.notIn(["EU", null]),
        `"REGION" NOT IN (?) AND "REGION" IS NOT NULL`,
        "`region` NOT IN (?) AND `region` IS NOT NULL",
        `"region" NOT IN (''EU'') AND "region" IS NOT NULL`,
        ["EU"],
      );
    });
    it("between", () => {
      expectFilter(
        Sales.country.between("A", "M"),
        `"COUNTRY" BETWEEN ? AND ?`,
        "`country` BETWEEN ? AND ?",
        `"country" BETWEEN ''A'' AND ''M''`,
        ["A", "M"],
      );
    });
  });

  describe("patterns", () => {
    it("like passes the pattern through (wildcards active) with a backslash escape written out on every dialect", () => {
      expectFilter(
        Sales.country.like("U_%\\%"),
        `"COUNTRY" LIKE ? ESCAPE '\\\\'`,
        "`country` LIKE ? ESCAPE '\\\\'",
        `"country" LIKE ''U_%\\%'' ESCAPE ''\\''`,
        ["U_%\\%"],
      );
    });
    it("startsWith escapes %, _ and the escape character", () => {
      expectFilter(
        Sales.country.startsWith("a%b_c!d"),
        `"COUNTRY" LIKE ? ESCAPE '!'`,
        "`country` LIKE ? ESCAPE '!'",
        `"country" LIKE ''a!%b!_c!!d%'' ESCAPE ''!''`,
        ["a!%b!_c!!d%"],
      );
    });
    it("endsWith", () => {
      expectFilter(
        Sales.country.endsWith("_x"),
        `"COUNTRY" LIKE ? ESCAPE '!'`,
        "`country` LIKE ? ESCAPE '!'",
        `"country" LIKE ''%!_x'' ESCAPE ''!''`,
        ["%!_x"],
      );
    });
    it("contains", () => {
      expectFilter(
        Sales.country.contains("50%"),
        `"COUNTRY" LIKE ? ESCAPE '!'`,
        "`country` LIKE ? ESCAPE '!'",
        `"country" LIKE ''%50!%%'' ESCAPE ''!''`,
        ["%50!%%"],
      );
    });
  });

  describe("combinators", () => {
    it("and / or / not nest with explicit parentheses", () => {
      expectFilter(
        or(
          and(Sales.country.eq("US"), Sales.region.eq("West")),
          not(or(Sales.country.eq("DE"), Sales.region.isNull())),
        ),
        `("COUNTRY" = ? AND "REGION" = ?) OR NOT ("COUNTRY" = ? OR "REGION" IS NULL)`,
        "(`country` = ? AND `region` = ?) OR NOT (`country` = ? OR `region` IS NULL)",
        `("country" = ''US'' AND "region" = ''West'') OR NOT ("country" = ''DE'' OR "region" IS NULL)`,
        ["US", "West", "DE"],
      );
    });
    it("an OR inside an AND is parenthesized", () => {
      expectFilter(
        and(Sales.country.eq("US"), or(Sales.region.eq("a"), Sales.region.eq("b"))),
        `"COUNTRY" = ? AND ("REGION" = ? OR "REGION" = ?)`,
        "`country` = ? AND (`region` = ? OR `region` = ?)",
        `"country" = ''US'' AND ("region" = ''a'' OR "region" = ''b'')`,
        ["US", "a", "b"],
      );
    });
    it("and() and or() skip null/undefined; a single condition is not wrapped", () => {
      expectFilter(
        and(null, Sales.country.eq("US"), undefined),
        `"COUNTRY" = ?`,
        "`country` = ?",
        `"country" = ''US''`,
        ["US"],
      );
      expectFilter(or(undefined, Sales.country.eq("US")), `"COUNTRY" = ?`, "`country` = ?", `"country" = ''US''`, [
        "US",
      ]);
    });
    it("and() of nothing is TRUE, or() of nothing is FALSE", () => {
      expectFilter(and(), "TRUE", "TRUE", "TRUE");
      expectFilter(or(), "FALSE", "FALSE", "FALSE");
    });
    it("not of a simple condition", () => {
      expectFilter(
        not(Sales.country.eq("US")),
        `NOT ("COUNTRY" = ?)`,
        "NOT (`country` = ?)",
        `NOT ("country" = ''US'')`,
        ["US"],
      );
    });
  });

  describe("where()", () => {
    it("null and undefined are no-ops", () => {
      expectSql(byCountry().where(null).where(undefined), {
        backend_a: { sql: `${A_SALES})` },
        backend_b: { sql: `${B_SALES} GROUP BY ALL` },
        backend_c: `${C_SALES})`,
      });
    });
    it("repeated calls are ANDed, flattening ANDs", () => {
      const q = byCountry()
        .where(Sales.country.eq("US"))
        .where(null)
        .where(and(Sales.region.ne("x"), Sales.region.ne("y")));
      expectSql(q, {
        backend_a: {
          sql: `${A_SALES} WHERE "COUNTRY" = ? AND "REGION" <> ? AND "REGION" <> ?)`,
          parameters: ["US", "x", "y"],
        },
        backend_b: {
          sql: `${B_SALES} WHERE \`country\` = ? AND \`region\` <> ? AND \`region\` <> ? GROUP BY ALL`,
          parameters: ["US", "x", "y"],
        },
        backend_c: `${C_SALES}, where_clause := '"country" = ''US'' AND "region" <> ''x'' AND "region" <> ''y''')`,
      });
    });
    it("an OR followed by another where() keeps its parentheses", () => {
      const q = byCountry()
        .where(or(Sales.country.eq("US"), Sales.country.eq("DE")))
        .where(Sales.region.isNotNull());
      expectSql(q, {
        backend_a: {
          sql: `${A_SALES} WHERE ("COUNTRY" = ? OR "COUNTRY" = ?) AND "REGION" IS NOT NULL)`,
          parameters: ["US", "DE"],
        },
        backend_b: {
          sql: `${B_SALES} WHERE (\`country\` = ? OR \`country\` = ?) AND \`region\` IS NOT NULL GROUP BY ALL`,
          parameters: ["US", "DE"],
        },
        backend_c: `${C_SALES}, where_clause := '("country" = ''US'' OR "country" = ''DE'') AND "region" IS NOT NULL')`,
      });
    });
  });

  describe("ordering and paging", () => {
    it("asc/desc with nulls placement; a bare field orders ascending", () => {
      const q = byCountry()
        .orderBy(Sales.country.asc({ nulls: "first" }), Sales.revenue.desc({ nulls: "last" }))
        .orderBy(Sales.country);
      expectSql(q, {
        backend_a: {
          sql: `${A_SALES}) ORDER BY "country" ASC NULLS FIRST, "revenue" DESC NULLS LAST, "country" ASC NULLS LAST`,
        },
        backend_b: {
          sql: `${B_SALES} GROUP BY ALL ORDER BY \`country\` ASC NULLS FIRST, \`revenue\` DESC NULLS LAST, \`country\` ASC NULLS LAST`,
        },
        backend_c: `${C_SALES}) ORDER BY "country" ASC NULLS FIRST, "revenue" DESC NULLS LAST, "country" ASC NULLS LAST`,
      });
    });
    it("limit and offset", () => {
      expectSql(byCountry().orderBy(Sales.revenue.desc()).limit(10).offset(20), {
        backend_a: { sql: `${A_SALES}) ORDER BY "revenue" DESC NULLS LAST LIMIT 10 OFFSET 20` },
        backend_b: { sql: `${B_SALES} GROUP BY ALL ORDER BY \`revenue\` DESC NULLS LAST LIMIT 10 OFFSET 20` },
        backend_c: `${C_SALES}) ORDER BY "revenue" DESC NULLS LAST LIMIT 10 OFFSET 20`,
      });
    });
    it("limit alone; offset(0) is written", () => {
      expectSql(byCountry().limit(1).offset(0), {
        backend_a: { sql: `${A_SALES}) LIMIT 1 OFFSET 0` },
        backend_b: { sql: `${B_SALES} GROUP BY ALL LIMIT 1 OFFSET 0` },
        backend_c: `${C_SALES}) LIMIT 1 OFFSET 0`,
      });
    });
  });

  describe("value types", () => {
    it("number, Decimal, boolean, Date and bigint per dialect", () => {
      const at = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6));
      const q = Orders.query()
        .dimensions(Orders.status)
        .metrics(Orders.total)
        .where(
          and(
            Orders.quantity.gte(-1.5),
            Orders.price.lt(new Decimal(12345n, 2)),
            Orders.isRush.eq(false),
            Orders.orderedAt.gte(at),
            Orders.quantity.lte(9007199254740993n),
          ),
        );
      const a = `"QUANTITY" >= ? AND "PRICE" < CAST(? AS NUMBER(5,2)) AND "isRush" = ? AND "orderedAt" >= TO_TIMESTAMP_NTZ(?, 3) AND "QUANTITY" <= CAST(? AS NUMBER(38,0))`;
      const b =
        "`quantity` >= ? AND `price` < CAST(? AS DECIMAL(5,2)) AND `isRush` = ? AND `orderedAt` >= ? AND `quantity` <= ?";
      expectSql(q, {
        backend_a: {
          sql: `SELECT * FROM SEMANTIC_VIEW("ORDERS" DIMENSIONS "STATUS" AS "status" METRICS "TOTAL" AS "total" WHERE ${a})`,
          // snowflake-sdk cannot bind a bigint: bigint and Decimal go as exact text, cast in the SQL;
          // a Date as epoch milliseconds (typed in the SQL, independent of the account's input format).
          parameters: [-1.5, "123.45", false, at.getTime(), "9007199254740993"],
        },
        backend_b: {
          sql: `SELECT \`status\` AS \`status\`, MEASURE(\`total\`) AS \`total\` FROM \`orders\` WHERE ${b} GROUP BY ALL`,
          parameters: [-1.5, "123.45", false, at, 9007199254740993n],
        },
        backend_c:
          `SELECT "status" AS "status", "total" AS "total" FROM semantic_view('orders', dimensions := ['status'], metrics := ['total'], where_clause := ` +
          // A fractional value is guarded so DuckDB never casts a wide column to DECIMAL(38, s) (duckdb-decimal-guard.ts).
          `'(CASE WHEN TRY_CAST("quantity" AS DECIMAL(38,1)) IS NULL AND "quantity" IS NOT NULL THEN "quantity" > 0 ELSE "quantity" >= -1.5 END) ` +
          `AND (CASE WHEN TRY_CAST("price" AS DECIMAL(38,2)) IS NULL AND "price" IS NOT NULL THEN "price" < 0 ELSE "price" < 123.45 END) ` +
          `AND "isRush" = FALSE AND "orderedAt" >= TIMESTAMP ''2024-01-02 03:04:05.006'' AND "quantity" <= 9007199254740993')`,
      });
    });
    it("Decimal keeps its scale and sign exactly", () => {
      expectSql(
        Orders.query()
          .metrics(Orders.total)
          .where(Orders.price.eq(Decimal.parse("-0.0100"))),
        {
          backend_a: {
            sql: `SELECT * FROM SEMANTIC_VIEW("ORDERS" METRICS "TOTAL" AS "total" WHERE "PRICE" = CAST(? AS NUMBER(5,4)))`,
            parameters: ["-0.0100"],
          },
          backend_b: {
            sql: "SELECT MEASURE(`total`) AS `total` FROM `orders` WHERE `price` = CAST(? AS DECIMAL(5,4))",
            parameters: ["-0.0100"],
          },
          backend_c: `SELECT "total" AS "total" FROM semantic_view('orders', metrics := ['total'], where_clause := '(CASE WHEN TRY_CAST("price" AS DECIMAL(38,4)) IS NULL AND "price" IS NOT NULL THEN FALSE ELSE "price" = -0.0100 END)')`,
        },
      );
    });
    it("Decimal IN lists on Databricks; the 38-digit precision limit everywhere", () => {
      const q = Orders.query()
        .metrics(Orders.total)
        .where(Orders.price.in([Decimal.parse("1000"), Decimal.parse("0.5")]));
      expect(q.compile({ dialect: "backend_b" })).to.include({
        sql: "SELECT MEASURE(`total`) AS `total` FROM `orders` WHERE `price` IN (CAST(? AS DECIMAL(4,0)), CAST(? AS DECIMAL(2,1)))",
      });
      const wide = Orders.query()
        .metrics(Orders.total)
        .where(Orders.price.eq(Decimal.parse("1".repeat(39))));
      expect(() => wide.toSql({ dialect: "backend_b" })).to.throw(ValidationError, /precision 39/);
      expect(() => wide.toSql({ dialect: "backend_a" })).to.throw(
        ValidationError,
        /precision 39; Snowflake allows at most 38 digits/,
      );
      expect(() => wide.toSql({ dialect: "backend_c" })).to.throw(
        ValidationError,
        /precision 39; DuckDB allows at most 38 digits/,
      );
    });
  });
});
