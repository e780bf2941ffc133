/**
 * A loopback stand-in for Snowflake's REST protocol (the part snowflake-sdk 3.x uses: login,
 * telemetry, query-request with JSON rowsets, heartbeat, abort, token renewal, session delete),
 * backed by an in-memory DuckDB so real SQL runs. It understands backend A's SEMANTIC_VIEW query
 * shape over registered views (see semantic-view-sql.ts). Listens on 127.0.0.1 only.
 *
 * Tests inspect what arrived (`logins`, `queries`, `aborts`, `heartbeats`) and inject failures:
 * `holdQueries` (a matching statement waits until it is aborted), `stallQueries` (a matching
 * statement is never answered, not even after an abort, while heartbeats are), `malformAnswers`
 * (rewrites result data, a warehouse answering nonsense), `dropSessions()` (the open
 * sessions are gone: heartbeats and queries answer 390111), `expireSessionTokens()` (390112, which
 * the sdk answers with a token renewal), `chunkRows` (large results as chunks on separate storage,
 * chunk-storage.ts), `inProgress` (statements answered "in progress" until polled enough times) and
 * `close()` (stops listening and drops every socket, i.e. a dead server).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gunzipSync } from "node:zlib";
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api";
import {
  StandInSqlError,
  translateSnowflakeSql,
  type SnowflakeBehaviour,
  type StandInSemanticView,
} from "./semantic-view-sql.js";
import { encodeRow, wireColumn } from "./wire-values.js";
import { answerMetadataStatement } from "./semantic-view-metadata.js";
import { INPUT_FORMATS, runWithBindings } from "./bind-values.js";
import { ChunkStorage } from "./chunk-storage.js";
import { duckdbToSnowflake, inProgressReply, sqlError, statusResult, type Reply, type WireResult } from "./replies.js";
import { useStandInNamespace, withInformationSchema } from "./snowflake-namespace.js";
import {
  answerModelViewStatement,
  extractModelViewCalls,
  loadModelViews,
  type LoadedModelView,
  type SnowflakeModelView,
} from "./snowflake-model-views.js";
import { StandInSemanticEngine } from "../semantic-engine.js";
import {
  alterSessionAssignments,
  applySessionParameters,
  foldQuotedIdentifiers,
  type SessionSettings,
} from "./session-parameters.js";
import { numberPlaceholders } from "./semantic-view-variables.js";

export interface SnowflakeStandInOptions {
  /** Accepted user → password pairs for basic authentication. Default `{ tester: "s3cret" }`. */
  readonly users?: Readonly<Record<string, string>>;
  /** Accepted bearer tokens (OAUTH, PROGRAMMATIC_ACCESS_TOKEN). */
  readonly tokens?: readonly string[];
  /** SQL run once on the DuckDB database before the first request. */
  readonly seedSql?: readonly string[];
  readonly semanticViews?: readonly StandInSemanticView[];
  /** Multi-table semantic views answered by the built-in semantic engine (snowflake-model-views.ts). */
  readonly modelViews?: readonly SnowflakeModelView[];
  /**
   * Rows sent inline and per chunk: larger results are split into result chunks the sdk downloads
   * from separate storage (gzip, SSE-C headers from `qrmk`), as Snowflake does. Default: all inline.
   */
  readonly chunkRows?: number;
  /** Listen on this port (e.g. a restarted warehouse on its old address); default: a free one. */
  readonly port?: number;
  /**
   * Statements matching `match` are long-running: the query-request and the first `polls - 1` GETs
   * of its result URL answer 333333 (query in progress), as Snowflake does for a query still
   * running; `Infinity` keeps it running until an abort-request arrives.
   */
  readonly inProgress?: { readonly match: RegExp; readonly polls: number };
  /**
   * The account's default TIMEZONE (default `UTC`); `ALTER SESSION SET TIMEZONE` changes a session's.
   * Comparisons between TIMESTAMP_NTZ (DuckDB TIMESTAMP) and TIMESTAMP_LTZ (DuckDB TIMESTAMPTZ) convert
   * in it, as Snowflake's do.
   */
  readonly timeZone?: string;
  /**
   * The account's QUOTED_IDENTIFIERS_IGNORE_CASE (default FALSE); a login's session parameters and
   * `ALTER SESSION SET` override it per session (session-parameters.ts).
   */
  readonly quotedIdentifiersIgnoreCase?: boolean;
  /** Milliseconds every statement takes before it answers (the benchmarks' remote warehouse); default 0. */
  readonly statementLatencyMs?: number;
  /** How FACTS with DIMENSIONS is answered (semantic-view-sql.ts); default: refused, as with the 2026_07 bundle. */
  readonly factsWithDimensions?: SnowflakeBehaviour["factsWithDimensions"];
}

