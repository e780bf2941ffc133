/**
 * A NUL character (U+0000) in a stored definition breaks every reader of the catalog (the listing
 * functions of all views, codegen): definitions holding one are refused when written.
 */
import { SemanticViewError } from "../semantic-error.js";

/** Throws naming the first field (`dimensions[2].comment`) whose text holds U+0000. */
export function refuseNul(viewName: string, definition: unknown): void {
  const field = nulField(definition, "");
  if (field === undefined) return;
  const shown = viewName.replaceAll("\u0000", "\\0");
  throw new SemanticViewError(
    "invalid",
    `semantic view '${shown}': ${field === "" ? "the definition" : field} contains a NUL character (U+0000), which names, comments and expressions may not hold`,
  );
}

function nulField(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      const found = nulField(inner, path === "" ? key : `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
