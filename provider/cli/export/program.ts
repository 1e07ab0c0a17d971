import { packageInfo } from "../../packageInfo";
import { typeToken } from "../../pulumi/base";

/**
 * The Pulumi TypeScript project `bunnynet export` writes: its files (Pulumi.yaml, package.json, the tsconfig of
 * Pulumi's template: pulumi/templates typescript/tsconfig.json, index.ts) and the bulk-import file beside them, in the
 * documented `pulumi import --file` format (`{ nameTable, resources: [{ type, name, id }] }`, see PULUMI-NOTES.md;
 * dynamic resources cannot be imported yet, pulumi/pulumi#16175). Values that are not literals (another resource's
 * output, a config value, a file's text, an enum member) are marker classes, printed as code.
 */

/**
 * Another exported resource's output, printed as `variable.output`: an output's name, or its path into map outputs
 * (`["endpoints", "api.v1", "id"]`: an entry's name may hold any character, a dot too).
 */
export class Reference {
  readonly path: readonly string[];
  constructor(
    readonly variable: string,
    output: string | readonly string[],
  ) {
    this.path = typeof output === "string" ? [output] : output;
  }
}

/** A stack config value, printed as `config.require(key)` or `config.requireSecret(key)`: a value the API never returns. */
export class FromConfig {
  constructor(
    readonly key: string,
    readonly secret: boolean,
  ) {}
}

/**
 * A text file of the project, printed as `fs.readFileSync(path, "utf8")` (relative to the project's directory, where
 * Pulumi runs the program). Text, not a FileAsset: refresh cannot give an asset input back (the engine elides its
 * contents, see provider/pulumi/wire.ts), while a text input stays as the program gave it.
 */
export class FileText {
  constructor(readonly path: string) {}
}

/** A member of one of the package's enums, printed as `bunnynet.Enum.Member` (the API's number as a person writes it). */
export class EnumMember {
  constructor(
    readonly enumName: string,
    readonly member: string,
  ) {}
}

export type ProgramValue = string | number | boolean | null | Reference | FromConfig | FileText | EnumMember | ProgramValue[] | { [key: string]: ProgramValue };

/** One resource of the program. */
export interface ProgramResource {
  /** The resource class in bunnynet-pulumi (its type name). */
  type: string;
  /** The Pulumi name (unique per type: the URN's last part). */
  name: string;
  /** The TypeScript variable that holds it (unique in the program). */
  variable: string;
  /** The object's id in the API (for import.json). */
  id: string;
  inputs: Record<string, ProgramValue>;
  /** Whether it takes `adoptExisting` (default true); a StorageFolder takes over the files there by itself. */
  adopts?: boolean;
}

/** A part of index.ts: one zone (or script, library) with what it holds. */
export interface ProgramSection {
  title: string;
  resources: ProgramResource[];
}

/** Files written beside the program, by path relative to the project (an edge script's code, a storage zone's files). */
export type ExtraFiles = Record<string, string | Uint8Array>;

/**
 * The tsconfig of Pulumi's own TypeScript template (`pulumi new typescript`: pulumi/templates, typescript/tsconfig.json):
 * no `skipLibCheck`, no `esModuleInterop`. The exported project uses it, and the repository's tests compile against it.
 */
export const PULUMI_TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private " +
    "protected public static yield await any boolean number string symbol type of undefined NaN Infinity " +
    // Names the program itself uses.
    "pulumi bunnynet config"
  ).split(" "),
);

/** `My Zone.example` → `my-zone-example`: a Pulumi name (letters, digits, hyphens). */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "unnamed"
  );
}

/** `my-zone-example` → `myZoneExample`, a valid identifier (prefixed with `prefix` when it starts with a digit or is reserved). */
export function identifier(slugText: string, prefix: string): string {
  const words = slugText.split("-").filter((w) => w !== "");
  const camel = words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("") || prefix;
  return /^[0-9]/.test(camel) || RESERVED.has(camel) ? prefix + camel[0].toUpperCase() + camel.slice(1) : camel;
}

/** Hands out names unique in the program: a second `www` becomes `www-2` / `www2`. */
export class NameTable {
  private readonly names = new Set<string>();
  private readonly variables = new Set<string>();

