/** "Did you mean" support: Levenshtein distance and the closest candidate within a budget. */

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

/** The closest candidate within `maxDistance` edits (case-insensitive), first wins on ties. */
export function closestName(name: string, candidates: Iterable<string>, maxDistance = 3): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const d = levenshtein(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** ` Did you mean 'x'?` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>, maxDistance = 3): string {
  const match = closestName(name, candidates, maxDistance);
  return match === undefined ? "" : ` Did you mean '${match}'?`;
}
