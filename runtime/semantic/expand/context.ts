/** What every expansion step shares: the definition, its join graph and the error it raises. */
import type { SemanticViewDefinition } from "../view-definition.js";
import { SemanticViewError } from "../semantic-error.js";
import { JoinGraph } from "./join-graph.js";
import type { JoinLayout } from "./join-layout.js";

/** A table a query needs joined, and who needs it (for error messages). */
export interface Requirement {
  readonly table: string;
  readonly label: string;
  /** What an ambiguity error names, when shorter than the label (`dimension 'd'`). */
  readonly subject?: string | undefined;
}

export class ExpandContext {
  readonly graph: JoinGraph;

  constructor(
    readonly def: SemanticViewDefinition,
    /** How each SELECT writes its LEFT JOINs: nested (what runs) or the extension's chain (explain). */
    readonly joinLayout: JoinLayout = "tree",
  ) {
    this.graph = new JoinGraph(def);
  }

  /** Errors carry the view name, as the extension's bind errors do. */
  fail(message: string): never {
    throw new SemanticViewError("invalid", `semantic view '${this.def.name}': ${message}`);
  }
}
