/**
 * A query's where_clause values in typed form, noted by the compiler as it writes them, so the
 * built-in engine binds them without reading them back out of the statement text (which
 * `semantic/call/lift-where-values.ts` still does for hand-written SQL). The compiler writes the same
 * literals it always wrote; beside them it records the statement's shape (each value a `$k`) and the
 * values as that lexer would read them, so both paths hand the engine the same thing
 * (`test/semantic/where-values-from-builder.test.ts` compares them on random queries).
 *
 * Kept per compiled query (a WeakMap: it goes with the query), or carried by a query spliced into a
 * value template itself (FilledDuckDBQuery), found by the driver through the statement options'
 * `compiled` key.
 */
import { numberLiteral } from "../../semantic/call/lift-where-values.js";
import { CompiledQuery } from "../../query-compiler/compiled-query.js";
import type { FilledQuery } from "../../query-compiler/value-template.js";
import type { SemanticQueryNode } from "../../operation-node/semantic-query-node.js";
import type { LiftedLiteral, LiftedStatement } from "../../semantic/semantic-layer.js";

const liftedByCompiled = new WeakMap<object, LiftedStatement>();
const NO_PARAMETERS: readonly unknown[] = Object.freeze([]);

export function noteLiftedValues(compiled: object, lifted: LiftedStatement): void {
  liftedByCompiled.set(compiled, lifted);
}

/**
 * A query spliced into a value template (duckdb-value-template.ts) that carries its lifted values
 * itself: it is its own key (no WeakMap entry per query, which costs a new value ~1 µs and the
 * collector an ephemeron).
 */
export class FilledDuckDBQuery implements FilledQuery {
  readonly parameters = NO_PARAMETERS;

  constructor(
    readonly sql: string,
    readonly lifted: LiftedStatement | undefined,
  ) {}

  get key(): object {
    return this;
  }

  compiledQuery(query: SemanticQueryNode): CompiledQuery {
    const compiled = CompiledQuery.create("backend_c", query, this.sql, NO_PARAMETERS);
    if (this.lifted !== undefined) noteLiftedValues(compiled, this.lifted);
    return compiled;
  }
}

/** The lifted form the compiler noted for `compiled` (a CompiledQuery or a FilledDuckDBQuery), if any. */
export function liftedValuesOf(compiled: object | undefined): LiftedStatement | undefined {
  if (compiled === undefined) return undefined;
  return compiled instanceof FilledDuckDBQuery ? compiled.lifted : liftedByCompiled.get(compiled);
}

/**
 * A value the compiler wrote as `text` (duckdb-query-compiler.ts `duckdbLiteral`), as the lexer reads
 * that literal: undefined for a form that stays text; null for a string with NUL, written as an
 * expression (`('a' || chr(0) || 'b')`), next to which the lexer's positional rules read differently:
 * such a statement is left to the text path.
 */
export function liftedLiteralOf(value: unknown, text: string): LiftedLiteral | null | undefined {
  switch (typeof value) {
    case "string":
      return text.startsWith("(") ? null : { kind: "string", value };
    case "boolean":
      return { kind: "boolean", value };
    case "bigint":
      return { kind: "integer", value }; // written as its digits: the lexer reads that very integer
    case "number":
      // An integer below 1e21 is written as its digits (duckdbLiteral); anything else is read from its text.
      if (Number.isInteger(value) && Math.abs(value) < 1e21) return { kind: "integer", value: BigInt(value) };
      break;
    case "object":
      // A Date is written `TIMESTAMP '…'` or `DATE '…'`; a Decimal as its digits.
      if (text.startsWith("TIMESTAMP '")) return { kind: "timestamp", text: text.slice(11, -1) };
      if (text.startsWith("DATE '")) return { kind: "date", text: text.slice(6, -1) };
      break;
  }
  const negative = text.startsWith("-");
  return numberLiteral(negative ? text.slice(1) : text, negative);
}
