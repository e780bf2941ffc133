/** A tiny seeded PRNG (mulberry32) so generated data and requests are deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
