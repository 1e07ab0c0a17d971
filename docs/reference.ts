/**
 * docs/reference/: one Markdown page per resource and per function, in the Pulumi registry's layout, generated from
 * the package schema (provider/plugin/schema.json) alone, so a page says what every language's SDK is built from.
 * Run by `npm run docs` (docs/generate.ts); tests/docs.test.ts checks the pages are current and their links resolve.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ReferenceSnippets, exampleSection } from "./referenceExamples";
import { GROUPS, guideLine } from "./referenceGuides";
import { type EnumSpellings, pythonName, sdkNames, tokenName } from "./referenceNames";
import type { Schema, SchemaProperty } from "./referenceSchema";

export { REFERENCE_EXAMPLES, REFERENCE_LANGUAGES, type ReferenceLanguage, type ReferenceSnippets, extractRegions, readReferenceSnippets } from "./referenceExamples";
export { GROUPS, GUIDE_SECTIONS } from "./referenceGuides";
export { NODE_PACKAGE, languageNames, pythonName, readEnumSpellings, snakeCase, tokenName } from "./referenceNames";
export { type Schema, type SchemaFunction, type SchemaObject, type SchemaProperty, type SchemaResource, readSchema } from "./referenceSchema";

/** A page's file name: the token's name, `DnsRecord.md`, `getDnsZone.md`. */
export const pageFile = (token: string): string => `${tokenName(token)}.md`;

/** A Markdown table cell: one line, pipes escaped. */
export const cell = (text: string): string => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim();

/** The anchor of a type's heading on its page (GitHub lower-cases heading text; a type name has no other characters). */
export const typeAnchor = (token: string): string => tokenName(token).toLowerCase();

/** `#/types/bunnynet:index:X` → the type's token, or undefined for anything else. */
const typeRef = (ref: string | undefined): string | undefined => (ref?.startsWith("#/types/") ? ref.slice("#/types/".length) : undefined);

const PULUMI_TYPES: Record<string, string> = { "pulumi.json#/Any": "any", "pulumi.json#/Archive": "Archive", "pulumi.json#/Asset": "Asset" };

/** A property's type in Markdown: `string`, `integer[]`, `map<string>`, a link to an object or enum type on the page. */
export function renderType(p: SchemaProperty): string {
  const ref = typeRef(p.$ref);
  if (ref) return `[${tokenName(ref)}](#${typeAnchor(ref)})`;
  if (p.$ref) return PULUMI_TYPES[p.$ref] ?? p.$ref;
  if (p.oneOf) return p.oneOf.map(renderType).join(" \\| ");
  if (p.type === "array" && p.items) return `${renderType(p.items)}[]`;
  if (p.type === "object" && p.additionalProperties) return `map<${renderType(p.additionalProperties)}>`;
  return p.type ?? "any";
}

/** The object and enum types a set of properties uses, directly or through other types, in name order. */
export function typesUsed(schema: Schema, roots: (SchemaProperty | undefined)[]): string[] {
  const found = new Set<string>();
  const visit = (p: SchemaProperty | undefined): void => {
    if (!p) return;
    const ref = typeRef(p.$ref);
    if (ref && !found.has(ref)) {
      found.add(ref);
      const type = schema.types[ref];
      if (!type) throw new Error(`${ref} is referenced but not in the schema's types`);
      Object.values(type.properties ?? {}).forEach(visit);
    }
    visit(p.items);
    visit(p.additionalProperties);
    p.oneOf?.forEach(visit);
  };
  roots.forEach(visit);
  return [...found].sort((a, b) => tokenName(a).localeCompare(tokenName(b)));
}

