/**
 * DuckDB's type table (backend C): what each column type arrives as. The driver classifies result
 * columns by their type text (`DuckDBType.toString()`, also what the built-in semantic layer reports),
 * codegen classifies the same texts from its `LIMIT 0` probe.
 */
import { defineTypeTable } from "../type-table.js";

export const DUCKDB_TYPES = defineTypeTable({
  warehouse: "duckdb",
  types: {
    // 8–32-bit integers (the unsigned ones fit a double too).
    TINYINT: "integer",
    INT1: "integer",
    SMALLINT: "integer",
    INT2: "integer",
    SHORT: "integer",
    INTEGER: "integer",
    INT: "integer",
    INT4: "integer",
    SIGNED: "integer",
    UTINYINT: "integer",
    USMALLINT: "integer",
    UINTEGER: "integer",
    // 64-bit and wider.
    BIGINT: "bigint",
    INT8: "bigint",
    LONG: "bigint",
    UBIGINT: "bigint",
    HUGEINT: "bigint",
    INT128: "bigint",
    UHUGEINT: "bigint",
    // DECIMAL(p,0) is read from its unscaled integer, so it is a bigint at any width; a bare DECIMAL is (18,3).
    DECIMAL: { fixedPoint: { precision: 18, scale: 3, narrowPrecision: 0 } },
    NUMERIC: { fixedPoint: { precision: 18, scale: 3, narrowPrecision: 0 } },
    FLOAT: "float",
    FLOAT4: "float",
    REAL: "float",
    DOUBLE: "float",
    FLOAT8: "float",
    VARCHAR: "string",
    TEXT: "string",
    STRING: "string",
    CHAR: "string",
    BPCHAR: "string",
    // The driver hands UUIDs over in their canonical text, JSON as its text (its result type is VARCHAR).
    UUID: "string",
    JSON: "string",
    BOOLEAN: "boolean",
    BOOL: "boolean",
    LOGICAL: "boolean",
    DATE: "date",
    TIMESTAMP: "timestamp",
    DATETIME: "timestamp",
    TIMESTAMP_S: "timestamp",
    TIMESTAMP_MS: "timestamp",
    TIMESTAMP_NS: "timestamp",
    TIMESTAMP_US: "timestamp",
    TIMESTAMPTZ: "timestamp",
    "TIMESTAMP WITH TIME ZONE": "timestamp",
    // Passed through as the driver's JS conversion gives them (arrays `INTEGER[]` are "other" as well).
    TIME: "other",
    "TIME WITH TIME ZONE": "other",
    INTERVAL: "other",
    BLOB: "other",
    BIT: "other",
    ENUM: "other",
    STRUCT: "other",
    MAP: "other",
    UNION: "other",
  },
});
