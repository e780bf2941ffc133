/** Temp `.lib.toml` files and error capture for the config tests. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { expect } from "chai";
import { ValidationError } from "./config-api.js";

export class TempConfigDir {
  readonly dir = mkdtempSync(join(tmpdir(), "lib-config-"));

  /** Write `text` to `<dir>/<name>` and return the absolute path. */
  write(text: string, name = ".lib.toml"): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Run `fn`, assert it throws a ValidationError, and return it. */
export function validationError(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ValidationError);
    return error as ValidationError;
  }
  expect.fail("expected a ValidationError");
}

/** Assert that none of the secrets shows up in the error: message, stack, inspect (incl. cause). */
export function expectNoSecret(error: Error, ...secrets: readonly string[]): void {
  const texts = [error.message, String(error.stack), inspect(error, { depth: 10 }), String(error)];
  for (const secret of secrets) {
    for (const text of texts) expect(text).not.to.include(secret);
  }
}

/** `[connections.<name>]` with `type` and the given body lines. */
export function section(name: string, type: string, ...lines: readonly string[]): string {
  return [`[connections.${name}]`, `type = "${type}"`, ...lines, ""].join("\n");
}