/** A description split at its `## Import` section. */
export function splitImport(description: string): { body: string; importText?: string } {
  const at = description.search(/^## Import\s*$/m);
  if (at < 0) return { body: description.trim() };
  return { body: description.slice(0, at).trim(), importText: description.slice(at).replace(/^## Import\s*/, "").trim() };
}

/** A property's name and its Python SDK's name, two cells. */
const nameCells = (name: string): string => `\`${name}\` | \`${pythonName(name)}\``;
const code = (value: unknown): string => `\`${JSON.stringify(value)}\``;
const sortedEntries = (props: Record<string, SchemaProperty> | undefined) => Object.entries(props ?? {}).sort(([a], [b]) => a.localeCompare(b));

function inputsTable(props: Record<string, SchemaProperty> | undefined, required: string[] | undefined, outputs?: Record<string, SchemaProperty>): string[] {
  const rows = sortedEntries(props);
  if (rows.length === 0) return ["None.", ""];
  return [
    "| Name | Python | Type | Required | Default | Notes | Description |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(([name, p]) => {
      const notes = [
        p.secret || outputs?.[name]?.secret ? "secret" : "",
        p.replaceOnChanges || outputs?.[name]?.replaceOnChanges ? "changing it replaces the resource" : "",
      ].filter(Boolean);
      return `| ${nameCells(name)} | ${renderType(p)} | ${required?.includes(name) ? "required" : "optional"} | ${p.default === undefined ? "" : code(p.default)} | ${notes.join("; ")} | ${cell(p.description ?? "")} |`;
    }),
    "",
  ];
}

/**
 * An output's type: an output stored as the union its input takes (`"none" | "free" | { certificate, privateKey }`) is
 * Any in the schema (generateSchema.mjs, storedOutputSpec: Python cannot read such a union back), so the input's type
 * is shown, with what the SDKs type it as.
 */
function outputType(p: SchemaProperty, input: SchemaProperty | undefined): string {
  return p.$ref === "pulumi.json#/Any" && input?.oneOf ? `${renderType(input)} (typed any in the SDKs)` : renderType(p);
}

function outputsTable(props: Record<string, SchemaProperty> | undefined, required: string[] | undefined, inputs?: Record<string, SchemaProperty>): string[] {
  const rows = sortedEntries(props);
  if (rows.length === 0) return ["None.", ""];
  return [
    "| Name | Python | Type | Always set | Notes | Description |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map(([name, p]) => `| ${nameCells(name)} | ${outputType(p, inputs?.[name])} | ${required?.includes(name) ? "yes" : "no"} | ${p.secret ? "secret" : ""} | ${cell(p.description ?? "")} |`),
    "",
  ];
}

/** Whether a property of the schema takes an enum's names as strings (an integer enum relaxed with `string`). */
function takesNames(schema: Schema, token: string): boolean {
  const text = JSON.stringify(schema);
  const relaxed = new RegExp(`"oneOf":\\[\\{"\\$ref":"#/types/${token}"\\}(,\\{"type":"\\w+"\\})*,\\{"type":"string"\\}`);
  return relaxed.test(text);
}

/** An enum's table: each member's name, value and constant in Python and Go, and how TypeScript and YAML give it. */
function enumSection(schema: Schema, token: string, spellings: EnumSpellings): string[] {
  const t = schema.types[token];
  const members = spellings.get(token);
  const byName = t.type !== "string" && takesNames(schema, token);
  const plain = t.type === "string" ? "its value" : byName ? "its name (as a string) or its value" : "its value";
  return [
    `An enum of ${t.type ?? "values"}. TypeScript and YAML give a member by ${plain}; Python and Go by the constant, or a plain value.`,
    "",
    "| Name | Value | Python | Go | Description |",
    "| --- | --- | --- | --- | --- |",
    ...(t.enum ?? []).map((e) => {
      const sdk = members?.get(JSON.stringify(e.value));
      const constant = (name: string | undefined) => (name ? `\`${name}\`` : "");
      return `| ${cell(e.name ?? String(e.value))} | ${code(e.value)} | ${constant(sdk?.python)} | ${constant(sdk?.go)} | ${cell(e.description ?? "")} |`;
    }),
    "",
  ];
}

function typeSections(schema: Schema, tokens: string[], spellings: EnumSpellings): string[] {
  if (tokens.length === 0) return [];
  return [
    "## Supporting types",
    "",
    ...tokens.flatMap((token) => {
      const t = schema.types[token];
      const head = [`### ${tokenName(token)}`, "", ...(t.description ? [t.description.trim(), ""] : [])];
      if (t.enum) return [...head, ...enumSection(schema, token, spellings)];
      return [...head, ...inputsTable(t.properties, t.required)];
    }),
  ];
}

const backToIndex = ["[All resources and functions](README.md)", ""];

export function renderResourcePage(schema: Schema, token: string, snippets: ReferenceSnippets, spellings: EnumSpellings): string {
  const r = schema.resources[token];
  const { body, importText } = splitImport(r.description);
  const types = typesUsed(schema, [...Object.values(r.inputProperties ?? {}), ...Object.values(r.properties ?? {})]);
  return [
    `# ${tokenName(token)} resource`,
    "",
    ...backToIndex,
    body,
    "",
    `Resource token: \`${token}\``,
    "",
    ...guideLine(token),
    "## Example usage",
    "",
    "The resource in each language (the TypeScript package serves it as a dynamic provider, the plugin to the others):",
    "",
    ...sdkNames(schema, token),
    ...exampleSection(token, snippets),
    "## Inputs",
    "",
    ...inputsTable(r.inputProperties, r.requiredInputs, r.properties),
    "## Outputs",
    "",
    ...outputsTable(r.properties, r.required, r.inputProperties),
    ...typeSections(schema, types, spellings),
    "## Import",
    "",
    importText ?? "Not documented.",
    "",
  ].join("\n");
}

export function renderFunctionPage(schema: Schema, token: string, snippets: ReferenceSnippets, spellings: EnumSpellings): string {
  const f = schema.functions[token];
  const types = typesUsed(schema, [...Object.values(f.inputs?.properties ?? {}), ...Object.values(f.outputs?.properties ?? {})]);
  return [
    `# ${tokenName(token)} function`,
    "",
    ...backToIndex,
    f.description.trim(),
    "",
    `Function token: \`${token}\``,
    "",
    ...guideLine(token),
    "## Example usage",
    "",
    "The function in each language:",
    "",
    ...sdkNames(schema, token),
    ...exampleSection(token, snippets),
    "## Arguments",
    "",
    ...inputsTable(f.inputs?.properties, f.inputs?.required),
    "## Results",
    "",
    ...outputsTable(f.outputs?.properties, f.outputs?.required),
    ...typeSections(schema, types, spellings),
  ].join("\n");
}

/** The first sentence of a description, for the index. */
export function summary(description: string): string {
  const text = cell(splitImport(description).body);
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/** The provider's settings: stack config `<package>:<name>`, or the environment variables named. */
export function configSection(schema: Schema): string[] {
  const rows = sortedEntries(schema.config?.variables);
  if (rows.length === 0) return [];
  return [
    "## Configuration",
    "",
    `Stack config (\`pulumi config set ${schema.name}:<name>\`, \`--secret\` for a secret) or, when unset, the environment variables named.`,
    "",
    "| Name | Type | Environment | Notes | Description |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map(([name, p]) => `| \`${schema.name}:${name}\` | ${renderType(p)} | ${(p.defaultInfo?.environment ?? []).map((e) => `\`${e}\``).join(", ")} | ${p.secret ? "secret" : ""} | ${cell(p.description ?? "")} |`),
    "",
  ];
}

export function renderIndex(schema: Schema): string {
  const tokens = [...Object.keys(schema.resources), ...Object.keys(schema.functions)];
  const byName = new Map(tokens.map((t) => [tokenName(t), t]));
  const grouped = GROUPS.flatMap((g) => g.members);
  const missing = [...byName.keys()].filter((n) => !grouped.includes(n));
  const unknown = grouped.filter((n) => !byName.has(n));
  if (missing.length || unknown.length) throw new Error(`docs/reference.ts GROUPS: not grouped: [${missing}]; not in the schema: [${unknown}]`);
  const line = (name: string): string => {
    const token = byName.get(name)!;
    const description = schema.resources[token]?.description ?? schema.functions[token].description;
    return `- [${name}](${pageFile(token)}) (${schema.resources[token] ? "resource" : "function"}): ${summary(description)}`;
  };
  return [
    `# ${schema.displayName ?? schema.name} reference`,
    "",
    "One page per resource and function, generated from the package schema (`provider/plugin/schema.json`) by `npm run docs`: never edit these pages by hand.",
    "",
    "Each page shows an example in TypeScript, Python, Go and YAML: a region of one of the programs of [examples/reference](../../examples/reference/README.md), which CI deploys against the emulator.",
    "",
    ...GROUPS.flatMap((g) => [`## ${g.title}`, "", ...g.members.map(line), ""]),
    ...configSection(schema),
  ].join("\n");
}

/**
 * Writes docs/reference/ (README.md and one page per resource and function, with its examples from `snippets`) into
 * `outDir`, replacing it; `spellings`: each enum member's constant in the Python and Go SDKs (readEnumSpellings).
 */
export function generateReference(outDir: string, schema: Schema, snippets: ReferenceSnippets, spellings: EnumSpellings): void {
  const names = new Set([...Object.keys(schema.resources), ...Object.keys(schema.functions)].map(tokenName));
  const stray = Object.keys(snippets).filter((name) => !names.has(name));
  if (stray.length) throw new Error(`examples/reference: regions [${stray.join(", ")}] name no resource or function of the schema`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "README.md"), renderIndex(schema));
  for (const token of Object.keys(schema.resources)) writeFileSync(join(outDir, pageFile(token)), renderResourcePage(schema, token, snippets, spellings));
  for (const token of Object.keys(schema.functions)) writeFileSync(join(outDir, pageFile(token)), renderFunctionPage(schema, token, snippets, spellings));
}
