/**
 * A semantic query written as data (a *query descriptor*): the view and the members by the names the
 * generated classes declare, plus optional filters, ordering and paging. `lib codegen --record`
 * runs descriptors on the warehouse and stores each with its answer (a *recorded query*);
 * `verifyFixture()` runs them again offline. Filter values use the fixture's value tags for exact
 * kinds (`{ "$decimal": "19.90" }`, `{ "$bigint": "..." }`, `{ "$date": "..." }`).
 */
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { ValidationError } from "../errors.js";
import { and } from "../query/condition.js";
import type { Condition } from "../query/condition.js";
import type { Ordering } from "../query/ordering.js";
import type { SemanticQuery } from "../query/semantic-query.js";
import type { Field } from "../view/field.js";
import { Dimension, Fact, Metric } from "../view/field-spec.js";
import { SemanticView } from "../view/semantic-view.js";
import { decodeValue, type TaggedValue } from "./tagged-values.js";

const Tagged = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Object({ $bigint: Type.String() }, { additionalProperties: false }),
  Type.Object({ $decimal: Type.String() }, { additionalProperties: false }),
  Type.Object({ $date: Type.String() }, { additionalProperties: false }),
]);

const Names = Type.Array(Type.String({ minLength: 1 }));

const Filter = Type.Object(
  {
    member: Type.String({ minLength: 1 }),
    op: Type.Union([
      Type.Literal("eq"),
      Type.Literal("ne"),
      Type.Literal("gt"),
      Type.Literal("gte"),
      Type.Literal("lt"),
      Type.Literal("lte"),
      Type.Literal("in"),
      Type.Literal("notIn"),
      Type.Literal("between"),
      Type.Literal("like"),
      Type.Literal("isNull"),
      Type.Literal("isNotNull"),
    ]),
    value: Type.Optional(Tagged),
    values: Type.Optional(Type.Array(Tagged)),
  },
  { additionalProperties: false },
);

const Order = Type.Object(
  {
    member: Type.String({ minLength: 1 }),
    direction: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
    nulls: Type.Optional(Type.Union([Type.Literal("first"), Type.Literal("last")])),
  },
  { additionalProperties: false },
);

/** The JSON schema of one query descriptor (a TypeBox schema). */
export const QueryDescriptorSchema = Type.Object(
  {
    view: Type.String({ minLength: 1 }),
    dimensions: Type.Optional(Names),
    metrics: Type.Optional(Names),
    facts: Type.Optional(Names),
    where: Type.Optional(Type.Array(Filter)),
    orderBy: Type.Optional(Type.Array(Order)),
    limit: Type.Optional(Type.Integer({ minimum: 0 })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

export type QueryDescriptor = Static<typeof QueryDescriptorSchema>;

/** A descriptor with the warehouse's answer: output columns (member names, in order) and rows. */
export const RecordedQuerySchema = Type.Object(
  {
    ...QueryDescriptorSchema.properties,
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Tagged)),
  },
  { additionalProperties: false },
);

export interface RecordedQuery extends QueryDescriptor {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly TaggedValue[])[];
}

/** A fixture module's recorded query, checked against {@link RecordedQuerySchema}. */
export function checkRecordedQuery(value: unknown, index: number): RecordedQuery {
  if (Value.Check(RecordedQuerySchema, value)) return value as RecordedQuery;
  const first = Value.Errors(RecordedQuerySchema, value).find((e) => e.keyword !== "boolean" && e.keyword !== "anyOf");
  throw new ValidationError(
    `RECORDED_QUERIES[${index}] is not a recorded query (${first === undefined ? "invalid" : `${first.instancePath || "/"} ${first.message}`}); re-run lib codegen --record`,
    { source: "RECORDED_QUERIES" },
  );
}

/** Validates a parsed JSON file of descriptors (an array); errors name the file and the JSON path. */
export function parseQueryDescriptors(value: unknown, source: string): QueryDescriptor[] {
  const schema = Type.Array(QueryDescriptorSchema);
  if (Value.Check(schema, value)) {
    for (const [i, d] of value.entries()) {
      if ((d.dimensions?.length ?? 0) + (d.metrics?.length ?? 0) + (d.facts?.length ?? 0) === 0) {
        throw new ValidationError(`${source}: /${i} selects no dimensions, metrics or facts`, { source });
      }
    }
    return value;
  }
  const errors = Value.Errors(schema, value)
    .filter((e) => e.keyword !== "boolean" && e.keyword !== "anyOf")
    .slice(0, 3)
    .map((e) => `${e.instancePath || "/"} ${e.message}`);
  throw new ValidationError(
    `${source}: not a list of query descriptors ({ "view", "dimensions", "metrics", ... }): ${errors.join("; ")}`,
    { source },
  );
}

