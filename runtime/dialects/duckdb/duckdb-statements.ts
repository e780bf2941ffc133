/**
 * Just enough SQL lexing for the DuckDB connection to keep its own transaction bookkeeping:
 * split a script on top-level semicolons and recognise transaction-control statements.
 * Quotes ('..', "..", $tag$..$tag$) and comments (--, /* *\/) are skipped so that a semicolon or
 * keyword inside them does not count.
 */

export type TransactionControl = "begin" | "commit" | "rollback";

/** Cheap pre-check: a script without any of these words cannot contain transaction control. */
const CONTROL_WORD = /\b(?:begin|start|commit|end|rollback|abort)\b/i;

export function mayContainTransactionControl(sql: string): boolean {
  return CONTROL_WORD.test(sql);
}

/** Statement kinds that only read (EXPLAIN ANALYZE of a write is caught by WRITE_WORD). */
const READ_ONLY_START = /^(?:select|from|with|values|table|show|describe|summarize|explain|pivot|unpivot)\b|^\(/i;
/** Words with which a read-looking statement could still write: `WITH ... INSERT`, sequences, checkpoints. */
const WRITE_WORD =
  /\b(?:insert|update|delete|merge|copy|create|drop|alter|attach|detach|truncate|into|nextval|setval|export|import|install|load)\b|checkpoint/i;

/**
 * True when `sql` is one statement that only reads, so it may run outside a transaction (DuckDB
 * autocommit) without changing what it sees or what a later rollback undoes. Lexical and
 * conservative: any `;`, or a word that could write (even inside a literal), says no, and the
 * statement then runs in the connection's transaction as every other statement does.
 */
export const isReadOnlyStatement = rememberedPerText((sql: string): boolean => {
  const text = stripLeadingComments(sql);
  return READ_ONLY_START.test(text) && !text.includes(";") && !WRITE_WORD.test(text);
});

/** Texts remembered per test, and the longest one remembered (a long literal is another text per value). */
const REMEMBERED_TEXTS = 256;
const REMEMBERED_TEXT_LENGTH = 16 * 1024;

/**
 * A pure test of statement text, remembered for recent texts: a query run again is tested again
 * on every run, and its text (a rewritten semantic query) runs to kilobytes.
 */
export function rememberedPerText(test: (sql: string) => boolean): (sql: string) => boolean {
  const answers = new Map<string, boolean>();
  return (sql) => {
    if (sql.length > REMEMBERED_TEXT_LENGTH) return test(sql);
    let answer = answers.get(sql);
    if (answer === undefined) {
      answer = test(sql);
      if (answers.size >= REMEMBERED_TEXTS) answers.clear();
      answers.set(sql, answer);
    }
    return answer;
  };
}

/** Splits a script into statements (trimmed, empty ones dropped). */
export function splitSqlStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      i = skipQuoted(sql, i, ch);
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i + 2);
      i = end === -1 ? n : end + 1;
    } else if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
    } else if (ch === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64));
      if (tag && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? "")) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end === -1 ? n : end + tag[0].length;
      } else {
        i++;
      }
    } else if (ch === ";") {
      pushStatement(statements, sql.slice(start, i));
      i++;
      start = i;
    } else {
      i++;
    }
  }
  pushStatement(statements, sql.slice(start));
  return statements;
}

function skipQuoted(sql: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2; // doubled quote is an escaped quote
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}

function pushStatement(statements: string[], text: string): void {
  if (stripLeadingComments(text).length > 0) statements.push(text.trim());
}

function stripLeadingComments(text: string): string {
  let rest = text.trimStart();
  for (;;) {
    if (rest.startsWith("--")) {
      const end = rest.indexOf("\n");
      rest = end === -1 ? "" : rest.slice(end + 1).trimStart();
    } else if (rest.startsWith("/*")) {
      const end = rest.indexOf("*/");
      rest = end === -1 ? "" : rest.slice(end + 2).trimStart();
    } else {
      return rest;
    }
  }
}

/** Whether a single statement is BEGIN / COMMIT / ROLLBACK (in any of DuckDB's spellings). */
export function transactionControlOf(statement: string): TransactionControl | undefined {
  const words = /^([A-Za-z]+)(?:\s+([A-Za-z]+))?/.exec(stripLeadingComments(statement));
  if (!words) return undefined;
  const first = words[1]!.toLowerCase();
  const second = words[2]?.toLowerCase();
  switch (first) {
    case "begin":
      return "begin";
    case "start":
      return second === "transaction" ? "begin" : undefined;
    case "commit":
    case "end":
      return "commit";
    case "rollback":
    case "abort":
      return "rollback";
    default:
      return undefined;
  }
}
