/**
 * Metadata → generated TypeScript, through ts-morph on an in-memory file system. Output is a pure
 * function of the metadata and options (sorted views, members in definition order, dimensions
 * before metrics, LF, no timestamps), so `--check` can compare bytes.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, type CodeBlockWriter, type SourceFile } from "ts-morph";
import type { BackendType } from "../../runtime/config/types.js";
import type { ValueKind } from "../../runtime/driver/database-connection.js";
import type { MemberMetadata, ViewMetadata } from "../introspect/metadata.js";
import { tsTypeOf, valueKindOf } from "../type-mapping.js";
import { RESERVED_FIELD_NAMES } from "../../runtime/view/names.js";
import { TAKEN_BY_IMPORTS, fileStem, isIdentifier, pascalCase, titleOf, uniqueNames } from "./naming.js";
import { schemaOf } from "./schema-helpers.js";
import { DtoConfigError, GENERATED_MARKER, type DtoSpec, type GenerateOptions, type GenerateResult, type GeneratedFile } from "./generated-file.js";

export { GENERATED_MARKER, DtoConfigError, type DtoSpec, type GenerateOptions, type GenerateResult, type GeneratedFile };

interface PlannedMember {
  readonly member: MemberMetadata;
  readonly kind: ValueKind;
}

interface PlannedView {
  readonly view: ViewMetadata;
  readonly className: string;
  readonly stem: string;
  /** Dimensions, then metrics, then facts, each in definition order. */
  readonly members: readonly PlannedMember[];
  readonly skippedMembers: readonly string[];
  readonly rowDtoName: string;
  readonly dtos: DtoSpec[];
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VIEW_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;
const RESERVED_FIELDS = new Set<string>(RESERVED_FIELD_NAMES);

/** Why `SemanticView()` would reject this field name, if it would (runtime/view/names.ts rules). */
function fieldNameProblem(name: string): string | undefined {
  if (!FIELD_NAME.test(name) || name.length > 255) return "is not an identifier";
  if (RESERVED_FIELDS.has(name) || name in Function) return "clashes with a member of every view class";
  return undefined;
}

const KIND_ORDER = ["dimension", "metric", "fact"] as const;

