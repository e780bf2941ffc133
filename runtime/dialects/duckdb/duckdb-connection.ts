/**
 * One physical DuckDB connection with autocommit off (README "Engines, pools and the registry"):
 * execute, stream, interrupt, ping and close. The transaction emulation is `duckdb-transaction.ts`
 * (reads outside a transaction run in DuckDB's autocommit, so two such reads in a row may see two
 * different committed states; inside a transaction every read sees one snapshot). Semantic-view
 * statements go through the built-in layer when one is configured (`duckdb-semantic-session.ts`).
 */
import { answersWithin } from "../../driver/deadline.js";
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBValue,
} from "@duckdb/node-api";
import type { DatabaseConnection, StreamOptions } from "../../driver/database-connection.js";
import type { QueryResult, ResultStream } from "../../driver/query-result.js";
import { ProgrammingError } from "../../errors.js";
import { DefinitionCache } from "../../semantic/definition-cache.js";
import type { BoundParameter } from "../../semantic/semantic-layer.js";
import { mapDuckDBError } from "./duckdb-errors.js";
import { EMPTY_RESULT, resultStream, streamOfResult } from "./duckdb-results.js";
import { materializedResult, rawResult, readPrepared, runPrepared } from "./duckdb-materialized.js";
import { computedWhole, materializedStream } from "./duckdb-materialized-stream.js";
import { noteCatalogChange } from "./duckdb-result-plan.js";
import { DuckDBOperations } from "./duckdb-operations.js";
import { DuckDBSemanticSession, type StreamRoute } from "./duckdb-semantic-session.js";
import { mayContainTransactionControl, rememberedPerText } from "./duckdb-statements.js";
import { runAllButLast, runScript } from "./duckdb-script.js";
import { maySessionChange, noteSessionChange, StatementCache } from "./duckdb-statement-cache.js";
import { DuckDBTransaction } from "./duckdb-transaction.js";
import { SharedMemoSeat } from "./duckdb-shared-session.js";
import type { DuckDBConnectionOptions } from "./duckdb-connection-options.js";
import { describeOneStatement, runOneStatement, streamOneStatement } from "./duckdb-one-statement.js";
import { streamPrepared } from "./duckdb-native-stream.js";
import { toDuckDBParameters } from "./duckdb-values.js";

type Values = DuckDBValue[] | undefined;
/** How a cursor's statement runs: exactly one statement; the where_clause values the layer lifted; materialized. */
type OpenAs = { readonly single: boolean; readonly lifted: Lifted; readonly whole: boolean };
/** The where_clause values the layer lifted: bound in the types DuckDB resolved for their parameters. */
type Lifted = readonly BoundParameter[] | undefined;
/** A started result, and the cached prepared statement it came from, if any. */
type Opened = { readonly result: DuckDBResult; readonly prepared?: DuckDBPreparedStatement | undefined };
/** Reads a whole materialized result; `statement`: the cached prepared statement it came from, if any. */
type ReadResult<T> = (result: DuckDBMaterializedResult, statement?: DuckDBPreparedStatement) => T;

const PING_TIMEOUT_MS = 5_000;
const RESET: Promise<void> = Promise.resolve();
const changesSession = rememberedPerText(maySessionChange);

export class DuckDBDatabaseConnection implements DatabaseConnection {
  readonly createdAt = Date.now();
  readonly #connection: DuckDBConnection;
  readonly #onClose: (() => void) | undefined;
  readonly #isStale: (() => boolean) | undefined;
  readonly #transaction: DuckDBTransaction;
  /** Present when semantic statements are answered by the built-in layer. */
  readonly #semantic: DuckDBSemanticSession | undefined;
  #closed = false;
  /** Driver calls (execute, stream setup, chunk reads) in flight, for interrupt(). */
  readonly #operations: DuckDBOperations;
  /** The semantic layer's per-connection memo (see SqlSession.memo). */
  readonly #memo = new Map<string, unknown>();
  /** Prepared statements of the autocommit reads, reused by SQL text. */
  readonly #statements: StatementCache;
  readonly #shared: SharedMemoSeat;
  readonly #onChange: () => void;

