/**
 * "Did you mean" support for every message that suggests a name (semantic DDL and queries, config
 * fields, CLI options): Levenshtein distance and the closest candidate within a budget.
 */

export function levenshtein(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[t.length]!;
}

/** The candidate whose `key` is closest to `key(name)` within `maxDistance` edits; first wins on ties. */
function closest(
  name: string,
  candidates: Iterable<string>,
  key: (name: string) => string,
  maxDistance: number,
): string | undefined {
  const wanted = key(name);
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const d = levenshtein(wanted, key(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** The closest candidate within `maxDistance` edits (case-insensitive), first wins on ties. */
export function closestName(name: string, candidates: Iterable<string>, maxDistance = 3): string | undefined {
  return closest(name, candidates, (n) => n, maxDistance);
}

/** Spelling-insensitive form: `pool_size`, `poolSize` and `POOL-SIZE` all read `poolsize`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/**
 * A config field or CLI option close to `name`, compared spelling-insensitively, within a budget
 * that grows with the name (a third of its length, at least 2), or undefined.
 */
export function closestFieldName(name: string, candidates: Iterable<string>): string | undefined {
  return closest(name, candidates, normalizeName, Math.max(2, Math.floor(normalizeName(name).length / 3)));
}

/** ` Did you mean 'x'?` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>, maxDistance = 3): string {
  const match = closestName(name, candidates, maxDistance);
  return match === undefined ? "" : ` Did you mean '${match}'?`;
}
