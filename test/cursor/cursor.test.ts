import { expect } from "chai";
import { Type } from "typebox";
import { DataError, LibError, QueryCancelledError, WarehouseError, ValidationError } from "../../runtime/errors.js";
import { Decimal } from "../../runtime/values/decimal.js";
import { openCursor } from "../../runtime/cursor/open-cursor.js";
import { mapChunks, useHarness, withStream, type Harness } from "./support/cursor-harness.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { failureOf } from "../support/failures.js";

/** A full garbage collection without starting node with --expose-gc (the flag can be set at run time). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

const SAMPLE = "SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')) t(id, name) ORDER BY id";
const LONG = "SELECT count(*) FROM range(10000000000) a";

describe("cursor: reading", () => {
  const h = useHarness();

  it("fetchAllRows returns plain objects keyed by column name, in column order, and releases the connection", async () => {
    const cursor = await h.cursor(SAMPLE);
    expect(h.borrowed()).to.equal(1);
    const rows = await cursor.fetchAllRows();
    expect(rows).to.deep.equal([1, 2, 3, 4, 5].map((id, i) => ({ id, name: "abcde"[i] })));
    expect(Object.keys(rows[0]!)).to.deep.equal(["id", "name"]);
    expect(Object.getPrototypeOf(rows[0])).to.equal(Object.prototype);
    expect(h.borrowed(), "exhausted result gives the connection back").to.equal(0);
    expect(await cursor.fetchAllRows()).to.deep.equal([]);
    await cursor.close();
  });

  it("exposes the result columns with type text and value kind", async () => {
    await using cursor = await h.cursor("SELECT 1::INTEGER AS i, 2::BIGINT AS b, 1.50::DECIMAL(10,2) AS d, 'x' AS s");
    expect(cursor.columns).to.deep.equal([
      { name: "i", type: "INTEGER", kind: "integer" },
      { name: "b", type: "BIGINT", kind: "bigint" },
      { name: "d", type: "DECIMAL(10,2)", kind: "decimal" },
      { name: "s", type: "VARCHAR", kind: "string" },
    ]);
    const [row] = await cursor.fetchAllRows();
    expect(row).to.deep.equal({ i: 1, b: 2n, d: new Decimal(150n, 2), s: "x" });
  });

  it("fetchOne, fetchMany and fetchAllRows are one family and may be mixed", async () => {
    await using cursor = await h.cursor(SAMPLE);
    expect(await cursor.fetchOne()).to.deep.equal({ id: 1, name: "a" });
    expect(await cursor.fetchMany(2)).to.deep.equal([
      { id: 2, name: "b" },
      { id: 3, name: "c" },
    ]);
    expect(await cursor.fetchAllRows()).to.deep.equal([
      { id: 4, name: "d" },
      { id: 5, name: "e" },
    ]);
    expect(await cursor.fetchOne()).to.equal(undefined);
    expect(await cursor.fetchMany(3)).to.deep.equal([]);
  });

  it("fetchMany stops at the end and rejects a non-positive size", async () => {
    await using cursor = await h.cursor(SAMPLE);
    expect(await cursor.fetchMany(10)).to.have.length(5);
    const other = await h.cursor(SAMPLE);
    const error = await failureOf(other.fetchMany(0));
    expect(error)
      .to.be.instanceOf(LibError)
      .with.property("message")
      .that.matches(/positive integer/);
    expect(other.closed).to.equal(true);
  });

  it("a column named __proto__ becomes an own property, not the prototype", async () => {
    await using cursor = await h.cursor(`SELECT 1 AS "__proto__", 2 AS x`);
    const [row] = await cursor.fetchAllRows();
    expect(Object.getPrototypeOf(row)).to.equal(Object.prototype);
    expect(Object.keys(row!)).to.deep.equal(["__proto__", "x"]);
    expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).to.equal(1);
  });

  const Model = Type.Object({ id: Type.Integer(), name: Type.String() });
  const modes: Array<[string, (c: Awaited<ReturnType<Harness["cursor"]>>) => Promise<unknown>]> = [
    ["fetchAllRows()", (c) => c.fetchAllRows()],
    ["fetchOne()", (c) => c.fetchOne()],
    ["into()", (c) => c.into(Model)],
    [
      "iterInto()",
      async (c) => {
        for await (const _ of c.iterInto(Model)) break;
      },
    ],
    ["fetchArrow()", (c) => c.fetchArrow()],
  ];
  const family = (name: string): string =>
    name.startsWith("fetchA") && name !== "fetchAllRows()" ? name : name.startsWith("fetch") ? "rows" : name;
  for (const [first, readFirst] of modes) {
    for (const [second, readSecond] of modes) {
      if (family(first) === family(second)) continue;
      it(`mixing ${first} then ${second} throws a clear error naming both`, async () => {
        await using cursor = await h.cursor(SAMPLE);
        await readFirst(cursor);
        let error: unknown;
        try {
          await readSecond(cursor);
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(LibError);
        expect((error as Error).message)
          .to.contain(first)
          .and.contain(second)
          .and.match(/one read mode/);
      });
    }
  }

  it("close() is idempotent, returns the connection early, and reads after close throw", async () => {
    const cursor = await h.cursor(SAMPLE);
    expect(await cursor.fetchOne()).to.deep.equal({ id: 1, name: "a" });
    expect(h.borrowed()).to.equal(1);
    await cursor.close();
    await cursor.close();
    expect(h.borrowed()).to.equal(0);
    expect(cursor.closed).to.equal(true);
    const error = await failureOf(cursor.fetchOne());
    expect(error)
      .to.be.instanceOf(LibError)
      .with.property("message")
      .that.matches(/fetchOne\(\).*closed/);
  });

  it("await using releases the connection at scope exit", async () => {
    {
      await using cursor = await h.cursor(SAMPLE);
      await cursor.fetchOne();
      expect(h.borrowed()).to.equal(1);
    }
    expect(h.borrowed()).to.equal(0);
  });

  it("a failing statement releases the connection and rethrows the warehouse error unchanged", async () => {
    const error = await failureOf(h.cursor("SELECT * FROM no_such_table"));
    expect(error).to.be.instanceOf(WarehouseError);
    expect((error as Error).message).to.match(/no_such_table/);
    expect(h.borrowed()).to.equal(0);
  });

  it("a read that fails mid-stream releases the connection and rethrows the original error", async () => {
    // DuckDB ends a stream silently when a later chunk fails (see report), so the failure is injected at the
    // driver seam: real chunks first, then the error a driver raises (e.g. a dropped network connection).
    const connection = await h.connect();
    const failure = new DataError("chunk 2 failed", { cause: new Error("socket hang up") });
    const failing = withStream(connection, async (inner, sql, parameters) =>
      mapChunks(await inner.stream(sql, parameters), async function* (source) {
        let n = 0;
        for await (const chunk of source) {
          if (++n === 2) throw failure;
          yield chunk;
        }
      }),
    );
    const cursor = await openCursor(failing, { sql: "SELECT i FROM range(10000) t(i)", parameters: [] });
    expect(await cursor.fetchOne()).to.deep.equal({ i: 0n });
    const error = await failureOf(cursor.fetchAllRows());
    expect(error).to.equal(failure);
    expect(h.borrowed()).to.equal(0);
    expect(cursor.closed).to.equal(true);
  });

  it("a driver that throws synchronously from stream() still gets its connection released", async () => {
    const boom = new Error("sync failure");
    const connection = withStream(await h.connect(), () => {
      throw boom;
    });
    const error = await failureOf(openCursor(connection, { sql: "SELECT 1", parameters: [] }));
    expect(error).to.equal(boom);
    expect(h.borrowed()).to.equal(0);
  });

  it("a mapping error in into() releases the connection too", async () => {
    const cursor = await h.cursor(SAMPLE);
    const error = await failureOf(cursor.into(Type.Object({ id: Type.String() })));
    expect(error).to.have.property("name", "LibSchemaMismatchError");
    expect(h.borrowed()).to.equal(0);
  });

  it("iterInto reads driver chunks lazily (bounded memory) over 200k rows", async () => {
    const Item = Type.Object({ i: Type.Integer(), label: Type.String() });
    await using cursor = await h.cursor("SELECT i::INTEGER AS i, 'row ' || i AS label FROM range(200000) t(i)");
    const before = h.pulls();
    const iterator = cursor.iterInto(Item);
    expect(h.pulls(), "nothing is read before the first next()").to.equal(before);
    const first = await iterator.next();
    expect(first.value).to.deep.equal({ i: 0, label: "row 0" });
    expect(h.pulls() - before, "the first row needs only the first chunk").to.equal(1);
    let count = 1;
    let sum = 0;
    let maxPullsAhead = 0;
    for await (const row of iterator) {
      count++;
      sum += row.i;
      // Pulled chunks never run more than one chunk ahead of the rows handed out (2048 rows per DuckDB chunk).
      maxPullsAhead = Math.max(maxPullsAhead, h.pulls() - before - Math.ceil(count / 2048));
    }
    expect(count).to.equal(200_000);
    expect(sum).to.equal((199_999 * 200_000) / 2);
    expect(maxPullsAhead).to.be.at.most(1);
    expect(h.pulls() - before).to.be.greaterThan(90);
    expect(h.borrowed()).to.equal(0);
  });

  it("iterInto keeps no chunk it has handed out reachable (memory stays bounded on any result size)", async () => {
    // Every chunk the driver delivers is watched through a WeakRef; after a collection, only the
    // chunk being read may still be alive, however many came before it.
    const seen: WeakRef<unknown[][]>[] = [];
    const connection = withStream(await h.connect(), async (inner, sql, parameters, options) =>
      mapChunks(await inner.stream(sql, parameters, options), async function* (source) {
        for await (const chunk of source) {
          seen.push(new WeakRef(chunk));
          yield chunk;
        }
      }),
    );
    await using cursor = await openCursor(connection, {
      sql: "SELECT i::INTEGER AS i, 'row ' || i AS label FROM range(100000) t(i)",
      parameters: [],
    });
    let count = 0;
    let alive = -1;
    for await (const _ of cursor.iterInto(Type.Object({ i: Type.Integer(), label: Type.String() }))) {
      if (++count === 99_000) {
        // WeakRefs are cleared only after the current job: collect in a later macrotask.
        await new Promise((resolve) => setImmediate(resolve));
        collectGarbage();
        await new Promise((resolve) => setImmediate(resolve));
        alive = seen.filter((ref) => ref.deref() !== undefined).length;
      }
    }
    expect(count).to.equal(100_000);
    expect(seen.length).to.be.greaterThan(40);
    expect(alive, `chunks still reachable out of ${seen.length}`).to.be.at.most(2);
  });

  it("breaking out of iterInto closes the cursor and returns the connection", async () => {
    const cursor = await h.cursor("SELECT i::INTEGER AS i FROM range(100000) t(i)");
    for await (const row of cursor.iterInto(Type.Object({ i: Type.Integer() }))) {
      if (row.i === 10) break;
    }
    expect(cursor.closed).to.equal(true);
    expect(h.borrowed()).to.equal(0);
  });
});

describe("cursor: cancellation", () => {
  const h = useHarness();

  async function nextQueryWorks(): Promise<void> {
    await using cursor = await h.cursor("SELECT 42 AS answer");
    expect(await cursor.fetchAllRows()).to.deep.equal([{ answer: 42 }]);
  }

  it("an AbortSignal interrupts a long query and rejects with QueryCancelledError (reason aborted)", async () => {
    const controller = new AbortController();
    const reason = new Error("user went away");
    const pending = h.cursor(LONG, [], { signal: controller.signal }).then((c) => c.fetchAllRows());
    setTimeout(() => controller.abort(reason), 50);
    const error = await failureOf(pending);
    expect(error).to.be.instanceOf(QueryCancelledError);
    expect(error).to.have.property("reason", "aborted");
    expect((error as Error).message).to.match(/AbortSignal/);
    expect((error as Error).cause).to.equal(reason);
    expect(h.borrowed()).to.equal(0);
    await nextQueryWorks();
  });

  it("timeoutMs interrupts a long query and rejects with QueryCancelledError (reason timeout)", async () => {
    const error = await failureOf(h.cursor(LONG, [], { timeoutMs: 50 }).then((c) => c.fetchAllRows()));
    expect(error).to.be.instanceOf(QueryCancelledError);
    expect(error).to.have.property("reason", "timeout");
    expect((error as Error).message).to.match(/timeoutMs.*50 ms/);
    expect(h.borrowed()).to.equal(0);
    await nextQueryWorks();
  });

  it("aborting while a large result is being streamed cancels the pending read", async () => {
    const controller = new AbortController();
    const cursor = await h.cursor("SELECT i, md5(i::VARCHAR) AS h FROM range(1000000000) t(i)", [], {
      signal: controller.signal,
    });
    expect(await cursor.fetchOne()).to.have.property("i", 0n);
    setTimeout(() => controller.abort(), 30);
    const error = await failureOf(cursor.fetchAllRows());
    expect(error).to.be.instanceOf(QueryCancelledError).with.property("reason", "aborted");
    expect(cursor.closed).to.equal(true);
    expect(h.borrowed()).to.equal(0);
    await nextQueryWorks();
  });

  it("an already-aborted signal rejects at once without running the statement", async () => {
    const connection = await h.connect();
    let ran = false;
    const spy = withStream(connection, (inner, sql, parameters) => ((ran = true), inner.stream(sql, parameters)));
    const error = await openCursor(spy, { sql: LONG, parameters: [] }, { signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(QueryCancelledError).with.property("reason", "aborted");
    expect(ran).to.equal(false);
    expect(h.borrowed()).to.equal(0);
  });

  it("an invalid timeoutMs is rejected and the connection released", async () => {
    const error = await failureOf(h.cursor("SELECT 1", [], { timeoutMs: -5 }));
    expect(error).to.be.instanceOf(ValidationError).with.property("field", "timeoutMs");
  });

  it("aborting between reads ends the result; the next read rejects with QueryCancelledError", async () => {
    const controller = new AbortController();
    const cursor = await h.cursor("SELECT i FROM range(100000) t(i)", [], { signal: controller.signal });
    expect(await cursor.fetchOne()).to.deep.equal({ i: 0n });
    controller.abort();
    const error = await failureOf(cursor.fetchMany(5));
    expect(error).to.be.instanceOf(QueryCancelledError);
    await cursor.close();
    await nextQueryWorks();
  });

  it("a signal that never fires and a generous deadline leave a normal read untouched (no listeners left behind)", async () => {
    const controller = new AbortController();
    const cursor = await h.cursor(SAMPLE, [], { signal: controller.signal, timeoutMs: 60_000 });
    expect(await cursor.fetchAllRows()).to.have.length(5);
    controller.abort(); // after the cursor finished: nothing to interrupt
    expect(cursor.closed).to.equal(true);
  });
});
