import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";
import type { Program } from "./deploymentTypes";
import { projectMain } from "./projectPaths";

/**
 * A project's program as the Node.js language host runs it (pulumi/pulumi sdk/nodejs/cmd/run/run.ts): the module
 * `main` names (a file, or a directory: its package.json `main`, else its index), required anew each command so its
 * top-level code runs again; its exports are the stack's outputs, and a function it exports (as the module or as
 * `default`) is called and its result awaited instead. A `.ts` entry loads as Node.js loads it: with a TypeScript
 * loader the test run registers (ts-node), or Node's own type stripping.
 */
export function projectProgram(projectDir: string, main?: string): Program {
  const entry = programEntry(projectDir, main ?? projectMain(projectDir));
  return () => {
    // Anew each command, as the language host starts afresh: the project's own modules, not its node_modules.
    for (const loaded of Object.keys(require.cache)) {
      if (loaded.startsWith(projectDir + sep) && !loaded.includes(`${sep}node_modules${sep}`)) delete require.cache[loaded];
    }
    // The user's program, loaded as the language host loads it.
    const exported: unknown = require(entry);
    const module = exported as { __esModule?: boolean; default?: unknown } | undefined;
    if (typeof exported === "function") return (exported as () => unknown)();
    if (module?.__esModule && typeof module.default === "function") return (module.default as () => unknown)();
    if (exported === null || typeof exported !== "object") return undefined;
    return Object.fromEntries(Object.entries(exported).filter(([key]) => key !== "__esModule" && key !== "default"));
  };
}

/** The file the language host requires for `main` (relative to the project, or absolute; unset: the project's directory). */
export function programEntry(projectDir: string, main?: string): string {
  const path = main === undefined ? projectDir : isAbsolute(main) ? main : resolve(projectDir, main);
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    if (!existsSync(path)) throw new Error(`project 'main' could not be read: ${path} does not exist`);
    return path;
  }
  const manifest = join(path, "package.json");
  const declared = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { main?: unknown }).main : undefined;
  const candidates = [...(typeof declared === "string" ? [resolve(path, declared)] : []), join(path, "index.ts"), join(path, "index.js")];
  const found = candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isFile());
  if (!found) throw new Error(`no program in ${path}: no package.json main, index.ts or index.js`);
  return found;
}
