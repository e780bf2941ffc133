/**
 * The fast form of a compiled row mapper: one generated function per (model, columns, mode) that
 * reads each property's column, converts and checks it, and returns the row object as one object
 * literal, `{ "id": v0, "revenue": v1 }`. V8 then allocates every row object with its final shape,
 * where the generic mapper adds the properties one by one through a keyed store (a shape transition
 * per property, the largest cost of `iterInto()` per row). Two variants read the same plan: from a
 * row array (`row[c]`) and from a column-major chunk (`columns[c][r]`), which spares a streamed read
 * the row arrays between the driver's columns and the row objects.
 *
 * Only the common case is generated: every value is present (or null for a nullable property),
 * converts and passes its check. Anything else — a null for a non-nullable or optional property, a
 * failed conversion or check — hands the row to the generic mapper, which omits the property or
 * throws the error naming the field, the row and the value, exactly as before. Converters and checks
 * are pure, so running them again there answers the same. Property names are written as JSON string
 * literals (`__proto__` as a computed key, an own property); nothing else of the model reaches the
 * code. Where the process forbids code generation from strings there is no fast form and the generic
 * mapper serves every row.
 */
import { literalKey, rowAt } from "../driver/row-objects.js";
import type { Converter } from "./coerce.js";

/** Row array → model object. */
export type RowMapper = (row: readonly unknown[], rowIndex: number) => Record<string, unknown>;
/** Column-major chunk, row position in it → model object. */
export type ColumnMapper = (
  columns: readonly (readonly unknown[])[],
  position: number,
  rowIndex: number,
) => Record<string, unknown>;

/** What the generated code needs of one model property that has a column. */
export interface LiteralStep {
  readonly name: string;
  readonly column: number;
  readonly nullable: boolean;
  /** undefined: the value passes unchanged. */
  readonly convert: Converter | undefined;
  /** undefined: every value passes. */
  readonly check: ((value: unknown) => boolean) | undefined;
}

export interface LiteralMappers {
  readonly rows: RowMapper;
  readonly columns: ColumnMapper;
}

type Factory = (...dependencies: unknown[]) => (...args: unknown[]) => Record<string, unknown>;

/** A column-major reader made of a row mapper: the row at the position, as an array, mapped. */
export function columnsThrough(mapper: RowMapper): ColumnMapper {
  return (columns, position, rowIndex) => mapper(rowAt(columns, position), rowIndex);
}

/**
 * The generated mappers, or undefined where code cannot be generated. `checked` false (validate
 * "none"): values pass unchanged and null checks are skipped. `slow` is the generic mapper.
 */
export function literalMappers(
  steps: readonly LiteralStep[],
  checked: boolean,
  slow: RowMapper,
): LiteralMappers | undefined {
  const columnSlow = columnsThrough(slow);
  const rows = generate(steps, checked, (column) => `row[${column}]`, "row, rowIndex", "slow(row, rowIndex)");
  const columns = generate(
    steps,
    checked,
    (column) => `columns[${column}][position]`,
    "columns, position, rowIndex",
    "slow(columns, position, rowIndex)",
  );
  if (rows === undefined || columns === undefined) return undefined;
  try {
    return { rows: rows(slow) as RowMapper, columns: columns(columnSlow) as ColumnMapper };
  } catch {
    return undefined;
  }

  function generate(
    list: readonly LiteralStep[],
    withChecks: boolean,
    read: (column: number) => string,
    parameters: string,
    fallback: string,
  ): ((slowPath: unknown) => unknown) | undefined {
    const names: string[] = [];
    const values: unknown[] = [];
    const depend = (value: unknown): string => {
      names.push(`d${values.length}`);
      values.push(value);
      return names[names.length - 1]!;
    };
    const body: string[] = [];
    const properties: string[] = [];
    list.forEach((step, i) => {
      const v = `v${i}`;
      properties.push(`${literalKey(step.name)}: ${v}`);
      if (!withChecks) {
        body.push(`const ${v} = ${read(step.column)};`);
        return;
      }
      const work: string[] = [];
      // A converter throws for a value it cannot convert exactly: the generic mapper then names it.
      if (step.convert !== undefined)
        work.push(`try { ${v} = ${depend(step.convert)}(${v}); } catch { return ${fallback}; }`);
      if (step.check !== undefined) work.push(`if (!${depend(step.check)}(${v})) return ${fallback};`);
      const ifNull = step.nullable ? `${v} = null;` : `return ${fallback};`;
      body.push(`let ${v} = ${read(step.column)};`);
      body.push(
        `if (${v} === null || ${v} === undefined) { ${ifNull} }${work.length > 0 ? ` else { ${work.join(" ")} }` : ""}`,
      );
    });
    const mapper = `${body.join("\n")}\nreturn { ${properties.join(", ")} };`;
    try {
      const factory = new Function(
        ...names,
        "slow",
        `"use strict"; return function mapRow(${parameters}) { ${mapper} };`,
      ) as Factory;
      return (slowPath) => factory(...values, slowPath);
    } catch {
      return undefined;
    }
  }
}
