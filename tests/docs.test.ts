import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import * as emulator from "bunnynet-emulator";
import * as kit from "bunnynet-emulator/testing";
import { commands } from "bunnynet-pulumi/dist/cli/commands/index.js";
import { REPO_ROOT, cliPageName, generateDocs } from "../docs/generate";

const DOCS = join(REPO_ROOT, "docs");
/** Pages of docs/ that are written, not generated (the README links them). */
const WRITTEN_BY_HAND = ["performance.md", "reliability.md"];

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
        .filter((f) => !WRITTEN_BY_HAND.includes(f))
        .sort();
      const generated = files(fresh).map((f) => relative(fresh, f)).sort();
      assert.deepEqual(committed, generated, "the set of pages differs: run `npm run docs` and commit docs/");
      for (const page of generated) assert.equal(readFileSync(join(DOCS, page), "utf8"), readFileSync(join(fresh, page), "utf8"), `docs/${page} is stale: run \`npm run docs\``);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
