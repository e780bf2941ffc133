/** A small line diff (LCS) printed in unified style, truncated for terminal output. */

type Edit = { readonly op: " " | "-" | "+"; readonly line: string };

function lines(text: string): string[] {
  if (text === "") return [];
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all;
}

function editScript(a: readonly string[], b: readonly string[]): Edit[] {
  // Trim the common prefix and suffix first: generated files usually differ in a few lines.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const edits: Edit[] = a.slice(0, start).map((line) => ({ op: " ", line }));
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      edits.push({ op: " ", line: x[i]! });
      i++;
      j++;
    } else if (i < x.length && (j >= y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      edits.push({ op: "-", line: x[i]! });
      i++;
    } else {
      edits.push({ op: "+", line: y[j]! });
      j++;
    }
  }
  for (const line of a.slice(endA)) edits.push({ op: " ", line });
  return edits;
}

/**
 * `--- a/path` / `+++ b/path` and hunks with 2 lines of context, at most `maxLines` body lines
 * (then a `... (n more lines)` note).
 */
export function unifiedDiff(before: string, after: string, path: string, maxLines = 20, context = 2): string {
  const edits = editScript(lines(before), lines(after));
  const keep = edits.map(() => false);
  edits.forEach((edit, index) => {
    if (edit.op === " ") return;
    for (let k = Math.max(0, index - context); k <= Math.min(edits.length - 1, index + context); k++) keep[k] = true;
  });
  const body: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let inHunk = false;
  edits.forEach((edit, index) => {
    if (keep[index]) {
      if (!inHunk) body.push(`@@ -${oldLine} +${newLine} @@`);
      inHunk = true;
      body.push(`${edit.op}${edit.line}`);
    } else {
      inHunk = false;
    }
    if (edit.op !== "+") oldLine++;
    if (edit.op !== "-") newLine++;
  });
  const shown = body.slice(0, maxLines);
  if (body.length > maxLines) shown.push(`... (${body.length - maxLines} more lines)`);
  return [`--- a/${path}`, `+++ b/${path}`, ...shown].join("\n");
}
