#!/usr/bin/env node
/**
 * Writes provider/types.generated.ts: the API's request and response shapes as plain TypeScript types,
 * printed from the types the zod schemas infer, so that the package's public declarations never mention zod
 * (whose declarations do not compile without `esModuleInterop`, as in Pulumi's template tsconfig).
 *
 * The zod schemas stay the single source of truth: this runs before every build (`npm run build`), picks up
 * - every exported type alias of provider/schemas/*.ts, under its own name, and
 * - any type alias elsewhere in provider/ tagged `@publicType <Name>` (e.g. a resource's output shape),
 * and checks that each printed type is exactly the inferred one (it exits non-zero otherwise).
 * Clients, lookups and resources import their public types from the generated module.
 *
 * Usage: node provider/scripts/generatePublicTypes.mjs [--check]   (--check: fail if the file is not up to date)
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const PROVIDER = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = join(PROVIDER, "types.generated.ts");
const SCHEMAS = join(PROVIDER, "schemas");
const TAG = "publicType";

/** The source files to read: the schema modules, and every other module of the package (for tagged aliases). */
function sourceFiles(dir = PROVIDER) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? (["scripts", "dist", "node_modules"].includes(e.name) ? [] : sourceFiles(join(dir, e.name))) : [join(dir, e.name)]))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && f !== OUTPUT)
    .sort();
}

/** The options of the tsconfig that builds the package (the nearest one above provider/). */
function compilerOptions() {
  const configPath = ts.findConfigFile(PROVIDER, ts.sys.fileExists);
  if (!configPath) throw new Error(`no tsconfig.json above ${PROVIDER}`);
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  // Without the project-reference settings: this program is the source files listed here, not the project's file list.
  const { composite: _composite, incremental: _incremental, tsBuildInfoFile: _buildInfo, ...options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath)).options;
  return options;
}

/** The aliases to print, in output order: `{ name, declaration, file }`. */
function collectAliases(program) {
  const aliases = [];
  // The schema modules first, then the other modules with tagged aliases.
  const files = sourceFiles().sort((a, b) => Number(dirname(b) === SCHEMAS) - Number(dirname(a) === SCHEMAS));
  for (const file of files) {
    const source = program.getSourceFile(file);
    const isSchema = dirname(file) === SCHEMAS && !file.endsWith("index.ts");
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      const where = `${relative(PROVIDER, file)}: ${statement.name.text}`;
      const tag = ts.getJSDocTags(statement).find((t) => t.tagName.text === TAG);
      const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
      if (!tag && !(isSchema && exported)) continue;
      if (statement.typeParameters) throw new Error(`${where}: a generic alias cannot be printed as a plain type; export its instances`);
      const name = tag ? ts.getTextOfJSDocComment(tag.comment)?.trim().split(/\s/)[0] : statement.name.text;
      if (!name) throw new Error(`${where}: @${TAG} needs the name to generate, e.g. @${TAG} ${statement.name.text}`);
      aliases.push({ name, declaration: statement, file });
    }
  }
  const seen = new Map();
  for (const a of aliases) {
    if (seen.has(a.name)) throw new Error(`${a.name} is defined in ${relative(PROVIDER, seen.get(a.name))} and ${relative(PROVIDER, a.file)}`);
    seen.set(a.name, a.file);
  }
  return aliases;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Documentation of a symbol as a JSDoc block (indented), or "". */
function jsdoc(checker, symbol, indent) {
  const text = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() : "";
  return docBlock(text, indent);
}

function docBlock(text, indent) {
  if (!text) return "";
  const lines = text.split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? " " + l : ""}`).join("\n")}\n${indent} */\n`;
}

