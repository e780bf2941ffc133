/**
 * A short key per definition object for the probe cache. The shared definition cache hands every
 * connection the same deep-frozen object until a commit may have changed the catalog, so a frozen
 * definition is keyed by identity (a counter); an unfrozen one (read inside a transaction, or built
 * by a caller) by its JSON, computed once per object. The key never outlives its object's meaning:
 * a changed definition is a new object.
 */
import type { SemanticViewDefinition } from "../view-definition.js";

const keys = new WeakMap<SemanticViewDefinition, string>();
let next = 0;

export function definitionKey(def: SemanticViewDefinition): string {
  let key = keys.get(def);
  if (key === undefined) keys.set(def, (key = Object.isFrozen(def) ? `#${++next}` : JSON.stringify(def)));
  return key;
}
