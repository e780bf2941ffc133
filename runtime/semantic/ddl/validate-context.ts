/**
 * Shared state and helpers of CREATE-time validation: the statement, the physical column lists,
 * the alias and member indexes, and the caret-annotated failure every rule family reports through.
 */
import { SemanticViewError } from "../semantic-error.js";
import { positionOf } from "../sql/lexer.js";
import { didYouMean } from "../../text/suggest.js";
import type { ExpressionInfo } from "./expression-refs.js";
import type { CreateSemanticViewStatement, DraftMember, DraftTable } from "./statements.js";

/** A physical table as found in DuckDB's catalog. */
export interface PhysicalTable {
  readonly database: string;
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly string[];
}

export const lower = (s: string): string => s.toLowerCase();

/** Same column names in any order, case-insensitively. */
export const sameColumns = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.some((y) => lower(x) === lower(y)));

export class ValidationContext {
  readonly tableByAlias = new Map<string, DraftTable>();
  /** Member name (lower) → its declaration, for uniqueness and reference resolution. */
  readonly members = new Map<string, DraftMember>();
  readonly analyses = new Map<DraftMember, ExpressionInfo>();

  constructor(
    readonly stmt: CreateSemanticViewStatement,
    private readonly physical: ReadonlyMap<string, PhysicalTable>,
  ) {}

  /** Throws a validation error; with an offset, the message carries a `LINE n:` caret. */
  fail(message: string, offset?: number): never {
    if (offset === undefined || offset < 0) throw new SemanticViewError("invalid", message);
    const { line, column } = positionOf(this.stmt.sql, offset);
    const lineText = this.stmt.sql.split("\n")[line - 1] ?? "";
    const prefix = `LINE ${line}: `;
    throw new SemanticViewError(
      "invalid",
      `${message} (line ${line}, column ${column})\n${prefix}${lineText}\n${" ".repeat(prefix.length + column - 1)}^`,
    );
  }

  physicalOf(alias: string): PhysicalTable | undefined {
    return this.physical.get(lower(alias));
  }

  aliases(): string[] {
    return this.stmt.tables.map((t) => t.alias);
  }

  columnsOf(alias: string): readonly string[] | undefined {
    return this.physical.get(lower(alias))?.columns;
  }

  /** Undefined when the table's columns are unknown (it did not exist at CREATE). */
  hasColumn(alias: string, column: string): boolean | undefined {
    const cols = this.columnsOf(alias);
    return cols === undefined ? undefined : cols.some((c) => lower(c) === lower(column));
  }

  checkColumns(alias: string, columns: readonly string[], what: string, offset: number): void {
    const cols = this.columnsOf(alias);
    if (cols === undefined) return;
    for (const c of columns) {
      if (!cols.some((x) => lower(x) === lower(c))) {
        this.fail(`${what}: column '${c}' does not exist in table '${alias}'.${didYouMean(c, cols)}`, offset);
      }
    }
  }

  requireAlias(alias: string, what: string, offset: number): DraftTable {
    const t = this.tableByAlias.get(lower(alias));
    if (t === undefined) {
      this.fail(
        `${what} references unknown table alias '${alias}'. Available: [${this.aliases().join(", ")}].${didYouMean(alias, this.aliases())}`,
        offset,
      );
    }
    return t;
  }

  label(m: DraftMember): string {
    return m.table === undefined ? `derived metric '${m.name}'` : `${m.kind} '${m.name}'`;
  }

  /** The member `name` declared on table `alias` with one of `kinds`. */
  memberOn(alias: string, name: string, kinds: readonly DraftMember["kind"][]): DraftMember | undefined {
    const m = this.members.get(lower(name));
    return m !== undefined && m.table !== undefined && lower(m.table) === lower(alias) && kinds.includes(m.kind)
      ? m
      : undefined;
  }

  metricNames(): string[] {
    return this.stmt.metrics.map((x) => x.name);
  }
}
