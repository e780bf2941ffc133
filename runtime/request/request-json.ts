/**
 * The JSON reader for request bodies. `JSON.parse` rounds every number to a double before anyone can
 * look at it (Node 20 has no reviver source text), so `9007199254740993` would silently become
 * `...992`. This small parser keeps a number that a double cannot hold exactly as an
 * {@link ExactNumber} (its source text), which the member's declared type then parses exactly, and
 * refuses duplicate keys, which `JSON.parse` would resolve silently by keeping the last one.
 */
import { Decimal } from "../values/decimal.js";
import { InvalidRequestError } from "./invalid-request-error.js";

/** A JSON number a double cannot represent exactly, kept as its source text. */
export class ExactNumber {
  constructor(readonly text: string) {
    Object.freeze(this);
  }
  toJSON(): string {
    return this.text;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Whether the double nearest `text` has exactly its decimal value (`0.10`, `1e2`: yes; `9007199254740993`: no). */
function exactAsDouble(text: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (/^-?\d{1,15}$/.test(text)) return true;
  try {
    return Decimal.parse(text).equals(Decimal.parse(String(value)));
  } catch {
    return false; // more digits than a Decimal takes: let the member's type reject it
  }
}

export function parseRequestJson(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new InvalidRequestError([
      { field: "body", code: "malformed", message: `not valid JSON: ${what} at position ${at}` },
    ]);
  };
  const space = (): void => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const string = (): string => {
    const start = at;
    at++; // opening quote
    for (; at < text.length; at++) {
      const c = text.charCodeAt(at);
      if (c === 0x22) {
        at++;
        try {
          return JSON.parse(text.slice(start, at)) as string;
        } catch {
          at = start;
          return fail("a bad escape in a string");
        }
      }
      if (c === 0x5c) at++;
      else if (c < 0x20) fail("a control character in a string");
    }
    return fail("an unterminated string");
  };
  const value = (depth: number): unknown => {
    if (depth > 64) fail("nesting deeper than 64");
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      const object: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      space();
      if (text[at] === "}") return (at++, object);
      for (;;) {
        space();
        if (text[at] !== '"') fail("expected a key");
        const key = string();
        if (Object.hasOwn(object, key)) fail(`duplicate key ${JSON.stringify(key)}`);
        space();
        if (text[at++] !== ":") fail("expected ':'");
        object[key] = value(depth + 1);
        space();
        const next = text[at++];
        if (next === "}") return object;
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      at++;
      const array: unknown[] = [];
      space();
      if (text[at] === "]") return (at++, array);
      for (;;) {
        array.push(value(depth + 1));
        space();
        const next = text[at++];
        if (next === "]") return array;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const [word, result] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, at)) return ((at += word.length), result);
    }
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (match === null) return fail("unexpected input");
    at += match[0].length;
    const number = Number(match[0]);
    return exactAsDouble(match[0], number) ? number : new ExactNumber(match[0]);
  };
  const result = value(0);
  space();
  if (at < text.length) fail("unexpected input after the JSON value");
  return result;
}
