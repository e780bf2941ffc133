/**
 * A secret value (password, token, key material). Every way of printing it shows `[redacted]`:
 * `String()`, template strings, `JSON.stringify`, `util.inspect`/`console.log`. Only `reveal()`
 * gives the value, and only drivers call it.
 */
const REDACTED = "[redacted]";

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
    Object.freeze(this);
  }

  /** The secret itself: for handing to a driver, never for messages or logs. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [Symbol.toPrimitive](): string {
    return REDACTED;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Secret(${REDACTED})`;
  }
}
