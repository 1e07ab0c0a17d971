import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PACKAGE_NAME } from "bunnynet-pulumi/dist/pulumi/shim.js";
import { packageInfo } from "bunnynet-pulumi/dist/packageInfo.js";
import type { HostOptions } from "./providerHost";

/** The provider's workspace package (provider/), which each layout installs by a symlink. */
const PACKAGE_DIR = dirname(require.resolve(`${PACKAGE_NAME}/package.json`));

/**
 * How a user's project can have this package installed:
 * - `npm`: `node_modules/<package>` (npm, yarn, and pnpm for a direct dependency);
 * - `pnpm`: only as a dependency of the project's own component package, so only in pnpm's store,
 *   `node_modules/.pnpm/<package>@<version>/node_modules/<package>`;
 * - `alias`: under another name (`"bunny": "npm:bunnynet-pulumi@..."`), which the provider text cannot find.
 */
export type Layout = "npm" | "pnpm" | "alias";

/** A Pulumi project in a temporary directory: pass `host` to `ProgramHarness`'s `hostPerCommand` or `ProviderHost.start`. */
export interface Project {
  dir: string;
  host: Pick<HostOptions, "projectDir" | "main">;
  remove(): void;
}

/** A project whose node_modules has this package installed the way `layout` does, and `main` as given (e.g. "dist/"). */
export function projectWithPackage(layout: Layout, main?: string): Project {
  const dir = mkdtempSync(join(tmpdir(), `bunnynet-${layout}-project-`));
  const modules = join(dir, "node_modules");
  const link = (at: string) => {
    mkdirSync(join(at, ".."), { recursive: true });
    symlinkSync(PACKAGE_DIR, at, "dir");
  };
  const dependencies: Record<string, string> = {};
  if (layout === "npm") {
    link(join(modules, PACKAGE_NAME));
    dependencies[PACKAGE_NAME] = packageInfo.version;
  } else if (layout === "alias") {
    link(join(modules, "bunny"));
    dependencies.bunny = `npm:${PACKAGE_NAME}@${packageInfo.version}`;
  } else {
    const store = join(modules, ".pnpm");
    link(join(store, `${PACKAGE_NAME}@${packageInfo.version}`, "node_modules", PACKAGE_NAME));
    const components = join(store, "my-components@1.0.0", "node_modules", "my-components");
    mkdirSync(components, { recursive: true });
    writeFileSync(join(components, "package.json"), JSON.stringify({ name: "my-components", version: "1.0.0", dependencies: { [PACKAGE_NAME]: packageInfo.version } }));
    symlinkSync(components, join(modules, "my-components"), "dir");
    dependencies["my-components"] = "1.0.0";
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user-project", private: true, dependencies }));
  writeFileSync(join(dir, "Pulumi.yaml"), `name: user-project\nruntime: nodejs\n${main ? `main: ${main}\n` : ""}`);
  if (main) mkdirSync(join(dir, main), { recursive: true });
  return { dir, host: { projectDir: dir, main }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
