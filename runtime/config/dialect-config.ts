/**
 * A dialect's configuration, as data the configuration pipeline reads. `runtime/config/` knows no
 * dialect: whoever resolves a connection (`loadConnectionSettings` in the dialects layer, which
 * reads the DIALECTS record) hands it the backend and the list of all backends.
 */
import type { EnvFallback, FieldSpec } from "./fields.js";
import type { BackendRules } from "./resolved-values.js";

/** How a dialect's connections are configured: one `[connections.<name>]` section or config object. */
export interface DialectConfig extends EnvFallback {
  /** Every field a section accepts, common fields first (`withCommonFields`). */
  readonly fields: readonly FieldSpec[];
  /** The dialect's own fields (the README reference lists the common ones once). */
  readonly ownFields: readonly FieldSpec[];
  /** Env fallbacks to skip, dependent defaults, cross-field validation. */
  readonly rules: BackendRules;
  /** The config-object class (`BackendAConfig`), named in messages. */
  readonly className: string;
  /** Paragraph the README configuration reference prints after the dialect's table. */
  readonly referenceNotes?: string;
}

/** A backend as the pipeline sees it: the name a section's `type` gives, and its configuration (a `Dialect` is one). */
export interface ConfigurableBackend {
  readonly name: string;
  readonly config: DialectConfig;
}

/** Resolved, frozen settings before the dialect layer gives them their backend's settings type. */
export type ResolvedSettings = Readonly<Record<string, unknown>>;
