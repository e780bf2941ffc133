/**
 * Backend A: Snowflake semantic views, queried through the SEMANTIC_VIEW construct.
 *
 * ```sql
 * SELECT * FROM SEMANTIC_VIEW("SALES" DIMENSIONS "COUNTRY" AS "country" METRICS "REVENUE" AS "revenue"
 *   WHERE "COUNTRY" = ?) ORDER BY "revenue" DESC NULLS LAST LIMIT 100
 * ```
 * Identifier folding: Snowflake stores unquoted names upper-case and quoted names exactly. A declared
 * name written all in lower case (the convention, and what codegen emits for Snowflake's upper-case
 * names) stands for the unquoted identifier and is written quoted upper-case (`revenue` →
 * `"REVENUE"`), which resolves the same as the bare word and stays safe for reserved words. A name
 * with any upper-case letter is quoted exactly as declared (`countryCode` → `"countryCode"`).
 * A member declared with a warehouse name (`Dimension({ name: "customer.name" })`) is written as
 * its logical table and member, each part folded the same way (`"CUSTOMER"."NAME"`), which is how
 * Snowflake's SEMANTIC_VIEW tells apart members that several logical tables share.
 * Output columns are aliased to the field name quoted exactly (`AS "revenue"`), so rows key by the
 * field name as on the other backends. FACTS items take no alias in Snowflake's grammar, so a query
 * with facts names its columns in the outer select list (`SELECT "status", "QUANTITY" AS "quantity"`).
 * DIMENSIONS come first, so columns are dimensions then metrics/facts, as on DuckDB.
 *
 * Values are bound as `?` parameters; bigint and Decimal are sent as exact strings cast to NUMBER
 * in the SQL (snowflake-sdk cannot bind a bigint, and a JS number would lose digits), a whole
 * number beyond ±(2^53-1) as its text cast to DOUBLE (the sdk would send it as an inexact FIXED
 * integer), and a bigint or Decimal beyond 38 digits is a ValidationError naming the field; a Date as
 * epoch milliseconds inside `TO_TIMESTAMP_NTZ(?, 3)` (the sdk binds dates as untyped text, which
 * Snowflake parses with the account's input format).
 */
import { IdentifierNode, RawNode, type OperationNode } from "kysely";
import { Decimal } from "../../values/decimal.js";
import { decimalPrecision, decimalProblem } from "../../query-compiler/decimal-type.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { isGenuineDate } from "../../values/genuine.js";
import { DIGITS38, integerProblem } from "../../values/integer-ranges.js";
import { SemanticQueryCompiler } from "../../query-compiler/semantic-query-compiler.js";
import { joinNodes, keyword, sqlNode } from "../../query-compiler/sql-nodes.js";
import type { FieldNode } from "../../operation-node/field-node.js";
import type { SemanticQueryNode } from "../../operation-node/semantic-query-node.js";

/** The Snowflake identifier a declared name stands for (see the module comment). */
export function snowflakeIdentifier(name: string): string {
  return name === name.toLowerCase() ? name.toUpperCase() : name;
}

/**
 * The inverse, as the TypeScript side spells a Snowflake name: a folded upper-case name is written
 * in lower case, a name with any lower-case letter stays exact (codegen and `--fixture`).
 */
export function portableSnowflakeName(name: string): string {
  return name === name.toUpperCase() && name !== name.toLowerCase() ? name.toLowerCase() : name;
}

/** `[table, member]` of a member declared with a qualified warehouse name, else `[member]`. */
function memberParts(field: FieldNode): string[] {
  return field.warehouseName === field.name ? [field.name] : field.warehouseName.split(".");
}

export class SnowflakeQueryCompiler extends SemanticQueryCompiler {
  readonly dialect = "backend_a" as const;

