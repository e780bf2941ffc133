/**
 * Metadata → generated TypeScript, through ts-morph on an in-memory file system. Output is a pure
 * function of the metadata and options (sorted views, members in definition order, dimensions
 * before metrics, LF, no timestamps), so `--check` can compare bytes.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, type CodeBlockWriter, type SourceFile } from "ts-morph";
import type { ValueKind } from "../../runtime/index.js";
import type { MemberMetadata, VariableMetadata, ViewMetadata } from "../../runtime/internal.js";
import { tsTypeOf, valueKindOf } from "../type-mapping.js";
import { TAKEN_BY_IMPORTS, fileStem, isIdentifier, pascalCase, titleOf, uniqueNames } from "./naming.js";
import { memberNames, portableName } from "./portable-names.js";
import { schemaOf } from "./schema-helpers.js";
import {
  DtoConfigError,
  GENERATED_MARKER,
  type DtoSpec,
  type GenerateOptions,
  type GenerateResult,
  type GeneratedFile,
} from "./generated-file.js";

export {
  GENERATED_MARKER,
  DtoConfigError,
  type DtoSpec,
  type GenerateOptions,
  type GenerateResult,
  type GeneratedFile,
};

interface PlannedMember {
  readonly member: MemberMetadata;
  readonly kind: ValueKind;
  /** The TypeScript field name. */
  readonly field: string;
  /** The warehouse name declared with `{ name }`, when it is not the field name. */
  readonly declared: string | undefined;
}

/** A variable of the view, declared as `name: Variable<T>({ name?, optional? })`. */
interface PlannedVariable {
  readonly variable: VariableMetadata;
  readonly kind: ValueKind;
  readonly field: string;
  readonly declared: string | undefined;
}

interface PlannedView {
  readonly view: ViewMetadata;
  /** The view name as declared (portable: backend A's folded upper case in lower case). */
  readonly viewName: string;
  readonly className: string;
  readonly stem: string;
  /** Dimensions, then metrics, then facts, each in definition order. */
  readonly members: readonly PlannedMember[];
  /** After the members, in definition order; their names share the members' namespace. */
  readonly variables: readonly PlannedVariable[];
  readonly rowDtoName: string;
  readonly dtos: DtoSpec[];
}

const VIEW_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

const KIND_ORDER = ["dimension", "metric", "fact"] as const;

export function generate(views: readonly ViewMetadata[], options: GenerateOptions): GenerateResult {
  const skipped: string[] = [];
  const usable = views.filter((v) => {
    if (VIEW_NAME.test(v.name)) return true;
    skipped.push(`view "${v.name}": its name is not an identifier (SemanticView() cannot declare it)`);
    return false;
  });
  const viewName = (v: ViewMetadata) =>
    v.name
      .split(".")
      .map((part) => portableName(options.backend, part))
      .join(".");
  const sorted = [...usable].sort((a, b) => (viewName(a) < viewName(b) ? -1 : viewName(a) > viewName(b) ? 1 : 0));
  const viewNames = sorted.map(viewName);
  // Every export shares the index's namespace: classes first (a view keeps its natural class name),
  // then row DTOs, which step aside for classes and imports (`sales_row`'s class is `SalesRow`, so
  // the row DTO of `sales` becomes `SalesRow2`). User-named DTOs are checked in attachDtos.
  const classNames = uniqueNames(
    viewNames.map((n) => pascalCase(n)),
    TAKEN_BY_IMPORTS,
  );
  const rowNames = uniqueNames(
    classNames.map((c) => `${c}Row`),
    new Set([...TAKEN_BY_IMPORTS, ...classNames]),
  );
  const stems = uniqueNames(viewNames.map((n) => fileStem(n)));
  const renamed = renameNotes(viewNames, classNames, rowNames);
  const plans: PlannedView[] = sorted.map((view, i) => {
    const ordered = KIND_ORDER.flatMap((kind) => view.members.filter((m) => m.kind === kind));
    const declaredVariables = view.variables ?? [];
    // Variables are named like members (portable, unique among all of the view's names).
    const names = memberNames(options.backend, [
      ...ordered,
      ...declaredVariables.map((v) => ({ name: v.name, kind: "dimension" as const, type: v.type })),
    ]);
    const variables: PlannedVariable[] = declaredVariables.map((variable, j) => ({
      variable,
      kind: valueKindOf(options.backend, variable.type),
      field: names[ordered.length + j]!.field,
      declared: names[ordered.length + j]!.declared,
    }));
    const members: PlannedMember[] = ordered.map((member, j) => ({
      member,
      kind: valueKindOf(options.backend, member.type),
      field: names[j]!.field,
      declared: names[j]!.declared,
    }));
    return {
      view,
      viewName: viewNames[i]!,
      className: classNames[i]!,
      stem: stems[i]!,
      members,
      variables,
      rowDtoName: rowNames[i]!,
      dtos: [],
    };
  });
  attachDtos(plans, options.dtos ?? []);

  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Double,
      useTrailingCommas: true,
    },
  });
  const header = headerLines();
  const files: GeneratedFile[] = [];
  for (const plan of plans) {
    files.push({
      path: `${plan.stem}.ts`,
      text: print(viewModule(project, plan), header, `semantic view "${plan.viewName}"`),
    });
    files.push({
      path: `${plan.stem}.dto.ts`,
      text: print(dtoModule(project, plan), header, `DTO schemas for "${plan.viewName}"`),
    });
  }
  files.push({ path: "index.ts", text: print(indexModule(project, plans), header, "index") });
  return { files, skipped, renamed };
}

