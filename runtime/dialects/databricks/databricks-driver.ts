/**
 * The backend B driver on `@databricks/sql` (Thrift over HTTPS). One `DBSQLClient` per driver
 * (connect() is lazy: no network until the first session); each physical connection is one SQL
 * session opened with the configured catalog and schema. Failures while opening a session
 * (network, TLS, authentication) are thrown from `openConnection()` with the secrets scrubbed;
 * the pool wraps them in `LibConnectionError`. Settings → options: see databricks-options.ts.
 */
import type { DBSQLClient } from "@databricks/sql";
import type { BackendBSettings } from "./databricks-settings.js";
import { withDeadline } from "../../driver/deadline.js";
import { secretForms } from "../../driver/secret-redaction.js";
import { importPeer, MissingPackageError } from "../../packages/peer-package.js";
import type { DatabaseConnection } from "../../driver/database-connection.js";
import type { Driver } from "../../driver/driver.js";
import { boundConnects, DEFAULT_CONNECT_TIMEOUT_MS } from "./databricks-connect-deadline.js";
import { DatabricksConnection, type DecimalParameterFactory } from "./databricks-connection.js";
import { applyDecimalPrecisionPatch } from "./databricks-decimal-patch.js";
import { connectionFailure, isDatabricksDisconnect, redact } from "./databricks-errors.js";
import {
  connectOptionsOf,
  endpointOf,
  secretsOf,
  sessionRequestOf,
  type DatabricksDriverOptions,
} from "./databricks-options.js";

/** How long `destroy()` waits for the client to close (an unresponsive warehouse). */
const CLOSE_TIMEOUT_MS = 5_000;

/** The driver logs every connect at info level to stdout by default; the library stays quiet. */
const SILENT_LOGGER = { log: (): void => undefined };

export class DatabricksDriver implements Driver {
  readonly #settings: BackendBSettings;
  readonly #options: DatabricksDriverOptions;
  readonly #secrets: readonly string[];
  #client: Promise<{ client: DBSQLClient; decimalParameter: DecimalParameterFactory }> | undefined;
  readonly #connections = new Set<DatabricksConnection>();
  #destroyed = false;

  constructor(settings: BackendBSettings, options: DatabricksDriverOptions = {}) {
    this.#settings = settings;
    this.#options = options;
    this.#secrets = secretForms(secretsOf(settings));
  }

  async openConnection(): Promise<DatabaseConnection> {
    if (this.#destroyed) throw new Error("The backend_b driver has been destroyed");
    const endpoint = this.#endpointText();
    let session;
    let decimalParameter: DecimalParameterFactory;
    try {
      const connected = await this.#connectedClient();
      decimalParameter = connected.decimalParameter;
      session = await connected.client.openSession(sessionRequestOf(this.#settings));
    } catch (error) {
      if (error instanceof MissingPackageError) throw error;
      throw connectionFailure(error, endpoint, this.#secrets);
    }
    const connection: DatabricksConnection = new DatabricksConnection(session, this.#secrets, decimalParameter, () =>
      this.#connections.delete(connection),
    );
    this.#connections.add(connection);
    return connection;
  }

  /** A session the warehouse forgot (restart), or a transport failure. */
  isDisconnect(error: unknown): boolean {
    return isDatabricksDisconnect(error);
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    await Promise.all([...this.#connections].map((c) => c.close()));
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined)
      await withDeadline(
        client.then((c) => c.client.close()),
        CLOSE_TIMEOUT_MS,
      ).catch(() => undefined);
  }

  #endpointText(): string {
    try {
      const { host, port, path } = endpointOf(this.#settings);
      return redact(`https://${host}:${port}${path}`, this.#secrets);
    } catch {
      return "backend_b";
    }
  }

  /**
   * The shared client, connected once (lazily: the first network call is the first openSession).
   * The driver package is loaded here, not at import: it costs ~0.4 s, which backend C users and
   * the CLI should not pay.
   */
  #connectedClient(): Promise<{ client: DBSQLClient; decimalParameter: DecimalParameterFactory }> {
    this.#client ??= (async () => {
      const options = connectOptionsOf(this.#settings, this.#options);
      const { DBSQLClient, DBSQLParameter, DBSQLParameterType } = await importPeer(
        { name: "@databricks/sql", usedFor: "backend_b (Databricks)" },
        () => import("@databricks/sql"),
      );
      applyDecimalPrecisionPatch();
      const client = new DBSQLClient({ logger: SILENT_LOGGER });
      // Errors the client emits outside a call (e.g. a failed background refresh) must not crash the process.
      client.on("error", () => undefined);
      await client.connect(options);
      await boundConnects(client, this.#settings.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS);
      // The type carries precision and scale (`DECIMAL(12,3)`): a bare DECIMAL is DECIMAL(10,0) on the warehouse.
      const decimalParameter: DecimalParameterFactory = (text, sqlType) =>
        new DBSQLParameter({
          type: sqlType as typeof DBSQLParameterType.DECIMAL,
          value: text,
        }) as unknown as ReturnType<DecimalParameterFactory>;
      return { client, decimalParameter };
    })().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }
}
