/**
 * A least-recently-used map bounded by entry count and by size (Map keeps insertion order; a hit
 * re-inserts the key). Sizes are estimated by the caller, in bytes; an entry larger than the byte
 * budget is not kept at all, so one request with a huge filter value can neither evict the whole
 * cache nor pin megabytes of text.
 */
export interface LruCacheOptions<K, V> {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** Estimated bytes an entry keeps alive (key included). */
  readonly sizeOf: (key: K, value: V) => number;
}

export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private readonly options: LruCacheOptions<K, V>;
  private totalBytes = 0;
  /** The most recently used key: a hit on it moves nothing (a query run again and again). */
  private newest: K | undefined;
  private hasNewest = false;

  /** A number bounds the entry count only (for entries of a known, small size). */
  constructor(options: LruCacheOptions<K, V> | number) {
    this.options =
      typeof options === "number"
        ? { maxEntries: options, maxBytes: Number.POSITIVE_INFINITY, sizeOf: () => 0 }
        : options;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    // Re-inserting leaves a deleted slot behind: V8 rebuilds the table once they fill it.
    if (!this.hasNewest || this.newest !== key) {
      this.map.delete(key);
      this.map.set(key, entry);
      this.newest = key;
      this.hasNewest = true;
    }
    return entry.value;
  }

  /** Stores the entry unless it alone exceeds the byte budget; evicts the least recently used to make room. */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.options.sizeOf(key, value);
    if (bytes > this.options.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.newest = key;
    this.hasNewest = true;
    this.totalBytes += bytes;
    while (this.map.size > this.options.maxEntries || this.totalBytes > this.options.maxBytes) {
      this.delete(this.map.keys().next().value as K);
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.totalBytes -= entry.bytes;
    if (this.hasNewest && this.newest === key) {
      this.newest = undefined;
      this.hasNewest = false;
    }
  }

  clear(): void {
    this.map.clear();
    this.totalBytes = 0;
    this.newest = undefined;
    this.hasNewest = false;
  }

  get size(): number {
    return this.map.size;
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.totalBytes;
  }
}

/** Bytes a string may occupy (V8 stores two-byte strings at 2 bytes per code unit; assume the worst). */
export function stringBytes(text: string): number {
  return text.length * 2;
}
