/**
 * Recognises the statements the semantic layer executes itself: CREATE/DROP/ALTER SEMANTIC VIEW,
 * INSTALL/LOAD semantic_views, SHOW ... SEMANTIC ..., DESCRIBE SEMANTIC VIEW. Anything else gives
 * `null` (the statement may still contain semantic function calls, handled by the rewriters).
 */
import { SemanticViewError } from "../semantic-error.js";
import { checkNearMiss } from "./near-miss.js";
import { expectCommentEquals } from "./parse-annotations.js";
import { parseCreate } from "./parse-create.js";
import { parseQualifiedName } from "../sql/parse-qualified-name.js";
import type { AlterAction, SemanticStatement, ShowMembersStatement, ShowSemanticViewsStatement } from "./statements.js";
import { describe, TokenStream } from "../sql/token-stream.js";

const EXTENSION_NAME = "semantic_views";

export function parseSemanticStatement(sql: string): SemanticStatement | null {
  const ts = new TokenStream(sql);
  if (ts.isKeyword("CREATE")) {
    const i = ts.isKeywords("CREATE", "OR", "REPLACE") ? 3 : 1;
    if (ts.isKeyword("SEMANTIC", i) && ts.isKeyword("VIEW", i + 1)) return parseCreate(ts);
    checkNearMiss(ts.tokens);
    return null;
  }
  if (ts.isKeywords("DROP", "SEMANTIC")) return parseDrop(ts);
  if (ts.isKeywords("ALTER", "SEMANTIC")) return parseAlter(ts);
  if (ts.isKeyword("INSTALL") || ts.isKeywords("FORCE", "INSTALL") || ts.isKeyword("LOAD")) return parseExtension(ts);
  if (ts.isKeyword("SHOW")) return parseShow(ts);
  if ((ts.isKeyword("DESCRIBE") || ts.isKeyword("DESC")) && ts.isKeyword("SEMANTIC", 1)) {
    ts.next();
    ts.next();
    ts.expectKeyword("VIEW", "after DESCRIBE SEMANTIC");
    const view = parseQualifiedName(ts, "semantic view name").name;
    end(ts);
    return { type: "describe", view };
  }
  checkNearMiss(ts.tokens);
  return null;
}

function end(ts: TokenStream): void {
  ts.acceptPunct(";");
  if (!ts.atEnd()) throw ts.error(`unexpected ${describe(ts.peek())}`);
}

function parseDrop(ts: TokenStream): SemanticStatement {
  ts.next();
  ts.next();
  ts.expectKeyword("VIEW", "after DROP SEMANTIC");
  const ifExists = ts.acceptKeyword("IF", "EXISTS");
  const name = parseQualifiedName(ts, "semantic view name").name;
  end(ts);
  return { type: "drop", ifExists, name };
}

function parseAlter(ts: TokenStream): SemanticStatement {
  ts.next();
  ts.next();
  ts.expectKeyword("VIEW", "after ALTER SEMANTIC");
  const ifExists = ts.acceptKeyword("IF", "EXISTS");
  const name = parseQualifiedName(ts, "semantic view name").name;
  let change: AlterAction;
  if (ts.acceptKeyword("RENAME")) {
    ts.expectKeyword("TO", "after RENAME");
    change = { action: "rename", newName: parseQualifiedName(ts, "new semantic view name").name };
  } else if (ts.acceptKeyword("SET")) {
    ts.expectKeyword("COMMENT", "after SET");
    expectCommentEquals(ts);
    change = { action: "set_comment", comment: ts.expectString("comment text").value };
  } else if (ts.acceptKeyword("UNSET")) {
    ts.expectKeyword("COMMENT", "after UNSET");
    change = { action: "unset_comment" };
  } else {
    throw ts.error(`expected RENAME TO, SET COMMENT or UNSET COMMENT, found ${describe(ts.peek())}`);
  }
  end(ts);
  return { type: "alter", ifExists, name, change };
}

/** Only statements about the semantic_views extension are ours; other extensions pass through. */
function parseExtension(ts: TokenStream): SemanticStatement | null {
  ts.acceptKeyword("FORCE");
  const verb = ts.next().value.toLowerCase() as "install" | "load";
  const target = ts.peek();
  if (target === undefined || !["ident", "quoted_ident", "string"].includes(target.kind)) return null;
  if (target.value.toLowerCase() !== EXTENSION_NAME) return null;
  ts.next();
  if (verb === "install" && ts.acceptKeyword("FROM")) {
    const repo = ts.peek();
    if (repo === undefined) throw ts.error("expected a repository after FROM");
    ts.next();
  }
  end(ts);
  return { type: "extension", verb };
}

interface ShowFilters {
  like?: string;
  startsWith?: string;
  limit?: number;
  limitFrom?: string;
  inSchema?: string | null;
  inDatabase?: string | null;
  view?: ReturnType<typeof parseQualifiedName>["name"];
  forMetric?: string;
}

/** Words that end a bare `IN DATABASE` / `IN SCHEMA` (no name given). */
const AFTER_SCOPE = ["STARTS", "LIMIT", "FOR", "LIKE"];

/** `IN ACCOUNT | DATABASE [d] | SCHEMA [[d.]s]`, stream after IN; false when none of these. */
function parseScope(ts: TokenStream, out: ShowFilters): boolean {
  const bare = (): boolean => ts.atEnd() || ts.isPunct(";") || AFTER_SCOPE.some((w) => ts.isKeyword(w));
  if (ts.acceptKeyword("ACCOUNT")) return true;
  if (ts.acceptKeyword("DATABASE")) {
    out.inDatabase = bare() ? null : ts.expectName("database name").value;
    return true;
  }
  if (ts.acceptKeyword("SCHEMA")) {
    if (bare()) {
      out.inSchema = null;
      return true;
    }
    const { parts } = parseQualifiedName(ts, "schema name");
    if (parts.length > 2) throw ts.error("schema name has too many parts");
    if (parts.length === 2) out.inDatabase = parts[0];
    out.inSchema = parts[parts.length - 1];
    return true;
  }
  return false;
}