export interface LoginRecord {
  readonly query: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface QueryRecord {
  readonly sqlText: string;
  readonly bindings: Readonly<Record<string, { type: string; value: unknown }>> | undefined;
  readonly parameters: Readonly<Record<string, unknown>> | undefined;
  readonly requestId: string | undefined;
  readonly sessionId: number | undefined;
  readonly queryId: string;
  /** The statement's QUERY_TAG: its own `parameters.QUERY_TAG`, else the session's. */
  readonly queryTag: string | undefined;
}

interface Session {
  readonly id: number;
  readonly token: string;
  readonly masterToken: string;
  readonly connection: LazyConnection;
  readonly login: LoginRecord;
  /** The session's parameters, echoed in every response as Snowflake does. */
  readonly parameters: readonly { name: string; value: unknown }[];
  /** What ALTER SESSION and the login changed (session-parameters.ts). */
  readonly settings: SessionSettings;
}

const SESSION_PARAMETERS = [
  { name: "TIMEZONE", value: "UTC" },
  { name: "TIMESTAMP_OUTPUT_FORMAT", value: "YYYY-MM-DD HH24:MI:SS.FF3 TZHTZM" },
  { name: "TIMESTAMP_NTZ_OUTPUT_FORMAT", value: "YYYY-MM-DD HH24:MI:SS.FF3" },
  { name: "TIMESTAMP_LTZ_OUTPUT_FORMAT", value: "" },
  { name: "TIMESTAMP_TZ_OUTPUT_FORMAT", value: "" },
  { name: "DATE_OUTPUT_FORMAT", value: "YYYY-MM-DD" },
  { name: "TIME_OUTPUT_FORMAT", value: "HH24:MI:SS" },
  { name: "CLIENT_RESULT_CHUNK_SIZE", value: 160 },
  ...INPUT_FORMATS,
];

/** The defaults, plus what the login asked for (`JS_TREAT_INTEGER_AS_BIGINT`, ...): the sdk reads them back from responses. */
function sessionParameters(requested: unknown): { name: string; value: unknown }[] {
  const asked = typeof requested === "object" && requested !== null ? Object.entries(requested) : [];
  const names = new Set(asked.map(([name]) => name));
  return [...SESSION_PARAMETERS.filter((p) => !names.has(p.name)), ...asked.map(([name, value]) => ({ name, value }))];
}

export class SnowflakeStandIn {
  readonly logins: LoginRecord[] = [];
  readonly queries: QueryRecord[] = [];
  readonly aborts: string[] = [];
  /** Bodies of `/telemetry/send` requests (e.g. the sdk's `selecting_with_precision_loss` events). */
  readonly telemetry: string[] = [];
  heartbeats = 0;
  /** GETs of a result URL while a statement was in progress. */
  resultPolls = 0;
  sessionDeletes = 0;
  /** Statements whose text matches wait until an abort-request arrives for them. */
  holdQueries: RegExp | undefined;
  /** Statements whose text matches are never answered (until close), aborted or not. */
  stallQueries: RegExp | undefined;
  /** Rewrites the data of successful answers to matching statements (a warehouse sending a malformed result). */
  malformAnswers:
    | { readonly match: RegExp; readonly rewrite: (data: Record<string, unknown>) => Record<string, unknown> }
    | undefined;

  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #instance: DuckDBInstance;
  readonly #options: SnowflakeStandInOptions;
  readonly #views = new Map<string, StandInSemanticView>();
  #models: ReadonlyMap<string, LoadedModelView> = new Map();
  readonly #sessions = new Map<string, Session>();
  readonly #held = new Map<string, () => void>();
  readonly #stalled = new Set<() => void>();
  readonly #dropped = new Set<string>();
  #storage: ChunkStorage | undefined;
  /** Started on the first chunked result (one server even when two results need it at once). */
  #storageStarting: Promise<ChunkStorage> | undefined;
  /** In-progress statements by query id: polls left, the final reply, and whether an abort arrived. */
  readonly #inProgress = new Map<
    string,
    { polls: number; reply: Reply; requestId: string | undefined; aborted: boolean }
  >();
  readonly #expired = new Set<string>();
  renewals = 0;
  #nextSession = 1000;
  #port = 0;
  #closed = false;

