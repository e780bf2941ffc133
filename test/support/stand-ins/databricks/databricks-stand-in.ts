/**
 * A loopback stand-in for a Databricks SQL warehouse, spoken to by the real `@databricks/sql`
 * driver: Thrift TCLIService (TBinaryProtocol over buffered HTTP POST) on HTTPS 127.0.0.1,
 * backed by an in-memory DuckDB. Metric-view SQL (`MEASURE(...)`, backticks) is translated to
 * DuckDB; results go back as the request allows (result-delivery.ts): direct results, Arrow batches
 * with native types (LZ4-framed when asked), CloudFetch links to a separate storage server, or
 * Thrift columns; SQL errors come back with a Databricks error class and SQLSTATE. Parameters are
 * read as the warehouse reads them (parameter-values.ts), in the session's time zone. It records every statement and its bound parameters, and
 * can reject auth, hold statements until cancelled, forget its sessions, or stop.
 *
 * Uses the Thrift classes the driver package ships (`require("@databricks/sql").thrift`) and the
 * `thrift` runtime it depends on.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { createRequire } from "node:module";
import { DuckDBInstance } from "@duckdb/node-api";
import type { DuckDBConnection } from "@duckdb/node-api";
import { columnFor, type StandInColumn } from "./arrow-result.js";
import { CloudStorage } from "./cloud-storage.js";
import { fetchResponse, metadataResponse, type Delivery } from "./result-delivery.js";
import { toDuckDBValue } from "./parameter-values.js";
import { toDatabricksError } from "./warehouse-errors.js";
import {
  StandInSqlError,
  describeJson,
  describeTarget,
  expandWildcard,
  isMetricViewListing,
  translateMetricViewSql,
  type MetricViewDefinition,
} from "./metric-view-sql.js";
import { createStandInCertificate, type StandInCertificate } from "./tls-cert.js";
import { withInformationSchema } from "./databricks-catalogs.js";
import {
  loadDatabricksModels,
  translateModelViewSql,
  type DatabricksModelView,
  type LoadedDatabricksModel,
} from "./databricks-model-views.js";
import { StandInSemanticEngine } from "../semantic-engine.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- the Thrift runtime is untyped JS */
const require = createRequire(import.meta.url);
const dbsql = require("@databricks/sql") as { thrift: { TCLIService: any; TCLIService_types: any } };
const thrift = require(require.resolve("thrift", { paths: [require.resolve("@databricks/sql")] })) as any;
const { TCLIService, TCLIService_types: T } = dbsql.thrift;

export const STAND_IN_HTTP_PATH = "/sql/1.0/warehouses/fake";

export interface StandInOptions {
  /** The bearer token the stand-in accepts (default `dapi-test`). */
  readonly token?: string;
  /** SQL run once on the DuckDB database at start (tables and rows). */
  readonly setupSql?: readonly string[];
  readonly metricViews?: readonly MetricViewDefinition[];
  /** Multi-table metric views answered by the built-in semantic engine (databricks-model-views.ts). */
  readonly modelViews?: readonly DatabricksModelView[];
  /** Serve with this certificate (e.g. another stand-in's, already trusted) instead of a new one; not disposed here. */
  readonly certificate?: StandInCertificate;
  /** Listen on this port (e.g. a restarted warehouse on its old address); default: a free one. */
  readonly port?: number;
  /** `columns`: answer with Thrift columns (COLUMN_BASED_SET) instead of Arrow, as a warehouse without Arrow does. */
  readonly resultFormat?: "arrow" | "columns";
  /**
   * The warehouse's default session time zone (default `UTC`); a session's `TIMEZONE` configuration
   * overrides it. TIMESTAMP text without an offset and comparisons between TIMESTAMP_NTZ (DuckDB
   * TIMESTAMP) and TIMESTAMP (DuckDB TIMESTAMPTZ) are read in it, as Databricks does.
   */
  readonly sessionTimeZone?: string;
  /** Answer with `directResults` when the client asks (default true, as warehouses do). */
  readonly directResults?: boolean;
  /** Results with more rows than this go as CloudFetch links when the client allows it (default: never). */
  readonly cloudFetchAboveRows?: number;
  /** Rows per CloudFetch file (default 1000). */
  readonly cloudFetchFileRows?: number;
  /** LZ4-frame CloudFetch files even though the request did not ask (the driver decodes by the metadata's flag). */
  readonly compressCloudFetch?: boolean;
}

