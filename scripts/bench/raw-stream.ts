/** The raw driver's streaming read, the baseline of the streaming benches. */
import type { DuckDBConnection } from "@duckdb/node-api";

/** Streams `sql` on the raw connection, reading each chunk as JS row objects; resolves to the row count. */
export async function rawStreamedRows(raw: DuckDBConnection, sql: string): Promise<number> {
  const result = await raw.stream(sql);
  let n = 0;
  for await (const chunk of result.yieldRowObjectJs()) n += chunk.length;
  return n;
}
