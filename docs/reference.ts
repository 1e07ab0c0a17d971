/**
 * docs/reference/: one Markdown page per resource and per function, in the Pulumi registry's layout, generated from
 * the package schema (provider/plugin/schema.json) alone, so a page says what every language's SDK is built from.
 * Run by `npm run docs` (docs/generate.ts); tests/docs.test.ts checks the pages are current and their links resolve.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A property of the schema: an input, an output, a field of an object type or a function's argument or result. */
export interface SchemaProperty {
  type?: string;
  $ref?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  oneOf?: SchemaProperty[];
  description?: string;
  default?: unknown;
  secret?: boolean;
  replaceOnChanges?: boolean;
  defaultInfo?: { environment?: string[] };
}
export interface SchemaObject {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
  enum?: { name?: string; value: unknown; description?: string }[];
  type?: string;
}
export interface SchemaResource {
  description: string;
  inputProperties?: Record<string, SchemaProperty>;
  requiredInputs?: string[];
  properties?: Record<string, SchemaProperty>;
  required?: string[];
}
export interface SchemaFunction {
  description: string;
  inputs?: SchemaObject;
  outputs?: SchemaObject;
}
export interface Schema {
  name: string;
  displayName?: string;
  resources: Record<string, SchemaResource>;
  functions: Record<string, SchemaFunction>;
  types: Record<string, SchemaObject>;
  config?: { variables?: Record<string, SchemaProperty> };
  language?: { go?: { importBasePath?: string }; python?: { packageName?: string } };
}

/** The TypeScript package that serves the same resources as dynamic providers. */
export const NODE_PACKAGE = "bunnynet-pulumi";

/** The index's sections: every resource and function is in exactly one (the generator fails on one that is not). */
export const GROUPS: { title: string; members: string[] }[] = [
  { title: "DNS", members: ["DnsZone", "DnsRecord", "getDnsZone", "getDnsRecord"] },
  { title: "CDN and pull zones", members: ["PullZone", "PullZoneHostname", "EdgeRule", "OptimizerClass", "CachePurge", "getPullZone", "getCdnLogs", "getCdnRegions"] },
  { title: "Shield", members: ["ShieldZone", "WafRule", "RateLimitRule", "AccessList", "getAccessLists"] },
  { title: "Edge scripting", members: ["EdgeScript", "ScriptSecret", "ScriptVariable"] },
  { title: "Storage", members: ["StorageZone", "StorageFolder", "StorageFile", "getRegions"] },
  { title: "Stream", members: ["VideoLibrary", "StreamCollection", "StreamVideo", "VideoThumbnail", "getVideoLanguages"] },
  { title: "Magic Containers", members: ["ContainerApp", "ContainerRegistry", "VolumeInstanceDeletion", "getAppEndpoints", "getContainerAppContainer", "getContainerRegistry"] },
  { title: "Databases", members: ["Database"] },
  { title: "Account", members: ["TeamMember", "getApiKeys"] },
];

/**
 * The hand-written guide section (docs/guides/) that says how each resource behaves beyond its inputs, what it costs in
 * API calls and how it compares with bunny.net's Terraform provider; lookups share one guide. Each page links it, and
 * the README's row of a resource links the same section (tests/docs.test.ts).
 */
export const GUIDE_SECTIONS: Record<string, string> = {
  DnsZone: "dns.md#dnszone-and-dnsrecord",
  DnsRecord: "dns.md#dnszone-and-dnsrecord",
  PullZone: "cdn.md#pullzone",
  PullZoneHostname: "cdn.md#pullzonehostname",
  EdgeRule: "cdn.md#edgerule",
  OptimizerClass: "cdn.md#optimizerclass",
  CachePurge: "cdn.md#cachepurge",
  StorageZone: "storage.md#storagezone",
  StorageFile: "storage.md#storagefile-and-storagefolder",
  StorageFolder: "storage.md#storagefile-and-storagefolder",
  ShieldZone: "shield.md#shieldzone",
  RateLimitRule: "shield.md#ratelimitrule",
  WafRule: "shield.md#wafrule-and-accesslist",
  AccessList: "shield.md#wafrule-and-accesslist",
  VideoLibrary: "stream.md#videolibrary",
  StreamVideo: "stream.md#streamvideo-and-streamcollection",
  StreamCollection: "stream.md#streamvideo-and-streamcollection",
  VideoThumbnail: "stream.md#videothumbnail",
  EdgeScript: "edge-scripting.md#edgescript",
  ScriptVariable: "edge-scripting.md#scriptvariable-and-scriptsecret",
  ScriptSecret: "edge-scripting.md#scriptvariable-and-scriptsecret",
  ContainerApp: "containers.md#containerapp",
  ContainerRegistry: "containers.md#containerregistry",
  VolumeInstanceDeletion: "containers.md#volumeinstancedeletion",
  Database: "databases-and-team.md#database",
  TeamMember: "databases-and-team.md#teammember",
};
const LOOKUPS_GUIDE = "lookups.md";

