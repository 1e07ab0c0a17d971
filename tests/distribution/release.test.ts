import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { load } from "js-yaml";

/**
 * What a release gives a user outside this repository, checked offline: the provider plugin's tarballs for every
 * platform the engine downloads for (provider/scripts/buildPlugin.mjs), the schema's pluginDownloadURL and the SDKs'
 * `server` (so the engine installs the plugin from the GitHub release by itself), one version everywhere, and the
 * release workflow's jobs that publish them (.github/workflows/release.yml).
 */

const REPO_ROOT = join(__dirname, "..", "..", "..");
const PROVIDER_DIR = join(REPO_ROOT, "provider");
const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const json = <T>(path: string) => JSON.parse(read(path)) as T;

const PROVIDER_PACKAGE = json<{ version: string; repository: { url: string } }>("provider/package.json");
const VERSION = PROVIDER_PACKAGE.version;
/** owner/name of the GitHub repository, from provider/package.json (where generateSchema.mjs takes it). */
const GITHUB_REPOSITORY = /github\.com\/([^/]+\/[^/.]+)(\.git)?$/.exec(PROVIDER_PACKAGE.repository.url)![1];
const SERVER = `github://api.github.com/${GITHUB_REPOSITORY}`;
/** Every os-arch pair the engine downloads a plugin for (PluginDescriptor.Download, pulumi/pulumi plugins.go). */
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"];
const tarball = (platform: string) => join(PROVIDER_DIR, "dist", `pulumi-resource-bunnynet-v${VERSION}-${platform}.tar.gz`);

interface PluginJson {
  resource: boolean;
  name: string;
  version: string;
  server?: string;
}

