import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, relative, resolve } from "node:path";

/** `args` with `flags` added before a `--` (after which the CLI reads everything as a value), else at the end. */
export function withFlags(args: string[], flags: string[]): string[] {
  const cut = args.indexOf("--");
  return cut < 0 ? [...args, ...flags] : [...args.slice(0, cut), ...flags, ...args.slice(cut)];
}

/** The repository root (this file runs from dist/tests/support). */
const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** The version of `module` that `goMod` (a path under tools/pulumi-cli) requires. */
function required(goMod: string, module: string): string {
  const text = readFileSync(join(REPO_ROOT, "tools", "pulumi-cli", goMod), "utf8");
  const version = new RegExp(`^\\s*${module.replaceAll(".", "\\.")} (v\\S+)`, "m").exec(text)?.[1];
  if (!version) throw new Error(`tools/pulumi-cli/${goMod} requires no ${module}`);
  return version;
}

/** The versions tools/pulumi-cli pins: the CLI, and the Node.js language host (older: language-hosts/go.mod says why). */
export function pinnedPulumiVersions(): { cli: string; nodejsHost: string } {
  return { cli: required("go.mod", "github.com/pulumi/pulumi/pkg/v3"), nodejsHost: required("language-hosts/go.mod", "github.com/pulumi/pulumi/sdk/v3") };
}

/** Where tools/pulumi-cli/build.sh puts them (the same rule as the script's). */
function builtCliDir(): string {
  const cache = process.env.BUNNYNET_PULUMI_CLI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "bunnynet-pulumi", "pulumi-cli");
  const { cli, nodejsHost } = pinnedPulumiVersions();
  return join(cache, `${cli}_nodejs-${nodejsHost}`);
}

/** The `pulumi` binary to run: the one tools/pulumi-cli/build.sh built, else one on PATH, else undefined. */
export function pulumiBinary(): string | undefined {
  const built = join(builtCliDir(), "pulumi");
  if (existsSync(built) && existsSync(join(builtCliDir(), "pulumi-language-nodejs"))) return built;
  const probe = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  return probe.error || probe.status !== 0 ? undefined : "pulumi";
}

/** Why the Pulumi CLI cannot be used here, or undefined when it can. */
export function pulumiCliUnavailable(): string | undefined {
  if (pulumiBinary()) return undefined;
  return `the Pulumi CLI is neither built (tools/pulumi-cli/build.sh, which needs Go, puts it in ${builtCliDir()}) nor on PATH`;
}

/**
 * A Pulumi project folder for the real CLI that runs a compiled program of the repository: `dist/cli-projects/<folder>`
 * with a Pulumi.yaml naming `project` and `main` (a path under dist/, e.g. "examples/site/index.js"). It lies inside
 * the repository, so the plugin finds bunnynet-pulumi from main's folder as in a user's project. Stack config files
 * land beside it (in dist/, never committed).
 */
export function compiledProject(folder: string, project: string, main: string): string {
  const dir = join(REPO_ROOT, "dist", "cli-projects", folder);
  mkdirSync(dir, { recursive: true });
  const mainPath = join(REPO_ROOT, "dist", main);
  if (!existsSync(mainPath)) throw new Error(`${mainPath} does not exist: build first (npm run build)`);
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: ${relative(dir, mainPath)}\n`);
  return dir;
}

/** `pulumi version` of the CLI the tests run. */
export function pulumiCliVersion(): string {
  return execFileSync(pulumiBinary() ?? "pulumi", ["version"], { encoding: "utf8" }).trim();
}

/**
 * A stack of a Pulumi project driven by the real Pulumi CLI, on a file backend in `stateDir` (no login, its own
 * PULUMI_HOME, nothing fetched from the internet), exactly as a user runs it: the engine starts the Node.js language
 * host, which runs the program with the project's own @pulumi/pulumi, and the dynamic-provider plugin. The repository
 * root is a project (its Pulumi.yaml runs the compiled quickstart), so the package is found from there without an
 * install step. If the environment names a file in BUNNYNET_PULUMI_PID_FILE, each command's pid is written there.
 */
export class PulumiCliStack {
  /** The environment every command runs with (the CLI's own, the plugin's, and the program's). */
  readonly env: NodeJS.ProcessEnv;
  /** The `pulumi` binary. */
  readonly binary: string;

  constructor(
    readonly stack: string,
    readonly stateDir: string,
    readonly projectDir: string = REPO_ROOT,
    env: NodeJS.ProcessEnv = {},
  ) {
    const binary = pulumiBinary();
    if (!binary) throw new Error(pulumiCliUnavailable());
    mkdirSync(join(stateDir, "home"), { recursive: true });
    // The language host and the dynamic-provider plugin are beside the binary, where build.sh puts them and Pulumi's
    // installer does; the engine would otherwise try to download them.
    const path = [...(binary === "pulumi" ? [] : [dirname(binary)]), process.env.PATH ?? ""].join(delimiter);
    this.binary = binary;
    this.env = {
      ...process.env,
      PATH: path,
      PULUMI_HOME: join(stateDir, "home"),
      PULUMI_BACKEND_URL: `file://${stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: "local-only",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      ...env,
    };
  }

  /** The arguments of `pulumi <args>` on this stack. */
  commandLine(args: string[]): string[] {
    return withFlags(args, ["--cwd", this.projectDir, "--stack", this.stack, "--non-interactive"]);
  }

  /**
   * Runs `pulumi <args>` in the project for this stack and resolves its standard output; rejects, with the command and
   * its output, when it exits non-zero. Output is shown on the terminal too unless `quiet`. Asynchronous, so that an
   * emulator in this process keeps answering while the CLI runs.
   */
  async run(args: string[], quiet = false): Promise<string> {
    const result = await this.attempt(args, quiet);
    if (result.status !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
    return result.stdout;
  }

  /** Runs `pulumi <args>` and resolves its exit status and output, whatever the status. */
  attempt(args: string[], quiet = true, onSpawn?: (child: ChildProcess) => void): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const child = spawn(this.binary, this.commandLine(args), { env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    if (this.env.BUNNYNET_PULUMI_PID_FILE && child.pid !== undefined) writeFileSync(this.env.BUNNYNET_PULUMI_PID_FILE, String(child.pid));
    onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!quiet) process.stdout.write(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (!quiet) process.stderr.write(chunk);
    });
    return new Promise((ok, fail) => {
      child.once("error", fail);
      child.once("close", (status) => ok({ status, stdout, stderr }));
    });
  }

  async init(config: Record<string, string>, secretKeys: string[] = []): Promise<void> {
    await this.run(["stack", "init"]);
    // `--` ends the flags: a PEM value starts with dashes.
    for (const [key, value] of Object.entries(config)) await this.run(["config", "set", ...(secretKeys.includes(key) ? ["--secret"] : []), "--", key, value], true);
  }

  /** `pulumi stack rm --force`: the stack's state and its config file go (its resources are not touched). */
  async remove(): Promise<void> {
    await this.run(["stack", "rm", "--yes", "--force"], true);
  }

  async outputs(): Promise<Record<string, unknown>> {
    return JSON.parse(await this.run(["stack", "output", "--json", "--show-secrets"], true)) as Record<string, unknown>;
  }
}