/** The documentation of an alias: its own, else that of the schema it is inferred from (`typeof XSchema`). */
function aliasDoc(checker, declaration) {
  const own = ts
    .getJSDocCommentsAndTags(declaration)
    .filter(ts.isJSDoc)
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
    .join("\n")
    .trim();
  if (own) return own;
  let doc = "";
  const visit = (node) => {
    if (doc) return;
    if (ts.isTypeQueryNode(node)) {
      const symbol = checker.getSymbolAtLocation(node.exprName);
      const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      doc = target?.name.endsWith("Schema") ? ts.displayPartsToString(target.getDocumentationComment(checker)).trim() : "";
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration.type);
  return doc;
}

/** Whether a symbol is declared by the TypeScript or Node.js libraries (Date, Uint8Array, Partial …): printed by name. */
function isLibrarySymbol(symbol) {
  const declarations = symbol?.declarations ?? [];
  return declarations.length > 0 && declarations.every((d) => /[\\/]node_modules[\\/](typescript[\\/]lib|@types)[\\/]/.test(d.getSourceFile().fileName));
}

function isLibraryType(type) {
  return isLibrarySymbol(type.aliasSymbol ?? type.getSymbol());
}

/** Where a property is written in the sources, to list properties in that order (zod lists required ones first). */
function sourcePosition(symbol) {
  const d = symbol.declarations?.[0];
  return d ? [d.getSourceFile().fileName, d.pos] : ["", 0];
}

function compareSourcePositions(a, b) {
  const [fa, pa] = sourcePosition(a);
  const [fb, pb] = sourcePosition(b);
  return fa === fb ? pa - pb : 0;
}

/** Union members in a stable, readable order: literals sorted, then primitives, objects, null, undefined. */
function unionRank(type) {
  if (type.flags & ts.TypeFlags.Undefined) return 9;
  if (type.flags & ts.TypeFlags.Null) return 8;
  if (type.flags & ts.TypeFlags.Object) return 5;
  if (type.flags & ts.TypeFlags.Literal) return 1;
  return 3;
}

function compareLiterals(a, b) {
  if (typeof a.value === "number" && typeof b.value === "number") return a.value - b.value;
  return String(a.value).localeCompare(String(b.value));
}

/** Prints types structurally, naming the generated aliases and the library's types. */
class Printer {
  constructor(checker, aliases) {
    this.checker = checker;
    /** Type → generated alias name, by type identity and by alias symbol. */
    this.names = new Map();
    for (const { name, declaration } of aliases) {
      const type = checker.getTypeAtLocation(declaration.name);
      if (!this.names.has(type)) this.names.set(type, name);
      const symbol = checker.getSymbolAtLocation(declaration.name);
      if (symbol && !this.names.has(symbol)) this.names.set(symbol, name);
    }
  }

  /** The whole alias: its own type is always expanded. */
  alias(type) {
    return this.print(type, "", true);
  }

  print(type, indent, expand = false) {
    const checker = this.checker;
    if (!expand) {
      const name = this.names.get(type) ?? (type.aliasSymbol && this.names.get(type.aliasSymbol));
      if (name) return name;
    }
    if (type.flags & ts.TypeFlags.Boolean) return "boolean";
    // A library alias (`Partial<Record<K, V>>`) keeps its name, with its arguments printed here.
    if (type.flags & ts.TypeFlags.Object && type.aliasSymbol && isLibrarySymbol(type.aliasSymbol) && type.aliasTypeArguments?.length) {
      return `${type.aliasSymbol.name}<${type.aliasTypeArguments.map((t) => this.print(t, indent)).join(", ")}>`;
    }
    if (type.isUnion()) return this.union(type, indent);
    if (type.isIntersection()) return type.types.map((t) => this.wrap(t, indent)).join(" & ");
    if (type.flags & ts.TypeFlags.StringLiteral) return JSON.stringify(type.value);
    if (type.flags & (ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral | ts.TypeFlags.Intrinsic | ts.TypeFlags.BigIntLiteral)) {
      return checker.typeToString(type);
    }
    if (checker.isTupleType(type)) {
      const readonly = type.target.readonly ? "readonly " : "";
      return `${readonly}[${checker.getTypeArguments(type).map((t) => this.print(t, indent)).join(", ")}]`;
    }
    if (checker.isArrayType(type)) {
      const readonly = type.getSymbol()?.name === "ReadonlyArray" ? "readonly " : "";
      return `${readonly}${this.wrap(checker.getTypeArguments(type)[0], indent)}[]`;
    }
    if (type.flags & ts.TypeFlags.Object && !isLibraryType(type)) return this.object(type, indent);
    if (isLibraryType(type) || type.flags & ts.TypeFlags.TemplateLiteral) return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    throw new Error(`cannot print the type ${checker.typeToString(type)}`);
  }

  /** A member of an array, union or intersection: parenthesised when it is itself a union or intersection. */
  wrap(type, indent) {
    const text = this.print(type, indent);
    const named = this.names.has(type) || (type.aliasSymbol && this.names.has(type.aliasSymbol));
    return !named && (type.isUnion() || type.isIntersection()) && !(type.flags & ts.TypeFlags.Boolean) ? `(${text})` : text;
  }

  union(type, indent, withoutUndefined = false) {
    // `boolean` is the union `true | false`: print it as one member, in the place of `true`.
    const members = type.types.filter(
      (t) => !(t.flags & ts.TypeFlags.BooleanLiteral && t.intrinsicName === "false") && !(withoutUndefined && t.flags & ts.TypeFlags.Undefined),
    );
    const hasBoolean = type.types.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral).length === 2;
    const sorted = [...members].sort((a, b) => unionRank(a) - unionRank(b) || (unionRank(a) === 1 ? compareLiterals(a, b) : 0));
    return sorted
      .map((t) => (hasBoolean && t.flags & ts.TypeFlags.BooleanLiteral ? "boolean" : this.wrap(t, indent)))
      .join(" | ");
  }

  object(type, indent) {
    const checker = this.checker;
    if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 || checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0) {
      throw new Error(`cannot print the function type ${checker.typeToString(type)}`);
    }
    const inner = indent + "  ";
    const lines = [];
    for (const info of checker.getIndexInfosOfType(type)) {
      const readonly = info.isReadonly ? "readonly " : "";
      lines.push(`${inner}${readonly}[key: ${checker.typeToString(info.keyType)}]: ${this.print(info.type, inner)};\n`);
    }
    for (const property of [...checker.getPropertiesOfType(type)].sort(compareSourcePositions)) {
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      // An optional property's type includes undefined already: `x?: string`, not `x?: string | undefined`.
      const propertyType = checker.getTypeOfSymbol(property);
      const printed = optional && propertyType.isUnion() ? this.union(propertyType, inner, true) : this.print(propertyType, inner);
      const key = IDENTIFIER.test(property.name) ? property.name : JSON.stringify(property.name);
      const readonly = isReadonly(property) ? "readonly " : "";
      lines.push(`${jsdoc(checker, property, inner)}${inner}${readonly}${key}${optional ? "?" : ""}: ${printed};\n`);
    }
    return lines.length === 0 ? "{}" : `{\n${lines.join("")}${indent}}`;
  }
}

