/**
 * The settings every connection type shares: the pool's, and the connection fields of
 * `COMMON_FIELDS` (`config/fields.ts`). Each dialect's settings type extends it with its own `type`
 * (`BackendASettings`, ...); `BackendType` and `ConnectionSettings` are derived from DIALECTS beside
 * the record (`dialects.ts`). Durations are milliseconds; secrets are wrapped in `Secret`.
 */
import type { Secret } from "../config/secret.js";

/** Fields every connection type accepts. */
export interface CommonSettings<Type extends string = string> {
  readonly type: Type;
  /** Connections kept in the pool. */
  readonly poolSize: number;
  /** Extra connections allowed beyond poolSize under load. */
  readonly maxOverflow: number;
  /** Seconds to wait for a pooled connection before the pool's TimeoutError. */
  readonly timeout: number;
  /** Seconds after which a connection is replaced at checkout. */
  readonly recycle: number;
  /** Seconds `dispose()` waits for connections to close before abandoning them (resolved settings always carry it; default 10). */
  readonly disposeTimeout?: number;
  /** Test a pooled connection before handing it out. */
  readonly prePing: boolean;
  readonly user?: string | undefined;
  readonly password?: Secret | undefined;
  readonly database?: string | undefined;
  readonly schema?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly protocol?: "http" | "https" | undefined;
}
