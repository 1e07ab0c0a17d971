import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { load } from "js-yaml";

/**
 * Where a Pulumi project's program runs, as the engine decides it (pulumi/pulumi pkg/engine/project.go, getPwdMain):
 * `main` from the project file, relative to the project's directory; absolute or outside the project is refused;
 * the program runs in `main` when it is a directory, otherwise in the directory of `main`. The engine starts the
 * language host and the plugins there (pkg/resource/plugin/plugin.go), so the program's relative paths and the
 * provider's `require` both resolve from it.
 */

/** The project file's names the engine looks for, in order (sdk/go/common/workspace/paths.go, ProjectFile). */
const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml"];

/**
 * `main` of the project file in `projectDir`, or undefined when there is none. The file is read as YAML (js-yaml,
 * the parser the Pulumi SDK itself depends on), so any form of a top-level `main` string is read; a file that is not
 * YAML is refused naming it, as the engine refuses it (sdk/go/common/workspace/loaders.go).
 */
export function projectMain(projectDir: string): string | undefined {
  const file = PROJECT_FILES.map((name) => join(projectDir, name)).find((path) => existsSync(path));
  if (!file) return undefined;
  let project: unknown;
  try {
    project = load(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not a valid project file: ${(error as Error).message.split("\n")[0]}`, { cause: error });
  }
  const main = project !== null && typeof project === "object" ? (project as { main?: unknown }).main : undefined;
  return typeof main === "string" && main !== "" ? main : undefined;
}

/** The program's (and the plugin's) working directory: the project's directory, or as `main` says (see above). */
export function pluginDirectory(projectDir: string, main?: string): string {
  if (!main) return projectDir;
  if (isAbsolute(main)) throw new Error(`project 'main' must be a relative path (got ${JSON.stringify(main)} in ${projectDir})`);
  const path = resolve(projectDir, main);
  if (relative(resolve(projectDir), path).startsWith("..")) throw new Error(`project 'main' must be a subfolder of ${projectDir} (got ${JSON.stringify(main)})`);
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) throw new Error(`project 'main' could not be read: ${path} does not exist`);
  return info.isDirectory() ? path : dirname(path);
}

/** Where a project's commands run: `main` as given, else as its project file says. */
export function projectDirectory(projectDir: string, main?: string): string {
  return pluginDirectory(projectDir, main ?? projectMain(projectDir));
}
