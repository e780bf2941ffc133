/**
 * A checkout asks whether the database file was replaced or deleted under the engine. The answer
 * must be as right as a `stat` per checkout (restart-recovery.test.ts runs it end to end), but the
 * file is looked at only after its directory reported something about it, or once RECHECK_MS has
 * passed, or on every check when no directory watch could be set up.
 */
import { expect } from "chai";
import {
  FileIdentity,
  NODE_FILE_SYSTEM,
  RECHECK_MS,
  type FileIdentitySystem,
} from "../../runtime/dialects/duckdb/duckdb-file-identity.js";
import { join } from "node:path";
import { rename, writeFile } from "node:fs/promises";
import { useTempDir } from "../support/temp-dir.js";

/** A file system whose file, clock and directory events the test controls, counting the looks. */
class FakeSystem implements FileIdentitySystem {
  file: string | undefined = "1:10";
  clock = 0;
  looks = 0;
  watchThrows = false;
  event: ((file: string | null) => void) | undefined;
  failWatch: (() => void) | undefined;
  closed = false;
  identity(): string | undefined {
    this.looks++;
    return this.file;
  }
  watch(_directory: string, onEvent: (file: string | null) => void, onError: () => void): { close(): void } {
    if (this.watchThrows) throw new Error("ENOSPC: System limit for number of file watchers reached");
    this.event = onEvent;
    this.failWatch = onError;
    return { close: () => (this.closed = true) };
  }
  now(): number {
    return this.clock;
  }
}

function opened(system: FakeSystem): FileIdentity {
  const file = new FileIdentity("/data/sales.duckdb", system);
  file.opened();
  return file;
}

describe("engine: backend C notices a replaced database file without a stat per checkout", () => {
  it("looks at the file only when its directory named it; the WAL's events do not count", () => {
    const system = new FakeSystem();
    const file = opened(system);
    const looksAtOpen = system.looks;
    for (let i = 0; i < 100; i++) expect(file.changed()).to.equal(false);
    system.event!("sales.duckdb.wal");
    expect(file.changed()).to.equal(false);
    expect(system.looks, "no stat while nothing happened to the file").to.equal(looksAtOpen);

    system.event!("sales.duckdb"); // written at a checkpoint: looked at, unchanged
    expect(file.changed()).to.equal(false);
    expect(system.looks).to.equal(looksAtOpen + 1);

    system.file = "1:11"; // replaced by another file
    system.event!("sales.duckdb");
    expect(file.changed()).to.equal(true);
    system.file = "1:10";
    expect(file.changed(), "stays changed until the driver reopened the file").to.equal(true);
  });

  it("an event without a file name, and a deleted file, count as well", () => {
    const system = new FakeSystem();
    const file = opened(system);
    system.file = undefined;
    system.event!(null);
    expect(file.changed()).to.equal(true);
    expect(file.current()).to.equal(undefined);
  });

  it(`looks again after ${RECHECK_MS} ms without any event (a watch that misses changes)`, () => {
    const system = new FakeSystem();
    const file = opened(system);
    system.file = "1:11";
    system.clock = RECHECK_MS - 1;
    expect(file.changed()).to.equal(false);
    system.clock = RECHECK_MS;
    expect(file.changed()).to.equal(true);
  });

  it("after forget() and a new open, changes are measured against the file opened then", () => {
    const system = new FakeSystem();
    const file = opened(system);
    system.file = "1:11";
    system.event!("sales.duckdb");
    expect(file.changed()).to.equal(true);
    file.forget();
    expect(file.changed(), "nothing opened: nothing changed").to.equal(false);
    file.opened();
    expect(file.changed()).to.equal(false);
    system.file = "1:12";
    system.event!("sales.duckdb");
    expect(file.changed()).to.equal(true);
  });

  it("without a directory watch (it cannot be set up, or fails later) every check looks", () => {
    const unwatched = new FakeSystem();
    unwatched.watchThrows = true;
    const file = opened(unwatched);
    const looks = unwatched.looks;
    file.changed();
    file.changed();
    expect(unwatched.looks).to.equal(looks + 2);

    const failing = new FakeSystem();
    const other = opened(failing);
    failing.failWatch!();
    expect(failing.closed).to.equal(true);
    failing.file = "1:11";
    expect(other.changed()).to.equal(true);
  });

  describe("on the real file system", () => {
    const tmp = useTempDir();

    it("a file renamed over the opened one is noticed once the directory event arrives", async () => {
      const path = join(tmp.path, "sales.duckdb");
      await writeFile(path, "old");
      const file = new FileIdentity(path, NODE_FILE_SYSTEM);
      file.opened();
      expect(file.changed()).to.equal(false);
      const replacement = join(tmp.path, "replacement.duckdb");
      await writeFile(replacement, "new");
      await rename(replacement, path);
      // The event arrives with the next turns of the event loop (well within RECHECK_MS).
      for (let i = 0; i < 100 && !file.changed(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
      expect(file.changed()).to.equal(true);
      file.close();
    });
  });
});
