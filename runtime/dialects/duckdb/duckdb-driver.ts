/**
 * The backend C driver on `@duckdb/node-api`. `:memory:` gives every physical connection its own
 * database (its own instance); a file path shares one instance per file across connections and
 * must exist unless `create_if_missing` is set.
 * Extensions are never downloaded (`autoinstall_known_extensions = false`).
 */
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import type { BackendCSettings } from "./duckdb-settings.js";
import type { DatabaseConnection } from "../../driver/database-connection.js";
import type { Driver } from "../../driver/driver.js";
import { createBuiltinSemanticLayer } from "../../semantic/builtin-layer.js";
import { definitionCacheFor, type DefinitionCache } from "../../semantic/definition-cache.js";
import type { SemanticLayer } from "../../semantic/semantic-layer.js";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { explainCreatedFile } from "./created-file-hint.js";
import { duckdb } from "./duckdb-api.js";
import { ENGINE_STATEMENT_BYTES } from "./duckdb-statement-cache.js";
import { DuckDBDatabaseConnection } from "./duckdb-connection.js";
import { isDuckDBDisconnect, isDuckDBInvalidated } from "./duckdb-errors.js";
import { ChangeFeed, fileChangeFeed } from "./duckdb-change-feed.js";
import { forgetFileInstance, isInstanceDead, leaseFileInstance, markInstanceDead } from "./duckdb-instances.js";
import { applyCurrentSchema } from "./duckdb-schema.js";
import type { InstanceLease } from "./duckdb-instances.js";
import { FileIdentity } from "./duckdb-file-identity.js";
import { SharedSessionMemo } from "./duckdb-shared-session.js";

export const MEMORY_DATABASE = ":memory:";

/** Where the built-in semantic layer comes from: a layer, a loader, or `null` for none. */
export type SemanticLayerSource = SemanticLayer | (() => Promise<SemanticLayer | undefined>) | null;

export interface DuckDBDriverOptions {
  /**
   * The built-in semantic-view layer used in `semantic_views = "builtin"` (and `"auto"` without
   * the extension installed). Defaults to `createBuiltinSemanticLayer()` of `runtime/semantic`.
   */
  readonly semanticLayer?: SemanticLayerSource;
}

export class DuckDBDriver implements Driver {
  readonly #settings: BackendCSettings;
  readonly #layerSource: SemanticLayerSource;
  #layer: Promise<SemanticLayer | undefined> | undefined;
  #lease: InstanceLease | undefined;
  /** The database file the current lease opened (its device + inode), watched for a replacement. */
  readonly #file: FileIdentity | undefined;
  #destroyed = false;
  #createdFile: boolean | undefined;
  /** The fatal error that invalidated the last instance, until the file is open again. */
  #invalidatedBy: unknown;
  /** An invalidation error was seen since the instance last answered: the next open asks it first. */
  #mayBeDead = false;
  /** Commits and session changes on this database: one feed per file, or this driver's own for `:memory:`. */
  readonly #changes: ChangeFeed;
  /** Per file instance: what this engine's connections in their initial session state share. */
  readonly #sharedMemos = new WeakMap<DuckDBInstance, SharedSessionMemo>();

  constructor(settings: BackendCSettings, options: DuckDBDriverOptions = {}) {
    this.#settings = settings;
    this.#layerSource = options.semanticLayer === undefined ? loadBuiltinSemanticLayer : options.semanticLayer;
    this.#changes = this.isMemory ? new ChangeFeed() : fileChangeFeed(settings.database);
    this.#file = this.isMemory ? undefined : new FileIdentity(settings.database);
  }

  /** Every commit, DDL or session change through the library on this database (any engine on the file). */
  watchChanges(listener: () => void): () => void {
    return this.#changes.subscribe(listener);
  }

  get isMemory(): boolean {
    return this.#settings.database === MEMORY_DATABASE || this.#settings.database === "";
  }