/** A page's line linking its guide (tests/docs.test.ts fails on a resource of the schema with no guide section). */
function guideLine(token: string): string[] {
  const name = tokenName(token);
  const isFunction = name.startsWith("get");
  const section = isFunction ? LOOKUPS_GUIDE : GUIDE_SECTIONS[name];
  if (!section) return [];
  return [`How it behaves beyond its ${isFunction ? "arguments" : "inputs"}, its cost in API calls and Terraform's equivalent: [the guide](../guides/${section}).`, ""];
}

/** `bunnynet:index:DnsRecord` → `DnsRecord`. */
export const tokenName = (token: string): string => token.slice(token.lastIndexOf(":") + 1);

/** A page's file name: the token's name, `DnsRecord.md`, `getDnsZone.md`. */
export const pageFile = (token: string): string => `${tokenName(token)}.md`;

/**
 * The Python SDK's name of a camelCase name, as Pulumi's Python code generator writes it: `dnsZoneId` → `dns_zone_id`,
 * an acronym stays one word (`originURL` → `origin_url`, `URLPath` → `url_path`), digits stay with what precedes them.
 */
export function snakeCase(name: string): string {
  const words: string[] = [];
  let word = "";
  /** What the last character was: a capital after a lower-case letter or digit, a capital after a capital, or else. */
  let last = "none" as "none" | "upper" | "acronym" | "lowerOrDigit";
  for (const c of name) {
    if (c >= "A" && c <= "Z") {
      if (last === "lowerOrDigit") {
        words.push(word);
        word = "";
      }
      word += c.toLowerCase();
      last = last === "upper" || last === "acronym" ? "acronym" : "upper";
    } else {
      if (last === "acronym" && !(c >= "0" && c <= "9")) {
        // The acronym's last capital starts the next word: URLPath → url_path.
        words.push(word.slice(0, -1));
        word = word.slice(-1);
      }
      word += c;
      last = "lowerOrDigit";
    }
  }
  words.push(word);
  return words.filter(Boolean).join("_");
}

/** Python's keywords, which Pulumi's Python SDK follows with an underscore (`from` → `from_`). */
const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "),
);

/** An input's or output's name in the Python SDK: its snake_case, with a keyword followed by an underscore. */
export function pythonName(name: string): string {
  const snake = snakeCase(name);
  return PYTHON_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

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

const nameCell = (name: string): string => `\`${name}\`<br>\`${pythonName(name)}\``;
const code = (value: unknown): string => `\`${JSON.stringify(value)}\``;
const sortedEntries = (props: Record<string, SchemaProperty> | undefined) => Object.entries(props ?? {}).sort(([a], [b]) => a.localeCompare(b));

function inputsTable(props: Record<string, SchemaProperty> | undefined, required: string[] | undefined, outputs?: Record<string, SchemaProperty>): string[] {
  const rows = sortedEntries(props);
  if (rows.length === 0) return ["None.", ""];
  return [
    "| Name (Python) | Type | Required | Default | Notes | Description |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map(([name, p]) => {
      const notes = [
        p.secret || outputs?.[name]?.secret ? "secret" : "",
        p.replaceOnChanges || outputs?.[name]?.replaceOnChanges ? "changing it replaces the resource" : "",
      ].filter(Boolean);
      return `| ${nameCell(name)} | ${renderType(p)} | ${required?.includes(name) ? "required" : "optional"} | ${p.default === undefined ? "" : code(p.default)} | ${notes.join("; ")} | ${cell(p.description ?? "")} |`;
    }),
    "",
  ];
}

function outputsTable(props: Record<string, SchemaProperty> | undefined, required: string[] | undefined): string[] {
  const rows = sortedEntries(props);
  if (rows.length === 0) return ["None.", ""];
  return [
    "| Name (Python) | Type | Always set | Notes | Description |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map(([name, p]) => `| ${nameCell(name)} | ${renderType(p)} | ${required?.includes(name) ? "yes" : "no"} | ${p.secret ? "secret" : ""} | ${cell(p.description ?? "")} |`),
    "",
  ];
}