  take(base: string, prefix: string): { name: string; variable: string } {
    const root = slug(base);
    for (let n = 1; ; n++) {
      const name = n === 1 ? root : `${root}-${n}`;
      const variable = identifier(name, prefix);
      if (!this.names.has(name) && !this.variables.has(variable)) {
        this.names.add(name);
        this.variables.add(variable);
        return { name, variable };
      }
    }
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as TypeScript source, indented for its depth. */
export function printValue(value: ProgramValue, indent = ""): string {
  if (value instanceof Reference) return value.variable + value.path.map((key) => (IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)).join("");
  if (value instanceof FromConfig) return `config.${value.secret ? "requireSecret" : "require"}(${JSON.stringify(value.key)})`;
  if (value instanceof EnumMember) return `bunnynet.${value.enumName}.${value.member}`;
  if (value instanceof FileText) return `fs.readFileSync(${JSON.stringify(value.path)}, "utf8")`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    const items = value.map((v) => printValue(v, inner));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 100 && !flat.includes("\n") ? flat : `[\n${items.map((i) => `${inner}${i},\n`).join("")}${indent}]`;
  }
  const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${printValue(v, inner)}`);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map((e) => `${inner}${e},\n`).join("")}${indent}}`;
}

/** What the values use: the variables referenced, and whether any reads the config or a file. */
function usage(values: ProgramValue[]): { variables: Set<string>; config: boolean; files: boolean } {
  const used = { variables: new Set<string>(), config: false, files: false };
  const visit = (v: ProgramValue): void => {
    if (v instanceof Reference) used.variables.add(v.variable);
    else if (v instanceof FromConfig) used.config = true;
    else if (v instanceof FileText) used.files = true;
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object" && !(v instanceof EnumMember)) Object.values(v).forEach(visit);
  };
  values.forEach(visit);
  return used;
}

/**
 * index.ts: one section per zone, every resource adopting its object and protected. Only what is used is declared
 * (an import, the config, a resource's variable), so the program compiles under `noUnusedLocals` too.
 */
export function programText(sections: ProgramSection[], origin: string): string {
  const used = usage(sections.flatMap((s) => s.resources.map((r) => r.inputs)));
  const lines = [
    `// Written by \`bunnynet export\` (bunnynet-pulumi ${packageInfo.version}) from ${origin}.`,
    "// Every resource adopts the object that already exists (adoptExisting: the inputs are the object as it was read;",
    "// a StorageFolder takes over the files under storage/ by itself) and is protected, so a mistaken edit cannot",
    "// delete it. Values the API never returns come from the stack config.",
    ...(used.files ? ['import * as fs from "fs";'] : []),
    ...(used.config ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as bunnynet from "bunnynet-pulumi";',
    ...(used.config ? ["", "const config = new pulumi.Config();"] : []),
  ];
  for (const section of sections) {
    lines.push("", `// ${section.title}`);
    for (const r of section.resources) {
      const args = printValue(r.adopts === false ? r.inputs : { ...r.inputs, adoptExisting: true });
      const declared = used.variables.has(r.variable) ? `const ${r.variable} = ` : "";
      lines.push(`${declared}new bunnynet.${r.type}(${JSON.stringify(r.name)}, ${args}, { protect: true });`);
    }
  }
  return lines.join("\n") + "\n";
}

/** Pulumi's bulk-import file (`pulumi import --file`): `{ nameTable, resources: [{ type, name, id }] }`. */
export function importFile(sections: ProgramSection[]): string {
  const resources = sections.flatMap((s) => s.resources.map((r) => ({ type: typeToken(r.type), name: r.name, id: r.id })));
  return JSON.stringify({ nameTable: {}, resources }, null, 2) + "\n";
}

/** Every file of the project, by path relative to its folder. */
export function projectFiles(project: string, sections: ProgramSection[], extra: ExtraFiles, origin: string, report: string): Record<string, string | Uint8Array> {
  const pulumiYaml = [
    `name: ${project}`,
    "description: bunny.net resources exported by `bunnynet export`",
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    packagemanager: npm",
    "",
  ].join("\n");
  const packageJson = {
    name: project,
    main: "index.ts",
    devDependencies: { "@types/node": "^20.0.0", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": "^3.216.0", [packageInfo.name]: `^${packageInfo.version}` },
  };
  return {
    "Pulumi.yaml": pulumiYaml,
    "package.json": JSON.stringify(packageJson, null, 2) + "\n",
    "tsconfig.json": JSON.stringify(PULUMI_TEMPLATE_TSCONFIG, null, 2) + "\n",
    "index.ts": programText(sections, origin),
    "import.json": importFile(sections),
    "EXPORT-REPORT.md": report,
    ...extra,
  };
}
