/**
 * Snowflake binds (`{"1": {type, value}}`, values as text) run as DuckDB parameters, read the way
 * Snowflake reads them. A TEXT bind that lands where a DATE or TIMESTAMP is expected is parsed
 * with the session's DATE_INPUT_FORMAT / TIMESTAMP_INPUT_FORMAT; the stand-in's account sets them
 * to a non-AUTO format (`DD.MM.YYYY`, `DD.MM.YYYY HH24:MI:SS`), as some accounts do, so ISO text
 * that only AUTO would understand is refused (100040 / 100035, SQLSTATE 22007) as Snowflake refuses it.
 */
import { DuckDBTypeId, type DuckDBConnection, type DuckDBResultReader, type DuckDBValue } from "@duckdb/node-api";
import { StandInSqlError } from "./semantic-view-sql.js";

export type Bindings = Readonly<Record<string, { type: string; value: unknown }>>;

/** The session parameters that make the stand-in's account strict about date and timestamp text. */
export const INPUT_FORMATS = [
  { name: "DATE_INPUT_FORMAT", value: "DD.MM.YYYY" },
  { name: "TIMESTAMP_INPUT_FORMAT", value: "DD.MM.YYYY HH24:MI:SS" },
] as const;

const DATE_TYPES = new Set<DuckDBTypeId>([DuckDBTypeId.DATE]);
const TIMESTAMP_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_TZ,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_NS,
]);
const INPUT = /^(\d{2})\.(\d{2})\.(\d{4})(?: (\d{2}:\d{2}:\d{2}))?$/;

/** Text in the input format as ISO text DuckDB reads, or a Snowflake "not recognized" error. */
function fromInputFormat(text: string, kind: "Date" | "Timestamp"): string {
  const m = INPUT.exec(text.trim());
  if (m === null || (kind === "Date" && m[4] !== undefined)) {
    throw new StandInSqlError(`${kind} '${text}' is not recognized`, kind === "Date" ? "100040" : "100035", "22007");
  }
  return `${m[3]}-${m[2]}-${m[1]}${m[4] === undefined ? "" : ` ${m[4]}`}`;
}

function valueOf(binding: { type: string; value: unknown }, expected: DuckDBTypeId | undefined): DuckDBValue {
  if (binding.value === null || binding.value === undefined) return null;
  const text = String(binding.value);
  switch (binding.type) {
    case "FIXED":
      return BigInt(text);
    case "REAL":
      return Number(text);
    case "BOOLEAN":
      return text === "true" || text === "1";
    default:
      if (expected !== undefined && DATE_TYPES.has(expected)) return fromInputFormat(text, "Date");
      if (expected !== undefined && TIMESTAMP_TYPES.has(expected)) return fromInputFormat(text, "Timestamp");
      return text;
  }
}

/** Runs one statement with its binds (prepared, so each bind's expected type is known). */
export async function runWithBindings(
  connection: DuckDBConnection,
  sql: string,
  bindings: Bindings | undefined,
): Promise<DuckDBResultReader> {
  const keys = Object.keys(bindings ?? {}).sort((a, b) => Number(a) - Number(b));
  if (bindings === undefined || keys.length === 0) return connection.runAndReadAll(sql);
  const prepared = await connection.prepare(sql);
  const expected = (i: number): DuckDBTypeId | undefined => {
    try {
      return prepared.parameterTypeId(i);
    } catch {
      return undefined; // not resolved by the statement: any value goes
    }
  };
  prepared.bind(keys.map((key, i) => valueOf(bindings[key]!, expected(i + 1))));
  return prepared.runAndReadAll();
}