/** One note per export that did not get its natural name, saying which export has it. */
function renameNotes(
  viewNames: readonly string[],
  classNames: readonly string[],
  rowNames: readonly string[],
): string[] {
  const owner = new Map<string, string>();
  classNames.forEach((c, i) => owner.set(c.toLowerCase(), `the class of view "${viewNames[i]!}"`));
  rowNames.forEach((r, i) => owner.set(r.toLowerCase(), `the row DTO of view "${viewNames[i]!}"`));
  const holder = (natural: string) =>
    owner.get(natural.toLowerCase()) ?? (TAKEN_BY_IMPORTS.has(natural) ? "imported by generated modules" : "taken");
  const notes: string[] = [];
  viewNames.forEach((name, i) => {
    const natural = pascalCase(name);
    if (classNames[i] !== natural)
      notes.push(`the class of view "${name}" to ${classNames[i]} (${natural} is ${holder(natural)})`);
    if (rowNames[i] !== `${classNames[i]}Row`) {
      notes.push(
        `the row DTO of view "${name}" to ${rowNames[i]} (${classNames[i]}Row is ${holder(`${classNames[i]}Row`)})`,
      );
    }
  });
  return notes;
}

/** No backend in the header: the same model generates the same bytes from every backend. */
function headerLines(): string {
  return `${GENERATED_MARKER}\`. Do not edit: re-run the command to update.\n`;
}

function print(file: SourceFile, header: string, what: string): string {
  // Top-level declarations (they start with their TSDoc) are separated by one blank line.
  const body = file
    .getFullText()
    .replace(/\r\n/g, "\n")
    .replace(/([^\n])\n\/\*\*/g, "$1\n\n/**")
    .trimEnd();
  return `${header}// Contents: ${what}.\n\n${body}\n`;
}

function attachDtos(plans: PlannedView[], dtos: readonly DtoSpec[]): void {
  // Exports are compared case-insensitively (like the file names), imports exactly (they are identifiers in one module).
  const owners = new Map<string, string>();
  for (const p of plans) {
    owners.set(p.className.toLowerCase(), `the class of view "${p.viewName}"`);
    owners.set(p.rowDtoName.toLowerCase(), `the row DTO of view "${p.viewName}"`);
  }
  for (const dto of dtos) {
    if (!isIdentifier(dto.name))
      throw new DtoConfigError(`DTO name "${dto.name}" is not a valid TypeScript identifier`, "name");
    if (TAKEN_BY_IMPORTS.has(dto.name))
      throw new DtoConfigError(`DTO name "${dto.name}" is a name generated modules import; choose another`, "name");
    const owner = owners.get(dto.name.toLowerCase());
    if (owner !== undefined)
      throw new DtoConfigError(`DTO name "${dto.name}" is already used by ${owner}; choose another`, "name");
    owners.set(dto.name.toLowerCase(), `DTO "${dto.name}"`);
    const plan =
      plans.find((p) => p.viewName === dto.view || p.view.name === dto.view) ??
      plans.find((p) => p.viewName.toLowerCase() === dto.view.toLowerCase());
    if (!plan)
      throw new DtoConfigError(`DTO "${dto.name}" names semantic view "${dto.view}", which was not found`, "view");
    for (const field of dto.fields) {
      if (dtoMember(plan, field) === undefined) {
        const available = plan.members.map((m) => m.field).join(", ");
        throw new DtoConfigError(
          `DTO "${dto.name}": "${field}" is not a field of "${plan.viewName}" (available: ${available})`,
          "field",
        );
      }
    }
    if (dto.fields.length === 0) throw new DtoConfigError(`DTO "${dto.name}" lists no fields`, "field");
    plan.dtos.push(dto);
  }
}

/** A DTO field: the field name, or the member's name as the warehouse reports it (configurations written before portable names). */
function dtoMember(plan: PlannedView, field: string): PlannedMember | undefined {
  return plan.members.find((m) => m.field === field) ?? plan.members.find((m) => m.member.name === field);
}

/** A TSDoc body: comment lines, never containing `*\/`. */
function docText(lines: readonly (string | undefined)[]): string {
  return lines
    .filter((l): l is string => l !== undefined)
    .join("\n\n")
    .replaceAll("*/", "*\\/");
}

const FACTORY = { dimension: "Dimension", metric: "Metric", fact: "Fact" } as const;