/** A statement as the stand-in received it. */
export interface ReceivedStatement {
  readonly sql: string;
  readonly parameters: readonly { readonly ordinal?: number; readonly type?: string; readonly value?: string }[];
  readonly catalog: string | undefined;
  readonly schema: string | undefined;
  /** The session's time zone when the statement ran. */
  readonly timeZone: string;
  /** What the client allowed: CloudFetch links, LZ4-framed Arrow, and the direct-results row cap. */
  readonly canDownloadResult: boolean;
  readonly canDecompressLZ4Result: boolean;
  readonly directRows: number | undefined;
}

interface Session {
  readonly catalog: string | undefined;
  readonly schema: string | undefined;
  readonly timeZone: string;
}

interface Operation {
  state: number;
  columns: StandInColumn[];
  rows: unknown[][];
  offset: number;
  /** How the result goes out, from the request's flags and the result's size. */
  delivery: Delivery;
  error?: StandInSqlError;
  release?: () => void;
}

export class DatabricksStandIn {
  readonly statements: ReceivedStatement[] = [];
  /** Authorization headers that were refused. */
  readonly rejectedAuth: string[] = [];
  openedSessions = 0;
  /** The id (a UUID, as the driver reports it) of every statement that got an operation handle, in order. */
  readonly operationIds: string[] = [];
  /** The `configuration` of every OpenSession request, in order. */
  readonly sessionConfigurations: Readonly<Record<string, string>>[] = [];
  closedSessions = 0;
  cancelledOperations = 0;
  /** ExecuteStatement responses that carried `directResults`. */
  directResultsServed = 0;
  /** Results sent LZ4-framed. */
  lz4Results = 0;
  /** FetchResults calls (direct results make them unnecessary for small results). */
  fetchResultsCalls = 0;
  /** Refuse every request with HTTP 401 (an expired or revoked token). */
  rejectAllAuth = false;
  /** Keep statements RUNNING until they are cancelled (for cancellation tests). */
  holdStatements = false;

  readonly #token: string;
  readonly #resultFormat: "arrow" | "columns";
  readonly #sessionTimeZone: string;
  readonly #options: StandInOptions;
  #storage: CloudStorage | undefined;
  readonly #views = new Map<string, MetricViewDefinition>();
  #models: ReadonlyMap<string, LoadedDatabricksModel> = new Map();
  readonly #sourceColumns = new Map<string, string[]>();
  /** `DESCRIBE TABLE EXTENDED ... AS JSON` documents, by lower-cased view name. */
  readonly #describe = new Map<string, string>();
  readonly #sessions = new Map<string, Session>();
  readonly #operations = new Map<string, Operation>();
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #certificate: StandInCertificate | undefined;
  #ownsCertificate = true;
  #instance: DuckDBInstance | undefined;
  #db: DuckDBConnection | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #port = 0;

  private constructor(options: StandInOptions) {
    this.#token = options.token ?? "dapi-test";
    this.#resultFormat = options.resultFormat ?? "arrow";
    this.#sessionTimeZone = options.sessionTimeZone ?? "UTC";
    this.#options = options;
    for (const view of options.metricViews ?? []) this.#views.set(view.name.toLowerCase(), view);
  }

  static async start(options: StandInOptions = {}): Promise<DatabricksStandIn> {
    const standIn = new DatabricksStandIn(options);
    try {
      await standIn.#start(options);
    } catch (error) {
      await standIn.close();
      throw error;
    }
    return standIn;
  }

  get port(): number {
    return this.#port;
  }

  get httpPath(): string {
    return STAND_IN_HTTP_PATH;
  }

  get certificate(): StandInCertificate {
    return this.#certificate!;
  }

  /** PEM file of the self-signed certificate (for `BACKEND_B_CA_CERT`). */
  get certPath(): string {
    return this.#certificate!.certPath;
  }

