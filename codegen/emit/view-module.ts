/**
 * The view module: `export class Sales extends SemanticView("sales", { ...members }[, { name, groupableBy }]) {}`,
 * with the warehouse comments as TSDoc. Backend-neutral by construction: nothing here names a backend,
 * an expression or a type text, so one model generates the same bytes from every warehouse.
 */
import type { CodeBlockWriter, Project, SourceFile } from "ts-morph";
import { tsTypeOf } from "../type-mapping.js";
import type { PlannedMember, PlannedView } from "./planned-view.js";
import { commentLines, quoted } from "./source-text.js";

const FACTORY = { dimension: "Dimension", metric: "Metric", fact: "Fact" } as const;

/** A TSDoc body: the paragraphs' lines, each made safe by `sourceText`, a blank line between paragraphs. */
export function docText(paragraphs: readonly (string | undefined)[]): string[] {
  return paragraphs
    .filter((p): p is string => p !== undefined)
    .flatMap((p, i) => (i === 0 ? commentLines(p) : ["", ...commentLines(p)]));
}

export function writeDoc(writer: CodeBlockWriter, lines: readonly string[]): void {
  if (lines.length === 1) {
    writer.writeLine(`/** ${lines[0]} */`);
    return;
  }
  writer.writeLine("/**");
  for (const line of lines) writer.writeLine(line === "" ? " *" : ` * ${line}`);
  writer.writeLine(" */");
}

/**
 * The member's comment only: expressions and type texts are spelled differently by each warehouse
 * (`SUM(revenue)`, `NUMBER(38,0)`, `BIGINT`), and the generated files must not depend on the backend.
 */
function memberDoc(planned: PlannedMember): string[] | undefined {
  return planned.member.comment === undefined ? undefined : docText([planned.member.comment]);
}

/** What the class comment says about grouping (only for views with both metrics and dimensions). */
function groupingDoc(plan: PlannedView): string | undefined {
  const has = (kind: string) => plan.members.some((m) => m.member.kind === kind);
  if (!has("metric") || !has("dimension")) return undefined;
  return plan.groupableBy.size === 0
    ? "Every metric can be grouped by every dimension."
    : "A metric listed in `groupableBy` can be grouped only by the dimensions listed for it (a fan trap\n" +
        "or an ambiguous join path rules out the others); the other metrics, by every dimension.";
}

export function viewModule(project: Project, plan: PlannedView): SourceFile {
  const file = project.createSourceFile(`${plan.stem}.ts`, "", { overwrite: true });
  const factories = [...plan.members.map((m) => FACTORY[m.member.kind]), ...plan.variables.map(() => "Variable")];
  const named = ["SemanticView", ...new Set(factories)].sort();
  file.addImportDeclaration({ namedImports: named, moduleSpecifier: "lib" });
  if ([...plan.members, ...plan.variables].some((m) => m.kind === "decimal")) {
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["Decimal"], moduleSpecifier: "lib" });
  }
  file.addStatements((writer) => {
    writeDoc(writer, docText([plan.view.comment, `Semantic view \`${plan.viewName}\`.`, groupingDoc(plan)]));
    writer.writeLine(`export class ${plan.className} extends SemanticView(${quoted(plan.declaredName)}, {`);
    writer.indent(() => {
      for (const planned of plan.members) {
        const doc = memberDoc(planned);
        if (doc !== undefined) writeDoc(writer, doc);
        const type = tsTypeOf(planned.kind);
        const typeArgument = type === "unknown" ? "" : `<${type}>`;
        const options = planned.declared === undefined ? "" : `{ name: ${quoted(planned.declared)} }`;
        writer.writeLine(`${planned.field}: ${FACTORY[planned.member.kind]}${typeArgument}(${options}),`);
      }
      for (const planned of plan.variables) {
        if (planned.variable.comment !== undefined) writeDoc(writer, docText([planned.variable.comment]));
        const type = tsTypeOf(planned.kind);
        const typeArgument = type === "unknown" ? "" : `<${type}>`;
        const options = [
          ...(planned.declared === undefined ? [] : [`name: ${quoted(planned.declared)}`]),
          ...(planned.variable.hasDefault ? ["optional: true"] : []),
        ];
        writer.writeLine(
          `${planned.field}: Variable${typeArgument}(${options.length === 0 ? "" : `{ ${options.join(", ")} }`}),`,
        );
      }
    });
    if (plan.warehouseName === undefined && plan.groupableBy.size === 0) {
      writer.writeLine("}) {}");
      return;
    }
    writer.writeLine("}, {");
    writer.indent(() => {
      if (plan.warehouseName !== undefined) writer.writeLine(`name: ${quoted(plan.warehouseName)},`);
      if (plan.groupableBy.size === 0) return;
      writer.writeLine("groupableBy: {");
      writer.indent(() => {
        for (const [metric, dimensions] of plan.groupableBy) {
          writer.writeLine(`${metric}: [${dimensions.map((d) => quoted(d)).join(", ")}],`);
        }
      });
      writer.writeLine("},");
    });
    writer.writeLine("}) {}");
  });
  return file;
}
