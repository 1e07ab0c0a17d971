/**
 * The reference pages' examples (docs/reference.ts): one program per language under examples/reference/, whose regions
 * (`// region <Name>` … `// endregion`) are the examples of the pages, read here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tokenName } from "./referenceNames";

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
export function exampleSection(token: string, snippets: ReferenceSnippets): string[] {
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
