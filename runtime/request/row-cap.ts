/**
 * The row cap of a streamed answer (`maxStreamRows`): the query asked for one row more than the cap,
 * so a row beyond it means the answer was cut (`truncated`). Shared by the row batches (JSON pages,
 * MCP, Arrow IPC) and the NDJSON lines, which read chunks of different kinds.
 */
export class RowCap {
  readonly #cap: number;
  #delivered = 0;
  #truncated = false;

  constructor(cap: number | undefined) {
    this.#cap = cap ?? Number.POSITIVE_INFINITY;
  }

  /** Rows handed out so far. */
  get delivered(): number {
    return this.#delivered;
  }

  /** True once a row beyond the cap was seen: stop reading. */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** How many of a chunk's `count` rows to hand out (all, or those left under the cap). */
  take(count: number): number {
    const room = this.#cap - this.#delivered;
    if (count > room) this.#truncated = true;
    const taken = Math.min(count, room);
    this.#delivered += taken;
    return taken;
  }
}