  private constructor(instance: DuckDBInstance, options: SnowflakeStandInOptions) {
    this.#instance = instance;
    this.#options = options;
    for (const view of options.semanticViews ?? []) this.#views.set(view.name, view);
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  static async start(options: SnowflakeStandInOptions = {}): Promise<SnowflakeStandIn> {
    const instance = await DuckDBInstance.create(":memory:");
    const standIn = new SnowflakeStandIn(instance, options);
    const seed = await instance.connect();
    try {
      await useStandInNamespace(seed);
      for (const sql of options.seedSql ?? []) await seed.run(sql);
      standIn.#models = await loadModelViews(new StandInSemanticEngine(seed), options.modelViews ?? []);
    } finally {
      seed.closeSync();
    }
    await new Promise<void>((resolve, reject) => {
      standIn.#server.once("error", reject);
      standIn.#server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    standIn.#port = (standIn.#server.address() as AddressInfo).port;
    return standIn;
  }

  get port(): number {
    return this.#port;
  }

  /** Result chunks downloaded from the storage stand-in. */
  get chunkDownloads(): number {
    return this.#storage?.downloads ?? 0;
  }

  /** Storage requests refused (missing SSE-C headers, or the session token sent to storage). */
  get refusedChunkRequests(): readonly string[] {
    return this.#storage?.refused ?? [];
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Open sessions (logged in, not yet deleted). */
  get openSessions(): number {
    return this.#sessions.size;
  }

  /** Expires the open sessions' tokens: their next request gets 390112, and the sdk renews them. */
  expireSessionTokens(): void {
    for (const token of this.#sessions.keys()) this.#expired.add(token);
  }

  /** Forgets every open session, as a warehouse does when sessions expire; new logins work. */
  dropSessions(): void {
    for (const token of this.#sessions.keys()) this.#dropped.add(token);
  }

  registerSemanticView(view: StandInSemanticView): void {
    this.#views.set(view.name, view);
  }

  get semanticViews(): readonly StandInSemanticView[] {
    return [...this.#views.values()];
  }

  /** Stops listening and drops every open socket; held statements are released. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const release of [...this.#held.values(), ...this.#stalled]) release();
    this.#held.clear();
    this.#stalled.clear();
    this.#inProgress.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
    await (await this.#storageStarting?.catch(() => undefined))?.close();
    for (const session of this.#sessions.values()) session.connection.closeSync();
    this.#sessions.clear();
    this.#instance.closeSync();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = await readJson(req);
      const reply = await this.#route(url, req, body);
      if (this.#closed) {
        res.destroy();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(reply));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          success: false,
          code: "000603",
          message: `stand-in failure: ${(error as Error).message}`,
          data: null,
        }),
      );
    }
  }

  async #route(url: URL, req: IncomingMessage, body: Record<string, unknown>): Promise<Reply> {
    const path = url.pathname;
    if (path === "/session/v1/login-request") return this.#login(url, body);
    if (path === "/telemetry/send") {
      this.telemetry.push(JSON.stringify(body));
      return { success: true };
    }
    const session = this.#sessionOf(req);
    if (path === "/session" && url.searchParams.get("delete") === "true") {
      if (session) {
        this.sessionDeletes++;
        this.#sessions.delete(session.token);
        session.connection.closeSync();
      }
      return { success: true, code: null, message: null, data: null };
    }
    if (path === "/session/token-request") return this.#renew(body);
    if (session !== undefined && this.#dropped.has(session.token)) {
      if (path === "/session/heartbeat") this.heartbeats++;
      return {
        success: false,
        code: "390111",
        message: "Session no longer exists.  New login required to access the service.",
        data: null,
      };
    }
    if (session !== undefined && this.#expired.has(session.token)) {
      return { success: false, code: "390112", message: "Your session has expired. Please login again.", data: null };
    }
    if (session === undefined) {
      return { success: false, code: "390104", message: "User must login again to access the service.", data: null };
    }
    if (path === "/session/heartbeat") {
      this.heartbeats++;
      return { success: true, code: null, message: null, data: null };
    }
    if (path === "/queries/v1/query-request") return this.#query(url, body, session);
    const poll = /^\/queries\/([^/]+)\/result$/.exec(path);
    if (poll && req.method === "GET") return this.#poll(poll[1]!);
    const abort = /^\/queries\/(?:v1|([^/]+))\/abort-request$/.exec(path);
    if (abort) {
      const requestId = String(abort[1] ?? body.requestId ?? "");
      this.aborts.push(requestId);
      this.#held.get(requestId)?.();
      for (const [queryId, running] of this.#inProgress)
        if (running.requestId === requestId || queryId === requestId) running.aborted = true;
      return { success: true, code: null, message: null, data: null };
    }
    return { success: false, code: "000404", message: `stand-in: no endpoint ${req.method} ${path}`, data: null };
  }

  #login(url: URL, body: Record<string, unknown>): Reply {
    const data = (body.data ?? {}) as Record<string, unknown>;
    const record: LoginRecord = { query: Object.fromEntries(url.searchParams), data };
    this.logins.push(record);
    const authenticator = String(data.AUTHENTICATOR ?? "SNOWFLAKE").toUpperCase();
    const users = this.#options.users ?? { tester: "s3cret" };
    let ok: boolean;
    if (authenticator === "SNOWFLAKE" || authenticator === "USERNAME_PASSWORD_MFA") {
      const user = String(data.LOGIN_NAME ?? "");
      ok = Object.hasOwn(users, user) && users[user] === data.PASSWORD;
    } else if (authenticator === "SNOWFLAKE_JWT") {
      ok = typeof data.TOKEN === "string" && data.TOKEN.split(".").length === 3;
    } else {
      ok = typeof data.TOKEN === "string" && (this.#options.tokens ?? []).includes(data.TOKEN);
    }
    if (!ok) {
      return {
        success: false,
        code: "390100",
        message: "Incorrect username or password was specified.",
        data: { nextAction: "RETRY_LOGIN", authnMethod: authenticator },
      };
    }
    const token = `session-${randomUUID()}`;
    const id = this.#nextSession++;
    const connection = new LazyConnection(this.#instance, this.#options.timeZone ?? "UTC");
    const parameters = sessionParameters(data.SESSION_PARAMETERS);
    const settings: SessionSettings = {
      quotedIdentifiersIgnoreCase: this.#options.quotedIdentifiersIgnoreCase ?? false,
      queryTag: undefined,
      timeZone: connection.timeZone,
    };
    applySessionParameters(
      settings,
      parameters.map((p) => [p.name, p.value]),
    );
    this.#sessions.set(token, {
      id,
      token,
      masterToken: `master-${randomUUID()}`,
      connection,
      login: record,
      parameters,
      settings,
    });
    const session = this.#sessions.get(token)!;
    return {
      success: true,
      code: null,
      message: null,
      data: {
        token,
        masterToken: session.masterToken,
        validityInSeconds: 3600,
        masterValidityInSeconds: 14400,
        sessionId: id,
        parameters,
        sessionInfo: {
          databaseName: url.searchParams.get("databaseName"),
          schemaName: url.searchParams.get("schemaName"),
          warehouseName: url.searchParams.get("warehouse"),
          roleName: url.searchParams.get("roleName"),
        },
      },
    };
  }

  #renew(body: Record<string, unknown>): Reply {
    const old = String(body.oldSessionToken ?? "");
    const session = this.#sessions.get(old);
    if (session === undefined)
      return { success: false, code: "390114", message: "Authentication token has expired.", data: null };
    const token = `session-${randomUUID()}`;
    this.renewals++;
    this.#sessions.delete(old);
    this.#expired.delete(old);
    this.#sessions.set(token, { ...session, token });
    return {
      success: true,
      data: {
        sessionToken: token,
        validityInSecondsST: 3600,
        masterToken: session.masterToken,
        validityInSecondsMT: 14400,
      },
    };
  }

  #sessionOf(req: IncomingMessage): Session | undefined {
    const match = /Snowflake Token="([^"]*)"/.exec(req.headers.authorization ?? "");
    return match ? this.#sessions.get(match[1]!) : undefined;
  }

  async #query(url: URL, body: Record<string, unknown>, session: Session): Promise<Reply> {
    const sqlText = String(body.sqlText ?? "");
    const requestId = url.searchParams.get("requestId") ?? undefined;
    const bindings = body.bindings as QueryRecord["bindings"];
    const queryId = randomUUID();
    const parameters = body.parameters as QueryRecord["parameters"];
    const statementTag = parameters?.["QUERY_TAG"];
    this.queries.push({
      sqlText,
      bindings,
      parameters,
      requestId,
      sessionId: session.id,
      queryId,
      queryTag: typeof statementTag === "string" ? statementTag : session.settings.queryTag,
    });
    if (this.stallQueries?.test(sqlText)) {
      await new Promise<void>((resolve) => this.#stalled.add(resolve));
      return sqlError(queryId, new StandInSqlError("stand-in closed", "000604", "57014"));
    }
    const latency = this.#options.statementLatencyMs ?? 0;
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    if (this.holdQueries?.test(sqlText) && requestId !== undefined) {
      await new Promise<void>((resolve) => this.#held.set(requestId, resolve));
      this.#held.delete(requestId);
      return sqlError(queryId, new StandInSqlError("SQL execution canceled", "000604", "57014"));
    }
    const inProgress = this.#options.inProgress;
    if (inProgress?.match.test(sqlText)) {
      const reply = await this.#answer(sqlText, bindings, session, queryId);
      this.#inProgress.set(queryId, { polls: inProgress.polls, reply, requestId, aborted: false });
      return inProgressReply(queryId);
    }
    return this.#answer(sqlText, bindings, session, queryId);
  }

  /** A GET of an in-progress statement's result URL (held briefly, as Snowflake long-polls). */
  async #poll(queryId: string): Promise<Reply> {
    const running = this.#inProgress.get(queryId);
    if (running === undefined)
      return sqlError(
        queryId,
        new StandInSqlError("Identified SQL statement is not currently executing.", "000605", "01000"),
      );
    this.resultPolls++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (running.aborted) {
      this.#inProgress.delete(queryId);
      return sqlError(queryId, new StandInSqlError("SQL execution canceled", "000604", "57014"));
    }
    if (--running.polls > 0) return inProgressReply(queryId);
    this.#inProgress.delete(queryId);
    return running.reply;
  }

  async #answer(sqlText: string, bindings: QueryRecord["bindings"], session: Session, queryId: string): Promise<Reply> {
    try {
      // QUOTED_IDENTIFIERS_IGNORE_CASE: quoted identifiers resolve (and aliases name columns) in upper case.
      const text = session.settings.quotedIdentifiersIgnoreCase ? foldQuotedIdentifiers(sqlText) : sqlText;
      const result =
        answerModelViewStatement(text, this.#views, this.#models) ??
        answerMetadataStatement(text, this.#views) ??
        (await runOnDuckDB(session, text, bindings, this.#views, this.#models, this.#options));
      const chunkRows = this.#options.chunkRows;
      const inline = chunkRows === undefined ? result.rowset : result.rowset.slice(0, chunkRows);
      const chunks: { url: string; rowCount: number; uncompressedSize: number; compressedSize: number }[] = [];
      if (chunkRows !== undefined && result.rowset.length > chunkRows) {
        this.#storageStarting ??= ChunkStorage.start();
        this.#storage = await this.#storageStarting;
        for (let start = chunkRows; start < result.rowset.length; start += chunkRows) {
          const rows = result.rowset.slice(start, start + chunkRows);
          chunks.push({ ...this.#storage.put(rows), rowCount: rows.length });
        }
      }
      const data: Record<string, unknown> = {
        parameters: session.parameters,
        rowtype: result.rowtype,
        rowset: inline,
        ...(chunks.length > 0 ? { chunks, qrmk: this.#storage!.qrmk } : {}),
        total: result.rowset.length,
        returned: result.rowset.length,
        queryId,
        databaseProvider: null,
        finalDatabaseName: session.login.query.databaseName ?? null,
        finalSchemaName: session.login.query.schemaName ?? null,
        finalWarehouseName: session.login.query.warehouse ?? null,
        finalRoleName: session.login.query.roleName ?? null,
        numberOfBinds: bindings ? Object.keys(bindings).length : 0,
        arrayBindSupported: false,
        statementTypeId: 4096,
        version: 1,
        sendResultTime: Date.now(),
        queryResultFormat: "json",
      };
      const malform = this.malformAnswers;
      const sent = malform?.match.test(sqlText) === true ? malform.rewrite(data) : data;
      return { success: true, code: null, message: null, data: sent };
    } catch (error) {
      return sqlError(queryId, error instanceof StandInSqlError ? error : duckdbToSnowflake(error));
    }
  }
}

/** A session's DuckDB connection, opened on first use (login must answer synchronously). */
class LazyConnection {
  #connection: Promise<DuckDBConnection> | undefined;
  constructor(
    readonly instance: DuckDBInstance,
    public timeZone: string,
  ) {}
  get(): Promise<DuckDBConnection> {
    this.#connection ??= this.instance.connect().then(async (c) => {
      await useStandInNamespace(c);
      await c.run(`SET TimeZone = '${this.timeZone.replaceAll("'", "''")}'`);
      return c;
    });
    return this.#connection;
  }
  /** `ALTER SESSION SET TIMEZONE`: later statements of the session convert in `zone`. */
  async setTimeZone(zone: string): Promise<void> {
    this.timeZone = zone;
    await (await this.get()).run(`SET TimeZone = '${zone.replaceAll("'", "''")}'`);
  }
  closeSync(): void {
    void this.#connection?.then(
      (c) => c.closeSync(),
      () => undefined,
    );
  }
}

const STATUS_ONLY = /^\s*(COMMIT|ROLLBACK|BEGIN|START\s+TRANSACTION|ALTER\s+SESSION|USE\s)/i;

async function runOnDuckDB(
  session: Session,
  sqlText: string,
  bindings: QueryRecord["bindings"],
  views: ReadonlyMap<string, StandInSemanticView>,
  models: ReadonlyMap<string, LoadedModelView>,
  behaviour: SnowflakeBehaviour,
): Promise<WireResult> {
  const lazy = session.connection;
  const assignments = alterSessionAssignments(sqlText);
  if (assignments !== undefined) {
    applySessionParameters(session.settings, assignments);
    if (session.settings.timeZone !== lazy.timeZone) await lazy.setTimeZone(session.settings.timeZone);
  }
  if (STATUS_ONLY.test(sqlText)) return statusResult("Statement executed successfully.");
  const connection = await lazy.get();
  // Binds as $1, $2, ...: a variable's value may be substituted into several member expressions.
  const numbered = numberPlaceholders(sqlText);
  const withModels = extractModelViewCalls(await withInformationSchema(numbered, connection), models);
  const translated = translateSnowflakeSql(withModels.sql, views, behaviour);
  const restored = withModels.restore(translated);
  // A model view's semantic_view() call is expanded by the built-in engine over this session's tables.
  const sql = restored === translated ? translated : await new StandInSemanticEngine(connection).rewrite(restored);
  const reader = await runWithBindings(connection, sql, bindings);
  const rows = reader.getRows() as DuckDBValue[][];
  const columns = reader.columnNames().map((name, i) =>
    wireColumn(
      name,
      reader.columnTypes()[i]!,
      rows.map((row) => row[i]!),
    ),
  );
  return { rowtype: columns.map((c) => c.rowType), rowset: rows.map((row) => encodeRow(columns, row)) };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let raw = Buffer.concat(chunks);
  if (raw.length === 0) return {};
  if (req.headers["content-encoding"] === "gzip" || (raw[0] === 0x1f && raw[1] === 0x8b)) raw = gunzipSync(raw);
  return JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
}