  protected override semanticQueryToNode(query: SemanticQueryNode): RawNode {
    const view = joinNodes(
      query.viewName.split(".").map((part) => IdentifierNode.create(snowflakeIdentifier(part))),
      ".",
    );
    const clauses: OperationNode[] = [];
    const clause = (name: string, fields: readonly FieldNode[], aliased: boolean) => {
      if (fields.length === 0) return;
      const items = fields.map((f) =>
        aliased ? sqlNode`${this.memberReference(f)} AS ${this.columnAlias(f)}` : this.memberReference(f),
      );
      clauses.push(sqlNode` ${keyword(name)} ${joinNodes(items, ", ")}`);
    };
    clause("DIMENSIONS", query.dimensions, true);
    clause("METRICS", query.metrics, true);
    // Snowflake's grammar has no alias on FACTS items: they are renamed in the outer select list.
    clause("FACTS", query.facts, false);
    const where = query.where === undefined ? keyword("") : sqlNode` WHERE ${this.conditionToNode(query.where)}`;
    return sqlNode`SELECT ${this.outerColumns(query)} FROM SEMANTIC_VIEW(${view}${joinNodes(clauses, "")}${where})${this.orderByToNode(query.orderBy)}${this.snowflakeLimit(query)}`;
  }

  /** `*` unless facts are selected; then every column by name, facts renamed to their field names. */
  private outerColumns(query: SemanticQueryNode): OperationNode {
    if (query.facts.length === 0) return keyword("*");
    const items = [
      ...[...query.dimensions, ...query.metrics].map((f) => this.columnAlias(f)),
      // The result column of a fact is its member name without the logical table.
      ...query.facts.map(
        (f) => sqlNode`${IdentifierNode.create(snowflakeIdentifier(memberParts(f).at(-1)!))} AS ${this.columnAlias(f)}`,
      ),
    ];
    return joinNodes(items, ", ");
  }

  /** Snowflake needs a LIMIT before OFFSET; `LIMIT NULL` means no limit. */
  private snowflakeLimit(query: SemanticQueryNode): OperationNode {
    if (query.offset !== undefined && query.limit === undefined) {
      return sqlNode` LIMIT NULL${this.limitOffsetToNode(query)}`;
    }
    return this.limitOffsetToNode(query);
  }

  protected override memberReference(field: FieldNode): OperationNode {
    return joinNodes(
      memberParts(field).map((part) => IdentifierNode.create(snowflakeIdentifier(part))),
      ".",
    );
  }

  /** Bigints and Decimals must fit 38 digits. */
  protected override valueProblem(value: FilterValue): string | undefined {
    if (typeof value === "bigint") return integerProblem(value, DIGITS38, "Snowflake");
    if (Decimal.isDecimal(value)) return decimalProblem(value, "Snowflake");
    return undefined;
  }

  /**
   * bigint and Decimal are bound as exact text (snowflake-sdk cannot bind a bigint and a JS number
   * would lose digits) and cast to NUMBER(p,s) in the SQL, so the comparison is numeric and exact.
   */
  protected override appendValue(value: unknown): void {
    if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      this.append("CAST(");
      super.appendValue(String(value));
      this.append(" AS DOUBLE)");
    } else if (typeof value === "bigint") {
      this.append("CAST(");
      super.appendValue(value.toString());
      this.append(" AS NUMBER(38,0))");
    } else if (Decimal.isDecimal(value)) {
      const precision = decimalPrecision(value, "Snowflake");
      this.append("CAST(");
      super.appendValue(value.toString());
      this.append(` AS NUMBER(${precision},${value.scale}))`);
    } else if (isGenuineDate(value)) {
      // Epoch milliseconds with scale 3: typed without going through the account's
      // TIMESTAMP_INPUT_FORMAT (text would). An NTZ of the UTC wall clock, as results are read;
      // a DATE column compares with it at midnight.
      this.append("TO_TIMESTAMP_NTZ(");
      super.appendValue(value.getTime());
      this.append(", 3)");
    } else {
      super.appendValue(value);
    }
  }
}
