/**
 * `iterInto()`, `stream()`, and `fetchAllRows()` before any row was read, on DuckDB ask the driver for
 * column-major chunks and build each row object straight from the columns with a generated object
 * literal (`into()`, a driver without columns, and row reads after `fetchOne`/`fetchMany` build them
 * from row arrays the same way). These tests hold both paths to the generic mapper's answers: values
 * exact across chunk boundaries, the null, optional, conversion and check cases mid-stream, unusual
 * names, and the connection given back exactly once however the loop ends.
 */
import { expect } from "chai";
import { Type, type TSchema } from "typebox";
import { DataError, LibSchemaMismatchError, QueryCancelledError } from "../../runtime/errors.js";
import { BigIntType, DateType, DecimalType } from "../../runtime/mapping/schema-types.js";
import { compileColumnMapper, compileRowMapper } from "../../runtime/mapping/model-plan.js";
import { columnObjectBuilder, literalRowObjects } from "../../runtime/driver/row-objects.js";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import type { Cursor } from "../../runtime/cursor/cursor.js";
import type { ColumnInfo, ResultStream } from "../../runtime/driver/query-result.js";
import type { PooledConnection } from "../../runtime/engine/pooled-connection.js";
import { mapChunks, useHarness, withStream } from "./support/cursor-harness.js";
import { failureOf } from "../support/failures.js";

/** 4,200 rows (three DuckDB chunks) of every exact kind, NULL in every column at the chunk edges and every 7th row. */
const VALUES = `SELECT i::BIGINT AS id,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE i::HUGEINT * 17014118346046923173168730371588 END AS huge,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE (i::DECIMAL(38,4) * 1234567890123.0001) END AS wide,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE (i * 1.25)::DECIMAL(9,2) END AS money,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE DATE '1969-12-25' + i::INTEGER END AS day,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE TIMESTAMP '1960-01-01 00:00:00.123' + to_seconds(i * 1000) END AS at,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE 'row ' || i END AS label,
    CASE WHEN ${nullAt("i")} THEN NULL ELSE i / 3 END AS ratio
  FROM range(4200) t(i) ORDER BY i`;

