/**
 * Reads a POST body as the request core wants it: JSON only, at most `maxBytes` (counted while
 * reading, so a huge body is refused without being held), parsed by the exact-number JSON reader. A
 * body already parsed by `express.json()` is taken as it is, though its large numbers were rounded
 * before lib saw them: mount the router before `express.json()` to keep them exact.
 */
import type { IncomingMessage } from "node:http";
import { InvalidRequestError } from "../request/invalid-request-error.js";
import { parseRequestJson } from "../request/request-json.js";

function refuse(code: "malformed", message: string): never {
  throw new InvalidRequestError([{ field: "body", code, message }]);
}

function tooLarge(message: string, maxBytes: number): never {
  throw new InvalidRequestError([
    {
      field: "body",
      code: "too_large",
      message: `${message}; at most ${maxBytes} are accepted (limit maxBodyBytes)`,
      limit: { name: "maxBodyBytes", value: maxBytes },
    },
  ]);
}

/** The parsed JSON body of `req`; `InvalidRequestError` for a wrong content type, a body too large or not JSON. */
export async function readJsonBody(req: IncomingMessage & { body?: unknown }, maxBytes: number): Promise<unknown> {
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new InvalidRequestError([
      {
        field: "Content-Type",
        code: "unsupported_media_type",
        message: `send the query as application/json (got ${type || "no content type"})`,
      },
    ]);
  }
  if (req.body !== undefined && req.readableEnded) return req.body;
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    tooLarge(`the body is ${declared} bytes`, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      req.resume();
      tooLarge(`the body is over ${maxBytes} bytes`, maxBytes);
    }
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return refuse("malformed", "the body is not UTF-8");
  }
  if (text.trim() === "") refuse("malformed", "the body is empty; send a JSON query");
  return parseRequestJson(text);
}
