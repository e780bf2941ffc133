/**
 * Issue 22 item 5: after a FATAL error (a checkpoint on a full disk) DuckDB invalidates the database
 * instance and refuses every later statement; the engine kept handing out connections to it, so
 * every checkout failed until a new engine was built. Now a dead instance is dropped from the
 * instance cache and the file reopened on the next checkout; while reopening fails, the checkout
 * fails with both errors and the one after tries again. The fatal error is DuckDB's own: a
 * checkpoint aborted by `debug_checkpoint_abort`, exactly the path a full disk takes.
 */
import { mkdirSync, renameSync, rmdirSync } from "node:fs";
import { expect } from "chai";
import { BackendCConfig, InternalError, LibConnectionError, createEngine, type Engine } from "lib";
import { failureOf } from "../support/failures.js";
import { useTempDir } from "../support/temp-dir.js";
import { leaseFileInstance } from "../../runtime/dialects/duckdb/duckdb-instances.js";

/** Makes DuckDB invalidate the engine's database instance, after committing one row. */
async function invalidate(engine: Engine): Promise<void> {
  await using conn = await engine.connect();
  await conn.run("INSERT INTO t VALUES (100)");
  await conn.commit();
  await conn.run("SET debug_checkpoint_abort = 'before_header'");
  const error = await failureOf(conn.run("CHECKPOINT"));
  expect(error).to.be.instanceOf(InternalError);
  expect(error.message).to.match(/^FATAL Error/);
}

describe("reliability: a DuckDB instance invalidated by a fatal error", () => {
  const tmp = useTempDir();
  let path: string;
  let engine: Engine;
  beforeEach(async () => {
    path = tmp.file();
    engine = createEngine(new BackendCConfig({ database: path, poolSize: 2, maxOverflow: 0 }));
    await using conn = await engine.connect();
    await conn.run("CREATE TABLE t AS SELECT range::INTEGER AS i FROM range(10)");
    await conn.commit();
  });
  afterEach(() => engine.dispose());

  it("is dropped: the next checkout reopens the file and sees every committed row", async () => {
    await invalidate(engine);
    await using conn = await engine.connect();
    expect(await conn.all("SELECT count(*) AS n, sum(i) AS s FROM t")).to.deep.equal([{ n: 11n, s: 145n }]);
    await conn.run("INSERT INTO t VALUES (1000)");
    await conn.commit();
    expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 12n }]);
  });

  it("another engine on the same file recovers too, on the same new instance", async () => {
    await using other = createEngine(new BackendCConfig({ database: path, poolSize: 1 }));
    {
      await using conn = await other.connect();
      expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 10n }]);
    }
    await invalidate(engine);
    await using mine = await engine.connect();
    await mine.run("INSERT INTO t VALUES (7)");
    await mine.commit();
    await using theirs = await other.connect();
    expect(await theirs.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 12n }]);
  });

  it("an instance that died where the engine did not look (a raw driver connection) is reopened after one failure", async () => {
    const lease = leaseFileInstance(path, { autoinstall_known_extensions: "false" });
    try {
      const raw = await (await lease.instance).connect();
      await raw.run("INSERT INTO t VALUES (100)");
      await raw.run("SET debug_checkpoint_abort = 'before_header'");
      expect((await failureOf(raw.run("CHECKPOINT"))).message).to.match(/^FATAL Error/);
      raw.closeSync();
      // A new connection is not asked whether its instance is alive (a round trip per open): the
      // first statement meets the invalidated instance, which has the pool reopen the file.
      await using held = await engine.connect();
      const first = await failureOf(
        (async () => {
          await using fresh = await engine.connect();
          await fresh.all("SELECT count(*) AS n FROM t");
        })(),
      );
      expect(first.message).to.match(/FATAL|invalidated/);
      await held.release();
      await using conn = await engine.connect();
      expect(await conn.all("SELECT count(*) AS n, sum(i) AS s FROM t")).to.deep.equal([{ n: 11n, s: 145n }]);
    } finally {
      lease.release();
    }
  });

  it("fails clearly while the file cannot be reopened, and recovers once it can", async () => {
    await invalidate(engine);
    // The write-ahead log turned into a directory: DuckDB cannot open the database.
    renameSync(`${path}.wal`, `${path}.wal.kept`);
    mkdirSync(`${path}.wal`);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await failureOf(engine.connect());
      expect(error).to.be.instanceOf(LibConnectionError);
      expect(error.message).to.match(/was invalidated by a fatal error \(.*[Cc]heckpoint.*\) and reopening it failed/);
    }
    rmdirSync(`${path}.wal`);
    renameSync(`${path}.wal.kept`, `${path}.wal`);
    await using conn = await engine.connect();
    expect(await conn.all("SELECT count(*) AS n FROM t")).to.deep.equal([{ n: 11n }]);
  });
});
