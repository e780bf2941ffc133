/**
 * CREATE-time validation with the extension's rules, turning a parsed CREATE statement into the
 * stored model. Physical column lists (when the tables exist) sharpen the expression checks; when a
 * table does not exist yet, only the structural rules apply and DuckDB reports bad columns at query
 * time. Each rule family lives in its own validate-*.ts file; this one fixes their order.
 */
import type { MemberDef, MetricDef, RelationshipDef, TableDef } from "../view-definition.js";
import type { CreateSemanticViewStatement } from "./statements.js";
import { ValidationContext, type PhysicalTable } from "./validate-context.js";
import { checkDerivedCycles, checkFactCycles } from "./validate-cycles.js";
import { checkRelationshipGraph } from "./validate-graph.js";
import { collectMembers, validateDimension, validateFact } from "./validate-members.js";
import { validateMetric } from "./validate-metrics.js";
import { validateRelationships, validateTables } from "./validate-tables.js";

export type { PhysicalTable } from "./validate-context.js";

export interface ValidatedModel {
  readonly tables: TableDef[];
  readonly relationships: RelationshipDef[];
  readonly facts: MemberDef[];
  readonly dimensions: MemberDef[];
  readonly metrics: MetricDef[];
}

/**
 * @param physical physical table per table alias (lower-cased key); absent when the table was not found.
 */
export function validateCreate(
  stmt: CreateSemanticViewStatement,
  physical: ReadonlyMap<string, PhysicalTable>,
): ValidatedModel {
  const ctx = new ValidationContext(stmt, physical);
  const tables = validateTables(ctx);
  const relationships = validateRelationships(ctx);
  checkRelationshipGraph(ctx, tables, relationships);
  collectMembers(ctx);
  const facts = stmt.facts.map((m) => validateFact(ctx, m));
  checkFactCycles(ctx);
  const dimensions = stmt.dimensions.map((m) => validateDimension(ctx, m));
  const metrics = stmt.metrics.map((m) => validateMetric(ctx, m, relationships));
  checkDerivedCycles(ctx);
  return { tables, relationships, facts, dimensions, metrics };
}
