import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { load } from "js-yaml";

/**
 * Where a Pulumi project's program runs, as the engine decides it (pulumi/pulumi v3.276 pkg/engine/project.go,
 * getPwdMain ~line 45): `main` from the project file, relative to the project's directory unless absolute (a path
 * outside the project is taken too: the engine checks only that it exists); the program runs in `main` when it is a
 * directory, otherwise in the directory of `main`. The engine starts the language host and the plugins there
 * (pkg/resource/plugin/plugin.go), so the program's relative paths and the provider's `require` both resolve from it.
 *
 * The project file is checked as the engine loads it (sdk/go/common/workspace/loaders.go, LoadProjectBytes: the
 * shorthand config values rewritten by RewriteShorthandConfigValues, then project.go's Project.Validate ~line 846),
 * so a Pulumi.yaml that `pulumi up` refuses is refused here, with the engine's message: no `name`; a config key with
 * both `default` and `value`; a key of the project (no namespace, or `<project>:`) declaring an `array` without
 * `items`, or a `default` not of its `type`; a key of another namespace (`bunnynet:apiKey`) with a `type` or a
 * `default`, or without a `value`. (The engine's JSON-schema check of the file, ValidateProject, is not repeated.)
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
  const invalid = projectProblem(project);
  // A missing name is caught first by the engine's schema check (loaders.go, ValidateProject: "could not validate").
  if (invalid) throw new Error(`could not ${invalid === MISSING_NAME ? "validate" : "unmarshal"} '${file}': ${invalid}`);
  const main = (project as { main?: unknown }).main;
  return typeof main === "string" && main !== "" ? main : undefined;
}

type ConfigType = { type?: unknown; items?: ItemsType | null; default?: unknown; value?: unknown };
type ItemsType = { type?: unknown; items?: ItemsType | null };

const MISSING_NAME = "project is missing a 'name' attribute";

/** Why the engine refuses this project file (project.go, Validate, after the shorthand rewrite), or undefined. */
export function projectProblem(project: unknown): string | undefined {
  if (project === null || typeof project !== "object" || Array.isArray(project)) return MISSING_NAME;
  const { name, config } = project as { name?: unknown; config?: unknown };
  if (typeof name !== "string" || name === "") return MISSING_NAME;
  if (config === null || typeof config !== "object" || Array.isArray(config)) return undefined;
  for (const [key, raw] of Object.entries(config as Record<string, unknown>)) {
    const ofProject = !key.includes(":") || key.startsWith(`${name}:`);
    // RewriteShorthandConfigValues: a plain value or an array is the project key's default, another key's value.
    const shorthand = raw === null || typeof raw !== "object" || Array.isArray(raw);
    const item: ConfigType = shorthand ? (ofProject ? { default: raw } : { value: raw }) : (raw as ConfigType);
    const has = (v: unknown) => v !== undefined && v !== null;
    if (has(item.default) && has(item.value)) return `project config '${key}' cannot have both a 'default' and 'value' attribute`;
    const typed = has(item.type);
    const typeName = typed ? String(item.type) : "";
    if (ofProject) {
      if (typed && typeName === "array" && !has(item.items)) {
        return `The configuration key '${key}' declares an array but does not specify the underlying type via the 'items' attribute`;
      }
      if (typed && has(item.default) && !validConfigValue(typeName, item.items ?? undefined, item.default)) {
        return `The default value specified for configuration key '${key}' is not of the expected type '${fullTypeName(typeName, item.items ?? undefined)}'`;
      }
    } else {
      if (typed) return `Configuration key '${key}' is not namespaced by the project and should not define a type`;
      if (has(item.default)) {
        return `Configuration key '${key}' is not namespaced by the project and should not define a default value. Did you mean to use the 'value' attribute instead of 'default'?`;
      }
      if (!has(item.value)) return `Configuration key '${key}' is namespaced and must provide an attribute 'value'`;
    }
  }
  return undefined;
}

/** project.go, InferFullTypeName. */
function fullTypeName(typeName: string, items: ItemsType | undefined): string {
  return items ? `array<${fullTypeName(String(items.type ?? ""), items.items ?? undefined)}>` : typeName;
}

/** project.go, ValidateConfigValue. */
function validConfigValue(typeName: string, items: ItemsType | undefined, value: unknown): boolean {
  switch (typeName) {
    case "string":
      return typeof value === "string";
    case "integer":
      return (typeof value === "number" && Number.isInteger(value)) || (typeof value === "string" && /^[+-]?\d+$/.test(value));
    case "boolean":
      return typeof value === "boolean" || value === "true" || value === "false";
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
  }
  if (!Array.isArray(value) || !items) return false;
  return value.every((v) => validConfigValue(String(items.type ?? ""), items.items ?? undefined, v));
}

/** The program's (and the plugin's) working directory: the project's directory, or as `main` says (see above). */
export function pluginDirectory(projectDir: string, main?: string): string {
  if (!main) return projectDir;
  const path = isAbsolute(main) ? main : resolve(projectDir, main);
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) throw new Error(`project 'main' could not be read: ${path} does not exist`);
  return info.isDirectory() ? path : dirname(path);
}

/** Where a project's commands run: `main` as given, else as its project file says (read, and checked, either way). */
export function projectDirectory(projectDir: string, main?: string): string {
  const fromFile = projectMain(projectDir);
  return pluginDirectory(projectDir, main ?? fromFile);
}
