/** `expectSql(query, { backend_a, backend_b, backend_c })`: exact SQL and parameters per dialect. */
import { expect } from "chai";
import type { SemanticQuery } from "lib";

export interface Expected {
  readonly sql: string;
  readonly parameters?: readonly unknown[];
}

export function expectSql(
  query: SemanticQuery<string, object>,
  expected: { backend_a: Expected; backend_b: Expected; backend_c: Expected | string },
): void {
  for (const dialect of ["backend_a", "backend_b", "backend_c"] as const) {
    const want = expected[dialect];
    const { sql, parameters } = typeof want === "string" ? { sql: want, parameters: [] } : want;
    const compiled = query.compile({ dialect });
    expect(compiled.sql, dialect).to.equal(sql);
    expect(compiled.parameters, `${dialect} parameters`).to.deep.equal(parameters ?? []);
    expect(compiled.dialect).to.equal(dialect);
    expect(query.toSql({ dialect })).to.equal(sql);
  }
}