function typeSections(schema: Schema, tokens: string[]): string[] {
  if (tokens.length === 0) return [];
  return [
    "## Supporting types",
    "",
    ...tokens.flatMap((token) => {
      const t = schema.types[token];
      const head = [`### ${tokenName(token)}`, "", ...(t.description ? [t.description.trim(), ""] : [])];
      if (t.enum)
        return [
          ...head,
          `An enum of ${t.type ?? "values"}.`,
          "",
          "| Name | Value | Description |",
          "| --- | --- | --- |",
          ...t.enum.map((e) => `| ${cell(e.name ?? String(e.value))} | ${code(e.value)} | ${cell(e.description ?? "")} |`),
          "",
        ];
      return [...head, ...inputsTable(t.properties, t.required)];
    }),
  ];
}

/** What a resource or function is called in each language's SDK (the Go package's name is its path's last part). */
export function languageNames(schema: Schema, token: string): { typescript: string; python: string; go: string } {
  const name = tokenName(token);
  const python = schema.language?.python?.packageName ?? `pulumi_${schema.name}`;
  const goPath = schema.language?.go?.importBasePath ?? schema.name;
  const goPackage = goPath.slice(goPath.lastIndexOf("/") + 1);
  if (schema.resources[token]) return { typescript: `${schema.name}.${name}`, python: `${python}.${name}`, go: `${goPackage}.New${name}` };
  const target = name.replace(/^get/, "");
  // Pulumi's Go generator names a function that reads a resource of the package `Lookup<Resource>`, others `Get<Thing>`.
  const goVerb = schema.resources[`${token.slice(0, token.lastIndexOf(":") + 1)}${target}`] ? "Lookup" : "Get";
  return { typescript: `${schema.name}.${name}`, python: `${python}.${snakeCase(name)}`, go: `${goPackage}.${goVerb}${target}` };
}

function sdkNames(schema: Schema, token: string): string[] {
  const names = languageNames(schema, token);
  const python = schema.language?.python?.packageName ?? `pulumi_${schema.name}`;
  const goPath = schema.language?.go?.importBasePath ?? schema.name;
  return [
    "| Language | Package | Name |",
    "| --- | --- | --- |",
    `| TypeScript | \`${NODE_PACKAGE}\` | \`${names.typescript}\` (\`import * as ${schema.name} from "${NODE_PACKAGE}"\`) |`,
    `| Python | \`${python}\` | \`${names.python}\` |`,
    `| Go | \`${goPath}\` | \`${names.go}\` |`,
    schema.resources[token] ? `| YAML | | \`type: ${token}\` |` : `| YAML | | \`fn::invoke: { function: ${token} }\` |`,
    "",
  ];
}

/** The languages of the examples, in the order a page shows them. */
export type ReferenceLanguage = "typescript" | "python" | "go" | "yaml";
export const REFERENCE_LANGUAGES: ReferenceLanguage[] = ["typescript", "python", "go", "yaml"];

/**
 * The program of each language whose regions are the pages' examples (examples/reference/<language>/): its Pulumi
 * project's name, the file (from the repository's root), the heading and the code fence's language. Every program
 * declares every resource and calls every lookup; tests/engine/referenceExamples.test.ts deploys each.
 */
export const REFERENCE_EXAMPLES: Record<ReferenceLanguage, { project: string; file: string; title: string; fence: string }> = {
  typescript: { project: "bunnynet-reference-typescript", file: "examples/reference/typescript/index.ts", title: "TypeScript", fence: "typescript" },
  python: { project: "bunnynet-reference-python", file: "examples/reference/python/__main__.py", title: "Python", fence: "python" },
  go: { project: "bunnynet-reference-go", file: "examples/reference/go/main.go", title: "Go", fence: "go" },
  yaml: { project: "bunnynet-reference-yaml", file: "examples/reference/yaml/Pulumi.yaml", title: "YAML", fence: "yaml" },
};

/** A page's example in each language, by resource or function name (`DnsZone`, `getDnsZone`). */
export type ReferenceSnippets = Record<string, Partial<Record<ReferenceLanguage, string>>>;

