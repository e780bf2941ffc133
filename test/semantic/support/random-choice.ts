/** Seeded random choices for the differential and property tests (the generator is `scripts/prng.ts`). */

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A random subset (order randomized), of size between min and max. */
export function subset<T>(random: () => number, items: readonly T[], min: number, max: number): T[] {
  const pool = [...items];
  const size = min + Math.floor(random() * (Math.min(max, pool.length) - min + 1));
  const out: T[] = [];
  while (out.length < size) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}
