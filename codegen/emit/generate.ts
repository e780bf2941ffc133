/**
 * Metadata → generated TypeScript, through ts-morph on an in-memory file system. Output is a pure
 * function of the metadata and options (sorted views, members in definition order, dimensions
 * before metrics, LF, no timestamps), so `--check` can compare bytes.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFile } from "ts-morph";
import type { ValueKind } from "../../runtime/index.js";
import type { ViewMetadata } from "../../runtime/internal.js";
import { valueKindOf } from "../type-mapping.js";
import {
  TAKEN_BY_IMPORTS,
  declaredViewName,
  fileStem,
  isIdentifier,
  pascalCase,
  titleOf,
  uniqueNames,
} from "./naming.js";
import { groupableFields, type PlannedMember, type PlannedVariable, type PlannedView } from "./planned-view.js";
import { memberNames, portableName } from "./portable-names.js";
import { schemaOf } from "./schema-helpers.js";
import { docText, viewModule, writeDoc } from "./view-module.js";
import { MODEL_RECORD_FILE, recordOf, renderRecord } from "../drift/model-record.js";
import { quoted, sourceText } from "./source-text.js";
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

/** A view name `SemanticView()` can take as it is: one identifier (a listed name with a dot is one name). */
const VIEW_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const KIND_ORDER = ["dimension", "metric", "fact"] as const;

export function generate(views: readonly ViewMetadata[], options: GenerateOptions): GenerateResult {
  const viewName = (v: ViewMetadata) =>
    v.name
      .split(".")
      .map((part) => portableName(options.backend, part))
      .join(".");
  const sorted = [...views].sort((a, b) => (viewName(a) < viewName(b) ? -1 : viewName(a) > viewName(b) ? 1 : 0));
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
  // The values `.variables()` takes, for the request core (views with variables only).
  const variablesNames = uniqueNames(
    classNames.map((c) => `${c}Variables`),
    new Set([...TAKEN_BY_IMPORTS, ...classNames, ...rowNames]),
  );
  // A facts query's row (facts are selected on their own, so `<Class>Row` leaves them out): views with facts only.
  const factsNames = uniqueNames(
    classNames.map((c) => `${c}Facts`),
    new Set([...TAKEN_BY_IMPORTS, ...classNames, ...rowNames, ...variablesNames]),
  );
  const stems = uniqueNames(viewNames.map((n) => fileStem(n)));
  const declaredNames = declaredViewNames(viewNames);
  const hasFacts = sorted.map((v) => v.members.some((m) => m.kind === "fact"));
  const renamed = renameNotes(
    viewNames,
    classNames,
    rowNames,
    factsNames.map((f, i) => (hasFacts[i] ? f : undefined)),
  );
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
      declaredName: declaredNames[i]!,
      warehouseName: VIEW_NAME.test(viewNames[i]!) ? undefined : viewNames[i]!,
      className: classNames[i]!,
      stem: stems[i]!,
      members,
      groupableBy: groupableFields(members),
      variables,
      rowDtoName: rowNames[i]!,
      variablesDtoName: variables.length === 0 ? undefined : variablesNames[i]!,
      factsDtoName: hasFacts[i] ? factsNames[i]! : undefined,
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
      text: print(viewModule(project, plan), header, `semantic view "${sourceText(plan.viewName)}"`),
    });
    files.push({
      path: `${plan.stem}.dto.ts`,
      text: print(dtoModule(project, plan), header, `DTO schemas for "${sourceText(plan.viewName)}"`),
    });
  }
  files.push({ path: "index.ts", text: print(indexModule(project, plans), header, "index") });
  files.push({ path: MODEL_RECORD_FILE, text: renderRecord(recordOf(plans)) });
  return { files, renamed };
}

/**
 * The first argument of each `SemanticView()`: the view name when it is an identifier, else an identifier
 * made from it (the warehouse's spelling goes into `{ name }`), suffixed where it would equal another
 * declared name (declared names are compared exactly: they are type-level brands).
 */
function declaredViewNames(viewNames: readonly string[]): string[] {
  const taken = new Set(viewNames.filter((n) => VIEW_NAME.test(n)));
  return viewNames.map((name) => {
    if (VIEW_NAME.test(name)) return name;
    const base = declaredViewName(name);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
    taken.add(candidate);
    return candidate;
  });
}

