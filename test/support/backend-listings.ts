/**
 * The scan behind test/architecture/dialect-record.test.ts: where source code branches on, keys a
 * table by, or lists backend names (the DIALECTS record is to be the only such list).
 */
import ts from "typescript";

/**
 * Each place in `text` where code branches on, keys by or lists backends. Every such place spells a
 * backend or warehouse name, so a text that holds none is not parsed (most files: the scan of the
 * whole source tree parses only the few that name one).
 */
export function backendListings(
  fileName: string,
  text: string,
  backends: readonly string[],
  warehouses: readonly string[],
): string[] {
  if (![...backends, ...warehouses].some((name) => text.includes(name))) return [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const isBackend = (node: ts.Node): node is ts.StringLiteralLike =>
    ts.isStringLiteralLike(node) && backends.includes(node.text);
  const named = (text: string) => backends.filter((b) => new RegExp(`\\b${b}\\b`).test(text));

  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && /^[!=]==?$/.test(node.operatorToken.getText())) {
      if (isBackend(node.left) || isBackend(node.right)) at(node, `compares with a backend name: ${node.getText()}`);
    } else if (ts.isCaseClause(node) && isBackend(node.expression)) {
      at(node, `switches on a backend name: case ${node.expression.getText()}`);
    } else if (ts.isLiteralTypeNode(node) && isBackend(node.literal)) {
      at(node, `a backend name as a type: ${node.getText()}`);
    } else if (
      (ts.isPropertyAssignment(node) || ts.isPropertySignature(node) || ts.isShorthandPropertyAssignment(node)) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      [...backends, ...warehouses].includes(node.name.text)
    ) {
      at(node, `a table keyed by backend or warehouse: ${node.name.text}`);
    } else if (ts.isArrayLiteralExpression(node) && node.elements.filter(isBackend).length >= 2) {
      at(node, `a list of backend names: ${node.getText()}`);
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      if (named(node.text).length >= 2) at(node, `a message listing backends: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
