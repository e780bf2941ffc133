/**
 * Warehouse type text → how the value arrives in JavaScript (README "How values arrive"), per
 * backend. The generator turns the resulting `ValueKind` into a TypeScript type and a TypeBox schema.
 */
import type { BackendType } from "../runtime/config/types.js";
import type { ValueKind } from "../runtime/driver/database-connection.js";

interface ParsedType {
  /** Upper-case base name without parameters, e.g. `DECIMAL`, `TIMESTAMP WITH TIME ZONE`. */
  readonly base: string;
  readonly params: readonly number[];
}

function parseType(text: string): ParsedType {
  const trimmed = text.trim().toUpperCase();
  const match = /^([A-Z_][A-Z0-9_ ]*)\s*(?:\(([^)]*)\))?\s*(.*)$/.exec(trimmed);
  if (!match) return { base: trimmed, params: [] };
  const params = (match[2] ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map(Number)
    .filter((n) => Number.isInteger(n));
  // Keep a suffix such as `WITH TIME ZONE` that follows the parameters.
  const base = [match[1]!, match[3]!]
    .map((s) => s.trim().replace(/\s+/g, " "))
    .filter((s) => s !== "")
    .join(" ");
  return { base, params };
}

/** A fixed-point type: scale 0 and wide → bigint, scale 0 and narrow → number, scale > 0 → Decimal. */
function fixedPoint(precision: number, scale: number, narrowMax: number): ValueKind {
  if (scale > 0) return "decimal";
  return precision <= narrowMax ? "integer" : "bigint";
}

const DUCKDB: Readonly<Record<string, ValueKind>> = {
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
  BIGINT: "bigint",
  INT8: "bigint",
  LONG: "bigint",
  UBIGINT: "bigint",
  HUGEINT: "bigint",
  INT128: "bigint",
  UHUGEINT: "bigint",
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
  UUID: "string",
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
};

const SNOWFLAKE: Readonly<Record<string, ValueKind>> = {
  // Snowflake's integer synonyms are all NUMBER(38,0).
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
};

const DATABRICKS: Readonly<Record<string, ValueKind>> = {
  TINYINT: "integer",
  BYTE: "integer",
  SMALLINT: "integer",
  SHORT: "integer",
  INT: "integer",
  INTEGER: "integer",
  BIGINT: "bigint",
  LONG: "bigint",
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
};

/** How a column of warehouse type `type` arrives on `backend`; `"other"` when the type is unknown. */
export function valueKindOf(backend: BackendType, type: string): ValueKind {
  const { base, params } = parseType(type);
  if (base === "") return "other";
  switch (backend) {
    case "backend_c":
      if (base === "DECIMAL" || base === "NUMERIC") return fixedPoint(params[0] ?? 18, params[1] ?? 3, 0);
      return DUCKDB[base] ?? "other";
    case "backend_a":
      if (base === "NUMBER" || base === "DECIMAL" || base === "NUMERIC" || base === "FIXED") {
        return fixedPoint(params[0] ?? 38, params[1] ?? 0, 9);
      }
      return SNOWFLAKE[base] ?? "other";
    case "backend_b": {
      // Backend B reports measures as `<type> measure` when metric-view metadata is on.
      const plain = base.replace(/\s+MEASURE$/, "");
      if (plain === "DECIMAL" || plain === "DEC" || plain === "NUMERIC")
        return fixedPoint(params[0] ?? 10, params[1] ?? 0, 0);
      return DATABRICKS[plain] ?? "other";
    }
  }
}

/** The TypeScript type a value of this kind arrives as. */
export function tsTypeOf(kind: ValueKind): string {
  switch (kind) {
    case "integer":
    case "float":
      return "number";
    case "bigint":
      return "bigint";
    case "decimal":
      return "Decimal";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "date":
    case "timestamp":
      return "Date";
    case "other":
      return "unknown";
  }
}