export function generate(views: readonly ViewMetadata[], options: GenerateOptions): GenerateResult {
  const skipped: string[] = [];
  const usable = views.filter((v) => {
    if (VIEW_NAME.test(v.name)) return true;
    skipped.push(`view "${v.name}": its name is not an identifier (SemanticView() cannot declare it)`);
    return false;
  });
  const sorted = [...usable].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Every export shares the index's namespace: classes first (a view keeps its natural class name),
  // then row DTOs, which step aside for classes and imports (`sales_row`'s class is `SalesRow`, so
  // the row DTO of `sales` becomes `SalesRow2`). User-named DTOs are checked in attachDtos.
  const classNames = uniqueNames(sorted.map((v) => pascalCase(v.name)), TAKEN_BY_IMPORTS);
  const rowNames = uniqueNames(classNames.map((c) => `${c}Row`), new Set([...TAKEN_BY_IMPORTS, ...classNames]));
  const stems = uniqueNames(sorted.map((v) => fileStem(v.name)));
  const renamed = renameNotes(sorted, classNames, rowNames);
  const plans: PlannedView[] = sorted.map((view, i) => {
    const members: PlannedMember[] = [];
    const skippedMembers: string[] = [];
    for (const kind of KIND_ORDER) {
      for (const member of view.members.filter((m) => m.kind === kind)) {
        const problem = fieldNameProblem(member.name);
        if (problem) {
          skippedMembers.push(member.name);
          skipped.push(`${kind} "${member.name}" of view "${view.name}": the name ${problem}`);
          continue;
        }
        members.push({ member, kind: valueKindOf(options.backend, member.type) });
      }
    }
    return { view, className: classNames[i]!, stem: stems[i]!, members, skippedMembers, rowDtoName: rowNames[i]!, dtos: [] };
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
  const header = headerLines(options.backend);
  const files: GeneratedFile[] = [];
  for (const plan of plans) {
    files.push({ path: `${plan.stem}.ts`, text: print(viewModule(project, plan), header, `semantic view "${plan.view.name}"`) });
    files.push({ path: `${plan.stem}.dto.ts`, text: print(dtoModule(project, plan), header, `DTO schemas for "${plan.view.name}"`) });
  }
  files.push({ path: "index.ts", text: print(indexModule(project, plans), header, "index") });
  return { files, skipped, renamed };
}

/** One note per export that did not get its natural name, saying which export has it. */
function renameNotes(views: readonly ViewMetadata[], classNames: readonly string[], rowNames: readonly string[]): string[] {
  const owner = new Map<string, string>();
  classNames.forEach((c, i) => owner.set(c.toLowerCase(), `the class of view "${views[i]!.name}"`));
  rowNames.forEach((r, i) => owner.set(r.toLowerCase(), `the row DTO of view "${views[i]!.name}"`));
  const holder = (natural: string) =>
    owner.get(natural.toLowerCase()) ?? (TAKEN_BY_IMPORTS.has(natural) ? "imported by generated modules" : "taken");
  const notes: string[] = [];
  views.forEach((view, i) => {
    const natural = pascalCase(view.name);
    if (classNames[i] !== natural) notes.push(`the class of view "${view.name}" to ${classNames[i]} (${natural} is ${holder(natural)})`);
    if (rowNames[i] !== `${classNames[i]}Row`) {
      notes.push(`the row DTO of view "${view.name}" to ${rowNames[i]} (${classNames[i]}Row is ${holder(`${classNames[i]}Row`)})`);
    }
  });
  return notes;
}

function headerLines(backend: BackendType): string {
  return `${GENERATED_MARKER} --backend ${backend}\`. Do not edit: re-run the command to update.\n`;
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
    owners.set(p.className.toLowerCase(), `the class of view "${p.view.name}"`);
    owners.set(p.rowDtoName.toLowerCase(), `the row DTO of view "${p.view.name}"`);
  }
  for (const dto of dtos) {
    if (!isIdentifier(dto.name)) throw new DtoConfigError(`DTO name "${dto.name}" is not a valid TypeScript identifier`, "name");
    if (TAKEN_BY_IMPORTS.has(dto.name)) throw new DtoConfigError(`DTO name "${dto.name}" is a name generated modules import; choose another`, "name");
    const owner = owners.get(dto.name.toLowerCase());
    if (owner !== undefined) throw new DtoConfigError(`DTO name "${dto.name}" is already used by ${owner}; choose another`, "name");
    owners.set(dto.name.toLowerCase(), `DTO "${dto.name}"`);
    const plan = plans.find((p) => p.view.name === dto.view) ?? plans.find((p) => p.view.name.toLowerCase() === dto.view.toLowerCase());
    if (!plan) throw new DtoConfigError(`DTO "${dto.name}" names semantic view "${dto.view}", which was not found`, "view");
    for (const field of dto.fields) {
      if (!plan.members.some((m) => m.member.name === field)) {
        const available = plan.members.map((m) => m.member.name).join(", ");
        throw new DtoConfigError(`DTO "${dto.name}": "${field}" is not a field of "${plan.view.name}" (available: ${available})`, "field");
      }
    }
    if (dto.fields.length === 0) throw new DtoConfigError(`DTO "${dto.name}" lists no fields`, "field");
    plan.dtos.push(dto);
  }
}

/** A TSDoc body: comment lines, never containing `*\/`. */
function docText(lines: readonly (string | undefined)[]): string {
  return lines
    .filter((l): l is string => l !== undefined)
    .join("\n\n")
    .replaceAll("*/", "*\\/");
}

const FACTORY = { dimension: "Dimension", metric: "Metric", fact: "Fact" } as const;

function memberDoc(planned: PlannedMember): string {
  const { member } = planned;
  const label = FACTORY[member.kind];
  const type = member.type === "" ? "type unknown" : member.type;
  const expression = member.expression ? `\`${member.expression.replaceAll("`", "'")}\`` : `\`${member.name}\``;
  return docText([member.comment, `${label} ${expression} — ${type}.`]);
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
  const named = ["SemanticView", ...new Set(plan.members.map((m) => FACTORY[m.member.kind]))].sort();
  file.addImportDeclaration({ namedImports: named, moduleSpecifier: "lib" });
  if (plan.members.some((m) => m.kind === "decimal")) {
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["Decimal"], moduleSpecifier: "lib" });
  }
  const skipped =
    plan.skippedMembers.length === 0
      ? undefined
      : `Left out (names SemanticView() cannot declare): ${plan.skippedMembers.map((n) => `\`${n}\``).join(", ")}.`;
  file.addStatements((writer) => {
    writeDoc(writer, docText([plan.view.comment, `Semantic view \`${plan.view.name}\`.`, skipped]));
    writer.writeLine(`export class ${plan.className} extends SemanticView(${JSON.stringify(plan.view.name)}, {`);
    writer.indent(() => {
      for (const planned of plan.members) {
        writeDoc(writer, memberDoc(planned));
        const type = tsTypeOf(planned.kind);
        const typeArgument = type === "unknown" ? "" : `<${type}>`;
        writer.writeLine(`${planned.member.name}: ${FACTORY[planned.member.kind]}${typeArgument}(),`);
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
      doc: `One row of \`${plan.view.name}\` with every dimension and metric selected.`,
      members: plan.members.filter((m) => m.member.kind !== "fact"),
    },
    ...plan.dtos.map((dto) => ({
      name: dto.name,
      doc: `\`${dto.fields.join("`, `")}\` of \`${plan.view.name}\` (declared in the codegen configuration).`,
      members: dto.fields.map((f) => plan.members.find((m) => m.member.name === f)!),
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
            const options = [...schema.options, `title: ${JSON.stringify(titleOf(planned.member.name))}`].join(", ");
            writer.writeLine(`${planned.member.name}: ${schema.call}({ ${options} }),`);
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
