/**
 * "compile": building a query with the builder and compiling it to SQL per dialect (µs/op, no I/O),
 * and compiling an already-built query. There is no raw counterpart: the numbers are absolute.
 */
import { and, type SemanticQuery } from "lib";
import { BACKENDS } from "lib/dialects";
import { measureGroup, type BenchCase, type GroupResult } from "./bench-harness.js";
import { Sales } from "./revenue-by-country.js";
import type { BenchSettings } from "./bench-settings.js";

/** The SPEC example with a filter: a realistic request shape. */
const build = () =>
  Sales.query()
    .metrics(Sales.revenue, Sales.cost)
    .dimensions(Sales.country, Sales.region)
    .where(and(Sales.country.in(["US", "DE", "FR"]), Sales.region.ne("US-1")))
    .orderBy(Sales.revenue.desc())
    .limit(100);

let sink = 0; // keeps results observable so nothing is optimized away

export async function runCompile(settings: BenchSettings): Promise<GroupResult[]> {
  const built: SemanticQuery<"sales", object> = build();
  const cases: BenchCase[] = [];
  for (const dialect of BACKENDS) {
    cases.push({
      name: `build + toSql(${dialect})`,
      role: "info",
      run: () => {
        sink += build().toSql({ dialect }).length;
      },
    });
  }
  for (const dialect of BACKENDS) {
    cases.push({
      name: `compile(${dialect}) of a built query`,
      role: "info",
      run: () => {
        sink += built.compile({ dialect }).sql.length;
      },
    });
  }
  const group = await measureGroup({
    benchmark: "compile",
    title: "compile: builder + SQL per dialect (no I/O)",
    warmupRounds: 2,
    rounds: settings.quick ? 7 : 21,
    batch: settings.quick ? 500 : 2_000,
    cases,
    note: "absolute per-operation times (no raw counterpart).",
  });
  if (sink === 0) throw new Error("compile benchmark produced no SQL");
  return [group];
}
