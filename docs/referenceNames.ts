/**
 * What the reference pages (docs/reference.ts) call things in each language: a resource's or function's name in each
 * SDK, a property's Python name, and each enum member's constant in the Python and Go SDKs, read from the SDKs the
 * generators wrote (sdk/python, sdk/go: `npm run sdk`), so a page shows the spelling a program must use.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Schema } from "./referenceSchema";

/** The TypeScript package that serves the same resources as dynamic providers. */
export const NODE_PACKAGE = "bunnynet-pulumi";

/** `bunnynet:index:DnsRecord` → `DnsRecord`. */
export const tokenName = (token: string): string => token.slice(token.lastIndexOf(":") + 1);

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

/** The Go package's name: its import path's last part. */
function goPackageName(schema: Schema): string {
  const goPath = schema.language?.go?.importBasePath ?? schema.name;
  return goPath.slice(goPath.lastIndexOf("/") + 1);
}

/** What a resource or function is called in each language's SDK (the Go package's name is its path's last part). */
export function languageNames(schema: Schema, token: string): { typescript: string; python: string; go: string } {
  const name = tokenName(token);
  const python = schema.language?.python?.packageName ?? `pulumi_${schema.name}`;
  const goPackage = goPackageName(schema);
  if (schema.resources[token]) return { typescript: `${schema.name}.${name}`, python: `${python}.${name}`, go: `${goPackage}.New${name}` };
  const target = name.replace(/^get/, "");
  // Pulumi's Go generator names a function that reads a resource of the package `Lookup<Resource>`, others `Get<Thing>`.
  const goVerb = schema.resources[`${token.slice(0, token.lastIndexOf(":") + 1)}${target}`] ? "Lookup" : "Get";
  return { typescript: `${schema.name}.${name}`, python: `${python}.${snakeCase(name)}`, go: `${goPackage}.${goVerb}${target}` };
}

export function sdkNames(schema: Schema, token: string): string[] {
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

/** An enum member's constant in each SDK (`RateLimitTimeframe.PER_ONE_MINUTE`, `bunnynet.RateLimitTimeframePerOneMinute`). */
export interface EnumSpelling {
  python: string;
  go: string;
}
/** By enum token, then by the member's value as JSON (`60`, `"DE"`). */
export type EnumSpellings = Map<string, Map<string, EnumSpelling>>;

/**
 * Every enum member's constant in the generated SDKs: Python's `_enums.py` (`class X(int, Enum):` under
 * `@pulumi.type_token("bunnynet:index:X")`, then `NAME = value`) and Go's `pulumiEnums.go` (`XName = X(value)`; a
 * type whose name an object type took is `XEnum`). Empty where an SDK is missing.
 */
export function readEnumSpellings(repoRoot: string, schema: Schema): EnumSpellings {
  const spellings: EnumSpellings = new Map();
  const python = join(repoRoot, "sdk", "python", schema.language?.python?.packageName ?? `pulumi_${schema.name}`, "_enums.py");
  const pythonText = existsSync(python) ? readFileSync(python, "utf8") : "";
  const goDir = join(repoRoot, "sdk", "go", schema.name);
  const goText = existsSync(goDir) ? readdirSync(goDir).filter((f) => f.endsWith(".go")).map((f) => readFileSync(join(goDir, f), "utf8")).join("\n") : "";
  const goPackage = goPackageName(schema);
  for (const [token, type] of Object.entries(schema.types)) {
    if (!type.enum) continue;
    const name = tokenName(token);
    const members = new Map<string, EnumSpelling>();
    const pythonClass = new RegExp(`@pulumi\\.type_token\\("${token}"\\)\\nclass (\\w+)\\([^)]*\\):\\n((?:    .*\\n|\\n)*)`).exec(pythonText);
    for (const e of type.enum) {
      const value = JSON.stringify(e.value);
      const pythonMember = pythonClass ? new RegExp(`^    (\\w+) = ${escape(value)}$`, "m").exec(pythonClass[2])?.[1] : undefined;
      const goConstant = [name, `${name}Enum`]
        .map((goType) => new RegExp(`^\\s*(\\w+)\\s*= ${goType}\\(${escape(value)}\\)$`, "m").exec(goText)?.[1])
        .find(Boolean);
      members.set(value, { python: pythonMember ? `${pythonClass![1]}.${pythonMember}` : "", go: goConstant ? `${goPackage}.${goConstant}` : "" });
    }
    spellings.set(token, members);
  }
  return spellings;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
