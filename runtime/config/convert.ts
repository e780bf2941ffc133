/**
 * Turning one raw value into the field's type: values written in the section or config object
 * (already typed by TOML / JavaScript) and environment variables (always text).
 */
import { aTypeName, type ConfigContext, type ValueOrigin, showPlain, showValue, typeName } from "./config-context.js";
import { DurationSyntaxError, parseDuration } from "./duration.js";
import { MAX_TIMER_MS } from "../driver/deadline.js";
import type { FieldSpec } from "./fields.js";
import type { ValidationError } from "../errors.js";

/** A field's value once converted: durations are milliseconds, secrets still plain strings. */
export type FieldValue = string | number | boolean;

const ENV_TRUE = new Set(["true", "1", "yes"]);
const ENV_FALSE = new Set(["false", "0", "no"]);

/** Convert a value written in the section / config object. */
export function convertInput(field: FieldSpec, value: unknown, ctx: ConfigContext): FieldValue {
  const origin: ValueOrigin = { kind: "input" };
  switch (field.kind) {
    case "string":
      if (typeof value !== "string") throw wrongType(field, value, "a string", ctx);
      return checkString(field, value, ctx, origin);
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) throw wrongType(field, value, "an integer", ctx);
      return checkInteger(field, value, ctx, origin);
    case "boolean":
      if (typeof value !== "boolean") throw wrongType(field, value, "a boolean (true or false)", ctx);
      return value;
    case "duration":
      if (typeof value !== "string") {
        const hint = typeof value === "number" ? `; durations need a unit, e.g. "${value}s"` : "";
        throw wrongType(field, value, `a duration string such as "30s" or "1m30s"${hint}`, ctx);
      }
      return duration(field, value, ctx, origin);
    case "enum":
      if (typeof value !== "string") throw wrongType(field, value, `one of ${listValues(field)}`, ctx);
      return checkEnum(field, value, ctx, origin);
  }
}

/** Convert an environment variable's text. */
export function convertEnv(field: FieldSpec, text: string, variable: string, ctx: ConfigContext): FieldValue {
  const origin: ValueOrigin = { kind: "env", variable };
  switch (field.kind) {
    case "string":
      return checkString(field, text, ctx, origin);
    case "integer": {
      const trimmed = text.trim();
      if (!/^[+-]?\d+$/.test(trimmed)) {
        throw ctx.fail(field, `must be an integer, got ${showValue(field, text)}`, origin);
      }
      return checkInteger(field, Number(trimmed), ctx, origin);
    }
    case "boolean": {
      const word = text.trim().toLowerCase();
      if (ENV_TRUE.has(word)) return true;
      if (ENV_FALSE.has(word)) return false;
      throw ctx.fail(field, `must be a boolean (true/false, 1/0, yes/no), got ${showValue(field, text)}`, origin);
    }
    case "duration":
      return duration(field, text.trim(), ctx, origin);
    case "enum":
      return checkEnum(field, text.trim(), ctx, origin);
  }
}

function wrongType(field: FieldSpec, value: unknown, expected: string, ctx: ConfigContext): ValidationError {
  const primitive =
    typeof value === "string" || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint";
  const got = field.secret === true || !primitive ? aTypeName(value) : `${typeName(value)} ${showPlain(value)}`;
  return ctx.fail(field, `must be ${expected}, got ${got}`);
}

function checkString(field: FieldSpec, value: string, ctx: ConfigContext, origin: ValueOrigin): string {
  if (field.pattern !== undefined && !field.pattern.test(value)) {
    throw ctx.fail(
      field,
      `must be ${field.patternDoc ?? `a string matching ${String(field.pattern)}`}, got ${showValue(field, value)}`,
      origin,
    );
  }
  return value;
}

function checkInteger(field: FieldSpec, value: number, ctx: ConfigContext, origin: ValueOrigin): number {
  const { min, max } = field;
  const tooSmall = min !== undefined && value < min;
  const tooLarge = max !== undefined && value > max;
  if (tooSmall || tooLarge || !Number.isSafeInteger(value)) {
    // A non-negative field with a ceiling (timer limits) says which bound was crossed.
    const range =
      min === 0 && max !== undefined && tooLarge
        ? `at most ${max}`
        : min !== 0 && max !== undefined
          ? `between ${min ?? 0} and ${max}`
          : min === 0
            ? "a non-negative integer"
            : `an integer >= ${min ?? 0}`;
    throw ctx.fail(field, `must be ${range}, got ${showValue(field, value)}`, origin);
  }
  return value;
}

function checkEnum(field: FieldSpec, value: string, ctx: ConfigContext, origin: ValueOrigin): string {
  const values = field.values ?? [];
  if (values.includes(value)) return value;
  throw ctx.fail(field, `must be one of ${listValues(field)}, got ${showValue(field, value)}`, origin);
}

function duration(field: FieldSpec, text: string, ctx: ConfigContext, origin: ValueOrigin): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    if (!(error instanceof DurationSyntaxError)) throw error;
    throw ctx.fail(field, `is not a valid duration (${error.message}), got ${showValue(field, text)}`, origin);
  }
  // Every duration ends up in a timer, which Node would clamp to ~1 ms.
  if (ms > MAX_TIMER_MS) {
    throw ctx.fail(
      field,
      `must be at most 596h31m23.647s (${MAX_TIMER_MS} ms, the longest timer Node.js supports), got ${showValue(field, text)}`,
      origin,
    );
  }
  return ms;
}

function listValues(field: FieldSpec): string {
  return (field.values ?? []).map((v) => JSON.stringify(v)).join(", ");
}
