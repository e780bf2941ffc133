/**
 * Deterministic demo sales data: 36 countries in 6 regions, weighted by market size, with
 * log-normal-ish order values. The same seed always yields the same rows.
 */
import { mulberry32 } from "./prng.js";

export { mulberry32 };

export interface DemoCountry {
  /** ISO 3166-1 alpha-2 code: the value of the `country` dimension. */
  readonly code: string;
  readonly region: string;
  /** Relative share of orders. */
  readonly weight: number;
}

export interface SalesRow {
  readonly revenue: number;
  readonly cost: number;
  readonly country: string;
  readonly region: string;
}

const REGIONS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  "North America": [
    ["US", 30],
    ["CA", 8],
    ["MX", 6],
  ],
  "South America": [
    ["BR", 9],
    ["AR", 4],
    ["CL", 3],
    ["CO", 3],
    ["PE", 2],
  ],
  Europe: [
    ["DE", 14],
    ["GB", 13],
    ["FR", 11],
    ["IT", 8],
    ["ES", 7],
    ["NL", 5],
    ["SE", 4],
    ["PL", 4],
    ["CH", 4],
    ["BE", 3],
    ["AT", 3],
    ["IE", 2],
    ["PT", 2],
  ],
  "Asia Pacific": [
    ["JP", 12],
    ["CN", 12],
    ["IN", 9],
    ["KR", 6],
    ["AU", 6],
    ["SG", 3],
    ["ID", 3],
    ["NZ", 2],
  ],
  "Middle East": [
    ["AE", 3],
    ["SA", 3],
    ["IL", 2],
  ],
  Africa: [
    ["ZA", 3],
    ["NG", 2],
    ["EG", 2],
    ["KE", 1],
  ],
};

export const DEMO_COUNTRIES: readonly DemoCountry[] = Object.freeze(
  Object.entries(REGIONS).flatMap(([region, countries]) =>
    countries.map(([code, weight]) => Object.freeze({ code, region, weight })),
  ),
);

export const DEMO_SEED = 20261122;
export const DEMO_ROW_COUNT = 6000;

export function generateSalesRows(count = DEMO_ROW_COUNT, seed = DEMO_SEED): SalesRow[] {
  const random = mulberry32(seed);
  const total = DEMO_COUNTRIES.reduce((sum, c) => sum + c.weight, 0);
  const pick = (): DemoCountry => {
    let r = random() * total;
    for (const c of DEMO_COUNTRIES) {
      r -= c.weight;
      if (r < 0) return c;
    }
    return DEMO_COUNTRIES[DEMO_COUNTRIES.length - 1]!;
  };
  const rows: SalesRow[] = [];
  for (let i = 0; i < count; i++) {
    const country = pick();
    // Sum of three uniforms ~ bell curve in [0, 3); exponentiate for a long right tail of big orders.
    const bell = random() + random() + random();
    const revenue = Math.round(40 * Math.exp(bell * 1.6));
    const margin = 0.15 + random() * 0.4;
    rows.push({ revenue, cost: Math.round(revenue * (1 - margin)), country: country.code, region: country.region });
  }
  return rows;
}
