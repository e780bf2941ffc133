/**
 * Whether the database file an engine opened is still the one at its path (not deleted, not
 * replaced by another file), asked at every checkout without a `stat` per checkout: a watch on the
 * file's directory says when something happened to a file of that name, and only then (or once
 * `RECHECK_MS` has passed since the last look, for file systems whose watches miss changes) is
 * the file's `device:inode` read again. Where no watch can be set up, every check reads it.
 * Once a change is seen the answer stays "changed" until the driver has reopened the file.
 */
import { statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";

/** The longest a change can go unnoticed when the directory watch misses it. */
export const RECHECK_MS = 1_000;

/** What the check uses from the system (tests replace them). */
export interface FileIdentitySystem {
  /** `device:inode` of the file at `path`, or undefined when there is none. */
  identity(path: string): string | undefined;
  /** Calls `onEvent` with the file name (or null) of every change in `directory`; may throw. */
  watch(directory: string, onEvent: (file: string | null) => void, onError: () => void): { close(): void };
  now(): number;
}

export const NODE_FILE_SYSTEM: FileIdentitySystem = {
  identity(path) {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats === undefined ? undefined : `${stats.dev}:${stats.ino}`;
  },
  watch(directory, onEvent, onError) {
    const watcher: FSWatcher = watch(directory, { persistent: false }, (_event, file) =>
      onEvent(typeof file === "string" ? file : null),
    );
    watcher.on("error", onError);
    return watcher;
  },
  now: () => Date.now(),
};

export class FileIdentity {
  readonly #path: string;
  readonly #name: string;
  readonly #system: FileIdentitySystem;
  /** The identity of the file the driver opened; undefined before the first open. */
  #opened: string | undefined;
  #changed = false;
  /** True when the next check must look: an event named the file, or the watch is gone. */
  #suspect = true;
  #lookedAt = -Infinity;
  #watcher: { close(): void } | undefined;
  #watchFailed = false;

  constructor(path: string, system: FileIdentitySystem = NODE_FILE_SYSTEM) {
    this.#path = resolve(path);
    this.#name = basename(this.#path);
    this.#system = system;
  }

  /** `device:inode` of the file now at the path (undefined: none), read at once. */
  current(): string | undefined {
    return this.#system.identity(this.#path);
  }

  /** The file at the path was opened: changes are measured against it from now on. */
  opened(): void {
    if (this.#opened !== undefined) return;
    this.#startWatch();
    this.#suspect = false;
    this.#lookedAt = this.#system.now();
    this.#opened = this.current();
    this.#changed = false;
  }

  /** The driver let go of the file it opened (it will open whatever is at the path next). */
  forget(): void {
    this.#opened = undefined;
    this.#changed = false;
  }

  /** True when the file opened was deleted or replaced since (sticky until `forget()`). */
  changed(): boolean {
    if (this.#opened === undefined) return false;
    if (this.#changed) return true;
    const now = this.#system.now();
    if (!this.#suspect && this.#watcher !== undefined && now - this.#lookedAt < RECHECK_MS) return false;
    // Cleared before the look, so an event arriving after it is not lost.
    this.#suspect = false;
    this.#lookedAt = now;
    this.#changed = this.current() !== this.#opened;
    return this.#changed;
  }

  /** Stops watching (the driver was destroyed). */
  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#watchFailed = true;
  }

  #startWatch(): void {
    if (this.#watcher !== undefined || this.#watchFailed) return;
    const onEvent = (file: string | null) => {
      if (file === null || file === this.#name) this.#suspect = true;
    };
    const onError = () => {
      // Without a watch every check looks again.
      this.#watcher?.close();
      this.#watcher = undefined;
      this.#watchFailed = true;
    };
    try {
      this.#watcher = this.#system.watch(dirname(this.#path), onEvent, onError);
    } catch {
      this.#watchFailed = true;
    }
  }
}
