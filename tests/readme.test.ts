import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator } from "bunnynet-emulator/dist/server.js";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";

/**
 * The README's promises that code can check (the set-up commands, what the package ships), and the operations table of
 * docs/guides/operations-covered.md.
 */

const README = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8");
const OPERATIONS = readFileSync(join(__dirname, "..", "..", "docs", "guides", "operations-covered.md"), "utf8");

interface Row {
  request: string;
  methods: string[];
}

function operationsTable(): Row[] {
  const section = OPERATIONS.split("\n");
  // The section's first table: from its header row to the first line that is not a table row.
  const start = section.findIndex((l) => l.startsWith("| API"));
  const end = section.findIndex((l, i) => i > start && !l.startsWith("|"));
  return section
    .slice(start + 2, end)
    .map((line) => line.split("|").map((c) => c.trim()))
    .map((cells) => ({ request: cells[3].replace(/`/g, ""), methods: [...cells[4].matchAll(/`([a-zA-Z]+\.[a-zA-Z]+)`/g)].map((m) => m[1]) }));
}

/**
 * Fastify's `/pullzone/:id` as the table writes it: `/pullzone/{id}`; the v1 date route by its documented name; the
 * Storage API (served under /storage, its own host in reality) as `/{storageZoneName}/{path}`.
 */
function asDocumented(registered: string, url: string): string {
  // DESCRIBE is registered under a stand-in method Node accepts (emulator/surfaces/storage.ts).
  const method = registered === "PROPFIND" && url.startsWith("/storage/") ? "DESCRIBE" : registered;
  const path = url
    .replace(/^\/:date\([^)]*\)/, "/{MM-dd-yy}")
    .replace(/^\/storage\/(:storageZoneName)\/\*$/, "/$1/{path}")
    .replace(/:([a-zA-Z]+)/g, "{$1}");
  return `${method} ${path}`;
}

describe("docs/guides/operations-covered.md", () => {
  it("the operations table lists exactly the emulator's API routes (besides those it names as extra)", async () => {
    const emulator = createEmulator({ dataPath: ":memory:" });
    await emulator.app.ready();
    const served = emulator.routes.map((r) => asDocumented(r.method, r.url)).sort();
    await emulator.close();
    const documented = operationsTable().map((r) => r.request);
    assert.equal(new Set(documented).size, documented.length, "no row twice");
    const extraLine = OPERATIONS.split("\n").find((line) => line.startsWith("The emulator also serves")) ?? "";
    const extra = [...extraLine.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE|DESCRIBE) [^`]+)`/g)].map((m) => m[1]);
    assert.ok(extra.includes("POST /videolibrary/{id}/resetApiKey"));
    assert.deepEqual([...documented, ...extra].sort(), served);
  });

  it("every client method the table names exists", () => {
    const client = new BunnyClient({ apiKey: "k", apiUrl: "http://127.0.0.1:9" }) as unknown as Record<string, Record<string, unknown>>;
    const methods = operationsTable().flatMap((r) => r.methods);
    assert.ok(methods.length >= 27);
    for (const name of methods) {
      const [surface, method] = name.split(".");
      assert.equal(typeof client[surface]?.[method], "function", `${name} is a client method`);
    }
  });
});

describe("README", () => {
  it("is a front page: under 300 lines, the rest in docs/guides/", () => {
    const lines = README.split("\n").length;
    assert.ok(lines < 300, `README.md has ${lines} lines`);
  });

  it("names the two set-up commands, and they are package scripts", () => {
    assert.match(README, /npm install && npm run demo/);
    assert.match(README, /^npm test\b/m);
    const scripts = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")).scripts;
    assert.ok(scripts.demo && scripts.test);
    const ci = readFileSync(join(__dirname, "..", "..", ".ci", "run"), "utf8");
    assert.match(ci, /^npm test\b/m, ".ci/run calls the README's test command");
  });

  describe("as the package ships it (provider/scripts/packReadme.mjs, run at prepack)", () => {
    const ROOT = join(__dirname, "..", "..");
    const REPO = "https://github.com/bunnynet-pulumi/bunnynet-pulumi/blob/main/";
    let packed: string;
    let packedChangelog: string;
    before(() => {
      const out = mkdtempSync(join(tmpdir(), "bunnynet-readme-"));
      try {
        execFileSync(process.execPath, [join(ROOT, "provider", "scripts", "packReadme.mjs"), out]);
        packed = readFileSync(join(out, "README.md"), "utf8");
        packedChangelog = readFileSync(join(out, "CHANGELOG.md"), "utf8");
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    const anchor = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, "")
        .replace(/ /g, "-");

    /** The anchors of a Markdown text's headings (outside code blocks). */
    const anchorsOf = (markdown: string) => new Set([...markdown.replace(/^```[^]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1].trim())));

    /** The links of a packed Markdown file that do not resolve: each must be absolute, to a file and heading the repository has, or to one of its own sections. */
    function brokenPackedLinks(markdown: string): string[] {
      const own = anchorsOf(markdown);
      return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1])
        .flatMap((link) => {
          if (link.startsWith("#")) return own.has(link.slice(1)) ? [] : [`${link}: no such section`];
          if (!/^https:\/\//.test(link)) return [`${link}: not absolute`];
          if (!link.startsWith(REPO)) return [];
          const [path, section] = link.slice(REPO.length).split("#");
          const target = join(ROOT, path);
          if (!existsSync(target)) return [`${link}: no such file in the repository`];
          if (section !== undefined && !anchorsOf(readFileSync(target, "utf8")).has(section)) return [`${link}: no such heading`];
          return [];
        });
    }

    it("has no broken link: each is absolute, to a file and heading the repository has, or to one of its own sections", () => {
      const links = [...packed.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
      assert.ok(links.length > 20, `${links.length} links`);
      assert.deepEqual(brokenPackedLinks(packed), []);
      for (const moved of ["docs/performance.md", "docs/reliability.md", "emulator/README.md", "CONTRIBUTING.md", "examples/testing-kit"]) {
        assert.ok(links.includes(REPO + moved), `links ${moved}`);
      }
    });

    it("the packed CHANGELOG has no broken link either", () => {
      assert.deepEqual(brokenPackedLinks(packedChangelog), []);
    });

    it("the link check finds a relative link, a missing file and a missing heading", () => {
      assert.deepEqual(brokenPackedLinks(`# T\n[a](docs/x.md) [b](${REPO}nope.md) [c](${REPO}README.md#nope) [d](#t) [e](#u)`), [
        "docs/x.md: not absolute",
        `${REPO}nope.md: no such file in the repository`,
        `${REPO}README.md#nope: no such heading`,
        "#u: no such section",
      ]);
    });

    it("covers what a user needs, and leaves the figures to docs/ and the rest to docs/guides/", () => {
      for (const section of ["Install", "Configure", "A whole site in one program", "Resources", "Lookups", "Testing your program offline", "Guides", "Performance and reliability", "Working on this repository"]) {
        assert.match(packed, new RegExp(`^## ${section}$`, "m"));
      }
      assert.doesNotMatch(packed, /^## (Performance|Reliability)$/m);
      assert.doesNotMatch(packed, /requests\/s, p50/, "benchmark figures are in docs/performance.md");
      for (const guide of ["README.md", "configuration-and-providers.md", "errors-retries-and-limits.md", "operations-covered.md", "terraform-comparison.md"]) {
        assert.ok(packed.includes(`](${REPO}docs/guides/${guide}`), `links docs/guides/${guide}`);
      }
    });
  });
});
