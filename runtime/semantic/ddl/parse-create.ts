/**
 * Parser for `CREATE [OR REPLACE] SEMANTIC VIEW ... AS TABLES (...) ...`: the statement head, the
 * clause order, TABLES and RELATIONSHIPS entries, and the YAML forms. Members are parsed by
 * `parse-member.ts` (their expressions stay exact SQL text); the validator turns the draft entries
 * into a SemanticViewDefinition.
 */
import { SemanticViewError } from "../semantic-error.js";
import { closestName, didYouMean } from "../../text/suggest.js";
import { isName, keywordOf } from "../sql/tokens.js";
import type {
  CreateFromYamlFileStatement,
  CreateSemanticViewStatement,
  DraftMaterialization,
  DraftMember,
  DraftRelationship,
  DraftTable,
} from "./statements.js";
import { describe, TokenStream } from "../sql/token-stream.js";
import { parseQualifiedName, type QualifiedName } from "../sql/parse-qualified-name.js";
import { parseYamlBody } from "./parse-yaml.js";
import { parseMaterialization } from "./parse-materializations.js";
import { once, parseComment, parseNameList, parseSynonyms } from "./parse-annotations.js";
import { parseMember } from "./parse-member.js";

export const CLAUSES = ["TABLES", "RELATIONSHIPS", "FACTS", "DIMENSIONS", "METRICS", "MATERIALIZATIONS"] as const;
type Clause = (typeof CLAUSES)[number];

/** Parses a CREATE SEMANTIC VIEW statement; the stream is positioned at CREATE. */
export function parseCreate(ts: TokenStream): CreateSemanticViewStatement | CreateFromYamlFileStatement {
  ts.expectKeyword("CREATE");
  const orReplace = ts.acceptKeyword("OR", "REPLACE");
  ts.expectKeyword("SEMANTIC");
  ts.expectKeyword("VIEW");
  const ifNotExists = ts.acceptKeyword("IF", "NOT", "EXISTS");
  if (orReplace && ifNotExists) throw ts.error("OR REPLACE and IF NOT EXISTS cannot be combined", ts.tokens[0]);
  if (ts.atEnd() || ts.isPunct(";")) throw ts.error("Missing view name after DDL prefix.");
  const { name } = parseQualifiedName(ts, "semantic view name");
  let comment: string | undefined;
  if (ts.isKeyword("COMMENT")) comment = parseComment(ts);
  if (ts.isKeywords("FROM", "YAML")) return parseFromYaml(ts, orReplace, ifNotExists, name, comment);
  if (!ts.acceptKeyword("AS")) {
    throw ts.error(
      "Expected 'AS' or 'FROM YAML' after view name. Use: CREATE SEMANTIC VIEW name AS TABLES (...) DIMENSIONS (...) METRICS (...) or: CREATE SEMANTIC VIEW name FROM YAML $$ ... $$",
    );
  }

  const tables: DraftTable[] = [];
  const relationships: DraftRelationship[] = [];
  const facts: DraftMember[] = [];
  const dimensions: DraftMember[] = [];
  const metrics: DraftMember[] = [];
  const materializations: DraftMaterialization[] = [];
  let last = -1;
  const seen = new Set<Clause>();
  while (!ts.atEnd() && !ts.isKeyword("COMMENT") && !ts.isPunct(";")) {
    const token = ts.next();
    const word = keywordOf(token);
    const index = CLAUSES.indexOf(word as Clause);
    if (index < 0) {
      const suggestion = closestName(word || token.text, CLAUSES);
      throw ts.error(
        `Unknown clause keyword '${token.text}'${suggestion === undefined ? "" : `; did you mean '${suggestion}'?`} (expected one of ${CLAUSES.join(", ")})`,
        token,
      );
    }
    if (last < 0 && word !== "TABLES")
      throw ts.error(`Missing required clause 'TABLES'. TABLES must come first, found ${word}.`, token);
    if (index === last) throw ts.error(`Duplicate clause keyword '${word}'.`, token);
    if (index < last) {
      throw ts.error(
        `Clause '${word}' appears out of order; clauses must appear as: TABLES, RELATIONSHIPS (optional), FACTS (optional), DIMENSIONS (optional), METRICS (optional), MATERIALIZATIONS (optional).`,
        token,
      );
    }
    last = index;
    seen.add(word as Clause);
    ts.expectPunct("(", `after ${word}`);
    // An empty list is a clause with no entries (`DIMENSIONS ()`), as in the extension; TABLES needs one.
    if (ts.isPunct(")")) {
      if (word === "TABLES") throw ts.error(`${word} must list at least one entry`);
      ts.next();
      continue;
    }
    for (;;) {
      switch (word as Clause) {
        case "TABLES":
          tables.push(parseTable(ts));
          break;
        case "RELATIONSHIPS":
          relationships.push(parseRelationship(ts));
          break;
        case "FACTS":
          facts.push(parseMember(ts, "fact"));
          break;
        case "DIMENSIONS":
          dimensions.push(parseMember(ts, "dimension"));
          break;
        case "METRICS":
          metrics.push(parseMember(ts, "metric"));
          break;
        default:
          materializations.push(parseMaterialization(ts));
      }
      // One trailing comma is tolerated (`METRICS (a AS x, )`), as in the extension.
      if (ts.acceptPunct(",") && !ts.isPunct(")")) continue;
      if (ts.acceptPunct(")")) break;
      if (ts.atEnd()) throw ts.error(`Unclosed '(' for clause '${word}'.`);
      throw ts.error(`expected ',' or ')' in ${word}, found ${describe(ts.peek())}`);
    }
  }
  if (last < 0) throw ts.error("Missing required clause 'TABLES'.");
  // The extension's rule is about the clauses being present, not their entries.
  if (!seen.has("DIMENSIONS") && !seen.has("METRICS")) {
    throw ts.error("At least one of 'DIMENSIONS' or 'METRICS' is required.", ts.tokens[0]);
  }
  if (ts.isKeyword("COMMENT")) {
    const at = ts.peek();
    const trailing = parseComment(ts);
    if (comment !== undefined)
      throw ts.error("COMMENT given twice (before AS and after the clauses); use one position", at);
    comment = trailing;
  }
  ts.acceptPunct(";");
  if (!ts.atEnd()) throw ts.error(`unexpected ${describe(ts.peek())} after the semantic view definition`);
  return {
    type: "create",
    orReplace,
    ifNotExists,
    name,
    comment,
    tables,
    relationships,
    facts,
    dimensions,
    metrics,
    materializations,
    sql: ts.sql,
  };
}