/**
 * The member's comment only: expressions and type texts are spelled differently by each warehouse
 * (`SUM(revenue)`, `NUMBER(38,0)`, `BIGINT`), and the generated files must not depend on the backend.
 */
function memberDoc(planned: PlannedMember): string | undefined {
  return planned.member.comment === undefined ? undefined : docText([planned.member.comment]);
}

function writeDoc(writer: CodeBlockWriter, text: string): void {
  const lines = text.split("\n");
  if (lines.length === 1) {
    writer.writeLine(`/** ${lines[0]} */`);
    return;
  }
  writer.writeLine("/**");
  for (const line of lines) writer.writeLine(line === "" ? " *" : ` * ${line}`);
  writer.writeLine(" */");
}

function viewModule(project: Project, plan: PlannedView): SourceFile {
  const file = project.createSourceFile(`${plan.stem}.ts`, "", { overwrite: true });
  const factories = [...plan.members.map((m) => FACTORY[m.member.kind]), ...plan.variables.map(() => "Variable")];
  const named = ["SemanticView", ...new Set(factories)].sort();
  file.addImportDeclaration({ namedImports: named, moduleSpecifier: "lib" });
  if ([...plan.members, ...plan.variables].some((m) => m.kind === "decimal")) {
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["Decimal"], moduleSpecifier: "lib" });
  }
  file.addStatements((writer) => {
    writeDoc(writer, docText([plan.view.comment, `Semantic view \`${plan.viewName}\`.`]));
    writer.writeLine(`export class ${plan.className} extends SemanticView(${JSON.stringify(plan.viewName)}, {`);
    writer.indent(() => {
      for (const planned of plan.members) {
        const doc = memberDoc(planned);
        if (doc !== undefined) writeDoc(writer, doc);
        const type = tsTypeOf(planned.kind);
        const typeArgument = type === "unknown" ? "" : `<${type}>`;
        const options = planned.declared === undefined ? "" : `{ name: ${JSON.stringify(planned.declared)} }`;
        writer.writeLine(`${planned.field}: ${FACTORY[planned.member.kind]}${typeArgument}(${options}),`);
      }
      for (const planned of plan.variables) {
        if (planned.variable.comment !== undefined) writeDoc(writer, docText([planned.variable.comment]));
        const type = tsTypeOf(planned.kind);
        const typeArgument = type === "unknown" ? "" : `<${type}>`;
        const options = [
          ...(planned.declared === undefined ? [] : [`name: ${JSON.stringify(planned.declared)}`]),
          ...(planned.variable.hasDefault ? ["optional: true"] : []),
        ];
        writer.writeLine(
          `${planned.field}: Variable${typeArgument}(${options.length === 0 ? "" : `{ ${options.join(", ")} }`}),`,
        );
      }
    });
    writer.writeLine("}) {}");
  });
  return file;
}

function dtoModule(project: Project, plan: PlannedView): SourceFile {
  const file = project.createSourceFile(`${plan.stem}.dto.ts`, "", { overwrite: true });
  file.addImportDeclaration({ namedImports: ["Type"], moduleSpecifier: "typebox" });
  const libImports = new Set(plan.members.flatMap((m) => schemaOf(m.kind).libImports));
  if (libImports.size > 0) file.addImportDeclaration({ namedImports: [...libImports].sort(), moduleSpecifier: "lib" });
  const dtos: { name: string; doc: string; members: PlannedMember[] }[] = [
    {
      name: plan.rowDtoName,
      doc: `One row of \`${plan.viewName}\` with every dimension and metric selected.`,
      members: plan.members.filter((m) => m.member.kind !== "fact"),
    },
    ...plan.dtos.map((dto) => ({
      name: dto.name,
      doc: `\`${dto.fields.join("`, `")}\` of \`${plan.viewName}\` (declared in the codegen configuration).`,
      members: dto.fields.map((f) => dtoMember(plan, f)!),
    })),
  ];
  for (const dto of dtos) {
    file.addStatements((writer) => {
      writeDoc(writer, dto.doc);
      writer.writeLine(`export const ${dto.name} = Type.Object(`);
      writer.indent(() => {
        writer.writeLine("{");
        writer.indent(() => {
          for (const planned of dto.members) {
            const schema = schemaOf(planned.kind);
            const options = [...schema.options, `title: ${JSON.stringify(titleOf(planned.field))}`].join(", ");
            writer.writeLine(`${planned.field}: ${schema.call}({ ${options} }),`);
          }
        });
        writer.writeLine("},");
        writer.writeLine(`{ title: ${JSON.stringify(dto.name)} },`);
      });
      writer.writeLine(");");
    });
  }
  return file;
}

function indexModule(project: Project, plans: readonly PlannedView[]): SourceFile {
  const file = project.createSourceFile("index.ts", "", { overwrite: true });
  for (const plan of plans) {
    file.addExportDeclaration({ moduleSpecifier: `./${plan.stem}.js` });
    file.addExportDeclaration({ moduleSpecifier: `./${plan.stem}.dto.js` });
  }
  if (plans.length === 0) file.addStatements("export {};");
  return file;
}
