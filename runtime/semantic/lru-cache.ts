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
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Stores the entry unless it alone exceeds the byte budget; evicts the least recently used to make room. */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.options.sizeOf(key, value);
    if (bytes > this.options.maxBytes) return;
    this.map.set(key, { value, bytes });
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
  }

  clear(): void {
    this.map.clear();
    this.totalBytes = 0;
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
