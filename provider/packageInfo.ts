import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";

/** Name and version of this package, read once from its package.json (found by walking up, so it works from source and from dist/). */
function readPackageInfo(): { name: string; version: string } {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "bunnynet-pulumi") return { name: pkg.name, version: pkg.version ?? "0.0.0" };
    }
    const parent = dirname(dir);
    if (parent === dir) return { name: "bunnynet-pulumi", version: "0.0.0" };
    dir = parent;
  }
}

export const packageInfo = readPackageInfo();
export const userAgent = `${packageInfo.name}/${packageInfo.version} (+node ${process.version})`;
