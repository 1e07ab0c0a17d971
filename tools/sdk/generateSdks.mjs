#!/usr/bin/env node
/**
 * Regenerates the SDKs kept in the repository, sdk/python and sdk/go, from provider/plugin/schema.json with the real
 * Pulumi CLI (`pulumi package gen-sdk`, tools/pulumi-cli), after regenerating the schema itself from the definitions
 * (provider/scripts/generateSchema.mjs; provider/dist must be built: `npm run sdk` builds first).
 *
 * The CLI asks a language plugin to write each SDK; tools/pulumi-cli/sdkgen is the one used (its main.go says why: the
 * real hosts' modules are refused by the module proxy). Nothing reaches the internet but the Go module proxy (for the Go
 * SDK's go.sum): PULUMI_HOME is a temporary folder, update checks and plugin downloads are off.
 *
 * After generation, as Pulumi's providers do in their Makefiles:
 * - sdk/python gets the package's README.md at its root (pyproject.toml names it);
 * - sdk/go/go.mod requires the Pulumi Go SDK of the CLI that generated it (the generator writes an older one, whose
 *   dependencies the module proxy here refuses), and `go mod tidy` writes go.sum.
 *
 * Usage: node tools/sdk/generateSdks.mjs [--check]
 *   --check: regenerate into a temporary folder and fail naming every file that differs from what is committed.
 * Exits 3 (with the reason) when the CLI or Go is missing, so a caller can skip rather than fail.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const LANGUAGES = ["python", "go"];
export const SDK_DIRS = LANGUAGES.map((l) => join(ROOT, "sdk", l));
export const MISSING_TOOLS = 3;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  }
  return result.stdout.trim();
}

/** The CLI's folder and the generator plugin's, built if need be; undefined with the reason when Go is missing. */
function tools() {
  const hasGo = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;
  if (!hasGo) return { missing: "go is not on PATH (the Pulumi CLI and the SDK generator are built with it)" };
  const cliDir = run("bash", [join(ROOT, "tools", "pulumi-cli", "build.sh")], { stdio: ["ignore", "pipe", "inherit"] });
  const pluginDir = run("bash", [join(ROOT, "tools", "pulumi-cli", "sdkgen", "build.sh")], { stdio: ["ignore", "pipe", "inherit"] });
  if (!cliDir || !pluginDir) return { missing: "the Pulumi CLI could not be built (tools/pulumi-cli/build.sh printed no folder)" };
  return { cli: join(cliDir, "pulumi"), pluginDir };
}

/** The Pulumi Go SDK version the CLI is built from (tools/pulumi-cli/go.mod). */
function cliSdkVersion() {
  const line = readFileSync(join(ROOT, "tools", "pulumi-cli", "go.mod"), "utf8")
    .split("\n")
    .find((l) => /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 v/.test(l));
  if (!line) throw new Error("tools/pulumi-cli/go.mod requires no github.com/pulumi/pulumi/sdk/v3");
  return line.trim().split(/\s+/)[1];
}

/** Writes both SDKs under `out` (out/python, out/go). */
function generate(out, { cli, pluginDir }) {
  const home = mkdtempSync(join(tmpdir(), "bunnynet-sdk-home-"));
  try {
    const env = {
      ...process.env,
      PATH: `${pluginDir}:${process.env.PATH}`,
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_CONFIG_PASSPHRASE: "",
    };
    const schema = join(ROOT, "provider", "plugin", "schema.json");
    for (const language of LANGUAGES) run(cli, ["package", "gen-sdk", schema, "--language", language, "--out", out], { env, cwd: ROOT });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const python = join(out, "python");
  cpSync(join(python, "pulumi_bunnynet", "README.md"), join(python, "README.md"));
  const go = join(out, "go");
  run("go", ["mod", "edit", `-require=github.com/pulumi/pulumi/sdk/v3@${cliSdkVersion()}`], { cwd: go });
  run("go", ["mod", "tidy"], { cwd: go, env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" } });
}

function files(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? (["__pycache__", "build", "dist"].includes(e.name) || e.name.endsWith(".egg-info") ? [] : files(join(dir, e.name), base)) : [relative(base, join(dir, e.name))]))
    .sort();
}

/** Files that differ between two SDK folders (missing on either side included), relative to the repository. */
export function differences(expectedRoot, actualRoot) {
  const differ = [];
  for (const language of LANGUAGES) {
    const expected = join(expectedRoot, language);
    const actual = join(actualRoot, language);
    const names = new Set([...files(expected), ...files(actual)]);
    for (const name of [...names].sort()) {
      const a = join(expected, name);
      const b = join(actual, name);
      if (!existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b))) differ.push(join("sdk", language, name));
    }
  }
  return differ;
}

function main() {
  const check = process.argv.includes("--check");
  execFileSync(process.execPath, [join(ROOT, "provider", "scripts", "generateSchema.mjs"), ...(check ? ["--check"] : [])], { stdio: "inherit" });
  const found = tools();
  if (found.missing) {
    console.error(`generateSdks: ${found.missing}`);
    process.exit(MISSING_TOOLS);
  }
  const out = mkdtempSync(join(tmpdir(), "bunnynet-sdk-"));
  try {
    generate(out, found);
    if (check) {
      const differ = differences(join(ROOT, "sdk"), out);
      if (differ.length > 0) {
        console.error(`The SDKs are out of date (${differ.length} files differ): ${differ.join(", ")}\nRun npm run sdk and commit sdk/.`);
        process.exit(1);
      }
      console.log("sdk/python and sdk/go are up to date");
    } else {
      for (const language of LANGUAGES) {
        rmSync(join(ROOT, "sdk", language), { recursive: true, force: true });
        cpSync(join(out, language), join(ROOT, "sdk", language), { recursive: true });
      }
      console.log("wrote sdk/python and sdk/go");
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
