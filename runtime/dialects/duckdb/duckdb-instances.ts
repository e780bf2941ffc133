/**
 * Process-wide sharing of DuckDB database files. Two engines on the same file must share one
 * `DuckDBInstance` (opening a file twice in one process is unsafe), and the instance must be
 * closed once nobody uses it any more so the file is released. `DuckDBInstance.fromCache` shares
 * but a closed cached instance hangs the next `fromCache` call, so we count references ourselves.
 */
import type { DuckDBInstance } from "@duckdb/node-api";
import { resolve } from "node:path";
import { duckdb } from "./duckdb-api.js";

interface SharedInstance {
  readonly options: string;
  readonly instance: Promise<DuckDBInstance>;
  references: number;
}

const shared = new Map<string, SharedInstance>();
/** Instances a fatal error invalidated: their connections are stale (replaced at checkout). */
const dead = new WeakSet<DuckDBInstance>();

/** Records that DuckDB invalidated `instance` (every statement on it fails until it is reopened). */
export function markInstanceDead(instance: DuckDBInstance): void {
  dead.add(instance);
}

export function isInstanceDead(instance: DuckDBInstance): boolean {
  return dead.has(instance);
}

/** A handle on a shared instance; `release()` drops the reference (idempotent). */
export interface InstanceLease {
  readonly instance: Promise<DuckDBInstance>;
  release(): void;
  /** Stops handing this instance to new leases (it is dead): the next lease opens the file afresh. */
  forget(): void;
}

export function leaseFileInstance(path: string, options: Record<string, string>): InstanceLease {
  const key = resolve(path);
  const optionsKey = JSON.stringify(options);
  let entry = shared.get(key);
  if (entry !== undefined && entry.options !== optionsKey) {
    const existing = entry;
    // Different options (e.g. read_only) on an open file cannot share the instance.
    const instance = Promise.reject(
      new Error(
        `IO Error: database file ${key} is already open in this process with different options (${existing.options})`,
      ),
    );
    instance.catch(() => undefined);
    return { instance, release: () => undefined, forget: () => undefined };
  }
  if (entry === undefined) {
    const created = Promise.resolve().then(() => duckdb().DuckDBInstance.create(key, options));
    entry = { options: optionsKey, instance: created, references: 0 };
    shared.set(key, entry);
    const failed = entry;
    // A failed open must not stay cached: the next attempt (after backoff) tries again.
    created.catch(() => {
      if (shared.get(key) === failed) shared.delete(key);
    });
  }
  entry.references++;
  const lease = entry;
  let released = false;
  return {
    instance: lease.instance,
    forget: () => {
      if (shared.get(key) === lease) shared.delete(key);
    },
    release: () => {
      if (released) return;
      released = true;
      lease.references--;
      if (lease.references === 0) {
        if (shared.get(key) === lease) shared.delete(key);
        lease.instance.then(
          (instance) => instance.closeSync(),
          () => undefined,
        );
      }
    },
  };
}

/**
 * Stops handing out the instance of `path` to new leases (its file was deleted or replaced): the
 * next lease opens the file afresh. Existing leases keep theirs until they release it.
 */
export function forgetFileInstance(path: string): void {
  shared.delete(resolve(path));
}
