/**
 * TypeBox, loaded by the first schema helper called or the first model mapped (`into()`, `iterInto()`),
 * not by `import "lib"` (../packages/on-first-use.ts): its builder and compiler are most of what the
 * library would otherwise load at startup.
 */
import type * as TypeBox from "typebox";
import type * as TypeBoxCompile from "typebox/compile";
import { onFirstUse } from "../packages/on-first-use.js";

export const typebox = onFirstUse<typeof TypeBox>("typebox");
export const typeboxCompile = onFirstUse<typeof TypeBoxCompile>("typebox/compile");
