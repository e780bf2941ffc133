/**
 * What an engine reports to its `log` option (`createEngine(config, { log: (event) => ... })`).
 * Events carry SQL text and parameter counts, never parameter values, and never a setting that
 * could hold a secret; errors are the library's errors, whose messages are already redacted.
 */
import type { BackendType } from "../dialects/dialects.js";

interface EventBase {
  readonly backend: BackendType;
  /** Milliseconds the operation took (performance.now() differences). */
  readonly durationMs: number;
}

/** A statement ran to the end of its result (or the result was closed early). */
export interface QueryLogEvent extends EventBase {
  readonly type: "query";
  readonly sql: string;
  readonly parameterCount: number;
  /** Rows read from the result (for a result closed early: the rows read until then). */
  readonly rows: number;
  /** The warehouse's id of the statement (backend A's query id, to find it in QUERY_HISTORY), when it has one. */
  readonly queryId?: string | undefined;
}

/** A statement failed (the warehouse rejected it, it was cancelled, the connection broke). */
export interface QueryErrorLogEvent extends EventBase {
  readonly type: "query-error";
  readonly sql: string;
  readonly parameterCount: number;
  readonly error: unknown;
  /** The warehouse's id of the failed statement, when it reported one (`WarehouseError.queryId`). */
  readonly queryId?: string | undefined;
}

/** A physical connection was opened, failed to open, or was closed (`recycle`: it outlived `recycle` seconds). */
export interface ConnectionLogEvent extends EventBase {
  readonly type: "connection";
  readonly action: "open" | "open-error" | "close" | "recycle";
  /** open-error: why. */
  readonly error?: unknown;
}

/** A checkout waited for the pool (`durationMs` includes opening a connection when one was opened for it). */
export interface PoolWaitLogEvent extends EventBase {
  readonly type: "pool-wait";
  /** False when the checkout failed (timeout, connection error, disposed engine). */
  readonly ok: boolean;
}

export type LogEvent = QueryLogEvent | QueryErrorLogEvent | ConnectionLogEvent | PoolWaitLogEvent;

/** The engine `log` option: called synchronously for every event; an exception it throws is ignored. */
export type EngineLogger = (event: LogEvent) => void;
