/** `expectSql(query, { backend_a, backend_b, backend_c })`: exact SQL and parameters per dialect. */
import { expect } from "chai";
import { ValidationError, type SemanticQuery } from "lib";

export interface Expected {
  readonly sql: string;
  readonly parameters?: readonly unknown[];
}

/** The dialect refuses the query at compile time with a ValidationError whose message matches. */
export interface Refused {
  readonly refused: RegExp;
}

export function expectSql(
  query: SemanticQuery<string, object>,
  expected: { backend_a: Expected | Refused; backend_b: Expected | Refused; backend_c: Expected | string },
): void {
  for (const dialect of ["backend_a", "backend_b", "backend_c"] as const) {
    const want = expected[dialect];
    if (typeof want !== "string" && "refused" in want) {
      expect(() => query.compile({ dialect }), dialect)
        .to.throw(ValidationError)
        .with.property("message")
        .that.matches(want.refused);
      continue;
    }
    const { sql, parameters } = typeof want === "string" ? { sql: want, parameters: [] } : want;
    const compiled = query.compile({ dialect });
    expect(compiled.sql, dialect).to.equal(sql);
    expect(compiled.parameters, `${dialect} parameters`).to.deep.equal(parameters ?? []);
    expect(compiled.dialect).to.equal(dialect);
    expect(query.toSql({ dialect })).to.equal(sql);
  }
}
