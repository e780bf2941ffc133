/**
 * SQL access to one physical connection: what `connect` listeners receive and the base of the
 * pooled connection handed to users. Rows come back as objects keyed by column name.
 */
import type { DatabaseConnection, QueryResult, ResultStream, StreamOptions } from "../driver/database-connection.js";
import type { Row } from "./pooled-connection.js";

/** What a `connect` listener gets: run SQL on the brand-new connection before anyone uses it. */
export interface ConnectConnection {
  run(sql: string, parameters?: readonly unknown[]): Promise<void>;
  all(sql: string, parameters?: readonly unknown[]): Promise<Row[]>;
  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** Turns row arrays into objects keyed by column name (a later duplicate name wins). */
export function rowsToObjects(result: QueryResult): Row[] {
  const names = result.columns.map((c) => c.name);
  return result.rows.map((row) => {
    const object: Row = {};
    for (let i = 0; i < names.length; i++) object[names[i]!] = row[i];
    return object;
  });
}

export class ConnectionHandle implements ConnectConnection {
  protected readonly connection: DatabaseConnection;

  constructor(connection: DatabaseConnection) {
    this.connection = connection;
  }

  /** Throws when the handle may no longer be used; overridden by the pooled connection. */
  protected assertUsable(): void {}

  /** Sees every error the connection raised (the pooled connection reports disconnects); no-op here. */
  protected observeError(_error: unknown): void {}

  /** Runs one call on the connection, letting `observeError` see its failure before it surfaces. */
  protected async call<T>(run: () => Promise<T>): Promise<T> {
    this.assertUsable();
    try {
      return await run();
    } catch (error) {
      this.observeError(error);
      throw error;
    }
  }

  async run(sql: string, parameters?: readonly unknown[]): Promise<void> {
    await this.call(() => this.connection.execute(sql, parameters));
  }

  async all(sql: string, parameters?: readonly unknown[]): Promise<Row[]> {
    return rowsToObjects(await this.call(() => this.connection.execute(sql, parameters)));
  }

  execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    return this.call(() => this.connection.execute(sql, parameters));
  }

  async stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
    const stream = await this.call(() => this.connection.stream(sql, parameters, options));
    return observedStream(stream, (error) => this.observeError(error));
  }

  interrupt(): void {
    this.connection.interrupt();
  }

  async commit(): Promise<void> {
    await this.call(() => this.connection.commit());
  }

  async rollback(): Promise<void> {
    await this.call(() => this.connection.rollback());
  }
}

/** The same stream, with every failed chunk read reported to `observe` first. */
function observedStream(stream: ResultStream, observe: (error: unknown) => void): ResultStream {
  const preferColumns = stream.preferColumns?.bind(stream);
  return {
    columns: stream.columns,
    close: () => stream.close(),
    ...(preferColumns === undefined ? {} : { preferColumns }),
    [Symbol.asyncIterator]: () => {
      const iterator = stream[Symbol.asyncIterator]();
      const observed: AsyncIterator<unknown[][]> = {
        next: () =>
          iterator.next().catch((error: unknown) => {
            observe(error);
            throw error;
          }),
      };
      if (iterator.return !== undefined) observed.return = (value?: unknown) => iterator.return!(value);
      return observed;
    },
  };
}
