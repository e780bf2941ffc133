/** The introspector of each backend. */
import type { BackendType } from "../../runtime/config/types.js";
import { BackendAIntrospector } from "./backend-a-introspector.js";
import { BackendBIntrospector } from "./backend-b-introspector.js";
import { BackendCIntrospector } from "./backend-c-introspector.js";
import type { IntrospectionSource, Introspector } from "./metadata.js";

export function introspectorFor(backend: BackendType, source: IntrospectionSource): Introspector {
  switch (backend) {
    case "backend_a":
      return new BackendAIntrospector(source);
    case "backend_b":
      return new BackendBIntrospector(source);
    case "backend_c":
      return new BackendCIntrospector(source);
  }
}
