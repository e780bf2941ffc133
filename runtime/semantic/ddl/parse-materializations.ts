/**
 * One entry of the MATERIALIZATIONS clause:
 * `name AS (TABLE t, [DIMENSIONS (d, ...),] [METRICS (m, ...)])`. The sub-clauses may come in any
 * order, each at most once; TABLE is required, and at least one of DIMENSIONS / METRICS.
 */
import type { Token } from "../sql/lexer.js";
import { keywordOf } from "../sql/tokens.js";
import { parseQualifiedName } from "../sql/parse-qualified-name.js";
import type { DraftMaterialization } from "./statements.js";
import { describe, type TokenStream } from "../sql/token-stream.js";

const SUB_CLAUSES = ["TABLE", "DIMENSIONS", "METRICS"] as const;

function nameList(ts: TokenStream, what: string): string[] {
  ts.expectPunct("(", `before the ${what}`);
  const names: string[] = [];
  if (ts.acceptPunct(")")) return names;
  do names.push(ts.expectName(what).value);
  while (ts.acceptPunct(","));
  ts.expectPunct(")", `after the ${what}`);
  return names;
}

export function parseMaterialization(ts: TokenStream): DraftMaterialization {
  const first = ts.peek();
  const position = first?.start ?? ts.sql.length;
  const name = ts.expectName("materialization name").value;
  ts.expectKeyword("AS", `after materialization '${name}'`);
  ts.expectPunct("(", `after ${name} AS`);
  let table: string | undefined;
  let dimensions: string[] = [];
  let metrics: string[] = [];
  const seen = new Set<string>();
  for (;;) {
    const token: Token | undefined = ts.peek();
    const word = keywordOf(token);
    if (!(SUB_CLAUSES as readonly string[]).includes(word)) {
      throw ts.error(
        `Materialization '${name}': expected TABLE, DIMENSIONS or METRICS, found ${describe(token)}`,
        token,
      );
    }
    if (seen.has(word)) throw ts.error(`Materialization '${name}': duplicate ${word} sub-clause.`, token);
    seen.add(word);
    ts.next();
    if (word === "TABLE") {
      const ref = parseQualifiedName(ts, `table of materialization '${name}'`);
      table = ts.sql.slice(ref.first.start, ref.last.end);
    } else if (word === "DIMENSIONS") dimensions = nameList(ts, `dimensions of materialization '${name}'`);
    else metrics = nameList(ts, `metrics of materialization '${name}'`);
    if (ts.acceptPunct(",")) continue;
    ts.expectPunct(")", `to close materialization '${name}'`);
    break;
  }
  if (table === undefined) throw ts.error(`Materialization '${name}': missing TABLE sub-clause.`, first);
  if (dimensions.length === 0 && metrics.length === 0) {
    throw ts.error(`Materialization '${name}': must specify at least one of DIMENSIONS or METRICS.`, first);
  }
  return { name, table, dimensions, metrics, position };
}
