/** What every benchmark module gets from the command line (scripts/bench/bench.ts). */
export interface BenchSettings {
  /** `--quick`: a ~30 s smoke run (fewer rows, rounds and iterations). */
  readonly quick: boolean;
  /** Fact rows in the generated `sales_data` table. */
  readonly rows: number;
}
