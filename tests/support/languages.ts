import { createHash } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { pulumiBinary, pulumiCliUnavailable } from "./pulumiCli";

/**
 * What the real CLI needs to run a program in a language other than TypeScript: its language host (built beside the
 * CLI by tools/pulumi-cli/build.sh, or on PATH beside an installed CLI), and that language's own tools — `python3`
 * with a virtualenv holding the Python SDK (tools/pulumi-cli/python-requirements.txt, from PyPI), or `go`.
 */

export type Language = "python" | "go" | "yaml";

const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** Why programs in `language` cannot run here, or undefined when they can. */
export function languageUnavailable(language: Language): string | undefined {
  const cli = pulumiCliUnavailable();
  if (cli) return cli;
  const binary = pulumiBinary() as string;
  const host = `pulumi-language-${language}`;
  const beside = binary !== "pulumi" && existsSync(join(dirname(binary), host));
  if (!beside && spawnSync("sh", ["-c", `command -v ${host}`]).status !== 0) return `${host} is neither built beside ${binary} (tools/pulumi-cli/build.sh) nor on PATH`;
  const tool = language === "python" ? "python3" : language === "go" ? "go" : undefined;
  if (tool && spawnSync(tool, ["--version"]).error) return `${tool} is not on PATH`;
  if (tool === "go" && spawnSync("go", ["version"]).status !== 0) return "go does not run";
  return undefined;
}

/**
 * A virtualenv with the pinned Python SDK (and `packages`, e.g. a local SDK folder), made once per requirement set
 * under ~/.cache/bunnynet-pulumi/python/ and reused; returns its `bin` folder, to put first on PATH (the Python host
 * takes the first `python3` there: tools/pulumi-cli/language-hosts/go.mod). Installing needs PyPI.
 */
export function pythonVirtualenv(packages: string[] = []): string {
  const requirements = join(REPO_ROOT, "tools", "pulumi-cli", "python-requirements.txt");
  const key = createHash("sha256").update(readFileSync(requirements)).update(packages.map((p) => `${p}@${packageStamp(p)}`).join("\n")).digest("hex").slice(0, 16);
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "bunnynet-pulumi", "python", key);
  const bin = join(cache, "bin");
  if (existsSync(join(cache, ".complete"))) return bin;
  // A virtualenv's scripts name its own path, so it is made where it stays, and marked complete last: an interrupted
  // install never looks ready.
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(dirname(cache), { recursive: true });
  execFileSync("python3", ["-m", "venv", cache], { stdio: "inherit" });
  execFileSync(join(bin, "pip"), ["install", "--quiet", "--disable-pip-version-check", "-r", requirements, ...packages], { stdio: "inherit" });
  writeFileSync(join(cache, ".complete"), "");
  return bin;
}

/** A local package folder's content stamp (so a regenerated SDK gets a fresh virtualenv); a requirement's text otherwise. */
function packageStamp(p: string): string {
  if (!existsSync(p)) return p;
  return execFileSync("sh", ["-c", `find . -type f -not -path '*/__pycache__/*' -not -path '*.egg-info/*' -not -path './build/*' | LC_ALL=C sort | xargs sha256sum`], { cwd: p, encoding: "utf8" });
}

/** `PATH` with `bin` first. */
export function pathWith(bin: string, env: NodeJS.ProcessEnv = process.env): string {
  return [bin, env.PATH ?? ""].join(delimiter);
}
