import { SemanticQueryCompiler } from "../../runtime/query-compiler/semantic-query-compiler.js";

/** Counts the full compiles (`compileSemanticQuery`) the library runs while `body` runs. */
export function compilesDuring(body: () => void): number {
  const proto = SemanticQueryCompiler.prototype;
  const original = proto.compileSemanticQuery;
  let count = 0;
  proto.compileSemanticQuery = function (this: SemanticQueryCompiler, ...args) {
    count++;
    return original.apply(this, args);
  };
  try {
    body();
  } finally {
    proto.compileSemanticQuery = original;
  }
  return count;
}