  /** CloudFetch files downloaded from the storage stand-in. */
  get cloudFetchDownloads(): number {
    return this.#storage?.downloads ?? 0;
  }

  /** Storage requests refused (no signature, or the warehouse token sent to storage). */
  get refusedStorageRequests(): readonly string[] {
    return this.#storage?.refused ?? [];
  }

  get token(): string {
    return this.#token;
  }

  /** Sessions currently open. */
  get liveSessions(): number {
    return this.#sessions.size;
  }

  /** Forgets every session (a warehouse restart): their next statements fail. */
  dropSessions(): void {
    this.#sessions.clear();
  }

  /** Stops listening and cuts open connections; the stand-in can't be restarted. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server === undefined) return;
    for (const op of this.#operations.values()) op.release?.();
    await this.#storage?.close();
    this.#storage = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
    });
  }

  /** Stops the server, closes DuckDB, removes the certificate's temp files. */
  async close(): Promise<void> {
    await this.stop();
    this.#db?.closeSync();
    this.#db = undefined;
    this.#instance?.closeSync();
    this.#instance = undefined;
    if (this.#ownsCertificate) await this.#certificate?.dispose();
    this.#certificate = undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #start(options: StandInOptions): Promise<void> {
    this.#ownsCertificate = options.certificate === undefined;
    this.#certificate = options.certificate ?? (await createStandInCertificate());
    this.#instance = await DuckDBInstance.create(":memory:");
    this.#db = await this.#instance.connect();
    for (const sql of options.setupSql ?? []) await this.#db.run(sql);
    for (const view of this.#views.values()) {
      const reader = await this.#db.runAndReadAll(`SELECT * FROM ${view.source} LIMIT 0`);
      this.#sourceColumns.set(view.name.toLowerCase(), reader.columnNames());
      this.#views.set(view.name.toLowerCase(), expandWildcard(view, reader.columnNames()));
    }
    for (const view of this.#views.values()) {
      const members = [
        ...Object.keys(view.dimensions),
        ...Object.keys(view.measures).map((m) => `MEASURE(\`${m}\`) AS \`${m}\``),
      ];
      // Types come from a probe; a parameter without a default gets NULL for it.
      const required = (view.parameters ?? []).filter((p) => p.default === undefined);
      const call = required.length === 0 ? "" : `(${required.map((p) => `\`${p.name}\` => NULL`).join(", ")})`;
      const probe = `SELECT ${members.map((m) => (m.startsWith("MEASURE") ? m : `\`${m}\``)).join(", ")} FROM \`${view.name}\`${call} GROUP BY ALL LIMIT 0`;
      const sql = translateMetricViewSql(
        probe,
        this.#views,
        (v) => this.#sourceColumns.get(v.name.toLowerCase()) ?? [],
      );
      const reader = await this.#db.runAndReadAll(sql);
      const types = new Map(
        reader
          .columnTypes()
          .map((type, i) => [reader.columnName(i), jsonTypeOf(columnFor(reader.columnName(i), type))]),
      );
      this.#describe.set(view.name.toLowerCase(), describeJson(view, types));
    }
    this.#models = await loadDatabricksModels(new StandInSemanticEngine(this.#db), this.#db, options.modelViews ?? []);
    for (const model of this.#models.values()) this.#describe.set(model.name.toLowerCase(), model.describeJson);
    this.#storage = await CloudStorage.start(this.#certificate.key, this.#certificate.cert);
    const server = createServer({ key: this.#certificate.key, cert: this.#certificate.cert }, (req, res) =>
      this.#onRequest(req, res),
    );
    server.on("connection", (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    this.#server = server;
    this.#port = (server.address() as { port: number }).port;
  }

  #onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== "POST" || req.url?.split("?")[0] !== STAND_IN_HTTP_PATH) {
      res.writeHead(404).end("not found");
      return;
    }
    const auth = req.headers.authorization ?? "";
    if (this.rejectAllAuth || auth !== `Bearer ${this.#token}`) {
      this.rejectedAuth.push(auth);
      res.writeHead(401, { "content-type": "text/plain" }).end("Invalid access token.");
      return;
    }
    const processor = new TCLIService.Processor(this.#handler());
    const receiver = thrift.TBufferedTransport.receiver((transport: any) => {
      const input = new thrift.TBinaryProtocol(transport);
      const output = new thrift.TBinaryProtocol(
        new thrift.TBufferedTransport(undefined, (buffer: Buffer) => {
          res.writeHead(200, { "content-type": "application/x-thrift" });
          res.end(buffer);
        }),
      );
      try {
        processor.process(input, output);
        transport.commitPosition();
      } catch (error) {
        if (error instanceof thrift.InputBufferUnderrunError) transport.rollbackPosition();
        else res.writeHead(500).end();
      }
    });
    req.on("data", receiver);
  }

  #handler(): Record<string, (req: any) => unknown> {
    const ok = () => new T.TStatus({ statusCode: T.TStatusCode.SUCCESS_STATUS });
    const failed = (message: string, sqlState?: string) =>
      new T.TStatus({
        statusCode: T.TStatusCode.ERROR_STATUS,
        errorMessage: message,
        sqlState,
        displayMessage: message,
      });
    const handle = () => {
      const guid = Buffer.from(randomUUID().replaceAll("-", ""), "hex");
      return { key: guid.toString("hex"), id: new T.THandleIdentifier({ guid, secret: randomBytes(16) }) };
    };
    const keyOf = (h: any): string => Buffer.from(h?.operationId?.guid ?? h?.sessionId?.guid ?? []).toString("hex");
    const opHandle = (id: unknown) =>
      new T.TOperationHandle({
        operationId: id,
        operationType: T.TOperationType.EXECUTE_STATEMENT,
        hasResultSet: true,
      });

    return {
      OpenSession: (req: any) => {
        const { key, id } = handle();
        const ns = req.initialNamespace;
        const configuration = (req.configuration ?? {}) as Record<string, string>;
        this.sessionConfigurations.push({ ...configuration });
        const timeZone =
          Object.entries(configuration).find(([name]) => name.toUpperCase() === "TIMEZONE")?.[1] ??
          this.#sessionTimeZone;
        this.#sessions.set(key, { catalog: ns?.catalogName, schema: ns?.schemaName, timeZone });
        this.openedSessions++;
        return new T.TOpenSessionResp({
          status: ok(),
          serverProtocolVersion: T.TProtocolVersion.SPARK_CLI_SERVICE_PROTOCOL_V8,
          sessionHandle: new T.TSessionHandle({ sessionId: id }),
        });
      },
      CloseSession: (req: any) => {
        if (this.#sessions.delete(keyOf(req.sessionHandle))) this.closedSessions++;
        return { status: ok() };
      },
      ExecuteStatement: async (req: any) => {
        const session = this.#sessions.get(keyOf(req.sessionHandle));
        if (session === undefined) {
          return new T.TExecuteStatementResp({
            status: failed("Invalid SessionHandle: the session does not exist or has expired."),
          });
        }
        // Ordinal parameters arrive in order (the driver leaves `ordinal` unset); NULL has neither type nor value.
        const parameters = ((req.parameters ?? []) as any[]).map((p) => ({
          ...(p.ordinal == null ? {} : { ordinal: p.ordinal as number }),
          ...(p.type == null ? {} : { type: p.type as string }),
          ...(p.value?.stringValue == null ? {} : { value: p.value.stringValue as string }),
        }));
        this.statements.push({
          sql: req.statement,
          parameters,
          catalog: session.catalog,
          schema: session.schema,
          timeZone: session.timeZone,
          canDownloadResult: req.canDownloadResult === true,
          canDecompressLZ4Result: req.canDecompressLZ4Result === true,
          directRows: req.getDirectResults == null ? undefined : rowCount(req.getDirectResults.maxRows),
        });
        let duckSql: string;
        let prepare: ((sql: string) => Promise<string>) | undefined;
        let bound: ReceivedStatement["parameters"] = parameters;
        try {
          const described = describeTarget(req.statement);
          if (described !== undefined) {
            const json = this.#describe.get(described.toLowerCase());
            if (json === undefined) {
              throw new StandInSqlError(
                "TABLE_OR_VIEW_NOT_FOUND",
                "42P01",
                `The table or view \`${described}\` cannot be found.`,
              );
            }
            duckSql = "SELECT ? AS json_metadata";
            bound = [{ type: "STRING", value: json }];
          } else if (isMetricViewListing(req.statement)) {
            duckSql = this.#listingSql();
            bound = [];
          } else {
            duckSql = req.statement;
            const namespace = { catalog: session.catalog ?? "main", schema: session.schema ?? "default" };
            // Inside the statement queue: the catalogs' columns are read, and model views expanded, on the one connection.
            prepare = async (sql) => {
              const translated = translateMetricViewSql(
                await withInformationSchema(sql, this.#db!, namespace),
                this.#views,
                (v) => this.#sourceColumns.get(v.name.toLowerCase()) ?? [],
              );
              const modelled = translateModelViewSql(translated, this.#models);
              return modelled === translated ? translated : new StandInSemanticEngine(this.#db!).rewrite(modelled);
            };
          }
        } catch (error) {
          const e = error as StandInSqlError;
          return new T.TExecuteStatementResp({ status: failed(e.message, e.sqlState) });
        }
        const { key, id } = handle();
        this.operationIds.push(key.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5"));
        const op: Operation = {
          state: T.TOperationState.RUNNING_STATE,
          columns: [],
          rows: [],
          offset: 0,
          delivery: { format: "arrow", lz4: false, timeZone: session.timeZone },
        };
        this.#operations.set(key, op);
        const run = async () => {
          if (this.holdStatements) await new Promise<void>((resolve) => (op.release = resolve));
          if (op.state !== T.TOperationState.RUNNING_STATE) return;
          try {
            const result = await this.#query(duckSql, bound, session.timeZone, prepare);
            if (op.state !== T.TOperationState.RUNNING_STATE) return;
            op.columns = result.columns;
            op.rows = result.rows;
            op.delivery = this.#deliveryFor(req, result.rows.length, session.timeZone);
            op.state = T.TOperationState.FINISHED_STATE;
          } catch (error) {
            op.error = toDatabricksError(error);
            op.state = T.TOperationState.ERROR_STATE;
            // Syntax errors are refused by ExecuteStatement itself, as the warehouse does.
          }
        };
        const running = run();
        if (!this.holdStatements) await running;
        if (op.error?.sqlState === "42601") {
          this.#operations.delete(key);
          return new T.TExecuteStatementResp({ status: failed(op.error.message, op.error.sqlState) });
        }
        const directResults =
          req.getDirectResults != null &&
          this.#options.directResults !== false &&
          op.state !== T.TOperationState.RUNNING_STATE;
        if (!directResults) return new T.TExecuteStatementResp({ status: ok(), operationHandle: opHandle(id) });
        // The status, metadata and first rows in the same response; closed when nothing is left.
        this.directResultsServed++;
        const finished = op.state === T.TOperationState.FINISHED_STATE;
        const resultSet = finished ? this.#fetch(op, rowCount(req.getDirectResults.maxRows)) : undefined;
        const done = !finished || op.offset >= op.rows.length;
        if (done) this.#operations.delete(key);
        return new T.TExecuteStatementResp({
          status: ok(),
          operationHandle: opHandle(id),
          directResults: new T.TSparkDirectResults({
            operationStatus: statusOf(op),
            ...(finished ? { resultSetMetadata: metadataResponse(op.columns, op.delivery), resultSet } : {}),
            ...(done ? { closeOperation: new T.TCloseOperationResp({ status: ok() }) } : {}),
          }),
        });
      },
      GetOperationStatus: (req: any) => {
        const op = this.#operations.get(keyOf(req.operationHandle));
        if (op === undefined) return { status: failed("Invalid OperationHandle") };
        return statusOf(op);
      },
      GetResultSetMetadata: (req: any) => {
        const op = this.#operations.get(keyOf(req.operationHandle));
        if (op === undefined) return { status: failed("Invalid OperationHandle") };
        return metadataResponse(op.columns, op.delivery);
      },
      FetchResults: (req: any) => {
        const op = this.#operations.get(keyOf(req.operationHandle));
        if (op === undefined) return { status: failed("Invalid OperationHandle") };
        this.fetchResultsCalls++;
        return this.#fetch(op, rowCount(req.maxRows));
      },
      CancelOperation: (req: any) => {
        const op = this.#operations.get(keyOf(req.operationHandle));
        if (op !== undefined && op.state === T.TOperationState.RUNNING_STATE) {
          op.state = T.TOperationState.CANCELED_STATE;
          this.cancelledOperations++;
          op.release?.();
        }
        return { status: ok() };
      },
      CloseOperation: (req: any) => {
        const key = keyOf(req.operationHandle);
        this.#operations.get(key)?.release?.();
        this.#operations.delete(key);
        return { status: ok() };
      },
    };
  }

  /** Arrow, Thrift columns or CloudFetch links, with or without LZ4, as the request allows. */
  #deliveryFor(req: any, rows: number, timeZone: string): Delivery {
    if (this.#resultFormat === "columns") return { format: "columns", lz4: false, timeZone };
    const asksLz4 = req.canDecompressLZ4Result === true;
    const above = this.#options.cloudFetchAboveRows;
    if (req.canDownloadResult === true && above !== undefined && rows > above) {
      return { format: "links", lz4: asksLz4 || this.#options.compressCloudFetch === true, timeZone };
    }
    return { format: "arrow", lz4: asksLz4, timeZone };
  }

  #fetch(op: Operation, maxRows: number): unknown {
    if (op.delivery.lz4 && op.offset === 0) this.lz4Results++;
    return fetchResponse(op, maxRows, op.delivery, this.#storage!, this.#options.cloudFetchFileRows ?? 1000);
  }

  /** The registered metric views as `information_schema.tables` rows (table_name, comment). */
  #listingSql(): string {
    const literal = (v: string | undefined) => (v === undefined ? "NULL::VARCHAR" : `'${v.replaceAll("'", "''")}'`);
    const rows = [...this.#views.values(), ...this.#models.values()].map(
      (v) => `(${literal(v.name)}, ${literal(v.comment)})`,
    );
    if (rows.length === 0) return "SELECT NULL::VARCHAR AS table_name, NULL::VARCHAR AS comment WHERE false";
    return `SELECT table_name, comment FROM (VALUES ${rows.join(", ")}) AS t(table_name, comment) ORDER BY table_name`;
  }

  /** Runs one statement on DuckDB (statements are serialized on the one connection). */
  #query(
    sql: string,
    parameters: ReceivedStatement["parameters"],
    timeZone: string,
    prepare?: (sql: string) => Promise<string>,
  ): Promise<{ columns: StandInColumn[]; rows: unknown[][] }> {
    const run = async () => {
      await this.#db!.run(`SET TimeZone = '${timeZone.replaceAll("'", "''")}'`);
      const values = parameters.map((p) => toDuckDBValue(p, timeZone));
      const text = prepare === undefined ? sql : await prepare(sql);
      const reader = await this.#db!.runAndReadAll(text, values.length > 0 ? values : undefined);
      const columns = reader.columnTypes().map((type, i) => columnFor(reader.columnName(i), type));
      return { columns, rows: reader.getRows() as unknown[][] };
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

/** A row count from a Thrift Int64 (or number), at least 1. */
function rowCount(value: any): number {
  return Math.max(1, Number(value?.toNumber?.(true) ?? value ?? 100_000));
}

/** GetOperationStatus's answer for an operation (also sent inside directResults). */
function statusOf(op: Operation): unknown {
  const error = op.error;
  return new T.TGetOperationStatusResp({
    status: new T.TStatus({ statusCode: T.TStatusCode.SUCCESS_STATUS }),
    operationState: op.state,
    sqlState: error?.sqlState,
    errorMessage: error?.message,
    displayMessage: error?.message,
    hasResultSet: true,
  });
}

/** A column type as `DESCRIBE ... AS JSON` writes it: `"bigint"`, or an object for DECIMAL. */
function jsonTypeOf(column: StandInColumn): unknown {
  if (column.typeName === "DECIMAL") return { name: "decimal", precision: column.precision, scale: column.scale };
  return column.typeName === "INT" ? "int" : column.typeName.toLowerCase();
}