function parseTable(ts: TokenStream): DraftTable {
  const position = ts.peek()?.start ?? ts.sql.length;
  let alias: string | undefined;
  if (isName(ts.peek()) && ts.isKeyword("AS", 1)) {
    alias = ts.next().value;
    ts.next();
  }
  const ref = parseQualifiedName(ts, "table name");
  const table = ts.sql.slice(ref.first.start, ref.last.end);
  alias ??= ref.parts[ref.parts.length - 1]!;
  let primaryKey: string[] = [];
  const unique: string[][] = [];
  let comment: string | undefined;
  let synonyms: string[] = [];
  const annotated = new Set<string>();
  while (!ts.isPunct(",") && !ts.isPunct(")")) {
    if (ts.acceptKeyword("PRIMARY")) {
      ts.expectKeyword("KEY", "after PRIMARY");
      if (primaryKey.length > 0) throw ts.error(`table '${alias}' has two PRIMARY KEY clauses`);
      primaryKey = parseNameList(ts, "primary key columns");
    } else if (ts.acceptKeyword("UNIQUE")) {
      unique.push(parseNameList(ts, "unique columns"));
    } else if (ts.isKeyword("COMMENT")) {
      once(ts, annotated, "COMMENT", `table '${alias}'`);
      comment = parseComment(ts);
    } else if (ts.isKeywords("WITH", "SYNONYMS")) {
      once(ts, annotated, "WITH SYNONYMS", `table '${alias}'`);
      synonyms = parseSynonyms(ts);
    } else {
      const token = ts.peek();
      const hint =
        keywordOf(token) === "" ? "" : didYouMean(keywordOf(token), ["PRIMARY", "UNIQUE", "COMMENT", "WITH"], 2);
      throw ts.error(
        `unexpected ${describe(token)} in table '${alias}'; expected PRIMARY KEY, UNIQUE, COMMENT, WITH SYNONYMS, ',' or ')'.${hint}`,
      );
    }
  }
  return { alias, table, tableParts: ref.parts, primaryKey, unique, comment, synonyms, position };
}