  async openConnection(): Promise<DatabaseConnection> {
    if (this.#destroyed) throw new Error("Connection Error: the DuckDB driver has been destroyed");
    const options = this.#instanceOptions();
    let connection: DuckDBConnection;
    let onClose: (() => void) | undefined;
    // Semantic-view definitions are cached per database instance: shared by every engine on a file.
    let definitions: DefinitionCache | undefined;
    let fileInstance: DuckDBInstance | undefined;
    let instance: DuckDBInstance;
    if (this.isMemory) {
      const memory = await duckdb().DuckDBInstance.create(MEMORY_DATABASE, options);
      instance = memory;
      try {
        connection = await memory.connect();
      } catch (error) {
        memory.closeSync();
        throw error;
      }
      onClose = () => {
        memory.closeSync();
        this.#changes.notify(); // the in-memory database is gone with its only connection
      };
    } else {
      const file = await this.#fileConnection(options);
      connection = file.connection;
      fileInstance = instance = file.instance;
      definitions = definitionCacheFor(file.instance);
    }
    try {
      const schema = this.#settings.schema;
      if (schema !== undefined) await applyCurrentSchema(connection, schema, this.isMemory);
      const semanticLayer = await this.#semanticLayerFor(connection, instance);
      const shared = fileInstance;
      // Replaced at checkout once the file changed or DuckDB invalidated the instance.
      const isStale = shared === undefined ? undefined : () => this.#fileChanged() || isInstanceDead(shared);
      // The engine's prepared-statement budget, shared out among all the connections its pool may open.
      const statementBytes = ENGINE_STATEMENT_BYTES / Math.max(1, this.#settings.poolSize + this.#settings.maxOverflow);
      const onChange = () => this.#changes.notify();
      // A `:memory:` connection is a database of its own: nothing to share.
      const sharedMemo = shared === undefined ? undefined : this.#sharedMemoOf(shared);
      const opened = new DuckDBDatabaseConnection(connection, {
        semanticLayer,
        onClose,
        definitions,
        isStale,
        statementBytes,
        onChange,
        sharedMemo,
      });
      return this.#createdFile === true ? explainCreatedFile(opened, resolve(this.#settings.database)) : opened;
    } catch (error) {
      connection.closeSync();
      onClose?.();
      throw error;
    }
  }

  /**
   * A connection to the file's shared instance. An instance DuckDB has invalidated after a fatal
   * error (a failed checkpoint on a full disk) refuses every statement until it is restarted, so a
   * dead one is dropped from the instance cache and the file opened afresh; while that fails, the
   * open fails with both errors (and the next checkout tries again).
   *
   * Whether the instance is alive is asked (one statement) on the first connection of a lease and
   * whenever it may have died since: an invalidation error seen through this engine
   * (`isDisconnect`), or the instance marked dead by another engine. Every other connection skips
   * the round trip; one opened on an instance that died unseen (a fatal error only a raw driver
   * connection met) fails its first statement like the pool's idle connections do, which
   * invalidates the pool and gets the file reopened at the next checkout.
   */
  async #fileConnection(
    options: Record<string, string>,
  ): Promise<{ connection: DuckDBConnection; instance: DuckDBInstance }> {
    this.#dropReplacedFile();
    // With a lease the file is open (a deleted or replaced one was dropped just now): no stat.
    if (this.#lease === undefined) {
      const exists = existsSync(resolve(this.#settings.database));
      if (!exists && !this.#settings.createIfMissing) throw missingFileError(this.#settings);
      // Whether this engine's file existed before DuckDB opened it (and so created it empty).
      this.#createdFile ??= !exists;
    }
    for (let reopened = false; ; reopened = true) {
      const leased = this.#lease === undefined;
      this.#lease ??= leaseFileInstance(this.#settings.database, options);
      const lease = this.#lease;
      let instance: DuckDBInstance;
      let connection: DuckDBConnection;
      try {
        instance = await lease.instance;
        connection = await instance.connect();
      } catch (error) {
        // Forget a failed open so the next attempt retries it.
        if (this.#lease === lease) this.#lease = undefined;
        lease.release();
        const invalidated = this.#invalidatedBy;
        throw invalidated === undefined ? error : reopenFailure(this.#settings.database, invalidated, error);
      }
      const check = leased || this.#mayBeDead || isInstanceDead(instance);
      if (check) this.#mayBeDead = false; // an error seen from now on asks again
      const fatal = check ? await fatalErrorOf(connection) : undefined;
      if (fatal === undefined) {
        this.#invalidatedBy = undefined;
        this.#file?.opened();
        return { connection, instance };
      }
      connection.closeSync();
      markInstanceDead(instance); // the connections other engines hold on it are stale now
      lease.forget();
      lease.release();
      if (this.#lease === lease) this.#lease = undefined;
      if (reopened) throw reopenFailure(this.#settings.database, this.#invalidatedBy, fatal);
      this.#invalidatedBy = fatal;
    }
  }

  #sharedMemoOf(instance: DuckDBInstance): SharedSessionMemo {
    let memo = this.#sharedMemos.get(instance);
    if (memo === undefined) this.#sharedMemos.set(instance, (memo = new SharedSessionMemo()));
    return memo;
  }

  /** A closed connection or an instance invalidated by a fatal error (the next open then asks the instance). */
  isDisconnect(error: unknown): boolean {
    if (isDuckDBInvalidated(error)) this.#mayBeDead = true;
    return isDuckDBDisconnect(error);
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    this.#lease?.release();
    this.#lease = undefined;
    this.#file?.close();
  }

  /** True when the database file this driver opened was deleted or replaced (another inode). */
  #fileChanged(): boolean {
    return this.#file?.changed() === true;
  }

  /**
   * A file deleted or replaced under a running engine: drop the old instance so the next open
   * reads the file now at the path. A deleted file is not silently recreated empty: opening fails
   * until a database file is back.
   */
  #dropReplacedFile(): void {
    if (!this.#fileChanged()) return;
    const path = this.#settings.database;
    this.#lease?.release();
    this.#lease = undefined;
    forgetFileInstance(path);
    this.#changes.notify(); // another file is at the path now
    if (this.#file?.current() === undefined) {
      throw new Error(`IO Error: the database file ${resolve(path)} was deleted while the engine was using it`);
    }
    this.#file.forget();
  }

  #instanceOptions(): Record<string, string> {
    const options: Record<string, string> = { autoinstall_known_extensions: "false" };
    if (this.#settings.readOnly) options["access_mode"] = "READ_ONLY";
    return options;
  }

  /** The layer for this connection per `semantic_views`, or undefined to pass SQL through to DuckDB. */
  async #semanticLayerFor(connection: DuckDBConnection, instance: DuckDBInstance): Promise<SemanticLayer | undefined> {
    switch (this.#settings.semanticViews) {
      case "extension":
        return undefined;
      case "builtin":
        return this.#builtinLayer();
      default:
        return (await extensionInstalled(connection, instance)) ? undefined : this.#builtinLayer();
    }
  }

  #builtinLayer(): Promise<SemanticLayer | undefined> {
    const source = this.#layerSource;
    if (source === null) return Promise.resolve(undefined);
    if (typeof source !== "function") return Promise.resolve(source);
    this.#layer ??= source().catch((error: unknown) => {
      this.#layer = undefined;
      throw error;
    });
    return this.#layer;
  }
}

/** Whether the `semantic_views` extension is installed, asked once per database instance (`auto`). */
const installedPerInstance = new WeakMap<DuckDBInstance, Promise<boolean>>();

/**
 * `semantic_views = "auto"`: whether DuckDB has the extension. Asked on the instance's first
 * connection and kept for the instance's life, so every connection of an engine answers semantic
 * SQL the same way and a new (overflow) connection does not pay another catalog query.
 */
function extensionInstalled(connection: DuckDBConnection, instance: DuckDBInstance): Promise<boolean> {
  let installed = installedPerInstance.get(instance);
  if (installed === undefined) {
    installed = connection
      .runAndReadAll("SELECT installed FROM duckdb_extensions() WHERE extension_name = 'semantic_views'")
      .then((reader) => reader.getRows().some((row) => row[0] === true));
    installedPerInstance.set(instance, installed);
    // A failed check is not kept: the next connection asks again.
    installed.catch(() => installedPerInstance.delete(instance));
  }
  return installed;
}

/**
 * A missing database file is not created unless asked: a mistyped path would otherwise become an
 * empty database that answers "table does not exist" later.
 */
function missingFileError(settings: BackendCSettings): Error {
  const path = resolve(settings.database);
  const fix = settings.readOnly
    ? "a read-only open needs an existing file: check the path"
    : "check the path, or set create_if_missing = true (createIfMissing: true in BackendCConfig, " +
      "BACKEND_C_CREATE_IF_MISSING=true) to create it";
  return new Error(`the database file ${path} does not exist; ${fix}`);
}

/** The error of an instance invalidated by a fatal error, or undefined when the connection answers. */
async function fatalErrorOf(connection: DuckDBConnection): Promise<unknown> {
  try {
    await connection.run("SELECT 1");
    return undefined;
  } catch (error) {
    if (isDuckDBInvalidated(error)) return error;
    connection.closeSync();
    throw error;
  }
}

function reopenFailure(path: string, invalidated: unknown, error: unknown): Error {
  // DuckDB's later refusals name the first fatal error as `Original error: "..."`.
  const first = (e: unknown) => {
    const text = e instanceof Error ? e.message : String(e);
    return /Original error: "?([^"\n]*)/.exec(text)?.[1] ?? text.split("\n")[0];
  };
  return new Error(
    `IO Error: the database ${resolve(path)} was invalidated by a fatal error (${first(invalidated)}) and ` +
      `reopening it failed: ${first(error)}. The next checkout tries again.`,
    { cause: error },
  );
}

/**
 * The production layer (statically imported: a dynamic `import()` under tsx can load a second
 * copy of the module graph, whose error classes then fail `instanceof`).
 */
async function loadBuiltinSemanticLayer(): Promise<SemanticLayer | undefined> {
  return createBuiltinSemanticLayer();
}
