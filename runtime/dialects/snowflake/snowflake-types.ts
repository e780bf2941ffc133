/**
 * Snowflake's type table (backend A): what each column type arrives as. The driver classifies a
 * result column by the type text it builds from snowflake-sdk's rowtype (`snowflakeTypeText`:
 * `NUMBER(38,0)`, `FLOAT`, `VARCHAR`, `TIMESTAMP_NTZ(9)`, ...); codegen classifies DESCRIBE texts.
 */
import { defineTypeTable } from "../type-table.js";

const NUMBER = { fixedPoint: { precision: 38, scale: 0, narrowPrecision: 9 } } as const;

export const SNOWFLAKE_TYPES = defineTypeTable({
  warehouse: "snowflake",
  types: {
    // NUMBER(p,0) with p ≤ 9 → number, p > 9 → bigint; scale > 0 → Decimal. FIXED is the sdk's name.
    NUMBER,
    DECIMAL: NUMBER,
    NUMERIC: NUMBER,
    FIXED: NUMBER,
    // The integer synonyms are all NUMBER(38,0).
    INT: "bigint",
    INTEGER: "bigint",
    BIGINT: "bigint",
    SMALLINT: "bigint",
    TINYINT: "bigint",
    BYTEINT: "bigint",
    FLOAT: "float",
    FLOAT4: "float",
    FLOAT8: "float",
    DOUBLE: "float",
    "DOUBLE PRECISION": "float",
    REAL: "float",
    VARCHAR: "string",
    TEXT: "string",
    STRING: "string",
    CHAR: "string",
    CHARACTER: "string",
    NCHAR: "string",
    NVARCHAR: "string",
    BOOLEAN: "boolean",
    DATE: "date",
    DATETIME: "timestamp",
    TIMESTAMP: "timestamp",
    TIMESTAMP_NTZ: "timestamp",
    TIMESTAMP_LTZ: "timestamp",
    TIMESTAMP_TZ: "timestamp",
    // Passed through: TIME as text, VARIANT/OBJECT/ARRAY as parsed JSON, BINARY as a Buffer.
    TIME: "other",
    VARIANT: "other",
    OBJECT: "other",
    ARRAY: "other",
    BINARY: "other",
  },
});
