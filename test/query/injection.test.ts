/**
 * Hostile values per dialect. Backends A and B must keep the SQL text fixed and carry the value,
 * unchanged, as a parameter. Backend C writes it as a twice-escaped literal inside where_clause:
 * here DuckDB itself reads both levels back (the where_clause string literal, then the predicate
 * over a one-column relation), and only the row holding exactly the hostile value matches.
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { expect } from "chai";
import { Sales } from "./support/views.js";
import { HOSTILE_VALUES } from "../support/hostile-values.js";

const PLACEHOLDER_A = `SELECT * FROM SEMANTIC_VIEW("SALES" DIMENSIONS "COUNTRY" AS "country" METRICS "REVENUE" AS "revenue" WHERE "COUNTRY" = ?)`;
const PLACEHOLDER_B =
  "SELECT `country` AS `country`, MEASURE(`revenue`) AS `revenue` FROM `sales` WHERE `country` = ? GROUP BY ALL";

const query = (value: string) =>
  Sales.query().dimensions(Sales.country).metrics(Sales.revenue).where(Sales.country.eq(value));

/** The predicate text a DuckDB query carries, read back by DuckDB from the where_clause literal. */
async function readWhereClause(conn: DuckDBConnection, sql: string): Promise<string> {
  const match = /, where_clause := ('(?:[^']|'')*')\)$/s.exec(sql);
  expect(match, `where_clause literal in ${sql}`).to.not.equal(null);
  const reader = await conn.runAndReadAll(`SELECT ${match![1]} AS w`);
  return reader.getRowObjects()[0]!["w"] as string;
}

/** The values among `candidates` that `predicate` (over a column "country") selects. */
async function selected(conn: DuckDBConnection, predicate: string, candidates: readonly string[]): Promise<string[]> {
  const values = candidates.map((_, i) => `($${i + 1})`).join(", ");
  const reader = await conn.runAndReadAll(
    `SELECT t."country" AS c FROM (VALUES ${values}) t("country") WHERE ${predicate} ORDER BY 1`,
    [...candidates],
  );
  return reader.getRowObjects().map((r) => r["c"] as string);
}

describe("query compilers: injection", () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;

  before(async () => {
    instance = await DuckDBInstance.create(":memory:");
    conn = await instance.connect();
  });
  after(() => {
    conn.closeSync();
    instance.closeSync();
  });

  describe("backend A and B bind the value as a parameter, SQL text unchanged", () => {
    for (const value of HOSTILE_VALUES) {
      it(JSON.stringify(value), () => {
        const a = query(value).compile({ dialect: "backend_a" });
        expect(a.sql).to.equal(PLACEHOLDER_A);
        expect(a.parameters).to.deep.equal([value]);
        const b = query(value).compile({ dialect: "backend_b" });
        expect(b.sql).to.equal(PLACEHOLDER_B);
        expect(b.parameters).to.deep.equal([value]);
      });
    }
  });

  describe("backend C: DuckDB reads the twice-escaped literal back to exactly the value", () => {
    for (const value of HOSTILE_VALUES) {
      it(JSON.stringify(value), async () => {
        const compiled = query(value).compile({ dialect: "backend_c" });
        expect(compiled.parameters).to.deep.equal([]);
        expect(compiled.sql).to.not.include("\u0000");
        const predicate = await readWhereClause(conn, compiled.sql);
        const decoys = ["US", `${value}x`, `x${value}`, value.toUpperCase() === value ? "decoy" : value.toUpperCase()];
        expect(await selected(conn, predicate, [value, ...decoys.filter((d) => d !== value)])).to.deep.equal([value]);
      });
    }
  });

  describe("backend C: exact escaping", () => {
    it("doubles quotes at both levels", () => {
      expect(query("O'Brien").toSql({ dialect: "backend_c" })).to.equal(
        `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'], where_clause := '"country" = ''O''''Brien''')`,
      );
    });
    it("leaves backslashes, $$ and comment markers as plain characters inside the literal", () => {
      expect(query("\\' -- /* $$").toSql({ dialect: "backend_c" })).to.equal(
        `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'], where_clause := '"country" = ''\\'''' -- /* $$''')`,
      );
    });
    it("keeps newlines and unicode verbatim", () => {
      expect(query("a\nb 🙂").toSql({ dialect: "backend_c" })).to.equal(
        `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'], where_clause := '"country" = ''a\nb 🙂''')`,
      );
    });
    it("writes a NUL character as chr(0), never raw", () => {
      expect(query("a\u0000b").toSql({ dialect: "backend_c" })).to.equal(
        `SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales', dimensions := ['country'], metrics := ['revenue'], where_clause := '"country" = (''a'' || chr(0) || ''b'')')`,
      );
    });
  });

  describe("LIKE helpers treat hostile text literally", () => {
    for (const value of ["50%", "a_b", "!x", "%", "_", "it's 100%", "back\\slash%"]) {
      it(`contains(${JSON.stringify(value)}) on backend C matches only the literal text`, async () => {
        const compiled = Sales.query()
          .dimensions(Sales.country)
          .where(Sales.country.contains(value))
          .compile({ dialect: "backend_c" });
        const predicate = await readWhereClause(conn, compiled.sql);
        const hit = `<${value}>`;
        const misses = [value.replaceAll("%", "x").replaceAll("_", "y").replaceAll("!", "z") + "q", "plain"].filter(
          (m) => !m.includes(value),
        );
        expect(await selected(conn, predicate, [hit, ...misses])).to.deep.equal([hit]);
      });
    }
  });
});