/** One note per export that did not get its natural name, saying which export has it. */
function renameNotes(
  viewNames: readonly string[],
  classNames: readonly string[],
  rowNames: readonly string[],
  factsNames: readonly (string | undefined)[],
): string[] {
  const owner = new Map<string, string>();
  classNames.forEach((c, i) => owner.set(c.toLowerCase(), `the class of view "${viewNames[i]!}"`));
  rowNames.forEach((r, i) => owner.set(r.toLowerCase(), `the row DTO of view "${viewNames[i]!}"`));
  factsNames.forEach((f, i) => f && owner.set(f.toLowerCase(), `the facts DTO of view "${viewNames[i]!}"`));
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
    const facts = factsNames[i];
    if (facts !== undefined && facts !== `${classNames[i]}Facts`) {
      notes.push(
        `the facts DTO of view "${name}" to ${facts} (${classNames[i]}Facts is ${holder(`${classNames[i]}Facts`)})`,
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
    if (p.variablesDtoName !== undefined)
      owners.set(p.variablesDtoName.toLowerCase(), `the variables DTO of view "${p.viewName}"`);
    if (p.factsDtoName !== undefined) owners.set(p.factsDtoName.toLowerCase(), `the facts DTO of view "${p.viewName}"`);
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

/** A property of an emitted DTO: a member, or a variable (optional when the view defines a default). */
interface DtoProperty {
  readonly field: string;
  readonly kind: ValueKind;
  readonly optional?: boolean;
}

function dtoModule(project: Project, plan: PlannedView): SourceFile {
  const file = project.createSourceFile(`${plan.stem}.dto.ts`, "", { overwrite: true });
  file.addImportDeclaration({ namedImports: ["Type"], moduleSpecifier: "typebox" });
  const libImports = new Set([...plan.members, ...plan.variables].flatMap((m) => schemaOf(m.kind).libImports));
  if (libImports.size > 0) file.addImportDeclaration({ namedImports: [...libImports].sort(), moduleSpecifier: "lib" });
  const dtos: { name: string; doc: string[]; members: readonly DtoProperty[] }[] = [
    {
      name: plan.rowDtoName,
      doc: docText([`One row of \`${plan.viewName}\` with every dimension and metric selected.`]),
      members: plan.members.filter((m) => m.member.kind !== "fact"),
    },
    ...(plan.factsDtoName === undefined
      ? []
      : [
          {
            name: plan.factsDtoName,
            doc: docText([
              `One row of \`${plan.viewName}\` with every fact selected (facts are queried on their own).`,
            ]),
            members: plan.members.filter((m) => m.member.kind === "fact"),
          },
        ]),
    ...plan.dtos.map((dto) => ({
      name: dto.name,
      doc: docText([`\`${dto.fields.join("`, `")}\` of \`${plan.viewName}\` (declared in the codegen configuration).`]),
      members: dto.fields.map((f) => dtoMember(plan, f)!),
    })),
    ...(plan.variablesDtoName === undefined
      ? []
      : [
          {
            name: plan.variablesDtoName,
            doc: docText([
              `The variables of \`${plan.viewName}\`, as \`.variables()\` and a request's \`variables\` take them (optional: the view defines a default).`,
            ]),
            members: plan.variables.map((v) => ({ field: v.field, kind: v.kind, optional: v.variable.hasDefault })),
          },
        ]),
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
            const options = [...schema.options, `title: ${quoted(titleOf(planned.field))}`].join(", ");
            const call = `${schema.call}({ ${options} })`;
            writer.writeLine(`${planned.field}: ${planned.optional === true ? `Type.Optional(${call})` : call},`);
          }
        });
        writer.writeLine("},");
        writer.writeLine(`{ title: ${quoted(dto.name)} },`);
      });
      writer.writeLine(");");
    });
  }
  return file;
}

function indexModule(project: Project, plans: readonly PlannedView[]): SourceFile {
  const file = project.createSourceFile("index.ts", "", { overwrite: true });
  // One insertion: ts-morph re-parses the file after each, which made 100 views cost ~0.6 s here.
  file.addExportDeclarations(
    plans.flatMap((plan) => [{ moduleSpecifier: `./${plan.stem}.js` }, { moduleSpecifier: `./${plan.stem}.dto.js` }]),
  );
  if (plans.length === 0) file.addStatements("export {};");
  return file;
}
