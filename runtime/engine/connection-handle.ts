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

  async run(sql: string, parameters?: readonly unknown[]): Promise<void> {
    this.assertUsable();
    await this.connection.execute(sql, parameters);
  }

  async all(sql: string, parameters?: readonly unknown[]): Promise<Row[]> {
    this.assertUsable();
    return rowsToObjects(await this.connection.execute(sql, parameters));
  }

  async execute(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    this.assertUsable();
    return this.connection.execute(sql, parameters);
  }

  async stream(sql: string, parameters?: readonly unknown[], options?: StreamOptions): Promise<ResultStream> {
    this.assertUsable();
    return this.connection.stream(sql, parameters, options);
  }

  interrupt(): void {
    this.connection.interrupt();
  }

  async commit(): Promise<void> {
    this.assertUsable();
    await this.connection.commit();
  }

  async rollback(): Promise<void> {
    this.assertUsable();
    await this.connection.rollback();
  }
}
