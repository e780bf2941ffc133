/** The engine type as `createEngine` returns it (named here so the service has one import site). */
import type { createEngine } from "lib";

export type Engine = ReturnType<typeof createEngine>;
