/**
 * Backend C: DuckDB's `semantic_view()` table function (the `semantic_views` extension, or the
 * library's built-in engine that accepts the same call).
 *
 * ```sql
 * SELECT "country" AS "country", "revenue" AS "revenue" FROM semantic_view('sales',
 *   dimensions := ['country'], metrics := ['revenue'], where_clause := '"country" = ''US''')
 *   ORDER BY "revenue" DESC NULLS LAST LIMIT 100
 * ```
 * The function takes no bind parameters inside `where_clause`, so filter values are written as SQL
 * literals, escaped twice: first as a literal inside the predicate (`'US'`), then the whole predicate
 * as a string literal (`'"country" = ''US'''`). Both levels double single quotes; DuckDB strings
 * have no backslash escapes. Members in the predicate are quoted identifiers (`"country"`). The
 * parameter list is always empty. Literals:
 * - string: `'...'`; a NUL character (which DuckDB's parser cannot take inside a literal) becomes
 *   `chr(0)` concatenated in: `('a' || chr(0) || 'b')`;
 * - number: shortest round-trip text (`1.5`, `1e+21`); bigint and Decimal: exact digits (`12.50`
 *   is a DECIMAL literal; a Decimal of more than 38 digits is rejected, DuckDB would read it as a
 *   DOUBLE); boolean: `TRUE`/`FALSE`;
 * - Date: `TIMESTAMP 'YYYY-MM-DD HH:MM:SS.mmm'` in UTC (the instant as a naive UTC timestamp, which
 *   is how timestamps arrive as Dates); years outside 0000-9999 are rejected.
 * Columns come back dimensions first, then metrics or facts, each aliased to its field name (the
 * function alone would name them as the view spells them).
 */
import { RawNode, ValueNode, createQueryId, type OperationNode } from "kysely";
import { ValidationError } from "../../errors.js";
import { Decimal } from "../../values/decimal.js";
import { decimalPrecision } from "../../query/compiler/decimal-type.js";
import { SemanticQueryCompiler } from "../../query/compiler/semantic-query-compiler.js";
import { joinNodes, keyword, sqlNode } from "../../query/compiler/sql-nodes.js";
import type { ConditionNode } from "../../query/operation-node/condition-node.js";
import type { FieldNode } from "../../query/operation-node/field-node.js";
import type { SemanticQueryNode } from "../../query/operation-node/semantic-query-node.js";

export class DuckDBQueryCompiler extends SemanticQueryCompiler {
  readonly dialect = "backend_c" as const;

  protected override semanticQueryToNode(query: SemanticQueryNode): RawNode {
    const args: OperationNode[] = [ValueNode.createImmediate(query.viewName)];
    const list = (name: string, fields: readonly FieldNode[]) => {
      if (fields.length === 0) return;
      const names = fields.map((f) => ValueNode.createImmediate(semanticViewMemberName(f.warehouseName)));
      args.push(sqlNode`${keyword(name)} := [${joinNodes(names, ", ")}]`);
    };
    list("dimensions", query.dimensions);
    list("metrics", query.metrics);
    list("facts", query.facts);
    if (query.where !== undefined) {
      args.push(sqlNode`where_clause := ${ValueNode.createImmediate(this.predicateSql(query.where))}`);
    }
    // semantic_view() names its columns as the view spells them (`Country`); alias each one to its
    // field name so rows key the same on every backend (column references are case-insensitive).
    const selection = [...query.dimensions, ...query.metrics, ...query.facts];
    const items = selection.map((f) => sqlNode`${this.memberReference(f)} AS ${this.columnAlias(f)}`);
    const select = items.length === 0 ? keyword("*") : joinNodes(items, ", ");
    return sqlNode`SELECT ${select} FROM semantic_view(${joinNodes(args, ", ")})${this.orderByToNode(query.orderBy)}${this.limitOffsetToNode(query)}`;
  }

  /** The predicate as SQL text with literals inlined (the first level of quoting). */
  private predicateSql(condition: ConditionNode): string {
    const inner = new DuckDBQueryCompiler();
    return inner.compileQuery(RawNode.createWithChild(inner.conditionToNode(condition)), createQueryId()).sql;
  }

  /** Never a parameter: every value becomes an escaped literal. */
  protected override appendValue(value: unknown): void {
    this.append(duckdbLiteral(value));
  }
}

/**
 * A member as `semantic_view()`'s name lists take it: the lists hold identifiers, so a name that is
 * not a plain one (`Net Revenue`) goes in double quotes (a quote inside doubled).
 */
export function semanticViewMemberName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** A filter value as a DuckDB SQL literal (see the module comment for the forms). */
export function duckdbLiteral(value: unknown): string {
  switch (typeof value) {
    case "string":
      return stringLiteral(value);
    case "number":
      if (!Number.isFinite(value)) throw new ValidationError(`Cannot write ${value} as a SQL literal`);
      return String(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "TRUE" : "FALSE";
    case "object":
      if (value instanceof Date) return timestampLiteral(value);
      if (Decimal.isDecimal(value)) {
        decimalPrecision(value, "DuckDB"); // beyond 38 digits DuckDB would read the literal as a DOUBLE
        return value.toString();
      }
      break;
  }
  throw new ValidationError(`Cannot write ${Object.prototype.toString.call(value)} as a SQL literal`);
}

function stringLiteral(value: string): string {
  const quoted = (s: string) => `'${s.replaceAll("'", "''")}'`;
  if (!value.includes("\0")) return quoted(value);
  return `(${value.split("\0").map(quoted).join(" || chr(0) || ")})`;
}

function timestampLiteral(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new ValidationError("Cannot write an invalid Date as a SQL literal");
  const iso = date.toISOString();
  if (!/^\d{4}-/.test(iso)) throw new ValidationError(`Date ${iso} is outside the years 0000-9999`);
  return `TIMESTAMP '${iso.slice(0, 10)} ${iso.slice(11, 23)}'`;
}
