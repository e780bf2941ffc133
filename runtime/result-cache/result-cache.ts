/**
 * An engine's result cache (README "Result cache"): results by key (`cache-key.ts`), bounded by
 * measured bytes (least recently used first out), each entry served until its TTL, and identical
 * requests in flight coalesced into one run (`flight.ts`).
 *
 * `invalidate()` (backend C: every commit, DDL or session change through the library on the
 * database) drops every entry and detaches the runs in flight; a run that started before an
 * invalidation never stores its result (the generation it started under has passed), so nothing
 * read before a change survives it.
 */
import type { CachedResult } from "./cached-result.js";
import { Flight } from "./flight.js";
import type { JsonBody } from "./json-body.js";

export interface ResultCacheOptions {
  /** Default seconds an entry is served (0: only queries that ask with a ttl are cached). */
  readonly ttl: number;
  readonly maxBytes: number;
  /** Milliseconds clock (tests); default `Date.now`. */
  readonly now?: () => number;
  /** Told of every query the cache served (the engine's `log` option). */
  readonly onServed?: ((served: ServedFromCache) => void) | undefined;
}

/** A query the cache answered without a statement of its own. */
export interface ServedFromCache {
  readonly sql: string;
  readonly parameterCount: number;
  readonly rows: number;
  /** performance.now() when the request reached the cache. */
  readonly startedAt: number;
}

export interface ResultCacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
  readonly hits: number;
  readonly misses: number;
  /** Requests that joined a run already in flight. */
  readonly coalesced: number;
  readonly evictions: number;
  readonly invalidations: number;
}

/** An entry, linked into the recency list (oldest → newest). */
interface Entry {
  readonly key: string;
  readonly result: CachedResult;
  readonly expiresAt: number;
  /** The rows as a JSON body, once a reader asked for it (`bodyOf`); its bytes count against the budget. */
  body: JsonBody | undefined;
  older: Entry | undefined;
  newer: Entry | undefined;
}

/** Bytes an entry costs beyond its values: its key (two bytes a character) and bookkeeping. */
const keyBytes = (key: string): number => 64 + 2 * key.length;

/** Bytes of an entry's JSON body, none without one. */
const bodyBytes = (body: JsonBody | undefined): number => (body === undefined ? 0 : body.keptBytes);

export class ResultCache {
  readonly defaultTtlSeconds: number;
  readonly maxBytes: number;
  readonly #now: () => number;
  readonly #onServed: ((served: ServedFromCache) => void) | undefined;
  readonly #entries = new Map<string, Entry>();
  /**
   * Recency, least recently used first: a hit moves its entry to the newest end by relinking two
   * neighbours (re-inserting the key into the map instead hashed it twice and left a hole per hit).
   */
  #oldest: Entry | undefined;
  #newest: Entry | undefined;
  readonly #flights = new Map<string, Flight<unknown>>();
  #bytes = 0;
  #generation = 0;
  #hits = 0;
  #misses = 0;
  #coalesced = 0;
  #evictions = 0;
  #invalidations = 0;

  constructor(options: ResultCacheOptions) {
    this.defaultTtlSeconds = options.ttl;
    this.maxBytes = options.maxBytes;
    this.#now = options.now ?? Date.now;
    this.#onServed = options.onServed;
  }

  /** Whether anyone is told of the queries the cache serves (else a hit builds no report). */
  get reporting(): boolean {
    return this.#onServed !== undefined;
  }

  /** Reports a query served from the cache (a hit, or a request that joined one in flight). */
  served(served: ServedFromCache): void {
    this.#onServed?.(served);
  }

  /** Increases with every invalidation; a run stores only under the generation it started in. */
  get generation(): number {
    return this.#generation;
  }

