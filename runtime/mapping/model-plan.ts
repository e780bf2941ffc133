/**
 * Compiles a TypeBox object model against a result's columns into a row mapper, once per
 * (model, columns, mode) and cached. Type agreement is decided here from the column metadata, so a
 * mismatching model fails before any row is converted, with every mismatched field listed.
 */
import type { TSchema } from "typebox";
import { typeboxCompile } from "./typebox.js";
import type { ColumnInfo } from "../driver/query-result.js";
import { LibSchemaMismatchError, type SchemaMismatch } from "../errors.js";
import { Decimal } from "../values/decimal.js";
import { agreesStrictly, coercion, CoercionFailure, strictConversion, type Converter } from "./coerce.js";
import { describeModel, modelName, type ModelProperty } from "./model-type.js";
import { cheapCheck } from "./implied-check.js";
import type { ValidateMode } from "./validate-mode.js";
import {
  columnsThrough,
  literalMappers,
  type ColumnMapper,
  type LiteralMappers,
  type RowMapper,
} from "./literal-row-mapper.js";

export type { ColumnMapper, RowMapper };

interface Step {
  readonly property: ModelProperty;
  readonly column: number; // -1: no such column (only for optional properties, or validate "none")
  readonly columnLabel: string;
  readonly convert: Converter | undefined; // undefined: pass the value on unchanged
  readonly check: ((value: unknown) => boolean) | undefined; // TypeBox's compiled check of the property schema
  readonly explain: ((value: unknown) => string) | undefined;
}

const cache = new WeakMap<object, Map<string, LiteralMappers>>();
const lastByColumns = new WeakMap<
  readonly ColumnInfo[],
  { readonly model: TSchema; readonly mode: ValidateMode; readonly mappers: LiteralMappers }
>();

function columnLabel(column: ColumnInfo): string {
  return `${column.type} (${column.kind})`;
}