const REGION_START = /^\s*(?:\/\/|#) region (\S+)\s*$/;
const REGION_END = /^\s*(?:\/\/|#) endregion\s*$/;

/**
 * The regions of a program: the lines between `// region <Name>` (`# region <Name>` in Python and YAML) and the
 * `endregion` that closes it, without the markers of regions nested in it (a record's region holds its zone's), its
 * common indentation removed. In YAML, a region under a top-level key (`resources:`, `variables:`) is shown under that
 * key, as indented as in the program, so it reads as a program would. Fails on an unclosed, unopened or repeated
 * region, and on an empty one.
 */
export function extractRegions(text: string, yaml = false): Map<string, string> {
  const lines = text.split("\n");
  const regions = new Map<string, string>();
  const open: { name: string; start: number }[] = [];
  lines.forEach((line, i) => {
    const start = REGION_START.exec(line);
    if (start) {
      if (regions.has(start[1]) || open.some((r) => r.name === start[1])) throw new Error(`line ${i + 1}: region ${start[1]} again`);
      open.push({ name: start[1], start: i });
      return;
    }
    if (!REGION_END.test(line)) return;
    const region = open.pop();
    if (!region) throw new Error(`line ${i + 1}: endregion without a region`);
    const body = lines.slice(region.start + 1, i).filter((l) => !REGION_START.test(l) && !REGION_END.test(l));
    if (!body.some((l) => l.trim())) throw new Error(`region ${region.name} is empty`);
    if (yaml) {
      const section = lines.slice(0, region.start).reverse().find((l) => /^[A-Za-z]\w*:\s*$/.test(l));
      regions.set(region.name, [...(section && /^\s/.test(body.find((l) => l.trim()) ?? "") ? [section] : []), ...body].join("\n"));
    } else {
      const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
      regions.set(region.name, body.map((l) => l.slice(indent)).join("\n"));
    }
  });
  if (open.length) throw new Error(`region ${open.map((r) => r.name).join(", ")} is not closed`);
  return regions;
}

/** Every page's example in every language, from the programs of REFERENCE_EXAMPLES under `repoRoot`. */
export function readReferenceSnippets(repoRoot: string): ReferenceSnippets {
  const snippets: ReferenceSnippets = {};
  for (const language of REFERENCE_LANGUAGES) {
    const { file } = REFERENCE_EXAMPLES[language];
    let regions: Map<string, string>;
    try {
      regions = extractRegions(readFileSync(join(repoRoot, file), "utf8"), language === "yaml");
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
    }
    for (const [name, code] of regions) (snippets[name] ??= {})[language] = code;
  }
  return snippets;
}

/** A page's examples: the snippet of each language, under its heading, from its program. */
function exampleSection(token: string, snippets: ReferenceSnippets): string[] {
  const name = tokenName(token);
  const missing = REFERENCE_LANGUAGES.filter((l) => !snippets[name]?.[l]);
  if (missing.length) throw new Error(`${name}: no region ${name} in ${missing.map((l) => REFERENCE_EXAMPLES[l].file).join(", ")}`);
  return [
    "Each snippet is a region of [a program](../../examples/reference/README.md) that declares every resource and calls every lookup of the package, one per language, which CI deploys against the emulator (`up`, an unchanged `up`, `destroy`). A name the snippet uses without declaring it (`zone`, `cdn`, `shield`…) is declared elsewhere in that program.",
    "",
    ...REFERENCE_LANGUAGES.flatMap((l) => {
      const { file, title, fence } = REFERENCE_EXAMPLES[l];
      return [`### ${title}`, "", `From [${file}](../../${file}):`, "", "```" + fence, snippets[name][l]!, "```", ""];
    }),
  ];
}

const backToIndex = ["[All resources and functions](README.md)", ""];

export function renderResourcePage(schema: Schema, token: string, snippets: ReferenceSnippets): string {
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
    ...outputsTable(r.properties, r.required),
    ...typeSections(schema, types),
    "## Import",
    "",
    importText ?? "Not documented.",
    "",
  ].join("\n");
}

export function renderFunctionPage(schema: Schema, token: string, snippets: ReferenceSnippets): string {
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
    ...typeSections(schema, types),
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
 * `outDir`, replacing it.
 */
export function generateReference(outDir: string, schema: Schema, snippets: ReferenceSnippets): void {
  const names = new Set([...Object.keys(schema.resources), ...Object.keys(schema.functions)].map(tokenName));
  const stray = Object.keys(snippets).filter((name) => !names.has(name));
  if (stray.length) throw new Error(`examples/reference: regions [${stray.join(", ")}] name no resource or function of the schema`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "README.md"), renderIndex(schema));
  for (const token of Object.keys(schema.resources)) writeFileSync(join(outDir, pageFile(token)), renderResourcePage(schema, token, snippets));
  for (const token of Object.keys(schema.functions)) writeFileSync(join(outDir, pageFile(token)), renderFunctionPage(schema, token, snippets));
}

export const readSchema = (path: string): Schema => JSON.parse(readFileSync(path, "utf8")) as Schema;
