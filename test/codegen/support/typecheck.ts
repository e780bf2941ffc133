/**
 * Type-checks generated modules plus a usage file with the repository's TypeScript (in-process, see
 * `test/support/typescript-check.ts`), in a temporary project under the repository's tsconfig, so
 * `lib` resolves to runtime/index.ts.
 */
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT } from "./run-cli.js";
import { checkProject, type CheckResult } from "../../support/typescript-check.js";

export async function typecheck(dir: string, files: readonly string[]): Promise<CheckResult> {
  // The repository's own settings (strict, nodenext, ...), with `lib` resolving to runtime/index.ts.
  const tsconfig = {
    extends: join(REPO_ROOT, "tsconfig.json"),
    compilerOptions: { noEmit: true },
    include: [],
    files: files.map((f) => join(dir, f)),
  };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  // The generated code imports "typebox" like an application would: from its node_modules.
  await symlink(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return checkProject(join(dir, "tsconfig.json"));
}

/** Uses the generated `Sales` and `RevenueByCountry` the way the example service does; type errors fail the check. */
export const SALES_USAGE = `import type { RowOf } from "lib";
import type { Static } from "typebox";
import { RevenueByCountry, Sales, SalesRow } from "./index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expand<T> = { [K in keyof T]: T[K] };

const query = Sales.query().metrics(Sales.revenue).dimensions(Sales.country).orderBy(Sales.revenue.desc());
export const rowType: Equal<Expand<RowOf<typeof query>>, { country: string; revenue: bigint }> = true;

const all = Sales.query().metrics(Sales.revenue, Sales.cost).dimensions(Sales.country, Sales.region);
export const allType: Equal<Expand<RowOf<typeof all>>, { country: string; region: string; revenue: bigint; cost: bigint }> = true;

export const viewName: "sales" = Sales.viewName;
export const title: unknown = (RevenueByCountry as { title?: unknown }).title;
export const dto: Static<typeof RevenueByCountry> = { country: "US", revenue: 1n };
// @ts-expect-error the DTO's 64-bit revenue is a bigint (BigIntType), not a number
export const dtoNumber: Static<typeof RevenueByCountry> = { country: "US", revenue: 1 };
export const row: keyof Static<typeof SalesRow> = "region";
// @ts-expect-error a field the view does not have
Sales.profit;
// @ts-expect-error SUM over INTEGER arrives as bigint, not number
export const wrong: number = null as unknown as RowOf<typeof query>["revenue"];
// @ts-expect-error country is a string
export const wrongCountry: number = null as unknown as RowOf<typeof query>["country"];
`;