/** A short, safe rendering of a value for error messages. */
export function showValue(value: unknown): string {
  let text: string;
  if (typeof value === "bigint") text = `${value}n`;
  else if (Decimal.isDecimal(value)) text = `Decimal(${value.toString()})`;
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  else if (typeof value === "string") text = JSON.stringify(value);
  else if (value === undefined || typeof value === "number" || typeof value === "boolean" || value === null)
    text = String(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function compileChecker(schema: TSchema): Pick<Step, "check" | "explain"> {
  const validator = typeboxCompile().Compile(schema);
  return {
    check: (value) => validator.Check(value),
    explain: (value) =>
      validator
        .Errors(value)
        .map((e) => e.message)
        .join(", ") || "fails the model schema",
  };
}

function build(model: TSchema, columns: readonly ColumnInfo[], mode: ValidateMode): LiteralMappers {
  const slow = buildGeneric(model, columns, mode);
  return (
    literalMappers(slow.steps.filter((s) => s.column >= 0).map(literalStep), mode !== "none", slow.mapper) ?? {
      rows: slow.mapper,
      columns: columnsThrough(slow.mapper),
    }
  );
}

const literalStep = (step: Step) => ({
  name: step.property.name,
  column: step.column,
  nullable: step.property.nullable,
  convert: step.convert,
  check: step.check,
});

/** The mapper that handles every case (absent properties, null checks, the errors), and its steps. */
function buildGeneric(
  model: TSchema,
  columns: readonly ColumnInfo[],
  mode: ValidateMode,
): { readonly steps: readonly Step[]; readonly mapper: RowMapper } {
  const name = modelName(model);
  const properties = describeModel(model);
  const byName = new Map<string, number>();
  columns.forEach((c, i) => byName.set(c.name, i));

  const mismatches: SchemaMismatch[] = [];
  const steps: Step[] = [];
  for (const property of properties) {
    const column = byName.get(property.name) ?? -1;
    const info = columns[column];
    if (info === undefined) {
      if (!property.optional && mode !== "none") {
        mismatches.push({
          field: property.name,
          modelType: property.label,
          columnType: "(missing)",
          reason: "no column of that name in the result",
        });
      }
      steps.push({
        property,
        column: -1,
        columnLabel: "(missing)",
        convert: undefined,
        check: undefined,
        explain: undefined,
      });
      continue;
    }
    const label = columnLabel(info);
    if (mode === "none") {
      steps.push({ property, column, columnLabel: label, convert: undefined, check: undefined, explain: undefined });
      continue;
    }
    let convert: Converter | undefined;
    if (mode === "strict") {
      if (!agreesStrictly(property.type, info.kind)) {
        mismatches.push({ field: property.name, modelType: property.label, columnType: label });
        continue;
      }
      convert = strictConversion(property.type, info.kind);
    } else {
      convert = coercion(property.type, info.kind, property.format);
      if (convert === undefined) {
        mismatches.push({
          field: property.name,
          modelType: property.label,
          columnType: label,
          reason: "no exact conversion",
        });
        continue;
      }
    }
    const cheap = cheapCheck(property.schema, property.type, info.kind);
    const checker =
      cheap === undefined
        ? compileChecker(property.schema)
        : { check: cheap ?? undefined, explain: cheap === null ? undefined : compileChecker(property.schema).explain };
    steps.push({ property, column, columnLabel: label, convert, ...checker });
  }
  if (mismatches.length > 0) throw new LibSchemaMismatchError(name, mismatches);

  const rowError = (step: Step, rowIndex: number, value: unknown, why: string): LibSchemaMismatchError =>
    new LibSchemaMismatchError(name, [
      {
        field: step.property.name,
        modelType: step.property.label,
        columnType: step.columnLabel,
        reason: `row ${rowIndex}: value ${showValue(value)} ${why}`,
      },
    ]);

  if (mode === "none") {
    const mapper: RowMapper = (row) => {
      const out: Record<string, unknown> = {};
      for (const step of steps) if (step.column >= 0) setKey(out, step.property.name, row[step.column]);
      return out;
    };
    return { steps, mapper };
  }

  const mapper: RowMapper = (row, rowIndex) => {
    const out: Record<string, unknown> = {};
    for (const step of steps) {
      if (step.column < 0) continue;
      let value = row[step.column];
      if (value === null || value === undefined) {
        if (step.property.nullable) setKey(out, step.property.name, null);
        else if (!step.property.optional)
          throw rowError(step, rowIndex, value, "is null but the property is not nullable");
        continue;
      }
      if (step.convert !== undefined) {
        try {
          value = step.convert(value);
        } catch (error) {
          if (error instanceof CoercionFailure)
            throw rowError(step, rowIndex, value, `cannot be converted exactly: ${error.message}`);
          throw error;
        }
      }
      if (step.check !== undefined && !step.check(value))
        throw rowError(step, rowIndex, value, `fails the model: ${step.explain!(value)}`);
      setKey(out, step.property.name, value);
    }
    return out;
  };
  return { steps, mapper };
}

const dayFields = new WeakMap<object, readonly string[]>();

/** The model's calendar-day properties (`DateType({ format: "date" })`), which JSON writes as the ISO day. */
export function calendarDayFields(model: TSchema): readonly string[] {
  let fields = dayFields.get(model);
  if (fields === undefined) {
    fields = describeModel(model)
      .filter((p) => p.type === "date" && p.format === "date")
      .map((p) => p.name);
    dayFields.set(model, fields);
  }
  return fields;
}

/** The row mapper for this model over these columns (compiled once, then cached per model object). */
export function compileRowMapper(model: TSchema, columns: readonly ColumnInfo[], mode: ValidateMode): RowMapper {
  return compileMappers(model, columns, mode).rows;
}

/** The same mapper reading a column-major chunk (one array per column) at a row position. */
export function compileColumnMapper(model: TSchema, columns: readonly ColumnInfo[], mode: ValidateMode): ColumnMapper {
  return compileMappers(model, columns, mode).columns;
}

function compileMappers(model: TSchema, columns: readonly ColumnInfo[], mode: ValidateMode): LiteralMappers {
  // A frozen column list (the plan the results of one prepared statement share) remembers its last
  // mapper: a query read again the same way builds no key.
  const last = lastByColumns.get(columns);
  if (last !== undefined && last.model === model && last.mode === mode) return last.mappers;
  const key = `${mode}\u0000${columns.map((c) => `${c.name}\u0001${c.type}\u0001${c.kind}`).join("\u0000")}`;
  let perModel = cache.get(model);
  if (perModel === undefined) {
    perModel = new Map();
    cache.set(model, perModel);
  }
  let mappers = perModel.get(key);
  if (mappers === undefined) {
    mappers = build(model, columns, mode);
    perModel.set(key, mappers);
  }
  if (Object.isFrozen(columns)) lastByColumns.set(columns, { model, mode, mappers });
  return mappers;
}