function parseRelationship(ts: TokenStream): DraftRelationship {
  const position = ts.peek()?.start ?? ts.sql.length;
  let name: string | undefined;
  if (isName(ts.peek()) && ts.isKeyword("AS", 1)) {
    name = ts.next().value;
    ts.next();
  }
  const fromAlias = ts.expectName("relationship source table alias").value;
  const fkColumns = parseNameList(ts, "foreign key columns");
  ts.expectKeyword("REFERENCES", `in relationship${name ? ` '${name}'` : ""}`);
  const toAlias = ts.expectName("referenced table alias").value;
  const refColumns = ts.isPunct("(") ? parseNameList(ts, "referenced columns") : [];
  if (ts.isKeyword("ONE") || ts.isKeyword("MANY")) {
    throw ts.error(
      "cardinality keywords (ONE TO ONE, MANY TO ONE) are not supported: cardinality is inferred from PRIMARY KEY and UNIQUE",
    );
  }
  return { name: name ?? `${fromAlias}_to_${toAlias}`, fromAlias, fkColumns, toAlias, refColumns, position };
}

/** `... FROM YAML $$ body $$` (or `$tag$ ... $tag$`, or a quoted string), or `FROM YAML FILE '<path>'`. */
function parseFromYaml(
  ts: TokenStream,
  orReplace: boolean,
  ifNotExists: boolean,
  name: QualifiedName,
  comment: string | undefined,
): CreateSemanticViewStatement | CreateFromYamlFileStatement {
  ts.next();
  ts.next();
  if (ts.acceptKeyword("FILE")) {
    const pathToken = ts.peek();
    if (pathToken === undefined || pathToken.kind !== "string") {
      throw ts.error(`Expected single-quoted file path after FILE keyword, found ${describe(pathToken)}`);
    }
    ts.next();
    if (pathToken.value.trim() === "") throw ts.error("File path cannot be empty.", pathToken);
    ts.acceptPunct(";");
    if (!ts.atEnd()) throw ts.error(`unexpected ${describe(ts.peek())} after the YAML file path`);
    return { type: "create_from_yaml_file", orReplace, ifNotExists, name, comment, path: pathToken.value, sql: ts.sql };
  }
  const body = ts.peek();
  if (body === undefined || (body.kind !== "dollar_string" && body.kind !== "string")) {
    throw ts.error(
      `Expected '$' to begin dollar-quoted string (the YAML body, FROM YAML $$ ... $$), found ${describe(body)}`,
    );
  }
  ts.next();
  ts.acceptPunct(";");
  if (!ts.atEnd()) throw ts.error(`Unexpected content after closing dollar-quote: ${describe(ts.peek())}`);
  return createFromYamlBody(body.value, { orReplace, ifNotExists, name, comment, sql: ts.sql });
}

/** Builds the CREATE statement from a YAML body (inline, or read from a file at execution). */
export function createFromYamlBody(
  text: string,
  head: { orReplace: boolean; ifNotExists: boolean; name: QualifiedName; comment?: string | undefined; sql: string },
): CreateSemanticViewStatement {
  const yaml = parseYamlBody(text, head.name.name.toLowerCase());
  if (head.comment !== undefined && yaml.comment !== undefined) {
    throw new SemanticViewError("parse", "COMMENT given both in the statement and in the YAML body");
  }
  return {
    type: "create",
    orReplace: head.orReplace,
    ifNotExists: head.ifNotExists,
    name: head.name,
    comment: head.comment ?? yaml.comment,
    tables: yaml.tables,
    relationships: yaml.relationships,
    facts: yaml.facts,
    dimensions: yaml.dimensions,
    metrics: yaml.metrics,
    materializations: yaml.materializations,
    sql: head.sql,
  };
}