/**
 * The optional clauses of SHOW SEMANTIC ..., in the extension's enforced order:
 * LIKE, IN, FOR METRIC, STARTS WITH, LIMIT. `allowIn` "scope" takes a schema (SHOW SEMANTIC VIEWS),
 * "view" a view name or a scope keyword.
 */
function parseFilters(ts: TokenStream, allowIn: "scope" | "view"): ShowFilters {
  const out: ShowFilters = {};
  const order = ["LIKE", "IN", "FOR METRIC", "STARTS WITH", "LIMIT"];
  let last = -1;
  const step = (clause: string, at: ReturnType<TokenStream["peek"]>): void => {
    const index = order.indexOf(clause);
    if (index <= last) {
      const message =
        index === last
          ? `${clause} given twice`
          : `${clause} must come before ${order[last]} (clause order: ${order.join(", ")})`;
      throw ts.error(message, at);
    }
    last = index;
  };
  while (!ts.atEnd() && !ts.isPunct(";")) {
    const at = ts.peek();
    if (ts.acceptKeyword("LIKE")) {
      step("LIKE", at);
      out.like = ts.expectString("LIKE pattern").value;
    } else if (ts.acceptKeyword("STARTS", "WITH")) {
      step("STARTS WITH", at);
      out.startsWith = ts.expectString("STARTS WITH prefix").value;
    } else if (ts.acceptKeyword("LIMIT")) {
      step("LIMIT", at);
      const n = ts.next();
      if (n.kind !== "number" || !/^\d+$/.test(n.text))
        throw ts.error(`LIMIT expects a non-negative integer, found ${describe(n)}`, n);
      out.limit = Number(n.text);
      if (ts.acceptKeyword("FROM")) out.limitFrom = ts.expectString("LIMIT ... FROM name").value;
    } else if (ts.acceptKeyword("IN")) {
      step("IN", at);
      if (parseScope(ts, out)) continue;
      if (allowIn === "view") {
        if (ts.acceptKeyword("SEMANTIC")) ts.expectKeyword("VIEW");
        out.view = parseQualifiedName(ts, "semantic view name").name;
      } else {
        const { parts } = parseQualifiedName(ts, "schema name");
        if (parts.length > 2) throw ts.error("schema name has too many parts");
        if (parts.length === 2) out.inDatabase = parts[0];
        out.inSchema = parts[parts.length - 1];
      }
    } else if (allowIn === "view" && ts.acceptKeyword("FOR")) {
      step("FOR METRIC", at);
      ts.expectKeyword("METRIC", "after FOR");
      out.forMetric = ts.expectName("metric name").value;
    } else throw ts.error(`unexpected ${describe(ts.peek())}; expected LIKE, IN, STARTS WITH or LIMIT`);
  }
  end(ts);
  return out;
}

function parseShow(ts: TokenStream): SemanticStatement | null {
  ts.next();
  if (ts.isKeywords("TERSE", "SEMANTIC", "VIEWS") || ts.isKeywords("SEMANTIC", "VIEWS")) {
    const terse = ts.acceptKeyword("TERSE");
    ts.next();
    ts.next();
    const f = parseFilters(ts, "scope");
    const out: ShowSemanticViewsStatement = {
      type: "show_views",
      terse,
      like: f.like,
      startsWith: f.startsWith,
      limit: f.limit,
      limitFrom: f.limitFrom,
      inSchema: f.inSchema,
      inDatabase: f.inDatabase,
    };
    return out;
  }
  if (ts.isKeywords("COLUMNS", "IN", "SEMANTIC")) {
    ts.index += 3;
    ts.expectKeyword("VIEW", "after SHOW COLUMNS IN SEMANTIC");
    const view = parseQualifiedName(ts, "semantic view name").name;
    end(ts);
    return { type: "show_columns", view };
  }
  if (ts.isKeyword("SEMANTIC")) {
    ts.next();
    const kindToken = ts.next();
    const kind = kindToken.value.toLowerCase();
    if (kindToken.kind !== "ident" || !["dimensions", "metrics", "facts", "materializations"].includes(kind)) {
      throw new SemanticViewError(
        "parse",
        `expected SHOW SEMANTIC VIEWS | DIMENSIONS | METRICS | FACTS | MATERIALIZATIONS, found '${kindToken.text}'`,
      );
    }
    const f = parseFilters(ts, "view");
    if (f.forMetric !== undefined && kind !== "dimensions")
      throw new SemanticViewError("parse", "FOR METRIC is allowed only with SHOW SEMANTIC DIMENSIONS");
    if (f.forMetric !== undefined && f.view === undefined) {
      throw new SemanticViewError("parse", "SHOW SEMANTIC DIMENSIONS ... FOR METRIC needs IN <view> before FOR METRIC");
    }
    const out: ShowMembersStatement = {
      type: "show_members",
      kind: kind as ShowMembersStatement["kind"],
      view: f.view,
      inSchema: f.inSchema,
      inDatabase: f.inDatabase,
      forMetric: f.forMetric,
      like: f.like,
      startsWith: f.startsWith,
      limit: f.limit,
      limitFrom: f.limitFrom,
    };
    return out;
  }
  return null;
}
