/**
 * A mistyped database path makes DuckDB create an empty file, and the user then sees only "view
 * not found" or "table does not exist". For an engine whose file did not exist when it first
 * opened it, those errors say so and name the path.
 */
import type { DatabaseConnection } from "../../driver/database-connection.js";
import { WarehouseError } from "../../errors.js";

type WarehouseErrorClass = new (message: string, options: { cause?: unknown; code?: string }) => WarehouseError;

/** A missing semantic view (built-in layer) or a missing table/view (DuckDB's Catalog Error). */
function isMissingObject(error: WarehouseError): boolean {
  return (
    error.code === "semantic_not_found" || (error.code === "Catalog" && /does not exist|not found/i.test(error.message))
  );
}

export function withCreatedFileHint(error: unknown, path: string): unknown {
  if (!(error instanceof WarehouseError) || !isMissingObject(error)) return error;
  const ErrorClass = error.constructor as WarehouseErrorClass;
  return new ErrorClass(
    `${error.message} (the database file ${path} did not exist and was created empty: check the path)`,
    {
      cause: error.cause,
      ...(error.code === undefined ? {} : { code: error.code }),
    },
  );
}

/** The connection, with missing-object errors of `execute`/`stream` explained (everything else forwarded). */
export function explainCreatedFile(connection: DatabaseConnection, path: string): DatabaseConnection {
  const execute: DatabaseConnection["execute"] = (sql, parameters) =>
    connection.execute(sql, parameters).catch((error: unknown) => {
      throw withCreatedFileHint(error, path);
    });
  const stream: DatabaseConnection["stream"] = (sql, parameters, options) =>
    connection.stream(sql, parameters, options).catch((error: unknown) => {
      throw withCreatedFileHint(error, path);
    });
  return new Proxy(connection, {
    get(target, property) {
      if (property === "execute") return execute;
      if (property === "stream") return stream;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
