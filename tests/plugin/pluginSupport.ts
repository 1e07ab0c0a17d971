import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PulumiCliStack } from "../support/pulumiCli";

/**
 * The provider plugin pulumi-resource-bunnynet for the tests of tests/plugin/: built by provider/scripts/buildPlugin.mjs
 * (`npm run build:plugin`; built here when missing) and installed into a test stack's own PULUMI_HOME from its tarball,
 * as a user installs it: `pulumi plugin install resource bunnynet <version> --file <tgz>`. The engine then loads it
 * from there for every `bunnynet:index:*` resource (automatic plugin acquisition is off: nothing is downloaded).
 */

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
const PROVIDER_DIR = join(REPO_ROOT, "provider");

export const PLUGIN_VERSION = (JSON.parse(readFileSync(join(PROVIDER_DIR, "package.json"), "utf8")) as { version: string }).version;

/** The plugin's tarball (built first when missing). */
export function pluginTarball(): string {
  const find = () => readdirSync(join(PROVIDER_DIR, "dist")).find((f) => f.startsWith(`pulumi-resource-bunnynet-v${PLUGIN_VERSION}-`) && f.endsWith(".tar.gz"));
  if (!existsSync(join(PROVIDER_DIR, "dist", "pulumi-plugin", "pulumi-resource-bunnynet.js")) || !find()) {
    execFileSync(process.execPath, [join(PROVIDER_DIR, "scripts", "buildPlugin.mjs")], { stdio: "inherit" });
  }
  return join(PROVIDER_DIR, "dist", find()!);
}

/** The built plugin's sh launcher, as the engine starts it (built first when missing). */
export function pluginLauncher(): string {
  pluginTarball();
  return join(PROVIDER_DIR, "dist", "pulumi-plugin", "pulumi-resource-bunnynet");
}

/** Installs the plugin into the stack's PULUMI_HOME, as a user does. */
export function installPlugin(cli: PulumiCliStack): void {
  execFileSync(cli.binary, ["plugin", "install", "resource", "bunnynet", PLUGIN_VERSION, "--file", pluginTarball()], { env: cli.env, stdio: "pipe" });
}

/** A step of `pulumi preview --json`, with what the engine says of its diff. */
export interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff: boolean }>;
}

/** `pulumi preview --json <args>`: its steps, or its error diagnostics as a rejection. */
export async function previewSteps(cli: PulumiCliStack, args: string[] = []): Promise<PreviewStep[]> {
  const run = await cli.attempt(["preview", "--json", ...args]);
  const digest = JSON.parse(run.stdout || "{}") as { steps?: PreviewStep[]; diagnostics?: { message: string; severity: string }[] };
  if (run.status !== 0) {
    const errors = (digest.diagnostics ?? []).filter((d) => d.severity === "error").map((d) => d.message);
    throw new Error(`pulumi preview exited ${run.status}: ${errors.join("\n") || run.stderr}`);
  }
  return digest.steps ?? [];
}

/**
 * Makes `dir` a Go module named `name` requiring the SDK of sdk/go by its module path, replaced by the folder (as
 * `go get` would resolve it), and the Pulumi Go SDK at the version sdk/go requires, with sdk/go's go.sum.
 */
export function goModuleUsingSdk(dir: string, name: string): void {
  const sdk = join(REPO_ROOT, "sdk", "go");
  const goMod = readFileSync(join(sdk, "go.mod"), "utf8");
  const goVersion = /^go (\S+)$/m.exec(goMod)?.[1];
  const sdkVersion = /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (\S+)/m.exec(goMod)?.[1];
  writeFileSync(
    join(dir, "go.mod"),
    `module ${name}\n\ngo ${goVersion}\n\nrequire (\n\tgithub.com/bunnynet-pulumi/bunnynet-pulumi/sdk/go v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${sdkVersion}\n)\n\n` +
      `replace github.com/bunnynet-pulumi/bunnynet-pulumi/sdk/go => ${sdk}\n`,
  );
  cpSync(join(sdk, "go.sum"), join(dir, "go.sum"));
}
