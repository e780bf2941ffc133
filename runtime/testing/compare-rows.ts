/**
 * Recorded rows against replayed rows: same count, and cell by cell the same value of the same kind.
 * Without an ORDER BY the warehouse's row order means nothing, so both sides are sorted by a
 * canonical text of their cells first (warehouses sort strings by different collations).
 */
import { Decimal } from "../values/decimal.js";
import { describeValue, sameValue } from "./tagged-values.js";

export interface RowDifference {
  /** Row index (0-based) in the compared order. */
  readonly row: number;
  /** The member whose value differs, or `(row count)`. */
  readonly column: string;
  /** The recorded value (`bigint 12`, `Decimal 19.90`, `NULL`, `3 rows`). */
  readonly expected: string;
  /** The replayed value. */
  readonly actual: string;
}

/** A cell's sort text: kind and value, Decimals without trailing zeros (19.90 sorts as 19.9). */
function canonical(value: unknown): string {
  if (Decimal.isDecimal(value)) {
    const text = value.toString();
    return `Decimal ${text.includes(".") ? text.replace(/\.?0+$/, "") : text}`;
  }
  return describeValue(value);
}

function sorted(rows: readonly (readonly unknown[])[]): (readonly unknown[])[] {
  return rows
    .map((row) => ({ row, key: JSON.stringify(row.map(canonical)) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.row);
}

/** The first cell (or the row count) where `actual` differs from `expected`; undefined when identical. */
export function firstDifference(
  columns: readonly string[],
  expected: readonly (readonly unknown[])[],
  actual: readonly (readonly unknown[])[],
  ordered: boolean,
): RowDifference | undefined {
  const want = ordered ? expected : sorted(expected);
  const got = ordered ? actual : sorted(actual);
  for (let r = 0; r < Math.min(want.length, got.length); r++) {
    for (let c = 0; c < columns.length; c++) {
      if (!sameValue(want[r]![c], got[r]![c])) {
        return { row: r, column: columns[c]!, expected: describeValue(want[r]![c]), actual: describeValue(got[r]![c]) };
      }
    }
  }
  if (want.length !== got.length) {
    const rows = (n: number) => `${n} row${n === 1 ? "" : "s"}`;
    return {
      row: Math.min(want.length, got.length),
      column: "(row count)",
      expected: rows(want.length),
      actual: rows(got.length),
    };
  }
  return undefined;
}
