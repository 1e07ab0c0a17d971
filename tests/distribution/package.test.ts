import assert from "node:assert/strict";
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { PULUMI_TEMPLATE_TSCONFIG } from "../support/pulumiTemplate";

/**
 * The packages as users get them: packed from a clean clone of this repository (only what is committed, built by
 * the packages' own `prepack`; their manifests have no install script: npm 11 asks to approve a `prepare`), installed from the tarballs into a new project outside the repository that
 * uses Pulumi's template tsconfig, then used there: the README's and docs' code typechecks, the CLIs run, a program
 * deploys through the SDK's provider host against the emulator installed from its own package, and the provider's
 * production tree holds nothing of the emulator.
 */

const REPO_ROOT = join(__dirname, "..", "..", "..");
const PROVIDER = "bunnynet-pulumi";
const EMULATOR = "bunnynet-emulator";
/** Packages only the emulator needs: none may be in the tree of a project that installs the provider alone. */
const EMULATOR_ONLY_DEPENDENCIES = ["fastify", "jose", "@peculiar/x509", "reflect-metadata", EMULATOR];

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

function ok(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = run(cmd, args, cwd, env);
  assert.equal(result.status, 0, `${cmd} ${args.join(" ")} in ${cwd} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function version(pkg: string): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
}

function duBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    total += st.isDirectory() ? duBytes(path) : st.size;
  }
  return total;
}

/** Every ```ts block of a Markdown file, as [label, code]. */
export function typescriptBlocks(markdown: string, label: string): [string, string][] {
  return [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map((m, i) => [`${label} block ${i + 1}`, m[1]]);
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : path.endsWith(".md") ? [path] : [];
  });
}

describe("distribution: the packages as users install them", function () {
  this.timeout(600_000);

  let work: string;
  let clone: string;
  let project: string;
  const tarballs: Record<string, string> = {};

  before(function () {
    if (!existsSync(join(REPO_ROOT, ".git"))) this.skip();
    work = mkdtempSync(join(tmpdir(), "bunnynet-dist-"));
    clone = join(work, "clone");
    project = join(work, "user-project");
    // A clean clone: only committed files, nothing built, no node_modules.
    ok("git", ["clone", "--quiet", "--no-hardlinks", REPO_ROOT, clone], work);
    ok("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], clone);
    const packed = JSON.parse(ok("npm", ["pack", "--workspace", "provider", "--workspace", "emulator", "--pack-destination", work, "--json", "--loglevel=error"], clone)) as {
      name: string;
      filename: string;
      size: number;
      unpackedSize: number;
      entryCount: number;
      files: { path: string }[];
    }[];
    for (const p of packed) {
      tarballs[p.name] = join(work, p.filename);
      console.log(`      packed ${p.filename}: ${(p.size / 1024).toFixed(0)} kB, ${(p.unpackedSize / 1024).toFixed(0)} kB unpacked, ${p.entryCount} files`);
    }

    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify(
        {
          name: "user-project",
          private: true,
          main: "index.ts",
          dependencies: { "@pulumi/pulumi": version("@pulumi/pulumi"), [PROVIDER]: `file:${tarballs[PROVIDER]}` },
          devDependencies: { [EMULATOR]: `file:${tarballs[EMULATOR]}`, typescript: version("typescript"), "@types/node": version("@types/node") },
        },
        null,
        2,
      ),
    );
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(PULUMI_TEMPLATE_TSCONFIG, null, 2));
    ok("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], project);
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("each package ships its build, README and LICENSE, and no TypeScript sources or build info", () => {
    for (const name of [PROVIDER, EMULATOR]) {
      const listing = execFileSync("tar", ["-tzf", tarballs[name]], { encoding: "utf8" }).split("\n").filter(Boolean);
      for (const required of ["package/package.json", "package/README.md", "package/LICENSE", "package/dist/index.js", "package/dist/index.d.ts"]) {
        assert.ok(listing.includes(required), `${name} lacks ${required}`);
      }
      if (name === PROVIDER) assert.ok(listing.includes("package/CHANGELOG.md"), `${name} lacks its CHANGELOG`);
      assert.deepEqual(listing.filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts")), [], `${name} ships TypeScript sources`);
      assert.deepEqual(listing.filter((f) => f.endsWith(".tsbuildinfo")), [], `${name} ships build info`);
    }
  });

  it("the shipped README and CHANGELOG link nothing relative: each link is a section of its own or absolute, and the repository's resolve in the clone", () => {
    const repo = "https://github.com/bunnynet-pulumi/bunnynet-pulumi/blob/main/";
    const shipped: [string, string][] = [
      [PROVIDER, "README.md"],
      [PROVIDER, "CHANGELOG.md"],
      [EMULATOR, "README.md"],
    ];
    for (const [name, file] of shipped) {
      const text = execFileSync("tar", ["-xzOf", tarballs[name], `package/${file}`], { encoding: "utf8" });
      const sections = new Set([...text.replace(/^```[^]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, "").replace(/ /g, "-")));
      for (const link of [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])) {
        if (link.startsWith("#")) assert.ok(sections.has(link.slice(1)), `${name}/${file}: no section ${link}`);
        else assert.match(link, /^(https?|mailto):/, `${name}/${file}: ${link} is relative: it resolves nowhere on the registry`);
        if (link.startsWith(repo)) assert.ok(existsSync(join(clone, link.slice(repo.length).split("#")[0])), `${name}/${file}: ${link}: no such file in the repository`);
      }
    }
  });

  it("source maps resolve: every shipped map carries its sources inline", () => {
    const dist = join(project, "node_modules", PROVIDER, "dist");
    const maps = readdirSync(dist, { recursive: true }).map(String).filter((f) => f.endsWith(".js.map"));
    assert.ok(maps.length > 10, `${maps.length} maps`);
    for (const map of maps) {
      const parsed = JSON.parse(readFileSync(join(dist, map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      assert.equal(parsed.sourcesContent?.length, parsed.sources.length, `${map} has no inline sources`);
      assert.ok(parsed.sourcesContent!.every((s) => typeof s === "string" && s.length > 0), map);
    }
  });

  it("a project that installs only the provider has nothing of the emulator in its production tree", () => {
    const tree = ok("npm", ["ls", "--omit=dev", "--all", "--parseable", "--loglevel=error"], project).split("\n").filter(Boolean);
    const names = tree.map((p) => relative(join(project, "node_modules"), p)).filter((p) => !p.startsWith(".."));
    for (const dep of EMULATOR_ONLY_DEPENDENCIES) assert.ok(!names.some((n) => n === dep || n.endsWith(`/node_modules/${dep}`)), `${dep} is in the production tree`);
    console.log(`      production tree: ${names.length} packages, ${(duBytes(join(project, "node_modules")) / 1e6).toFixed(0)} MB node_modules with dev tools`);
  });

  it("the README's and the docs' TypeScript typechecks against the installed package under Pulumi's template tsconfig", () => {
    const sources: [string, string][] = [
      ...typescriptBlocks(readFileSync(join(clone, "README.md"), "utf8"), "README.md"),
      ...typescriptBlocks(readFileSync(join(clone, "emulator", "README.md"), "utf8"), "emulator/README.md"),
      // The reference pages' TypeScript is cut from one program (docs/reference.ts): the program is checked whole.
      ...markdownFiles(join(clone, "docs"))
        .filter((f) => !relative(clone, f).startsWith(join("docs", "reference")))
        .flatMap((f) => typescriptBlocks(readFileSync(f, "utf8"), relative(clone, f))),
      ["examples/reference/typescript/index.ts", readFileSync(join(clone, "examples", "reference", "typescript", "index.ts"), "utf8")],
    ];
    assert.ok(sources.length >= 5, `${sources.length} blocks`);
    const dir = join(project, "snippets");
    mkdirSync(dir, { recursive: true });
    const files = sources.map(([label, code], i) => {
      const file = `snippet${i + 1}.ts`;
      // Each block is a module of its own (its own imports, no clashes between blocks).
      writeFileSync(join(dir, file), `// ${label}\n${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ ...PULUMI_TEMPLATE_TSCONFIG, compilerOptions: { ...PULUMI_TEMPLATE_TSCONFIG.compilerOptions, noEmit: true }, files }, null, 2));
    const tsc = run(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--pretty", "false"], project);
    const labelled = tsc.stdout.replace(/snippet(\d+)\.ts/g, (_m, n: string) => sources[Number(n) - 1][0]);
    assert.equal(tsc.status, 0, labelled);
  });

  /**
   * The testing-kit example copied out, its packages from the tarballs, installed and tested with `client`: every
   * test file in one mocha run (the kit's test and the Pulumi-docs mocks test beside it), all passing.
   */
  function testKitExample(client: "npm" | "pnpm", install: string[]): void {
    const kit = join(work, `testing-kit-${client}`);
    cpSync(join(clone, "examples", "testing-kit"), kit, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(kit, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    manifest.dependencies[PROVIDER] = `file:${tarballs[PROVIDER]}`;
    manifest.devDependencies[EMULATOR] = `file:${tarballs[EMULATOR]}`;
    writeFileSync(join(kit, "package.json"), JSON.stringify(manifest, null, 2));
    ok(client, install, kit);
    const testFiles = readdirSync(join(kit, "test")).filter((f) => f.endsWith(".test.ts"));
    const tests = testFiles.reduce((n, f) => n + [...readFileSync(join(kit, "test", f), "utf8").matchAll(/^\s+it\(/gm)].length, 0);
    assert.ok(testFiles.length >= 2, testFiles.join(", "));
    const output = ok(client, ["test"], kit);
    assert.match(output, new RegExp(`\\b${tests} passing`), output);
    assert.doesNotMatch(output, /failing|pending/, output);
  }

  it("the testing-kit example: a user's mocha tests of their stack pass with the packages from the tarballs", () => {
    testKitExample("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"]);
  });

  it("the emulator asks for bunnynet-pulumi as a peer dependency with a range, not a pinned dependency", () => {
    const manifest = JSON.parse(readFileSync(join(project, "node_modules", EMULATOR, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    assert.equal(manifest.dependencies?.[PROVIDER], undefined);
    assert.match(manifest.peerDependencies?.[PROVIDER] ?? "", /^[\^~>]/, JSON.stringify(manifest.peerDependencies));
  });

  it("neither packed manifest has a script npm runs at install (npm 11 asks users to approve those)", () => {
    for (const name of [PROVIDER, EMULATOR]) {
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", name, "package.json"), "utf8")) as { scripts?: Record<string, string> };
      const installScripts = Object.keys(manifest.scripts ?? {}).filter((s) => ["preinstall", "install", "postinstall", "prepare"].includes(s));
      assert.deepEqual(installScripts, [], name);
    }
  });

  it("pnpm installs the two tarballs side by side with no overrides, and the testing-kit example passes", function () {
    if (spawnSync("pnpm", ["--version"], { encoding: "utf8" }).status !== 0) {
      console.log("      pnpm is not installed: skipped (npm i -g pnpm)");
      this.skip();
    }
    // Build scripts of the SDK's dependencies (protobufjs) are not needed; newer pnpm refuses to skip them silently.
    testKitExample("pnpm", ["install", "--reporter=silent", "--config.strict-dep-builds=false"]);
  });

  it("npx bunnynet --help and npx bunnynet-emulator --help work from the project", () => {
    assert.match(ok("npx", ["--no-install", "bunnynet", "--help"], project), /usage: bunnynet <command>/);
    assert.match(ok("npx", ["--no-install", "bunnynet-emulator", "--help"], project), /usage: bunnynet-emulator/);
  });
});
