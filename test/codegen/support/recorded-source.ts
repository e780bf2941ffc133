/**
 * An introspection source that answers from recorded results (documented column shapes of
 * backends A and B), so their parsers run without a warehouse. Unknown SQL fails loudly.
 */
import type { IntrospectionSource, SourceColumn } from "../../../runtime/dialects/introspect/metadata.js";

export interface Recorded {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  /** Column types, when the recording has them (probe results). */
  readonly types?: readonly string[];
}

export class RecordedSource implements IntrospectionSource {
  readonly statements: string[] = [];
  readonly #answers: ReadonlyMap<string, Recorded | Error>;

  constructor(answers: Record<string, Recorded | Error>) {
    this.#answers = new Map(Object.entries(answers));
  }

  async execute(sql: string): Promise<{ columns: SourceColumn[]; rows: (readonly unknown[])[] }> {
    this.statements.push(sql);
    const answer = this.#answers.get(sql);
    if (answer === undefined) throw new Error(`no recorded result for: ${sql}`);
    if (answer instanceof Error) throw answer;
    return {
      columns: answer.columns.map((name, i) => ({ name, type: answer.types?.[i] ?? "VARCHAR" })),
      rows: [...answer.rows],
    };
  }
}
