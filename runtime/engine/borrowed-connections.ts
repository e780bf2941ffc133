/**
 * The connections a pool has handed out and not yet taken back. A checkout adds one and its return
 * deletes it, once per query: a `Set` that drops to empty reallocates its table on every such
 * delete (V8 shrinks small ordered tables eagerly), a `WeakSet` plus a count does not.
 */
export class BorrowedConnections<T extends object> {
  readonly #members = new WeakSet<T>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(connection: T): void {
    if (this.#members.has(connection)) return;
    this.#members.add(connection);
    this.#size++;
  }

  /** Whether it was borrowed (it no longer is). */
  delete(connection: T): boolean {
    if (!this.#members.delete(connection)) return false;
    this.#size--;
    return true;
  }
}
