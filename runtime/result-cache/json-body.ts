/**
 * A cache entry's rows as a response body (`sendRows` of `lib/express`): the UTF-8 bytes of their
 * JSON text, encoded once, and the entity tag Express's built-in `etag` settings give those bytes,
 * hashed once, so a hit's response neither re-encodes the text nor hashes it again.
 */
import { createHash } from "node:crypto";

/** Bytes a body keeps beyond its UTF-8 bytes: the object, the buffer's header and its two tags. */
const OVERHEAD = 192;

export class JsonBody {
  /** The JSON text's UTF-8 bytes (in memory of their own, not a slice of Node's shared buffer pool). */
  readonly bytes: Buffer;
  #strong: string | undefined;
  #weak: string | undefined;

  constructor(text: string) {
    const length = Buffer.byteLength(text, "utf8");
    // A pooled `Buffer.from` of a small text is a view into a shared 8 KiB slab, which a kept body
    // would hold alive whole: the cache's byte count would be wrong by up to 8 KiB per entry.
    this.bytes = Buffer.allocUnsafeSlow(length);
    this.bytes.write(text, 0, length, "utf8");
  }

  /** Bytes the body keeps alive, counted against the cache's `maxBytes`. */
  get keptBytes(): number {
    return this.bytes.length + OVERHEAD;
  }

  /**
   * The tag Express's `etag` setting `"strong"` (`weak` false) or `"weak"`/`true` (its default) gives
   * these bytes: the `etag` package's `"<length in hex>-<SHA-1 in base64, 27 characters>"`.
   */
  entityTag(weak: boolean): string {
    this.#strong ??= `"${this.bytes.length.toString(16)}-${createHash("sha1").update(this.bytes).digest("base64").substring(0, 27)}"`;
    return weak ? (this.#weak ??= `W/${this.#strong}`) : this.#strong;
  }
}