  /** The live entry for `key` (an expired one is dropped), counting a hit or a miss. */
  get(key: string): CachedResult | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiresAt > this.#now()) {
      if (entry !== this.#newest) {
        this.#unlink(entry);
        this.#append(entry);
      }
      this.#hits++;
      return entry.result;
    }
    if (entry !== undefined) this.#drop(entry);
    this.#misses++;
    return undefined;
  }

  /**
   * Stores `result` for `ttlSeconds` unless an invalidation happened since `generation` was read,
   * or the entry alone exceeds `maxBytes`; evicts the least recently used entries to make room.
   * True when stored.
   */
  set(key: string, result: CachedResult, ttlSeconds: number, generation: number): boolean {
    if (generation !== this.#generation || ttlSeconds <= 0) return false;
    const old = this.#entries.get(key);
    if (old !== undefined) this.#drop(old);
    const bytes = result.bytes + keyBytes(key);
    if (bytes > this.maxBytes) return false;
    this.#makeRoom(bytes, undefined);
    const entry: Entry = {
      key,
      result,
      expiresAt: this.#now() + ttlSeconds * 1000,
      body: undefined,
      older: undefined,
      newer: undefined,
    };
    this.#entries.set(key, entry);
    this.#append(entry);
    this.#bytes += bytes;
    return true;
  }

  /**
   * The JSON body of `result`'s rows (`make()`), kept with its entry while `key` still holds that
   * result, so every later reader reuses it: its bytes count against `maxBytes` (older entries leave
   * to make room; a body that does not fit is not kept) and it leaves with its entry (expiry,
   * eviction, invalidation). For a result the cache no longer holds, `make()` is not kept.
   */
  bodyOf(key: string, result: CachedResult, make: () => JsonBody): JsonBody {
    const entry = this.#entries.get(key);
    if (entry?.body !== undefined && entry.result === result) return entry.body;
    const body = make();
    if (entry === undefined || entry.result !== result || entry.expiresAt <= this.#now()) return body;
    const bytes = bodyBytes(body);
    if (result.bytes + keyBytes(key) + bytes > this.maxBytes) return body;
    if (!this.#makeRoom(bytes, entry)) return body;
    entry.body = body;
    this.#bytes += bytes;
    return body;
  }

  /**
   * The run in flight for `key`, joined, or a new one started with `run`. `joined` says whether
   * this request shares a run another request started.
   */
  flight<T>(
    key: string,
    run: (signal: AbortSignal) => Promise<T>,
  ): { readonly flight: Flight<T>; readonly joined: boolean } {
    const current = this.#flights.get(key) as Flight<T> | undefined;
    if (current !== undefined && !current.settled) {
      this.#coalesced++;
      return { flight: current, joined: true };
    }
    const flight = new Flight<T>(run);
    this.#flights.set(key, flight as Flight<unknown>);
    const forget = (): void => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    };
    void flight.whenSettled().then(forget);
    return { flight, joined: false };
  }

  /** Drops every entry and detaches the runs in flight (their results are not stored). */
  invalidate(): void {
    this.#generation++;
    this.#invalidations++;
    this.#entries.clear();
    this.#oldest = this.#newest = undefined;
    this.#flights.clear();
    this.#bytes = 0;
  }

  stats(): ResultCacheStats {
    return {
      entries: this.#entries.size,
      bytes: this.#bytes,
      maxBytes: this.maxBytes,
      hits: this.#hits,
      misses: this.#misses,
      coalesced: this.#coalesced,
      evictions: this.#evictions,
      invalidations: this.#invalidations,
    };
  }

  /** Evicts the least recently used entries, never `keep`, until `bytes` more fit; whether they fit. */
  #makeRoom(bytes: number, keep: Entry | undefined): boolean {
    while (this.#bytes + bytes > this.maxBytes && this.#oldest !== undefined && this.#oldest !== keep) {
      this.#drop(this.#oldest);
      this.#evictions++;
    }
    return this.#bytes + bytes <= this.maxBytes;
  }

  #drop(entry: Entry): void {
    this.#entries.delete(entry.key);
    this.#unlink(entry);
    this.#bytes -= entry.result.bytes + keyBytes(entry.key) + bodyBytes(entry.body);
  }

  #append(entry: Entry): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest === undefined) this.#oldest = entry;
    else this.#newest.newer = entry;
    this.#newest = entry;
  }

  #unlink(entry: Entry): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = entry.newer = undefined;
  }
}
