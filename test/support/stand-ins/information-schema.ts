/**
 * How each service reports a column in `information_schema.columns`, from a DuckDB type:
 * - Databricks ([IS-C]): `DATA_TYPE` is the simple name (`DECIMAL`, `BIGINT`, `STRING`),
 *   `FULL_DATA_TYPE` the type as declared (`decimal(18,2)`), `NUMERIC_PRECISION` the digits of a
 *   DECIMAL or the bits of an integral or floating type, `NUMERIC_SCALE` the scale (0 for integers);
 * - Snowflake: `DATA_TYPE` is `NUMBER` for every fixed-point and integer type (INTEGER is
 *   NUMBER(38,0)), `FLOAT` for floats, `TEXT` for strings, `TIMESTAMP_NTZ` for timestamps without a
 *   zone; `NUMERIC_PRECISION`/`NUMERIC_SCALE` for NUMBER only; names stored upper case.
 * Both stand-ins and the recorded-source tests use these, so every test sees the services' shapes.
 */

export interface ColumnShape {
  readonly data_type: string;
  readonly full_data_type: string;
  readonly numeric_precision: number | null;
  readonly numeric_scale: number | null;
}

const BITS: Readonly<Record<string, [string, number]>> = {
  TINYINT: ["BYTE", 8],
  SMALLINT: ["SHORT", 16],
  INTEGER: ["INT", 32],
  INT: ["INT", 32],
  BIGINT: ["BIGINT", 64],
  HUGEINT: ["DECIMAL", 38],
  FLOAT: ["FLOAT", 24],
  DOUBLE: ["DOUBLE", 53],
};

/** Databricks' columns for a column created with DuckDB type `type`. */
export function databricksColumn(type: string): ColumnShape {
  const t = type.trim().toUpperCase();
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) {
    return {
      data_type: "DECIMAL",
      full_data_type: `decimal(${decimal[1]},${decimal[2]})`,
      numeric_precision: Number(decimal[1]),
      numeric_scale: Number(decimal[2]),
    };
  }
  if (t === "HUGEINT")
    return { data_type: "DECIMAL", full_data_type: "decimal(38,0)", numeric_precision: 38, numeric_scale: 0 };
  const integral = BITS[t];
  if (integral !== undefined) {
    const [name, bits] = integral;
    const full = { BYTE: "tinyint", SHORT: "smallint", INT: "int" }[name] ?? name.toLowerCase();
    return { data_type: name, full_data_type: full, numeric_precision: bits, numeric_scale: /INT/.test(t) ? 0 : null };
  }
  const simple: Readonly<Record<string, string>> = {
    VARCHAR: "STRING",
    BOOLEAN: "BOOLEAN",
    DATE: "DATE",
    TIMESTAMP: "TIMESTAMP_NTZ",
    "TIMESTAMP WITH TIME ZONE": "TIMESTAMP",
    TIMESTAMPTZ: "TIMESTAMP",
    BLOB: "BINARY",
  };
  const name = simple[t] ?? t;
  return { data_type: name, full_data_type: name.toLowerCase(), numeric_precision: null, numeric_scale: null };
}

/** Snowflake's columns for a column created with DuckDB type `type` (as the stand-in stores Snowflake types). */
export function snowflakeColumn(type: string): ColumnShape {
  const t = type.trim().toUpperCase();
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  const number = (p: number, s: number): ColumnShape => ({
    data_type: "NUMBER",
    full_data_type: `NUMBER(${p},${s})`,
    numeric_precision: p,
    numeric_scale: s,
  });
  if (decimal) return number(Number(decimal[1]), Number(decimal[2]));
  if (/^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT)$/.test(t)) return number(38, 0);
  const simple: Readonly<Record<string, string>> = {
    VARCHAR: "TEXT",
    BOOLEAN: "BOOLEAN",
    DATE: "DATE",
    TIMESTAMP: "TIMESTAMP_NTZ",
    "TIMESTAMP WITH TIME ZONE": "TIMESTAMP_TZ",
    TIMESTAMPTZ: "TIMESTAMP_TZ",
    DOUBLE: "FLOAT",
    FLOAT: "FLOAT",
    BLOB: "BINARY",
  };
  const name = simple[t] ?? t;
  return { data_type: name, full_data_type: name, numeric_precision: null, numeric_scale: null };
}
