/** "Did you mean ...?" for misspelled field names. */

/** Spelling-insensitive form: `pool_size`, `poolSize` and `POOL-SIZE` all read `poolsize`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/** The candidate closest to `name`, or undefined when none is close enough to be a likely typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalizeName(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalizeName(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(2, Math.floor(wanted.length / 3));
  return bestDistance <= tolerance ? best : undefined;
}

/** Levenshtein distance (insert, delete, substitute), one row at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
