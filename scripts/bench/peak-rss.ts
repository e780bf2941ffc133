/**
 * The process's true peak RSS where Linux reports it: writing "5" to /proc/self/clear_refs resets the
 * high-water mark (VmHWM in /proc/self/status) to the current RSS. Sampling RSS between a stream's
 * chunks reads too low: V8 frees the ArrayBuffers a stream dropped only at its next collection, so RSS
 * saw-tooths between samples.
 */
import { readFileSync, writeFileSync } from "node:fs";

/** The highest RSS since the last reset, in bytes, or undefined where the system does not say. */
function highWaterMark(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Starts watching the peak RSS from now: the returned function gives the highest RSS since this
 * call, in bytes, or 0 where the system keeps no high-water mark (then only the caller's samples count).
 */
export function watchPeakRss(): () => number {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    return () => 0;
  }
  return highWaterMark() === undefined ? () => 0 : () => highWaterMark() ?? 0;
}
