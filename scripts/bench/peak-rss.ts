/**
 * The process's true peak RSS where Linux reports it: writing "5" to /proc/self/clear_refs resets the
 * high-water mark (VmHWM in /proc/self/status) to the current RSS. Sampling RSS between a stream's
 * chunks reads too low: V8 frees the ArrayBuffers a stream dropped only at its next collection, so RSS
 * saw-tooths between samples.
 */
import { readFileSync, writeFileSync } from "node:fs";

/** Resets the high-water mark; false where the system has none (then only samples count). */
export function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return peakRss() !== undefined;
  } catch {
    return false;
  }
}

/** The highest RSS since the last reset, in bytes, or undefined where the system does not say. */
export function peakRss(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}