  constructor(connection: DuckDBConnection, options: DuckDBConnectionOptions = {}) {
    this.#connection = connection;
    this.#operations = new DuckDBOperations(connection);
    this.#onClose = options.onClose;
    this.#isStale = options.isStale;
    this.#statements = new StatementCache(connection, { maxBytes: options.statementBytes });
    this.#shared = new SharedMemoSeat(options.sharedMemo);
    const onChange = options.onChange;
    this.#onChange = () => {
      noteCatalogChange(); // kept column plans check their columns' aliases again
      onChange?.();
    };
    const definitions = options.definitions ?? new DefinitionCache();
    const transaction = new DuckDBTransaction(connection, this.#memo, definitions, this.#onChange);
    this.#transaction = transaction;
    const layer = options.semanticLayer;
    this.#semantic =
      layer === undefined
        ? undefined
        : new DuckDBSemanticSession(layer, {
            transaction,
            memo: this.#memo,
            sharedMemo: () => this.#shared.memo,
            definitions,
            readAll: (sql, values, autocommitRead) => this.#readAll(sql, values, autocommitRead, rawResult, true),
            executePlain: (sql, parameters) => this.#executePlain(sql, parameters),
            executeRewritten: (sql, parameters, bound) => this.#executeRewritten(sql, parameters, bound),
            parameterTypes: (sql) => this.#statements.parameterTypes(sql),
            describe: (sql) => describeOneStatement(connection, sql),
            assertOpen: () => this.#assertOpen(),
            throwIfInterrupted: () => this.#operations.throwIfInterrupted(),
          });
  }

  /** True when semantic statements go through the built-in layer on this connection. */
  get usesBuiltinSemanticLayer(): boolean {
    return this.#semantic !== undefined;
  }

