/** The built-in semantic-view engine for DuckDB (see builtin-layer.ts). */
export { createBuiltinSemanticLayer, executeSemanticStatement } from "./builtin-layer.js";
export type { HandledStatement, RawColumn, SemanticLayer, SqlSession } from "./semantic-layer.js";
export type { Access, MemberDef, MetricDef, RelationshipDef, SemanticViewDefinition, TableDef } from "./model.js";
export { SemanticViewError, type SemanticErrorKind } from "./semantic-error.js";
export {
  CATALOG_SCHEMA,
  CATALOG_TABLE,
  listDefinitions,
  loadDefinition,
  sessionCatalog,
  type DefinitionCatalog,
} from "./catalog.js";
export { parseSemanticStatement } from "./ddl/parse-statement.js";
export { renderDdl } from "./ddl/render.js";
export { mayHandle, splitStatements } from "./sql/split.js";
export { tokenize, type Token, type TokenKind } from "./sql/lexer.js";
export { identEquals, quoteIdent, quoteLiteral } from "./sql/quote.js";
