#!/usr/bin/env node
/**
 * Writes provider/plugin/schema.json, the Pulumi package schema of `bunnynet` (what the provider plugin's GetSchema
 * returns and what `pulumi package gen-sdk` generates the Python and Go SDKs from), from the definitions themselves:
 * - the TypeScript declarations, read with the compiler API: each registered type's `<Type>Args` (inputs) and
 *   `<Type>Outputs` (stored outputs) interfaces and its class's JSDoc in provider/resources/, each lookup `getX` of
 *   provider/lookups/ (its argument and result types), and `BunnySettings` for the provider's configuration;
 * - the registry at run time (provider/dist, so build first): the registered types, and per input what the definition
 *   says: replaceOnChanges, secretInputs/secretOutputs, zod defaults and integers; SETTING_SOURCES for config keys and
 *   environment variables.
 * A new resource or lookup needs no edit here. The type mapping is in schemaTypes.mjs; the schema's shape is Pulumi's
 * metaschema (pkg/codegen/schema/pulumi.json, pulumi/pulumi v3.259.0). Keys are sorted so CI can diff the output.
 *
 * Usage: node provider/scripts/generateSchema.mjs [--check]   (--check: fail if schema.json is not up to date)
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { resultProperty } from "./schemaEnums.mjs";
import { PACKAGE, SchemaTypes, baseName, documentation, sortKeys, storedOutputSpec, zodFacts } from "./schemaTypes.mjs";

const PROVIDER = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_PATH = join(PROVIDER, "plugin", "schema.json");
const require = createRequire(import.meta.url);

function sourceFiles(dir = PROVIDER) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? (["scripts", "dist", "node_modules", "plugin"].includes(e.name) ? [] : sourceFiles(join(dir, e.name))) : [join(dir, e.name)]))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort();
}

function compilerOptions() {
  const configPath = ts.findConfigFile(PROVIDER, ts.sys.fileExists);
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { composite: _c, incremental: _i, tsBuildInfoFile: _t, ...options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath)).options;
  return { ...options, noEmit: true };
}

/** The exported declarations of the modules under `folder`, by name: `{ node, file }`. */
function exportedDeclarations(program, folder) {
  const found = new Map();
  for (const file of program.getRootFileNames().filter((f) => dirname(f) === join(PROVIDER, folder))) {
    for (const statement of program.getSourceFile(file).statements) {
      const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      const name = statement.name?.text;
      if (!exported || !name) continue;
      if (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isFunctionDeclaration(statement)) {
        const key = ts.isClassDeclaration(statement) ? `class ${name}` : ts.isFunctionDeclaration(statement) ? `function ${name}` : name;
        if (!found.has(key)) found.set(key, { node: statement, file });
      }
    }
  }
  return found;
}

function declared(declarations, name, forWhat) {
  const d = declarations.get(name);
  if (!d) throw new Error(`generateSchema: ${forWhat} needs an exported ${name.replace(/^(class|function) /, "$1 ")} in provider/resources or provider/lookups`);
  return d;
}

/** The provider's configuration: one variable per setting, typed and documented by BunnySettings. */
function configVariables(checker, program, settingSources) {
  const settingsFile = program.getSourceFile(join(PROVIDER, "settings.ts"));
  const node = settingsFile.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "BunnySettings");
  if (!node) throw new Error("generateSchema: provider/settings.ts has no BunnySettings interface");
  const type = checker.getTypeAtLocation(node.name);
  const variables = {};
  for (const [name, source] of Object.entries(settingSources)) {
    const symbol = type.getProperty(name);
    if (!symbol) throw new Error(`generateSchema: SETTING_SOURCES.${name} is not a property of BunnySettings`);
    const valueType = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
    // Every numeric setting is a whole number (settings.ts: positiveInt).
    const spec = { type: valueType.flags & ts.TypeFlags.NumberLike ? "integer" : "string" };
    const description = documentation(checker, symbol);
    spec.description = `${description}${description ? " " : ""}Environment: ${source.env.join(" or ")}.`;
    spec.defaultInfo = { environment: [...source.env] };
    if (name === "apiKey") spec.secret = true;
    variables[source.config] = spec;
  }
  return variables;
}

