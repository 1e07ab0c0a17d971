import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";

/** The repository root (this file runs from dist/tests/support). */
const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** Why the Pulumi CLI cannot be used here, or undefined when it can. */
export function pulumiCliUnavailable(): string | undefined {
  const probe = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return "the Pulumi CLI is not on PATH (its installer downloads from the internet, which these machines cannot reach)";
  return undefined;
}

/**
 * A stack of a Pulumi project driven by the real Pulumi CLI, on a file backend in `stateDir` (no login).
 * The repository root is a project (its Pulumi.yaml runs the compiled quickstart), so the package is found
 * from there without an install step.
 */
export class PulumiCliStack {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly stack: string,
    stateDir: string,
    readonly projectDir: string = REPO_ROOT,
  ) {
    mkdirSync(stateDir, { recursive: true });
    this.env = { ...process.env, PULUMI_BACKEND_URL: `file://${stateDir}`, PULUMI_CONFIG_PASSPHRASE: "local-only", PULUMI_SKIP_UPDATE_CHECK: "true" };
  }

  /** Runs `pulumi <args>` in the project for this stack; output goes to the terminal unless `capture`. */
  run(args: string[], capture = false): string {
    const all = [...args, "--cwd", this.projectDir, "--stack", this.stack, "--non-interactive"];
    return execFileSync("pulumi", all, { env: this.env, encoding: "utf8", stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit" }) ?? "";
  }

  init(config: Record<string, string>, secretKeys: string[] = []): void {
    execFileSync("pulumi", ["stack", "init", this.stack, "--cwd", this.projectDir, "--non-interactive"], { env: this.env, stdio: "inherit" });
    // `--` ends the flags: a PEM value starts with dashes.
    for (const [key, value] of Object.entries(config)) this.run(["config", "set", ...(secretKeys.includes(key) ? ["--secret"] : []), "--", key, value]);
  }

  outputs(): Record<string, unknown> {
    return JSON.parse(this.run(["stack", "output", "--json"], true)) as Record<string, unknown>;
  }
}
