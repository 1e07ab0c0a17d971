/**
 * Where the unit tests' imports of the packages come from under `npm run test:unit`: the TypeScript sources,
 * transpiled on load by ts-node, instead of the compiled dist/ that a full build writes.
 *
 * The tests import the packages by name (`bunnynet-pulumi/dist/pulumi/index.js`), like every other test: tsc then
 * checks them against the packages' declarations, and compiled into dist/tests they run against the build. Loaded
 * with `mocha -r` after ts-node's register, this module maps `<package>/dist/<path>.js` to `<workspace>/<path>` (a
 * `.ts` file), so the same test files run in seconds on the sources, with no build.
 */
import Module from "node:module";
import { join } from "node:path";

/** The workspaces, by package name (the root package.json's "workspaces"). */
const WORKSPACES: Record<string, string> = { "bunnynet-pulumi": "provider", "bunnynet-emulator": "emulator" };
/** Run from the repository's root (npm scripts are). */
const ROOT = process.cwd();

const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const resolveFilename = loader._resolveFilename;

loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
  const match = /^(bunnynet-(?:pulumi|emulator))(?:\/dist\/(.*?))?(?:\.js)?$/.exec(request);
  const workspace = match && WORKSPACES[match[1]];
  const source = workspace ? join(ROOT, workspace, match[2] ?? "index") : request;
  return resolveFilename.call(this, source, ...rest);
};
