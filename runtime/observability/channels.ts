/**
 * `node:diagnostics_channel` tracing channels, for OpenTelemetry-style instrumentation that
 * subscribes without configuring the engine:
 *   `lib:query`      context `{ backend, sql, parameterCount, queryId }` — start/end around opening a
 *                    statement's result (asyncEnd/error when the driver answered; `queryId` is the
 *                    warehouse's statement id, set by then when it has one);
 *   `lib:connect`    context `{ backend }` — opening one physical connection;
 *   `lib:pool-wait`  context `{ backend }` — one checkout from an engine's pool.
 * Subscribe with `diagnostics_channel.tracingChannel("lib:query").subscribe({ start, asyncEnd, error })`.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import type { BackendType } from "../dialects/dialects.js";

export interface QueryTraceContext {
  readonly backend: BackendType;
  readonly sql: string;
  readonly parameterCount: number;
  /** Set when the warehouse answered (asyncEnd) or failed (error) with a statement id. */
  queryId?: string | undefined;
}

export interface BackendTraceContext {
  readonly backend: BackendType;
}

export const QUERY_CHANNEL = "lib:query";
export const CONNECT_CHANNEL = "lib:connect";
export const POOL_WAIT_CHANNEL = "lib:pool-wait";

export const queryChannel = diagnosticsChannel.tracingChannel<QueryTraceContext>(QUERY_CHANNEL);
export const connectChannel = diagnosticsChannel.tracingChannel<BackendTraceContext>(CONNECT_CHANNEL);
export const poolWaitChannel = diagnosticsChannel.tracingChannel<BackendTraceContext>(POOL_WAIT_CHANNEL);

type AnyTracingChannel = typeof queryChannel | typeof connectChannel;

/** Whether anyone listens on `channel` now (three property reads: cheap enough for every call). */
export function isTraced(channel: AnyTracingChannel): boolean {
  return channel.start.hasSubscribers || channel.asyncEnd.hasSubscribers || channel.error.hasSubscribers;
}

/** Runs `fn` traced on `channel` when anyone listens; otherwise just runs it. */
export function traced<T, C extends object>(channel: AnyTracingChannel, context: C, fn: () => Promise<T>): Promise<T> {
  if (!isTraced(channel)) return fn();
  return (channel as unknown as diagnosticsChannel.TracingChannel<unknown, C>).tracePromise(fn, context);
}
