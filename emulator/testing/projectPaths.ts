import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

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
 * `main` of the project file in `projectDir`, or undefined when there is none. Only the top-level scalar is read
 * (`main: src/`, quoted or not, with a comment after it): all a project file says about where the program is.
 */
export function projectMain(projectDir: string): string | undefined {
  const file = PROJECT_FILES.map((name) => join(projectDir, name)).find((path) => existsSync(path));
  if (!file) return undefined;
  const line = /^main:[ \t]*(?:"([^"]*)"|'([^']*)'|([^\s#][^#\r\n]*?))?[ \t]*(?:#.*)?$/m.exec(readFileSync(file, "utf8"));
  const main = line ? (line[1] ?? line[2] ?? line[3]) : undefined;
  return main === undefined || main === "" ? undefined : main;
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
