/**
 * "builder-scale": scale curves of the query builder and the compilers (issue 25): `.where()` chained N
 * times, one `and()` of N terms, one `in()` of N values; each built alone, then built and compiled for
 * every dialect. No I/O and no raw counterpart; a per-unit cost that more than doubles from the smallest
 * to the largest size is flagged SUPER-LINEAR.
 */
import { and, type SemanticQuery } from "lib";
import { BACKENDS } from "lib/dialects";
import { Sales } from "./revenue-by-country.js";
import { printCurve, timed, type Point } from "./scale-curve.js";
import type { BenchSettings } from "./bench-settings.js";

type Built = SemanticQuery<"sales", object>;

const base = () => Sales.query().metrics(Sales.revenue).dimensions(Sales.country);

const SHAPES: Record<string, (n: number) => Built> = {
  "where() chained N times": (n) => {
    let q: Built = base();
    for (let i = 0; i < n; i++) q = q.where(Sales.region.ne(`r${i}`));
    return q;
  },
  "where(and() of N terms)": (n) => base().where(and(...Array.from({ length: n }, (_, i) => Sales.region.ne(`r${i}`)))),
  "where(in() of N values)": (n) => base().where(Sales.country.in(Array.from({ length: n }, (_, i) => `c${i}`))),
};

let sink = 0;

async function curve(sizes: readonly number[], runs: number, body: (n: number) => void): Promise<Point[]> {
  const points: Point[] = [];
  for (const size of sizes) {
    // Small sizes repeat inside one sample so every sample lasts long enough to time.
    const repeat = Math.max(1, Math.floor(sizes[sizes.length - 1]! / size));
    const ms = await timed(runs, () => {
      for (let i = 0; i < repeat; i++) body(size);
    });
    points.push({ size, ms: ms / repeat });
  }
  return points;
}

export async function runBuilderScale(settings: BenchSettings): Promise<void> {
  const runs = settings.quick ? 5 : 15;
  const sizes = [100, 1_000, 10_000];
  const failing: string[] = [];
  for (const [title, shape] of Object.entries(SHAPES)) {
    const built = await curve(sizes, runs, (n) => void (sink += shape(n).toOperationNode().metrics.length));
    if (!printCurve(`builder-scale: ${title}, built`, "N", built)) failing.push(`${title}, built`);
    const compiled = await curve(sizes, runs, (n) => {
      const q = shape(n);
      for (const dialect of BACKENDS) sink += q.toSql({ dialect }).length;
    });
    if (!printCurve(`builder-scale: ${title}, built + toSql() per dialect`, "N", compiled)) {
      failing.push(`${title}, compiled`);
    }
  }
  if (sink === 0) throw new Error("builder-scale produced no SQL");
  console.log(
    `\nbuilder-scale: ${failing.length === 0 ? "every curve linear" : `SUPER-LINEAR: ${failing.join("; ")}`}`,
  );
}
