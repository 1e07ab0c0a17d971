import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import * as emulator from "bunnynet-emulator";
import * as kit from "bunnynet-emulator/testing";
import { commands } from "bunnynet-pulumi/dist/cli/commands/index.js";
import { REPO_ROOT, SCHEMA, cliPageName, generateDocs } from "../docs/generate";
import { GUIDE_SECTIONS, REFERENCE_EXAMPLES, REFERENCE_LANGUAGES, languageNames, pageFile, pythonName, readReferenceSnippets, readSchema, snakeCase, tokenName } from "../docs/reference";

const DOCS = join(REPO_ROOT, "docs");
/** Pages of docs/ that are written, not generated (the README links them); and docs/guides/, all written by hand. */
const WRITTEN_BY_HAND = ["install-and-upgrade.md", "performance.md", "reliability.md"];
const GUIDES = join(DOCS, "guides");
const writtenByHand = (page: string) => WRITTEN_BY_HAND.includes(page) || page.startsWith("guides/");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe("docs: the generated reference pages", function () {
  this.timeout(120_000);

  const resources = Object.entries(bunnynet).filter(([, v]) => typeof v === "function" && v.prototype instanceof pulumi.CustomResource).map(([k]) => k);
  const lookups = Object.keys(bunnynet).filter((k) => /^get[A-Z]/.test(k));

  it("the package exports the resources and lookups this test looks for", () => {
    assert.ok(resources.length >= 5, resources.join());
    assert.ok(lookups.length >= 8, lookups.join());
  });

  it("every exported resource and lookup has its page", () => {
    for (const name of resources) assert.ok(existsSync(join(DOCS, "api", "classes", `${name}.md`)), `docs/api/classes/${name}.md`);
    for (const name of lookups) assert.ok(existsSync(join(DOCS, "api", "functions", `${name}.md`)), `docs/api/functions/${name}.md`);
  });

  it("every value the emulator's root and its testing kit export has its page", () => {
    const pages = (dir: string) => new Set(files(join(DOCS, "emulator", dir)).map((f) => relative(join(DOCS, "emulator", dir), f).replace(/^[^/]+\//, "").replace(/\.md$/, "")));
    const rootPages = pages("bunnynet-emulator");
    const kitPages = pages("testing");
    assert.deepEqual(Object.keys(emulator).filter((k) => !rootPages.has(k)), []);
    assert.deepEqual(Object.keys(kit).filter((k) => !kitPages.has(k)), []);
    for (const name of ["startEmulator", "ProgramHarness", "ProviderHost"]) assert.ok(kitPages.has(name), name);
  });

  it("the pages written by hand are there (the README links them)", () => {
    for (const page of WRITTEN_BY_HAND) assert.match(readFileSync(join(DOCS, page), "utf8"), /^# \w+/, page);
    for (const page of files(GUIDES)) assert.match(readFileSync(page, "utf8"), /^# \w+/, relative(REPO_ROOT, page));
  });

  it("every CLI command has its page, showing its own --help", () => {
    for (const c of commands) {
      const page = join(DOCS, "cli", cliPageName(c.name));
      assert.ok(existsSync(page), relative(REPO_ROOT, page));
      assert.match(readFileSync(page, "utf8"), new RegExp(`usage: bunnynet ${c.name}`));
    }
  });

  it("the committed pages are what `npm run docs` generates now", () => {
    const fresh = mkdtempSync(join(tmpdir(), "bunnynet-docs-"));
    try {
      generateDocs(fresh);
      const committed = files(DOCS)
        .filter((f) => f.endsWith(".md"))
        .map((f) => relative(DOCS, f))
        .filter((f) => !writtenByHand(f))
        .sort();
      const generated = files(fresh).map((f) => relative(fresh, f)).sort();
      assert.deepEqual(committed, generated, "the set of pages differs: run `npm run docs` and commit docs/");
      for (const page of generated) assert.equal(readFileSync(join(DOCS, page), "utf8"), readFileSync(join(fresh, page), "utf8"), `docs/${page} is stale: run \`npm run docs\``);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

/** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[^]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The links of a Markdown file that do not leave the repository, as [link, problem] pairs for those that do not resolve. */
function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, "utf8");
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((link) => !/^[a-z]+:/.test(link))
    .flatMap((link) => {
      const [path, anchor] = link.split("#");
      const target = path ? resolve(dirname(file), path) : file;
      if (!existsSync(target)) return [`${link}: no such file`];
      if (anchor !== undefined && !headingAnchors(readFileSync(target, "utf8")).has(anchor)) return [`${link}: no such heading`];
      return [];
    })
    .map((problem) => `${relative(REPO_ROOT, file)}: ${problem}`);
}

describe("docs/reference: a page per resource and function, from the package schema", () => {
  const schema = readSchema(SCHEMA);
  const REFERENCE = join(DOCS, "reference");
  const tokens = [...Object.keys(schema.resources), ...Object.keys(schema.functions)];

  it("every resource and function of the schema has its page, and the index links it", () => {
    const index = readFileSync(join(REFERENCE, "README.md"), "utf8");
    for (const token of tokens) {
      assert.match(readFileSync(join(REFERENCE, pageFile(token)), "utf8"), new RegExp(`token: \`${token}\``), pageFile(token));
      assert.ok(index.includes(`](${pageFile(token)})`), `the index links ${pageFile(token)}`);
    }
  });

  it("every page shows an example in TypeScript, Python, Go and YAML, each a region of a program CI deploys", () => {
    assert.deepEqual(REFERENCE_LANGUAGES, ["typescript", "python", "go", "yaml"]);
    const snippets = readReferenceSnippets(REPO_ROOT);
    for (const token of tokens) {
      const page = readFileSync(join(REFERENCE, pageFile(token)), "utf8");
      for (const language of REFERENCE_LANGUAGES) {
        const { title, fence, file } = REFERENCE_EXAMPLES[language];
        const snippet = snippets[tokenName(token)]?.[language];
        assert.ok(snippet, `${file} has no region ${tokenName(token)}`);
        assert.ok(page.includes(`### ${title}\n\nFrom [${file}](../../${file}):\n\n\`\`\`${fence}\n${snippet}\n\`\`\`\n`), `${pageFile(token)}: no ${title} example, or a stale one: run \`npm run docs\``);
      }
    }
  });

  it("every link between the pages and from the README, the guides and the pages written by hand resolves, to a file and a heading that exist", () => {
    const written = [
      ...["README.md", "CONTRIBUTING.md", "CHANGELOG.md"].map((f) => join(REPO_ROOT, f)),
      ...WRITTEN_BY_HAND.map((f) => join(DOCS, f)),
      ...files(GUIDES),
    ];
    assert.ok(files(GUIDES).length >= 20, "the guides are there");
    assert.deepEqual([...files(REFERENCE), ...written].flatMap(brokenLinks), []);
  });

  it("no heading repeats on a page (a type named like its resource would take the title's anchor)", () => {
    for (const file of files(REFERENCE)) {
      const headings = [...readFileSync(file, "utf8").replace(/^```[^]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].toLowerCase());
      assert.deepEqual(headings.filter((h, i) => headings.indexOf(h) !== i), [], relative(REPO_ROOT, file));
    }
  });

  it("the link check finds a missing file and a missing heading", () => {
    const dir = mkdtempSync(join(tmpdir(), "bunnynet-links-"));
    try {
      writeFileSync(join(dir, "a.md"), "# A page\n\n[ok](#a-page) [ok](a.md#a-page) [gone](b.md) [gone](#b-page) [web](https://example.com)\n");
      assert.deepEqual(brokenLinks(join(dir, "a.md")).map((p) => p.replace(/^.*: (\S+: .*)$/, "$1")), ["b.md: no such file", "#b-page: no such heading"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the README links the index and each resource's and lookup's page, and each resource's row its guide's section", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    assert.ok(readme.includes("](docs/reference/README.md)"), "links docs/reference/README.md");
    for (const token of tokens) assert.ok(readme.includes(`](docs/reference/${pageFile(token)})`), `links docs/reference/${pageFile(token)}`);
    for (const token of Object.keys(schema.resources)) {
      assert.ok(GUIDE_SECTIONS[tokenName(token)], `docs/reference.ts: GUIDE_SECTIONS names no guide section for ${tokenName(token)}`);
      const row = readme.split("\n").find((line) => line.startsWith(`| [\`${tokenName(token)}\`](docs/reference/${pageFile(token)})`)) ?? "";
      assert.ok(row.includes(`](docs/guides/${GUIDE_SECTIONS[tokenName(token)]})`), `the README's row of ${tokenName(token)} links its guide's section, docs/guides/${GUIDE_SECTIONS[tokenName(token)]}`);
    }
  });

  it("the README links every guide", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    for (const guide of files(GUIDES)) assert.ok(readme.includes(`](${relative(REPO_ROOT, guide)}`), `links ${relative(REPO_ROOT, guide)}`);
  });

  it("the names the pages give exist in each SDK: TypeScript exports, Python modules and arguments, Go functions", () => {
    const exported = new Set(Object.keys(bunnynet));
    const goSources = readdirSync(join(REPO_ROOT, "sdk", "go", "bunnynet"))
      .filter((f) => f.endsWith(".go"))
      .map((f) => readFileSync(join(REPO_ROOT, "sdk", "go", "bunnynet", f), "utf8"))
      .join("\n");
    for (const token of tokens) {
      const names = languageNames(schema, token);
      assert.ok(exported.has(names.typescript.replace(/^bunnynet\./, "")), `${names.typescript} is not exported by bunnynet-pulumi`);
      assert.ok(goSources.includes(`func ${names.go.replace(/^bunnynet\./, "")}(`), `Go: no func ${names.go}`);
      const python = readFileSync(join(REPO_ROOT, "sdk", "python", "pulumi_bunnynet", `${snakeCase(tokenName(token))}.py`), "utf8");
      const pythonSymbol = names.python.replace(/^pulumi_bunnynet\./, "");
      assert.match(python, new RegExp(`^(class ${pythonSymbol}\\(pulumi\\.CustomResource\\)|def ${pythonSymbol}\\()`, "m"), names.python);
      const inputs = schema.resources[token]?.inputProperties ?? schema.functions[token]?.inputs?.properties ?? {};
      for (const input of Object.keys(inputs)) assert.match(python, new RegExp(`\\b${pythonName(input)}: `), `${names.python}: no argument ${pythonName(input)}`);
    }
  });
});