/** `sales: revenue by country` — how reports name a query. */
export function describeQuery(d: QueryDescriptor): string {
  const measures = [...(d.metrics ?? []), ...(d.facts ?? [])].join(", ") || "(dimensions only)";
  const by = (d.dimensions ?? []).length > 0 ? ` by ${d.dimensions!.join(", ")}` : "";
  const filtered =
    (d.where ?? []).length > 0 ? ` where ${d.where!.map((w) => `${w.member} ${w.op}`).join(" and ")}` : "";
  return `${d.view}: ${measures}${by}${filtered}`;
}

/** The selected member names in result order (dimensions, then metrics, then facts). */
export function selectedMembers(d: QueryDescriptor): string[] {
  return [...(d.dimensions ?? []), ...(d.metrics ?? []), ...(d.facts ?? [])];
}

/** The descriptor as a query of a view declared on the fly; `keys[i]` is the row key of `selectedMembers(d)[i]`. */
export function descriptorQuery(d: QueryDescriptor): {
  query: SemanticQuery<string, Record<string, unknown>>;
  keys: string[];
} {
  const members = selectedMembers(d);
  const filtered = [...(d.where ?? []).map((w) => w.member), ...(d.orderBy ?? []).map((o) => o.member)];
  const kinds = new Map<string, "dimension" | "metric" | "fact">();
  for (const m of d.dimensions ?? []) kinds.set(m, "dimension");
  for (const m of d.metrics ?? []) kinds.set(m, "metric");
  for (const m of d.facts ?? []) kinds.set(m, "fact");
  for (const m of filtered) if (!kinds.has(m)) kinds.set(m, "dimension");
  const names = [...kinds.keys()];
  const key = (member: string) => `m${names.indexOf(member)}`;
  const specs = Object.fromEntries(
    names.map((m) => {
      const kind = kinds.get(m)!;
      const spec =
        kind === "metric" ? Metric({ name: m }) : kind === "fact" ? Fact({ name: m }) : Dimension({ name: m });
      return [key(m), spec];
    }),
  );
  const view = SemanticView(d.view, specs) as unknown as Record<
    string,
    Field<"dimension" | "metric" | "fact", unknown, string, string>
  > & {
    query(): SemanticQuery<string, Record<string, unknown>>;
  };
  const field = (m: string) => view[key(m)]!;
  let query = view.query();
  const pick = (list: readonly string[] | undefined) => (list ?? []).map(field);
  if ((d.dimensions ?? []).length > 0) query = query.dimensions(...(pick(d.dimensions) as never[]));
  if ((d.metrics ?? []).length > 0) query = query.metrics(...(pick(d.metrics) as never[]));
  if ((d.facts ?? []).length > 0) query = query.facts(...(pick(d.facts) as never[]));
  const conditions = (d.where ?? []).map((w) => condition(field(w.member), w));
  if (conditions.length > 0) query = query.where(and(...conditions) as never);
  const orderings = (d.orderBy ?? []).map((o): Ordering =>
    o.direction === "desc"
      ? field(o.member).desc(o.nulls ? { nulls: o.nulls } : undefined)
      : field(o.member).asc(o.nulls ? { nulls: o.nulls } : undefined),
  );
  if (orderings.length > 0) query = query.orderBy(...(orderings as never[]));
  if (d.limit !== undefined) query = query.limit(d.limit);
  if (d.offset !== undefined) query = query.offset(d.offset);
  return { query, keys: members.map(key) };
}

type AnyMemberField = Field<"dimension" | "metric" | "fact", unknown, string, string>;

const COMPARISONS = ["eq", "ne", "gt", "gte", "lt", "lte"] as const;

function condition(f: AnyMemberField, w: Static<typeof Filter>): Condition {
  const value = (v: TaggedValue | undefined) => decodeValue(v ?? null) as never;
  const values = (w.values ?? []).map((v) => value(v));
  const comparison = COMPARISONS.find((op) => op === w.op);
  if (comparison !== undefined) return f[comparison](value(w.value));
  if (w.op === "in") return f.in(values);
  if (w.op === "notIn") return f.notIn(values);
  if (w.op === "between") return f.between(values[0]!, values[1]!);
  if (w.op === "like") return f.like(String(decodeValue(w.value ?? "")));
  return w.op === "isNull" ? f.isNull() : f.isNotNull();
}
