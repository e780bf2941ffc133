/**
 * Duration strings of the configuration file (`login_timeout = "1m30s"`).
 *
 * Grammar: one or more `<number><unit>` terms with no spaces, where `<number>` is a non-negative
 * decimal (`3`, `3.5`) and `<unit>` is `h`, `m`, `s` or `ms`. Each unit appears at most once and
 * units go from largest to smallest (`1h2m3.5s`, `300ms`, `1m30s`). A bare number is rejected:
 * the unit is required, so `30` cannot silently mean seconds in one place and milliseconds in
 * another. The result is whole milliseconds; a value finer than a millisecond (`0.5ms`) is
 * rejected rather than rounded.
 */

const UNIT_MS = { h: 3_600_000n, m: 60_000n, s: 1_000n, ms: 1n } as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = ["h", "m", "s", "ms"];

// `ms` must be tried before `m`, hence the alternation order.
const TERM = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;

/** Thrown by {@link parseDuration}; the config layer wraps it into a `ValidationError`. */
export class DurationSyntaxError extends Error {
  override name = "DurationSyntaxError";
}

/** Parse a duration string such as `"1h2m3.5s"` into milliseconds. Throws `DurationSyntaxError`. */
export function parseDuration(text: string): number {
  if (text.length === 0) throw new DurationSyntaxError('a duration must not be empty (write e.g. "30s")');
  if (/^\d+(\.\d+)?$/.test(text)) {
    throw new DurationSyntaxError(`a duration needs a unit (ms, s, m or h), e.g. "${text}s"`);
  }
  let total = 0n;
  let lastUnitIndex = -1;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < text.length) {
    const start = TERM.lastIndex;
    const match = TERM.exec(text);
    if (match === null) {
      throw new DurationSyntaxError(
        `unexpected text at position ${start + 1}; expected terms like "1h", "2m", "3.5s", "300ms"`,
      );
    }
    const [, digits, unitText] = match as unknown as [string, string, Unit];
    const unitIndex = UNIT_ORDER.indexOf(unitText);
    if (unitIndex <= lastUnitIndex) {
      throw new DurationSyntaxError(
        `unit "${unitText}" is repeated or out of order; write units from h to ms, each once`,
      );
    }
    lastUnitIndex = unitIndex;
    total += termToMilliseconds(digits, UNIT_MS[unitText]);
  }
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new DurationSyntaxError("the duration is too large");
  return Number(total);
}

// Exact decimal arithmetic, so "1.001s" is 1001 ms and not 1000.9999999999999.
function termToMilliseconds(digits: string, unitMs: bigint): bigint {
  const [whole, fraction = ""] = digits.split(".") as [string, string?];
  const scaled = BigInt(whole + fraction) * unitMs;
  const divisor = 10n ** BigInt(fraction.length);
  if (scaled % divisor !== 0n) throw new DurationSyntaxError("durations are limited to whole milliseconds");
  return scaled / divisor;
}