describe("release: the plugin's tarballs, the download URL, the versions and the release workflow", function () {
  this.timeout(180_000);

  before(() => {
    if (!PLATFORMS.every((p) => existsSync(tarball(p)))) {
      execFileSync(process.execPath, [join(PROVIDER_DIR, "scripts", "buildPlugin.mjs")], { stdio: "inherit" });
    }
  });

  it("there is a tarball for each platform, all the same bytes", () => {
    const bytes = PLATFORMS.map((p) => readFileSync(tarball(p)));
    for (const [i, b] of bytes.entries()) assert.ok(b.equals(bytes[0]!), `${PLATFORMS[i]}'s tarball differs from ${PLATFORMS[0]}'s`);
  });

  it("the tarball holds the bundle, its schema and launchers, and the sh launcher runs the plugin (it prints its port)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bunnynet-release-"));
    try {
      execFileSync("tar", ["xzf", tarball("linux-amd64"), "-C", dir]);
      for (const name of ["pulumi-resource-bunnynet", "pulumi-resource-bunnynet.cmd", "pulumi-resource-bunnynet.js", "schema.json", "package.json"]) {
        assert.ok(existsSync(join(dir, name)), `the tarball has no ${name}`);
      }
      // Only what the plugin runs: the source map stays apart (dist/pulumi-plugin-map/), and the bundle names none.
      assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith(".map")), [], "the tarball ships a source map");
      assert.doesNotMatch(readFileSync(join(dir, "pulumi-resource-bunnynet.js"), "utf8"), /\/\/# sourceMappingURL=\S+\s*$/);
      assert.ok(statSync(join(dir, "pulumi-resource-bunnynet")).mode & 0o100, "the launcher is not executable");
      assert.match(readFileSync(join(dir, "pulumi-resource-bunnynet.cmd"), "utf8"), /node "%~dp0pulumi-resource-bunnynet\.js" %\*/);
      const stale = "the tarball is older than provider/plugin/schema.json: npm run build:plugin";
      assert.ok(readFileSync(join(dir, "schema.json"), "utf8") === read("provider/plugin/schema.json"), stale);
      assert.equal(json<{ version: string }>("provider/package.json").version, (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version);

      const child = spawn(join(dir, "pulumi-resource-bunnynet"), [], {
        env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const line = await new Promise<string>((ok, fail) => {
          let out = "";
          let err = "";
          child.stdout.on("data", (d: Buffer) => {
            out += d.toString();
            if (out.includes("\n")) ok(out.split("\n")[0]!);
          });
          child.stderr.on("data", (d: Buffer) => (err += d.toString()));
          child.on("exit", (code) => fail(new Error(`the plugin exited ${code} before printing its port:\n${err}`)));
        });
        assert.match(line, /^\d+$/);
      } finally {
        child.kill("SIGTERM");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the schema's pluginDownloadURL is the repository's GitHub releases, and both SDKs carry it as their server", () => {
    assert.equal(json<{ pluginDownloadURL?: string }>("provider/plugin/schema.json").pluginDownloadURL, SERVER);
    for (const path of ["sdk/python/pulumi_bunnynet/pulumi-plugin.json", "sdk/go/bunnynet/pulumi-plugin.json"]) {
      assert.deepEqual(json<PluginJson>(path), { resource: true, name: "bunnynet", version: VERSION, server: SERVER }, path);
    }
  });

  it("one version everywhere: both npm packages, the schema, the Python SDK, the tarballs' names", () => {
    assert.equal(json<{ version: string }>("emulator/package.json").version, VERSION, "emulator/package.json");
    assert.equal(json<{ version: string }>("provider/plugin/schema.json").version, VERSION, "provider/plugin/schema.json");
    assert.equal(/^\s*version = "([^"]+)"$/m.exec(read("sdk/python/pyproject.toml"))?.[1], VERSION, "sdk/python/pyproject.toml");
    for (const platform of PLATFORMS) assert.ok(existsSync(tarball(platform)), `no tarball named for ${VERSION} on ${platform}`);
  });

  describe(".github/workflows/release.yml", () => {
    interface Step {
      run?: string;
      uses?: string;
      with?: Record<string, string>;
    }
    interface Job {
      needs?: string | string[];
      permissions?: Record<string, string>;
      environment?: string;
      steps: Step[];
    }
    const workflow = load(read(".github/workflows/release.yml")) as { on: { push: { tags: string[] } }; jobs: Record<string, Job> };
    const runs = (job: Job) => job.steps.map((s) => s.run ?? "").join("\n");
    const needs = (job: Job) => [job.needs ?? []].flat();

    it("runs on a version tag, and every publishing job waits for the tests and the version check", () => {
      assert.deepEqual(workflow.on.push.tags, ["v*.*.*"]);
      assert.deepEqual(Object.keys(workflow.jobs).sort(), ["github-release", "publish", "pypi", "test", "versions"]);
      for (const name of ["publish", "github-release", "pypi"]) assert.deepEqual(needs(workflow.jobs[name]!).sort(), ["test", "versions"], name);
    });

    it("the tag check covers every version: both npm packages, the schema, the Python and Go SDKs", () => {
      const check = runs(workflow.jobs.versions!);
      for (const path of [
        "provider/package.json",
        "emulator/package.json",
        "provider/plugin/schema.json",
        "sdk/python/pyproject.toml",
        "sdk/python/pulumi_bunnynet/pulumi-plugin.json",
        "sdk/go/bunnynet/pulumi-plugin.json",
      ]) {
        assert.ok(check.includes(`check ${path} `), `the tag check does not cover ${path}`);
      }
    });

    it("a GitHub release of the tag with the plugin's tarballs, and the Go SDK's module tag named for its directory", () => {
      const job = workflow.jobs["github-release"]!;
      assert.equal(job.permissions?.contents, "write");
      const text = runs(job);
      assert.match(text, /npm run build:plugin/);
      assert.match(text, /gh release create "\$GITHUB_REF_NAME" provider\/dist\/pulumi-resource-bunnynet-v\*\.tar\.gz .*--notes-file/);
      // Go finds a version of a module in a subdirectory by a tag prefixed with that directory (go.dev/ref/mod).
      const modulePath = /^module (\S+)$/m.exec(read("sdk/go/go.mod"))![1]!;
      const prefix = `github.com/${GITHUB_REPOSITORY}/`;
      assert.ok(modulePath.startsWith(prefix), `sdk/go/go.mod's module ${modulePath} is not in ${prefix}`);
      const directory = modulePath.slice(prefix.length).replace(/\/v\d+$/, "");
      assert.equal(directory, "sdk/go");
      assert.ok(text.includes(`refs/tags/${directory}/$GITHUB_REF_NAME`), `the Go tag is not ${directory}/v<x.y.z>`);
    });

    it("the Python SDK: built with python -m build, published to PyPI by trusted publishing", () => {
      const job = workflow.jobs.pypi!;
      assert.equal(job.environment, "pypi");
      assert.equal(job.permissions?.["id-token"], "write");
      assert.match(runs(job), /python -m build sdk\/python --outdir sdk\/python\/dist/);
      const publish = job.steps.find((s) => s.uses?.startsWith("pypa/gh-action-pypi-publish@"));
      assert.equal(publish?.with?.["packages-dir"], "sdk/python/dist");
    });

    it("still publishes both npm packages", () => {
      const text = runs(workflow.jobs.publish!);
      assert.match(text, /npm publish --workspace provider/);
      assert.match(text, /npm publish --workspace emulator/);
    });
  });
});