function nullAt(i: string): string {
  return `(${i} % 7 = 0 OR ${i} IN (2047, 2048, 4095, 4096))`;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Values = Type.Object({
  id: BigIntType(),
  huge: Nullable(BigIntType()),
  wide: Nullable(DecimalType()),
  money: Nullable(DecimalType()),
  day: Nullable(DateType({ format: "date" })),
  at: Nullable(DateType()),
  label: Nullable(Type.String()),
  ratio: Nullable(Type.Number()),
});

/** A connection whose streams report whether a reader asked for column-major chunks. */
function spying(connection: PooledConnection, asked: string[]): PooledConnection {
  return withStream(connection, async (inner, sql, parameters, options) => {
    const stream = await inner.stream(sql, parameters, options);
    const prefer = stream.preferColumns!.bind(stream);
    return Object.assign(
      mapChunks(stream, (source) => source),
      {
        preferColumns: (o?: { readonly typedArrays?: boolean }) => (
          asked.push(o?.typedArrays ? "typed" : "values"),
          prefer(o)
        ),
      },
    ) satisfies ResultStream;
  });
}

/** A connection whose streams give row arrays only (a driver that cannot give columns): the reference path. */
function rowArraysOnly(connection: PooledConnection): PooledConnection {
  return withStream(connection, async (inner, sql, parameters, options) => {
    const stream = await inner.stream(sql, parameters, options);
    return {
      columns: stream.columns,
      close: () => stream.close(),
      [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    };
  });
}

/** A connection that counts its release() calls. */
function counting(connection: PooledConnection): { connection: PooledConnection; releases: () => number } {
  let releases = 0;
  return {
    connection: {
      ...withStream(connection, (inner, sql, parameters, options) => inner.stream(sql, parameters, options)),
      release: () => (releases++, connection.release()),
    },
    releases: () => releases,
  };
}

/** Every row as text naming each value's key, type and exact value (chai's deep equality is slow on thousands of rows). */
function described(rows: readonly object[]): string {
  const show = (v: unknown) =>
    v === null
      ? "null"
      : `${typeof v === "object" ? v.constructor.name : typeof v}:${v instanceof Date ? v.toISOString() : String(v)}`;
  return rows
    .map((row) =>
      Object.entries(row)
        .map(([k, v]) => `${k}=${show(v)}`)
        .join(","),
    )
    .join("\n");
}

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe("cursor: streamed row reads from the driver's columns", () => {
  const h = useHarness();
  const open = async (sql: string, asked: string[] = []): Promise<Cursor> =>
    openCursor(spying(await h.connect(), asked), { sql, parameters: [] });
  /** The same statement read from row arrays. */
  const openRows = async (sql: string): Promise<Cursor> =>
    openCursor(rowArraysOnly(await h.connect()), { sql, parameters: [] });

  it("iterInto(), stream() and fetchAllRows() from columns equal into() and fetchAllRows() from row arrays: every value exact across chunk boundaries, NULLs included", async () => {
    const asked: string[] = [];
    const expected = await (await open(VALUES, asked)).into(Values);
    expect(asked, "into() reads row arrays").to.deep.equal([]);
    const streamed = await collect((await open(VALUES, asked)).iterInto(Values));
    expect(asked, "iterInto() asks for columns of values").to.deep.equal(["values"]);
    expect(streamed).to.have.length(4200);
    expect(described(streamed)).to.equal(described(expected));
    for (const i of [0, 2047, 2048, 4095, 4096])
      expect(Object.values(streamed[i]!).slice(1)).to.deep.equal(Array(7).fill(null));
    const row = streamed[2049]!;
    expect(Object.keys(row)).to.deep.equal(["id", "huge", "wide", "money", "day", "at", "label", "ratio"]);
    expect(row.id).to.equal(2049n);
    expect(row.huge).to.equal(2049n * 17014118346046923173168730371588n);
    expect(String(row.wide)).to.equal("2529629606862027.20490000");
    expect(String(row.money)).to.equal("2561.25");
    expect(row.day!.getTime()).to.equal(Date.UTC(1969, 11, 25 + 2049));
    expect(row.at!.getTime()).to.equal(Date.UTC(1960, 0, 1, 0, 0, 0, 123) + 2049 * 1_000_000);
    expect(row).to.include({ label: "row 2049", ratio: 2049 / 3 });

    const objects = await (await openRows(VALUES)).fetchAllRows();
    const streamedObjects = await collect((await open(VALUES, asked)).stream());
    expect(asked.at(-1), "stream() asks for columns of values").to.equal("values");
    expect(described(streamedObjects)).to.equal(described(objects));
    const allObjects = await (await open(VALUES, asked)).fetchAllRows();
    expect(asked.at(-1), "fetchAllRows() asks for columns of values").to.equal("values");
    expect(described(allObjects)).to.equal(described(objects));

    // A row read first: the rest continue from row arrays (no columns asked for mid-result).
    asked.length = 0;
    const mixed = await open(VALUES, asked);
    const first = await mixed.fetchOne();
    const rest = await mixed.fetchAllRows();
    expect(asked, "row reads after fetchOne() stay on row arrays").to.deep.equal([]);
    expect(described([first!, ...rest])).to.equal(described(objects));
  });

  it("mid-stream, the cases the literal does not build behave as before: optional omitted, required null and failed conversions or checks name the row", async () => {
    const sql = `SELECT i::INTEGER AS i, CASE WHEN i % 1000 = 999 THEN NULL ELSE 'n' || i END AS note,
      CASE WHEN i = 4500 THEN 9007199254740992 ELSE i END::BIGINT AS big FROM range(5000) t(i) ORDER BY i`;
    const Optional = Type.Object({ i: Type.Integer(), note: Type.Optional(Type.String()) });
    const rows = await collect((await open(sql)).iterInto(Optional));
    expect(rows).to.deep.equal(await (await open(sql)).into(Optional));
    expect(rows[2999]).to.deep.equal({ i: 2999 });
    expect(Object.keys(rows[3000]!)).to.deep.equal(["i", "note"]);

    const failsAt = async (model: TSchema, options?: { readonly validate: "coerce" }) => {
      const seen: unknown[] = [];
      const cursor = await open(sql);
      const error = await failureOf(
        (async () => {
          for await (const row of cursor.iterInto(model as typeof Optional, options)) seen.push(row);
        })(),
      );
      expect(error).to.be.instanceOf(LibSchemaMismatchError);
      expect(cursor.closed).to.equal(true);
      return { count: seen.length, reason: (error as LibSchemaMismatchError).mismatches[0]!.reason };
    };
    expect(await failsAt(Type.Object({ i: Type.Integer(), note: Type.String() }))).to.deep.equal({
      count: 999,
      reason: "row 999: value null is null but the property is not nullable",
    });
    const converted = await failsAt(Type.Object({ big: Type.Integer() }));
    expect(converted.count).to.equal(4500);
    expect(converted.reason).to.match(/^row 4500: value 9007199254740992n cannot be converted exactly/);
    const checked = await failsAt(Type.Object({ i: Type.Integer({ maximum: 4000 }) }));
    expect(checked.count).to.equal(4001);
    expect(checked.reason).to.match(/^row 4001: value 4001 fails the model/);
    const coerced = await failsAt(Type.Object({ note: Type.Integer() }), { validate: "coerce" });
    expect(coerced.count).to.equal(0);
    expect(coerced.reason).to.match(/^row 0: value "n0" cannot be converted exactly/);
  });

  it('validate "coerce" and "none" read the same through columns and rows', async () => {
    const sql = `SELECT i::BIGINT AS id, (i * 1.5)::DECIMAL(12,1) AS amount, DATE '2024-01-01' + i::INTEGER AS day,
      CASE WHEN i % 3 = 0 THEN NULL ELSE i END AS maybe FROM range(4200) t(i) ORDER BY i`;
    const Coerced = Type.Object({
      amount: Type.Number(),
      id: Type.Integer(),
      day: Type.String(),
      maybe: Nullable(Type.String()),
    });
    const coerced = await collect((await open(sql)).iterInto(Coerced, { validate: "coerce" }));
    expect(coerced).to.deep.equal(await (await open(sql)).into(Coerced, { validate: "coerce" }));
    expect(coerced[4100]).to.deep.equal({ amount: 6150, id: 4100, day: "2035-03-24", maybe: "4100" });
    const Loose = Type.Object({ maybe: Type.String(), missing: Type.String(), id: Type.Integer() });
    const loose = await collect((await open(sql)).iterInto(Loose, { validate: "none" }));
    expect(loose).to.deep.equal(await (await open(sql)).into(Loose, { validate: "none" }));
    expect(loose[3]).to.deep.equal({ maybe: null, id: 3n });
  });

  it("names that are not identifiers, and __proto__, are own properties of the row objects", async () => {
    const sql = `SELECT i AS "__proto__", i + 1 AS "a""b\\c", i + 2 AS "constructor", i + 3 AS "1" FROM range(3000) t(i)`;
    const Model = Type.Object({
      ["__proto__"]: BigIntType(),
      'a"b\\c': BigIntType(),
      constructor: BigIntType(),
      "1": BigIntType(),
    });
    for (const rows of [
      await collect((await open(sql)).iterInto(Model)),
      await collect((await open(sql)).stream()),
      await (await open(sql)).into(Model),
      await (await open(sql)).fetchAllRows(),
    ]) {
      const row = rows[2500]! as Record<string, unknown>;
      expect(Object.getPrototypeOf(row)).to.equal(Object.prototype);
      expect(Object.entries(row)).to.deep.equal(
        Object.entries({ "1": 2503n, ["__proto__"]: 2500n, 'a"b\\c': 2501n, constructor: 2502n }),
      );
    }
  });

  it("breaking out of iterInto() or stream(), or aborting mid-stream, gives the connection back exactly once", async () => {
    const sql = "SELECT i::INTEGER AS i FROM range(100000) t(i)";
    for (const read of ["iterInto", "stream"] as const) {
      const { connection, releases } = counting(await h.connect());
      const cursor = await openCursor(connection, { sql, parameters: [] });
      const rows = read === "iterInto" ? cursor.iterInto(Type.Object({ i: Type.Integer() })) : cursor.stream();
      for await (const row of rows) if (row.i === 5000) break;
      await cursor.close();
      expect([cursor.closed, releases(), h.borrowed()], read).to.deep.equal([true, 1, 0]);
    }
    const controller = new AbortController();
    const { connection, releases } = counting(await h.connect());
    const cursor = await openCursor(
      connection,
      { sql: "SELECT i FROM range(1000000000) t(i)", parameters: [] },
      {
        signal: controller.signal,
      },
    );
    let seen = 0;
    const error = await failureOf(
      (async () => {
        for await (const _ of cursor.iterInto(Type.Object({ i: BigIntType() })))
          if (++seen === 3000) setTimeout(() => controller.abort(), 0);
      })(),
    );
    expect(error).to.be.instanceOf(QueryCancelledError).with.property("reason", "aborted");
    await cursor.close();
    expect([cursor.closed, releases(), h.borrowed()]).to.deep.equal([true, 1, 0]);
  });

  it("a chunk read that fails mid-stream surfaces once, after every row before it, and gives the connection back once", async () => {
    const failure = new DataError("chunk 3 failed", { cause: new Error("socket hang up") });
    const { connection, releases } = counting(
      withStream(await h.connect(), async (inner, sql, parameters) =>
        mapChunks(await inner.stream(sql, parameters), async function* (source) {
          let n = 0;
          for await (const chunk of source) {
            if (++n === 3) throw failure;
            yield chunk;
          }
        }),
      ),
    );
    const cursor = await openCursor(connection, {
      sql: "SELECT i::INTEGER AS i FROM range(10000) t(i)",
      parameters: [],
    });
    const iterator = cursor.iterInto(Type.Object({ i: Type.Integer() }));
    let seen = 0;
    const error = await failureOf(
      (async () => {
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
          expect(next.value.i).to.equal(seen++);
        }
      })(),
    );
    expect(error).to.equal(failure);
    expect(seen).to.equal(2 * 2048);
    expect(await iterator.next()).to.deep.equal({ done: true, value: undefined });
    expect([cursor.closed, releases(), h.borrowed()]).to.deep.equal([true, 1, 0]);
  });

  it("without code generation from strings, the generic mappers give the same rows", () => {
    const columns: readonly ColumnInfo[] = [
      { name: "n", type: "BIGINT", kind: "bigint" },
      { name: "s", type: "VARCHAR", kind: "string" },
    ];
    const Model = Type.Object({ s: Type.Optional(Type.String()), n: Type.Integer() });
    const original = globalThis.Function;
    globalThis.Function = function refuse() {
      throw new EvalError("Code generation from strings disallowed for this context");
    } as unknown as FunctionConstructor;
    let mappers;
    try {
      mappers = {
        rows: compileRowMapper(Model, columns, "strict"),
        columns: compileColumnMapper(Model, columns, "strict"),
        objects: columnObjectBuilder(["n", "s", "strm-no-codegen"]),
        literal: literalRowObjects(["n", "s", "strm-no-codegen"]),
      };
    } finally {
      globalThis.Function = original;
    }
    expect(mappers.literal).to.equal(undefined);
    expect(mappers.rows([5n, null], 0)).to.deep.equal({ n: 5 });
    expect(
      mappers.columns(
        [
          [5n, 6n],
          ["x", "y"],
        ],
        1,
        1,
      ),
    ).to.deep.equal({ s: "y", n: 6 });
    expect(mappers.objects([[5n], ["x"], [true]], 0)).to.deep.equal({ n: 5n, s: "x", "strm-no-codegen": true });
    expect(() => mappers.rows([2n ** 60n, "x"], 7)).to.throw(LibSchemaMismatchError, /row 7/);
  });
});
