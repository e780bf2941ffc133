/**
 * The error for a raw parameter (`conn.run(sql, params)`) or a compiled bind that the backend cannot
 * take exactly: a ValidationError naming the position and the value, never a bare TypeError from
 * inside a driver and never a silently changed value.
 */
import { ValidationError } from "../errors.js";
import { describeValue } from "./genuine.js";

export function parameterError(position: number, value: unknown, problem: string): ValidationError {
  return new ValidationError(`Parameter ${position} (${describeValue(value)}): ${problem}`, {
    field: `parameter ${position}`,
  });
}
