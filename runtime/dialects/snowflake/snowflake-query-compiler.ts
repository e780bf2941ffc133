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
 * with any upper-case letter is quoted exactly as declared (`countryCode` → `"countryCode"`). A name
 * created quoted in lower case is declared in double quotes and sent exactly (`'"revenue"'` →
 * `"revenue"`, `'"sales_v"'`; `warehouseNameParts` reads the parts).
 * A member declared with a warehouse name (`Dimension({ name: "customer.name" })`) is written as
 * its logical table and member, each part folded the same way (`"CUSTOMER"."NAME"`), which is how
 * Snowflake's SEMANTIC_VIEW tells apart members that several logical tables share.
 * Output columns are aliased to the field name quoted exactly (`AS "revenue"`), and the cursor keys
 * rows by position anyway (an account with QUOTED_IDENTIFIERS_IGNORE_CASE would upper-case the
 * aliases). FACTS items take no alias in Snowflake's grammar and come back under their unqualified
 * names, which two logical tables may share (`SUPPLIER.NAME`, `CUSTOMER.NAME`): a facts query selects
 * `*` and orders by column position, and the rows take their field names by position. Snowflake does
 * not answer FACTS with DIMENSIONS row by row: it groups by the dimensions and picks an arbitrary fact
 * value per group, and the 2026_07 behaviour change bundle rejects the combination ("Querying FACTS
 * with DIMENSIONS in a semantic view is not supported"), so the compiler refuses it.
 * DIMENSIONS come first, so columns are dimensions then metrics/facts, as on DuckDB.
 *
 * Values are bound as `?` parameters; bigint and Decimal are sent as exact strings cast to NUMBER
 * in the SQL (snowflake-sdk cannot bind a bigint, and a JS number would lose digits), a whole
 * number beyond ±(2^53-1) as its exact integer digits cast to NUMBER(38,0) (the sdk would send it
 * as an inexact FIXED integer; beyond 38 digits cast to DOUBLE, which holds it exactly), and a
 * bigint or Decimal beyond 38 digits is a ValidationError naming the field; a Date as
 * epoch milliseconds inside `TO_TIMESTAMP_NTZ(?, 3)` (the sdk binds dates as untyped text, which
 * Snowflake parses with the account's input format).
 */
import type { OperationNode, RawNode } from "kysely";
import { kysely } from "../../query-compiler/kysely.js";
import { Decimal } from "../../values/decimal.js";
import { decimalPrecision, decimalProblem } from "../../query-compiler/decimal-type.js";
import type { FilterValue } from "../../operation-node/filter-value.js";
import { isGenuineDate } from "../../values/genuine.js";
import { DIGITS38, integerProblem } from "../../values/integer-ranges.js";
import { SemanticQueryCompiler } from "../../query-compiler/semantic-query-compiler.js";
import { joinNodes, keyword, sqlNode } from "../../query-compiler/sql-nodes.js";
import type { FieldNode } from "../../operation-node/field-node.js";
import { SemanticQueryNode } from "../../operation-node/semantic-query-node.js";
import { exactNamePart, warehouseNameParts } from "../../operation-node/warehouse-name.js";

/** The Snowflake identifier a declared name stands for (see the module comment). */
export function snowflakeIdentifier(name: string): string {
  return name === name.toLowerCase() ? name.toUpperCase() : name;
}

/**
 * The inverse, as the TypeScript side spells one Snowflake name part (codegen and `--fixture`): a
 * folded upper-case name is written in lower case (`REVENUE` → `revenue`), a name the compiler would
 * fold differently from how it is stored (created quoted in lower case: `revenue`, `order date`) or that
 * holds a dot or quote is written in its exact quoted form (`"revenue"`), any other name stays as is.
 */
export function portableSnowflakeName(name: string): string {
  if (name.includes(".") || name.includes('"')) return exactNamePart(name);
  if (name === name.toUpperCase() && name !== name.toLowerCase()) return name.toLowerCase();
  return snowflakeIdentifier(name) === name ? name : exactNamePart(name);
}

/** A declared name's parts as Snowflake identifiers: quoted parts exactly, others folded (see above). */
function snowflakeNameNode(name: string): OperationNode {
  return joinNodes(
    warehouseNameParts(name).map((part) =>
      kysely().IdentifierNode.create(part.exact ? part.text : snowflakeIdentifier(part.text)),
    ),
    ".",
  );
}

export class SnowflakeQueryCompiler extends SemanticQueryCompiler {
  readonly dialect = "backend_a" as const;
  /** The output columns of the query being compiled, in order (ORDER BY refers to facts by position). */
  #selection: readonly FieldNode[] = [];

  protected override semanticQueryToNode(query: SemanticQueryNode): RawNode {
    const view = snowflakeNameNode(query.warehouseName);
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
    // Semantic-view variables (GA 2026-06-26): `VARIABLES <name> => <value>`, each value a bind.
    const variables =
      query.variables.length === 0
        ? keyword("")
        : sqlNode` VARIABLES ${joinNodes(
            query.variables.map(
              (v) => sqlNode`${snowflakeNameNode(v.variable.warehouseName)} => ${this.variableValueNode(v)}`,
            ),
            ", ",
          )}`;
    this.#selection = SemanticQueryNode.selection(query);
    return sqlNode`SELECT * FROM SEMANTIC_VIEW(${view}${joinNodes(clauses, "")}${where}${variables})${this.orderByToNode(query.orderBy)}${this.snowflakeLimit(query)}`;
  }

  /** Snowflake groups FACTS with DIMENSIONS by the dimensions (or, with the 2026_07 bundle, refuses them). */
  protected override checkSelection(query: SemanticQueryNode): void {
    if (query.facts.length === 0 || query.dimensions.length === 0) return;
    throw this.selectionError(
      query,
      "facts",
      "backend A (Snowflake) does not return facts with dimensions row by row: it groups by the dimensions and " +
        "returns an arbitrary fact value per group (accounts with the 2026_07 behaviour change bundle reject " +
        "the query). Select facts alone (filter on dimensions in where()), or metrics with dimensions",
    );
  }

  /** A fact has no alias: it is ordered by its column position. */
  protected override orderingTarget(field: FieldNode): OperationNode {
    if (field.fieldKind !== "fact") return super.orderingTarget(field);
    return keyword(String(this.#selection.findIndex((f) => f.name === field.name) + 1));
  }

  /** Snowflake needs a LIMIT before OFFSET; `LIMIT NULL` means no limit. */
  private snowflakeLimit(query: SemanticQueryNode): OperationNode {
    if (query.offset !== undefined && query.limit === undefined) {
      return sqlNode` LIMIT NULL${this.limitOffsetToNode(query)}`;
    }
    return this.limitOffsetToNode(query);
  }

  protected override memberReference(field: FieldNode): OperationNode {
    return snowflakeNameNode(field.warehouseName);
  }

  /** Snowflake string literals read a backslash as an escape: a literal one is written doubled (`ESCAPE '\\'`). */
  protected override sanitizeStringLiteral(value: string): string {
    return super.sanitizeStringLiteral(value).replaceAll("\\", "\\\\");
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
      // Its exact integer digits (`2 ** 63` is 9223372036854775808, not the shortest text
      // 9223372036854776000): NUMBER(38,0) when they fit, else DOUBLE, which holds this value exactly.
      const digits = BigInt(value).toString();
      this.append("CAST(");
      super.appendValue(digits);
      this.append(digits.replace("-", "").length <= 38 ? " AS NUMBER(38,0))" : " AS DOUBLE)");
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