/** `getX` functions of provider/lookups: inputs from their first parameter (an object, or one named value). */
function functions(checker, declarations, types) {
  const result = {};
  const lookups = [...declarations.keys()].filter((k) => /^function get[A-Z]\w*$/.test(k) && !k.endsWith("Output")).sort();
  for (const key of lookups) {
    const name = key.slice("function ".length);
    const { node } = declarations.get(key);
    const signature = checker.getSignatureFromDeclaration(node);
    const doc = documentation(checker, checker.getSymbolAtLocation(node.name));
    const parameters = signature.getParameters().filter((p) => p.name !== "options");
    const spec = {};
    if (doc) spec.description = doc;
    if (parameters.length > 1) throw new Error(`generateSchema: ${name} takes ${parameters.map((p) => p.name).join(", ")}: a lookup takes one argument object (or one value) and options`);
    if (parameters.length === 1) {
      const parameter = parameters[0];
      const { type } = types.unwrap(checker.getTypeOfSymbol(parameter));
      const owner = `${name[0].toUpperCase()}${name.slice(1)}Args`;
      const isObject = !type.union && type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) && !checker.isArrayType(type);
      const members = type.union ?? (type.isUnion?.() ? type.types : undefined);
      // A bare value beside the arguments object (`getAccessLists(id)` for `getAccessLists({ shieldZoneId })`) is
      // TypeScript's shorthand: the schema has the object.
      const objectMembers = members?.filter((m) => m.flags & ts.TypeFlags.Object);
      if (objectMembers?.length) spec.inputs = mergedObject(checker, types, objectMembers, owner);
      else if (isObject) spec.inputs = objectOf(types.objectSpec(type, owner));
      else {
        // One value: the input is named after the parameter.
        const inner = types.objectSpecOfProperty(parameter, owner);
        spec.inputs = objectOf(inner);
      }
    }
    const returned = types.unwrap(signature.getReturnType()).type;
    const returns = types.objectSpec(returned, `${name[0].toUpperCase()}${name.slice(1)}Result`);
    for (const [property, propertySpec] of Object.entries(returns.properties)) returns.properties[property] = resultProperty(propertySpec, types.types);
    spec.outputs = objectOf(returns);
    result[`${PACKAGE}:index:${name}`] = spec;
  }
  return result;
}

/** Arguments given as a union of objects (`{ id } | { name }`): every property, required only where all require it. */
function mergedObject(checker, types, members, owner) {
  const properties = {};
  const requiredCounts = new Map();
  for (const member of members) {
    const spec = types.objectSpec(member, owner, {}, { skipUndefined: true });
    for (const [k, v] of Object.entries(spec.properties)) properties[k] ??= v;
    for (const k of spec.required) requiredCounts.set(k, (requiredCounts.get(k) ?? 0) + 1);
  }
  const required = [...requiredCounts].filter(([, n]) => n === members.length).map(([k]) => k);
  return objectOf({ properties, required });
}

/**
 * The "## Import" section of a resource's description, as Pulumi providers write it: the `pulumi import` line with the
 * definition's id format (provider/pulumi/importIds.ts), what an import cannot read, or why the type cannot be imported.
 */
function importSection(type, definition) {
  const { importFormat, notImportableReason } = require(join(PROVIDER, "dist", "pulumi", "importIds.js"));
  const format = importFormat(definition);
  if (format === undefined) return `\n\n## Import\n\n${type} cannot be imported: ${notImportableReason(definition)}.`;
  const notRead = definition.importId.notRead ? `\n\nAn import leaves out ${definition.importId.notRead}.` : "";
  const name = type.charAt(0).toLowerCase() + type.slice(1);
  return `\n\n## Import\n\nAn existing ${type} is imported (or read without being managed, with the SDK's get) by an id of the form \`${format}\`:\n\n\`\`\`sh\n$ pulumi import ${PACKAGE}:index:${type} ${name} ${format}\n\`\`\`${notRead}`;
}

const objectOf = ({ properties, required }) => ({ type: "object", properties, ...(required.length > 0 ? { required: [...required].sort() } : {}) });

