/**
 * SQLSTATE → DB-API error class, shared by the drivers whose warehouses report SQLSTATEs
 * (backends A and B). Drivers handle their own exceptions first (e.g. a missing view is an
 * `InternalError` everywhere) and fall back to the SQLSTATE class here.
 */
import {
  DataError,
  IntegrityError,
  InternalError,
  NotSupportedError,
  OperationalError,
  ProgrammingError,
  WarehouseError,
} from "../errors.js";

export type WarehouseErrorClass = new (message: string, options?: { cause?: unknown; code?: string }) => WarehouseError;

const BY_SQLSTATE_CLASS: ReadonlyMap<string, WarehouseErrorClass> = new Map<string, WarehouseErrorClass>([
  ["42", ProgrammingError], // syntax error or access rule violation
  ["07", ProgrammingError], // dynamic SQL error (e.g. bad parameters)
  ["22", DataError],
  ["23", IntegrityError],
  ["0A", NotSupportedError],
  ["08", OperationalError], // connection exception
  ["25", OperationalError], // invalid transaction state
  ["40", OperationalError], // transaction rollback
  ["53", OperationalError], // insufficient resources
  ["54", OperationalError], // program limit exceeded
  ["57", OperationalError], // operator intervention (cancelled, shutting down)
  ["58", OperationalError], // system error outside the database
  ["HY", OperationalError], // CLI-specific condition
  ["XX", InternalError],
]);

/** The error class for a SQLSTATE by its two-character class; `WarehouseError` when unknown. */
export function errorClassForSqlState(sqlState: string): WarehouseErrorClass {
  return BY_SQLSTATE_CLASS.get(sqlState.slice(0, 2).toUpperCase()) ?? WarehouseError;
}
