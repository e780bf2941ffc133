/**
 * Writes a prepared query's answer in the negotiated format:
 * - `application/json`: `{ rows, truncated, next }`, lossless numbers, at most `maxRows` rows; `next`
 *   is the request that continues after them (null when nothing was cut);
 * - `application/x-ndjson`: one JSON object per line;
 * - `application/vnd.apache.arrow.stream`: an Arrow IPC stream.
 * The two streams are written batch by batch as the cursor reads them, waiting for the socket to
 * drain (memory stays flat however long the result); when a stream is cut by `maxStreamRows` its
 * `Lib-Truncated` trailer says so. A client that goes away aborts the signal: the statement is
 * interrupted and the connection returns to the pool.
 */
import type { ServerResponse } from "node:http";
import { QueryCancelledError } from "../errors.js";
import { arrowIpcStream } from "../request/arrow-ipc.js";
import { collectRows, RowBatches } from "../request/result-batches.js";
import { NdjsonLines } from "../request/ndjson-lines.js";
import { rowJsonWriter } from "../request/row-json.js";
import type { PreparedQuery } from "../request/semantic-api.js";
import { toJson } from "../values/json.js";
import { MEDIA_TYPES, type AnswerFormat } from "./content-negotiation.js";

export const TRUNCATED_TRAILER = "Lib-Truncated";

export interface AnswerOptions {
  readonly format: AnswerFormat;
  /** Aborted when the client disconnects. */
  readonly signal: AbortSignal;
  readonly timeoutMs?: number | undefined;
  /** `Link: <url>; rel="next"` for a cut JSON page (GET requests), from the continuing request. */
  readonly nextLink?: ((next: Record<string, unknown>) => string | undefined) | undefined;
}

/** Resolves once `res` can take more, or the client is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

async function write(res: ServerResponse, chunk: string | Uint8Array, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted || res.destroyed) return false;
  if (!res.write(chunk)) await drained(res);
  return !signal.aborted && !res.destroyed;
}

function startStream(res: ServerResponse, format: AnswerFormat, capped: boolean): void {
  res.statusCode = 200;
  res.setHeader("Content-Type", format === "ndjson" ? `${MEDIA_TYPES.ndjson}; charset=utf-8` : MEDIA_TYPES.arrow);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (capped) res.setHeader("Trailer", TRUNCATED_TRAILER);
}

function endStream(res: ServerResponse, stream: { readonly truncated: boolean }, capped: boolean): void {
  if (capped) res.addTrailers({ [TRUNCATED_TRAILER]: String(stream.truncated) });
  res.end();
}

/**
 * Runs `prepared` and writes its answer. Fails (before anything is written) when the query cannot
 * start; once a stream has started, a failure destroys the response, so the client sees a cut stream
 * rather than a complete-looking one.
 */
export async function sendAnswer(res: ServerResponse, prepared: PreparedQuery, options: AnswerOptions): Promise<void> {
  const { format, signal } = options;
  const cursor = await prepared.execute({
    signal,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const capped = prepared.rowCap !== undefined;
  if (format === "json") {
    const batches = new RowBatches(cursor, prepared.rowCap);
    const rows = await collectRows(batches);
    const writeRow = rowJsonWriter(cursor.columns);
    const next = batches.truncated ? prepared.next(batches.delivered) : null;
    const link = next === null ? undefined : options.nextLink?.(next as Record<string, unknown>);
    res.statusCode = 200;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    if (link !== undefined) res.setHeader("Link", `<${link}>; rel="next"`);
    res.end(`{"rows":[${rows.map(writeRow).join(",")}],"truncated":${batches.truncated},"next":${toJson(next)}}`);
    return;
  }
  try {
    if (format === "ndjson") {
      const lines = new NdjsonLines(cursor, prepared.rowCap);
      startStream(res, format, capped);
      for await (const text of lines) if (!(await write(res, text, signal))) return;
      endStream(res, lines, capped);
    } else {
      const stream = await arrowIpcStream(cursor, prepared.rowCap);
      startStream(res, format, capped);
      for await (const chunks of stream.messages) {
        for (const chunk of chunks) if (!(await write(res, chunk, signal))) return;
      }
      endStream(res, stream, capped);
    }
  } catch (error) {
    await cursor.close();
    if (signal.aborted && error instanceof QueryCancelledError) return; // the client left: nothing to tell
    if (!res.headersSent) throw error;
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    await cursor.close(); // idempotent; a loop left early (client gone) gives the connection back here too
  }
}