export function generateSchema() {
  const dist = join(PROVIDER, "dist");
  if (!existsSync(join(dist, "index.js"))) throw new Error("generateSchema: provider/dist is missing: run npm run build first");
  require(join(dist, "index.js"));
  const { registeredTypes, definitionOf } = require(join(dist, "pulumi", "registry.js"));
  const { SETTING_SOURCES } = require(join(dist, "settings.js"));
  const packageJson = JSON.parse(readFileSync(join(PROVIDER, "package.json"), "utf8"));

  const program = ts.createProgram(sourceFiles(), compilerOptions());
  const checker = program.getTypeChecker();
  const types = new SchemaTypes(checker);
  const resourceDeclarations = exportedDeclarations(program, "resources");
  const lookupDeclarations = exportedDeclarations(program, "lookups");

  const resources = {};
  for (const type of [...registeredTypes()].sort()) {
    const definition = definitionOf(type);
    const args = declared(resourceDeclarations, `${type}Args`, type);
    const outputs = declared(resourceDeclarations, `${type}Outputs`, type);
    const cls = declared(resourceDeclarations, `class ${type}`, type);
    const facts = zodFacts(definition.inputs);
    const secretInputs = new Set(definition.secretInputs ?? []);
    const secretOutputs = new Set([...(definition.secretOutputs ?? []), ...secretInputs]);
    const replaceOnChanges = new Set(definition.replaceOnChanges);
    const inputSpec = types.objectSpec(checker.getTypeAtLocation(args.node.name), `${type}Args`, facts, { secret: secretInputs, replaceOnChanges });
    // Stored outputs: the inputs as stored (their facts too: integers) and the computed ones. Defaults are for inputs only.
    const outputSpec = types.objectSpec(checker.getTypeAtLocation(outputs.node.name), type, facts, { secret: secretOutputs, defaults: false });
    // A stored input is documented where the program writes it (Args); its output says the same. Unions of containers
    // are read back as Any (storedOutputSpec says why).
    for (const [name, property] of Object.entries(outputSpec.properties)) {
      const input = inputSpec.properties[name];
      if (!property.description && input?.description) property.description = input.description;
      outputSpec.properties[name] = storedOutputSpec(property, types.types);
    }
    const spec = {
      description: documentation(checker, checker.getSymbolAtLocation(cls.node.name)) + importSection(type, definition),
      inputProperties: inputSpec.properties,
      properties: outputSpec.properties,
    };
    if (inputSpec.required.length > 0) spec.requiredInputs = inputSpec.required;
    if (outputSpec.required.length > 0) spec.required = outputSpec.required;
    resources[`${PACKAGE}:index:${type}`] = spec;
  }

  const functionSpecs = functions(checker, lookupDeclarations, types);
  const variables = configVariables(checker, program, SETTING_SOURCES);
  const repository = String(packageJson.repository?.url ?? packageJson.repository).replace(/^git\+/, "").replace(/\.git$/, "");
  const modulePath = repository.replace(/^https?:\/\//, "");
  // Where the engine downloads the plugin when it is not installed: the GitHub releases of the repository, whose
  // assets release.yml uploads (the github:// scheme, <host>/<organization>/<repository>: newGithubSource in pulumi/pulumi
  // sdk/go/common/workspace/plugins.go). The SDKs carry it as `server` in their pulumi-plugin.json.
  const githubRepository = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(repository)?.[1];
  if (!githubRepository) throw new Error(`generateSchema: provider/package.json's repository ${repository} is not a GitHub repository`);
  const schema = {
    name: PACKAGE,
    displayName: "bunny.net",
    description: "Manage bunny.net (CDN pull zones, DNS, storage, Shield, edge scripts, Stream, Magic Containers) from Pulumi.",
    version: packageJson.version,
    publisher: "bunnynet-pulumi",
    pluginDownloadURL: `github://api.github.com/${githubRepository}`,
    repository,
    homepage: repository,
    license: packageJson.license,
    keywords: ["pulumi", "bunnynet", "bunny.net", "category/cloud", "kind/native"],
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables },
    provider: {
      description: "The provider type for the bunnynet package: its arguments are the settings (`bunnynet:*` stack config otherwise, then BUNNYNET_* environment variables).",
      inputProperties: variables,
    },
    resources,
    functions: functionSpecs,
    types: Object.fromEntries(types.types),
    language: {
      python: {
        packageName: "pulumi_bunnynet",
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: `${modulePath}/sdk/go/${PACKAGE}`,
        respectSchemaVersion: true,
      },
    },
  };
  return `${JSON.stringify(sortKeys(schema), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  const text = generateSchema();
  const current = existsSync(SCHEMA_PATH) ? readFileSync(SCHEMA_PATH, "utf8") : "";
  const shown = relative(process.cwd(), SCHEMA_PATH);
  if (check) {
    if (current !== text) {
      console.error(`${shown} is out of date: run npm run schema (after npm run build) and commit it`);
      process.exit(1);
    }
  } else if (current !== text) {
    mkdirSync(dirname(SCHEMA_PATH), { recursive: true });
    writeFileSync(SCHEMA_PATH, text);
    console.log(`wrote ${shown}`);
  }
}