function isReadonly(symbol) {
  return (symbol.declarations ?? []).some((d) => ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Readonly);
}

// The header, like the whole module, does not name the schema library: its declarations must not either.
const HEADER = `/**
 * GENERATED by provider/scripts/generatePublicTypes.mjs from the schemas (provider/schemas) and the
 * aliases tagged @${TAG}: do not edit. \`npm run build\` regenerates it; commit it with the schema change.
 *
 * The API's request and response shapes as plain types, for the package's public declarations: what the
 * package root reaches must compile without esModuleInterop (Pulumi's template tsconfig has none).
 */
`;

/**
 * Compile-time proof that every printed type is exactly the inferred one: each alias's own file gets, in memory,
 * `const _: Equal<generated.Name, Alias> = true`, and that program is type-checked against the new output text.
 */
function equalityProblems(aliases, outputText) {
  const sources = new Map([[OUTPUT, outputText]]);
  for (const { name, declaration, file } of aliases) {
    let text = sources.get(file);
    if (text === undefined) {
      const importPath = relative(dirname(file), OUTPUT).replace(/\\/g, "/").replace(/\.ts$/, "");
      text = `${readFileSync(file, "utf8")}\nimport type * as __generated from "${importPath.startsWith(".") ? importPath : "./" + importPath}";\n`;
    }
    const local = declaration.name.text;
    const equal = `(<T>() => T extends __generated.${name} ? 1 : 2) extends <T>() => T extends ${local} ? 1 : 2 ? true : false`;
    sources.set(file, `${text}export const __equal_${name}: ${equal} = true;\n`);
  }
  const options = { ...compilerOptions(), noEmit: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => sources.get(f) ?? readFile(f);
  host.fileExists = (f) => sources.has(f) || fileExists(f);
  host.getSourceFile = (f, language, ...rest) => (sources.has(f) ? ts.createSourceFile(f, sources.get(f), language, true) : getSourceFile(f, language, ...rest));
  const program = ts.createProgram([...sources.keys()], options, host);
  return [...sources.keys()]
    .flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f)))
    .map((d) => {
      const line = d.file ? d.file.text.slice(d.file.getLineStarts()[d.file.getLineAndCharacterOfPosition(d.start).line]).split("\n")[0] : "";
      const alias = /__equal_(\w+)/.exec(line)?.[1];
      const where = alias ? `${alias} (${relative(PROVIDER, d.file.fileName)})` : d.file ? relative(PROVIDER, d.file.fileName) : "";
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

function generate() {
  const program = ts.createProgram(sourceFiles(), compilerOptions());
  const checker = program.getTypeChecker();
  const aliases = collectAliases(program);
  const printer = new Printer(checker, aliases);
  const blocks = [];
  let module;
  for (const alias of aliases) {
    const from = relative(PROVIDER, alias.file).replace(/\\/g, "/");
    if (from !== module) {
      blocks.push(`// ${from}\n`);
      module = from;
    }
    const type = checker.getTypeAtLocation(alias.declaration.name);
    const body = printer.alias(type);
    const doc = docBlock(aliasDoc(checker, alias.declaration), "");
    const declaration = type.flags & ts.TypeFlags.Object && body.startsWith("{") ? `export interface ${alias.name} ${body}\n` : `export type ${alias.name} = ${body};\n`;
    blocks.push(`${doc}${declaration}\n`);
  }
  const text = `${HEADER}\n${blocks.join("").trimEnd()}\n`;
  return { text, aliases };
}

const check = process.argv.includes("--check");
const { text, aliases } = generate();
const problems = equalityProblems(aliases, text);
if (problems.length > 0) {
  console.error(`generatePublicTypes: the generated types do not check against the inferred ones:\n${problems.join("\n")}`);
  process.exit(1);
}
if (/zod/i.test(text)) {
  console.error(`generatePublicTypes: a comment copied into ${relative(process.cwd(), OUTPUT)} names zod; reword it (the public declarations must not):\n` + text.split("\n").filter((l) => /zod/i.test(l)).join("\n"));
  process.exit(1);
}
const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, "utf8") : "";
if (check) {
  if (current !== text) {
    console.error(`${relative(process.cwd(), OUTPUT)} is out of date: run npm run build (or node provider/scripts/generatePublicTypes.mjs) and commit it`);
    process.exit(1);
  }
} else if (current !== text) {
  writeFileSync(OUTPUT, text);
  console.log(`wrote ${relative(process.cwd(), OUTPUT)} (${aliases.length} types)`);
}