  /** True while an (implicit or explicit) transaction is open. */
  get inTransaction(): boolean {
    return this.#transaction.open;
  }

  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    // The main path, without an async frame (`conn.all()` of an application's own query runs this
    // per query): an autocommit read whose statement is prepared already (what #executePlain would
    // end in), run as one counted operation.
    let cached: DuckDBPreparedStatement | undefined;
    try {
      this.#assertOpen();
      if (
        this.#semantic?.mayHandle(sql) !== true &&
        !changesSession(sql) &&
        !mayContainTransactionControl(sql) &&
        this.#transaction.readsInAutocommit(sql)
      ) {
        this.#operations.throwIfInterrupted();
        cached = this.#statements.boundIfCached(sql, toDuckDBParameters(parameters));
      }
    } catch (error) {
      return Promise.reject(mapDuckDBError(error));
    }
    if (cached === undefined) return this.#execute(sql, parameters);
    this.#operations.operationStarted();
    return readPrepared(
      cached,
      (result) => {
        this.#operations.operationSettled();
        return materializedResult(result, cached);
      },
      (error: unknown) => {
        this.#operations.operationSettled();
        this.#statements.forget(sql); // prepared afresh next time
        throw mapDuckDBError(error);
      },
    );
  }

  /** `execute()` of everything else: routed by the layer, in a transaction, or prepared now. */
  async #execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    this.#operations.operationStarted();
    try {
      const semantic = this.#semantic;
      if (semantic !== undefined && semantic.mayHandle(sql)) return await semantic.execute(sql, parameters);
      return await this.#executePlain(sql, parameters);
    } catch (error) {
      throw mapDuckDBError(error);
    } finally {
      this.#operations.operationSettled();
    }
  }

  /**
   * Runs one statement for a cursor: streamed, or — when DuckDB computes its whole answer before the
   * first row anyway (`computedWhole`: a semantic query without facts) — materialized, read without
   * a wait per chunk (duckdb-materialized-stream.ts).
   */
  stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
    // The main path, without an async frame: a statement run again (its route known without a wait)
    // that reads in autocommit from a prepared statement this connection keeps.
    let route: StreamRoute | undefined;
    const whole = computedWhole(options);
    try {
      this.#assertOpen();
      route = this.#knownRoute(sql, parameters, options);
      if (route !== undefined && this.#readsPrepared(route)) {
        this.#operations.throwIfInterrupted();
        const { statement, bound } = route;
        const values = bound === undefined ? toDuckDBParameters(parameters) : undefined;
        const cached = this.#statements.boundIfCached(statement, values, bound);
        if (cached !== undefined) return this.#streamCached(statement, cached, route.servedFrom, whole);
      }
    } catch (error) {
      return Promise.reject(mapDuckDBError(error));
    }
    return this.#stream(sql, parameters, options, route, whole);
  }

  /** Where `sql` goes when known without a wait: itself, or the layer's rewrite of a statement run before. */
  #knownRoute(sql: string, parameters: readonly unknown[] | undefined, options: StreamOptions | undefined) {
    const semantic = this.#semantic;
    if (semantic === undefined || !semantic.mayHandle(sql, options)) return { statement: sql, single: false };
    return semantic.knownRoute(sql, parameters, options);
  }

  /** Whether `route` is one autocommit read (no transaction control, no session change): prepared statements serve it. */
  #readsPrepared({ statement, single }: StreamRoute): boolean {
    return (
      (single || !mayContainTransactionControl(statement)) &&
      !changesSession(statement) &&
      this.#transaction.readsInAutocommit(statement)
    );
  }

  /** The stream of a cached statement's execution (`whole`: materialized), counted as an operation until it has started. */
  #streamCached(
    statement: string,
    prepared: DuckDBPreparedStatement,
    servedFrom: StreamRoute["servedFrom"],
    whole: boolean,
  ): Promise<ResultStream> {
    this.#operations.operationStarted();
    const failed = (error: unknown): never => {
      this.#operations.operationSettled();
      this.#statements.forget(statement); // prepared afresh next time
      throw mapDuckDBError(error);
    };
    if (whole) {
      const read = (result: DuckDBMaterializedResult): ResultStream => {
        this.#operations.operationSettled();
        return materializedStream(result, servedFrom, prepared);
      };
      return readPrepared(prepared, read, failed);
    }
    return streamPrepared(prepared).then((result) => {
      this.#operations.operationSettled();
      return streamOfResult(result, this.#operations, servedFrom, prepared);
    }, failed);
  }

  /** `stream()` of everything else: routed by the layer, in a transaction, or prepared now. */
  async #stream(
    sql: string,
    parameters: readonly unknown[] | undefined,
    options: StreamOptions | undefined,
    known: StreamRoute | undefined,
    whole: boolean,
  ): Promise<ResultStream> {
    this.#assertOpen();
    this.#operations.operationStarted();
    try {
      let route = known;
      if (route === undefined) {
        const routed = await this.#semantic!.forStream(sql, parameters, options);
        if ("result" in routed) return resultStream(routed.result);
        route = routed;
      }
      const { single, bound, servedFrom } = route;
      let statement = route.statement;
      if (!single && mayContainTransactionControl(statement)) {
        const script = statement;
        const last = await this.#changingSession(script, () =>
          runAllButLast(script, toDuckDBParameters(parameters), this.#transaction, this.#runStatement),
        );
        if (last === undefined) return resultStream(EMPTY_RESULT);
        statement = last;
      }
      const values = bound === undefined ? toDuckDBParameters(parameters) : undefined;
      const how: OpenAs = { single, lifted: bound, whole };
      let opened: Opened;
      this.#shared.beforeRunning(statement);
      if (changesSession(statement)) {
        opened = await this.#changingSession(statement, () => this.#beginAndOpen(statement, values, how));
      } else if (this.#transaction.readsInAutocommit(statement)) {
        this.#operations.throwIfInterrupted();
        opened = await this.#openResult(statement, values, true, how);
      } else opened = await this.#beginAndOpen(statement, values, how);
      // A statement prepared just now (a new connection's first query): its results share a plan too.
      const { result, prepared } = opened;
      return whole
        ? materializedStream(result as DuckDBMaterializedResult, servedFrom, prepared)
        : streamOfResult(result, this.#operations, servedFrom, prepared);
    } catch (error) {
      throw mapDuckDBError(error);
    } finally {
      this.#operations.operationSettled();
    }
  }

  /** Cancels the running operation (see duckdb-operations.ts). */
  interrupt(): void {
    this.#operations.interrupt();
  }

  async ping(): Promise<boolean> {
    if (this.#closed) return false;
    return answersWithin(() => this.#connection.run("SELECT 1"), PING_TIMEOUT_MS);
  }

  isStale(): boolean {
    return this.#isStale?.() ?? false;
  }

  async commit(): Promise<void> {
    this.#assertOpen();
    try {
      await this.#transaction.end("COMMIT");
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  async rollback(): Promise<void> {
    this.#assertOpen();
    try {
      await this.#transaction.end("ROLLBACK");
    } catch (error) {
      throw mapDuckDBError(error);
    }
  }

  reset(): Promise<void> {
    // Nothing to roll back (an autocommit read, the main path): no async frame per release.
    if (!this.#closed && !this.#transaction.open) return RESET;
    return this.rollback();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#operations.close();
    this.#semantic?.release();
    this.#memo.clear();
    this.#statements.clear();
    try {
      this.#connection.closeSync();
    } finally {
      this.#onClose?.();
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw mapDuckDBError(new Error("Connection Error: connection is closed"));
  }

  /**
   * Runs SQL materialized and reads its whole result with `read` (duckdb-materialized.ts). An
   * autocommit read reuses its cached prepared statement. A script without parameters runs as
   * written (one native call); one statement with parameters, and every `single` one
   * (user-influenced text: duckdb-one-statement.ts), is prepared directly.
   */
  async #readAll<T>(
    sql: string,
    values: Values,
    autocommitRead: boolean,
    read: ReadResult<T>,
    single = false,
    lifted?: Lifted,
  ): Promise<T> {
    const cached = autocommitRead ? await this.#statements.bound(sql, values, lifted) : undefined;
    if (cached !== undefined) return read(await this.#runCached(sql, runPrepared(cached)), cached);
    if (autocommitRead) this.#operations.throwIfInterrupted(); // cancelled while preparing
    if (!single && (values === undefined || sql.includes(";"))) return read(await this.#connection.run(sql, values));
    return read(await runOneStatement(this.#connection, sql, values, lifted));
  }

  /** Begins the transaction `statement` needs (none for an autocommit read), then starts its result. */
  async #beginAndOpen(statement: string, values: Values, how: OpenAs): Promise<Opened> {
    const autocommitRead = await this.#transaction.beginUnlessReadOnly(statement);
    this.#operations.throwIfInterrupted();
    return this.#openResult(statement, values, autocommitRead, how);
  }

  /**
   * Starts a cursor's result: streamed, or materialized when `how.whole` (then a
   * `DuckDBMaterializedResult`); one statement is prepared directly or reused (see #readAll).
   */
  async #openResult(sql: string, values: Values, autocommitRead: boolean, how: OpenAs): Promise<Opened> {
    const { single, lifted, whole } = how;
    const cached = autocommitRead ? await this.#statements.bound(sql, values, lifted) : undefined;
    if (cached !== undefined) {
      return {
        result: await this.#runCached(sql, whole ? runPrepared(cached) : streamPrepared(cached)),
        prepared: cached,
      };
    }
    if (autocommitRead) this.#operations.throwIfInterrupted(); // cancelled while preparing
    if (!single && sql.includes(";"))
      return { result: await (whole ? this.#connection.run(sql, values) : this.#connection.stream(sql, values)) };
    return { result: await (whole ? runOneStatement : streamOneStatement)(this.#connection, sql, values, lifted) };
  }

  /** A cached statement's execution; one that failed is prepared afresh next time. */
  async #runCached<T>(sql: string, execution: Promise<T>): Promise<T> {
    try {
      return await execution;
    } catch (error) {
      this.#statements.forget(sql);
      throw error;
    }
  }

  /**
   * Runs SQL that may change settings, the search path or the attached databases with every fact
   * memoized about them forgotten, before (nothing is cached while it runs) and after.
   */
  async #changingSession<T>(sql: string, run: () => Promise<T>): Promise<T> {
    this.#shared.beforeRunning(sql);
    if (!changesSession(sql)) return run();
    this.#memo.clear();
    noteSessionChange();
    this.#onChange();
    try {
      return await run();
    } finally {
      noteSessionChange();
      this.#onChange();
    }
  }

  /** Runs plain DuckDB SQL (one or more statements), keeping the transaction bookkeeping right. */
  #executePlain(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    return this.#changingSession(sql, () => this.#executeStatements(sql, parameters));
  }

  /**
   * Runs a rewritten semantic statement: exactly one statement, never split or run as a script; with
   * the where_clause values the layer lifted (`bound`, bound with their parameters' types) if any.
   */
  #executeRewritten(
    sql: string,
    parameters: readonly unknown[] | undefined,
    bound: readonly BoundParameter[] | undefined,
  ): Promise<QueryResult> {
    return this.#changingSession(sql, async () => {
      const autocommitRead = await this.#transaction.beginUnlessReadOnly(sql);
      this.#operations.throwIfInterrupted();
      const values = bound === undefined ? toDuckDBParameters(parameters) : undefined;
      return this.#readAll(sql, values, autocommitRead, materializedResult, true, bound);
    });
  }

  async #executeStatements(sql: string, parameters: readonly unknown[] | undefined): Promise<QueryResult> {
    const values = toDuckDBParameters(parameters);
    if (!mayContainTransactionControl(sql)) return this.#runStatement(sql, values);
    return runScript(sql, values, this.#transaction, this.#runStatement);
  }

  /** One statement that is not transaction control: runs inside the transaction, or as an autocommit read. */
  readonly #runStatement = async (statement: string, values: DuckDBValue[] | undefined): Promise<QueryResult> => {
    const autocommitRead = await this.#transaction.beginUnlessReadOnly(statement);
    this.#operations.throwIfInterrupted();
    return this.#readAll(statement, values, autocommitRead, materializedResult);
  };
}
