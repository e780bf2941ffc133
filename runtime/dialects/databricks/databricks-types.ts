/**
 * Databricks' type table (backend B): what each column type arrives as. The driver classifies a
 * result column by the type text it reads from the Thrift result schema (`BIGINT`, `DECIMAL(20,2)`,
 * ...); codegen classifies DESCRIBE texts, where metric-view measures read `bigint measure`.
 */
import { defineTypeTable } from "../type-table.js";

const DECIMAL = { fixedPoint: { precision: 10, scale: 0, narrowPrecision: 0 } } as const;

export const DATABRICKS_TYPES = defineTypeTable({
  warehouse: "databricks",
  ignoredSuffixes: ["MEASURE"],
  types: {
    TINYINT: "integer",
    BYTE: "integer",
    SMALLINT: "integer",
    SHORT: "integer",
    INT: "integer",
    INTEGER: "integer",
    BIGINT: "bigint",
    LONG: "bigint",
    // DECIMAL(p,0) → bigint at any precision; a bare DECIMAL is DECIMAL(10,0).
    DECIMAL,
    DEC: DECIMAL,
    NUMERIC: DECIMAL,
    FLOAT: "float",
    REAL: "float",
    DOUBLE: "float",
    STRING: "string",
    VARCHAR: "string",
    CHAR: "string",
    BOOLEAN: "boolean",
    DATE: "date",
    TIMESTAMP: "timestamp",
    TIMESTAMP_NTZ: "timestamp",
    TIMESTAMP_LTZ: "timestamp",
    // Passed through as the driver gives them.
    BINARY: "other",
    ARRAY: "other",
    MAP: "other",
    STRUCT: "other",
    "INTERVAL YEAR TO MONTH": "other",
    "INTERVAL DAY TO SECOND": "other",
    VOID: "other",
  },
});
