/**
 * What the built-in semantic layer learns once for all the connections of an engine that are in the
 * engine's own session state (its database file, its `schema`, DuckDB's defaults) instead of once
 * per connection (SqlSession.sharedMemo): the session context, rewritten statements, type probes.
 * A new connection, such as an overflow connection opened for a burst and closed when it comes back,
 * then runs its first semantic query with one prepare, as a raw connection would, instead of a
 * context read, an expansion, a type probe and a parameter-type prepare of its own.
 *
 * A connection leaves for good once it changes its own session (USE, SET, ATTACH, a TEMP object:
 * `duckdb-connection.ts`); from then on its own memo serves it. A session change anywhere in the
 * process (a SET GLOBAL reaches every session) starts the shared memo afresh. One per engine and
 * database instance: another engine may set another schema, and a reopened file is another instance
 * with its own definitions.
 */
import { currentSessionEpoch, maySessionChange } from "./duckdb-statement-cache.js";
import { rememberedPerText } from "./duckdb-statements.js";

export class SharedSessionMemo {
  #memo = new Map<string, unknown>();
  #epoch = currentSessionEpoch();

  /** The memo; a new, empty one once a session changed anywhere in the process since this one was made. */
  get memo(): Map<string, unknown> {
    const epoch = currentSessionEpoch();
    if (epoch !== this.#epoch) {
      this.#memo = new Map();
      this.#epoch = epoch;
    }
    return this.#memo;
  }
}

/** Statements that create an object only their session sees (CREATE TEMP TABLE/VIEW/MACRO ...). */
const TEMPORARY = /\bTEMP(?:ORARY)?\b/i;
/**
 * Whether running `sql` makes a session its own, remembered per text: every new connection's first
 * query passes here with the statement the engine's other connections ran before.
 */
const takesSession = rememberedPerText((sql: string) => maySessionChange(sql) || TEMPORARY.test(sql));

/** One connection's use of its engine's shared memo, until it runs SQL that makes its session its own. */
export class SharedMemoSeat {
  #shared: SharedSessionMemo | undefined;

  constructor(shared: SharedSessionMemo | undefined) {
    this.#shared = shared;
  }

  /** The shared memo, or undefined once this connection's session is its own (or it never had one). */
  get memo(): Map<string, unknown> | undefined {
    return this.#shared?.memo;
  }

  /** Called before the connection runs `sql` outside its fast paths (a false alarm only costs it its seat). */
  beforeRunning(sql: string): void {
    if (this.#shared !== undefined && takesSession(sql)) this.#shared = undefined;
  }
}
