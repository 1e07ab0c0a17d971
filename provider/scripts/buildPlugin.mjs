// Builds the provider plugin pulumi-resource-bunnynet into dist/pulumi-plugin/ (from provider/plugin/*.ts, bundled
// with esbuild into one file that needs only `node` on PATH), and its tarball for
// `pulumi plugin install resource bunnynet <version> --file <tgz>` in dist/.
// Run from provider/ (npm run build:plugin) or the workspace root (npm run build:plugin).
//
// Shipped as an executable plugin (the launcher script), not a source plugin: a PulumiPlugin.yaml with `runtime: nodejs`
// would have the engine start the bundle through the Node.js language host (pulumi-language-nodejs, RunPlugin), which
// a Python, Go or YAML user need not have; the launcher needs only `node`. So no PulumiPlugin.yaml is written.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const providerDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(providerDir, "package.json"), "utf8"));
const out = join(providerDir, "dist", "pulumi-plugin");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [join(providerDir, "plugin", "main.ts")],
  outfile: join(out, "pulumi-resource-bunnynet.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  logLevel: "warning",
  // The SDK's closure serializer (which the plugin never runs) loads TypeScript through a shim that falls back to a
  // vendored copy by a path computed at run time: the shim is bundled as an empty module instead, ts-node left out.
  external: ["ts-node"],
  plugins: [
    {
      name: "no-typescript",
      setup(b) {
        b.onResolve({ filter: /typescript-shim(\.js)?$/ }, (args) => ({ path: args.path, namespace: "no-typescript" }));
        b.onLoad({ filter: /.*/, namespace: "no-typescript" }, () => ({ contents: "module.exports = {};", loader: "js" }));
      },
    },
  ],
  logOverride: { "empty-import-meta": "silent", "require-resolve-not-external": "silent" },
});
if (result.errors.length > 0) process.exit(1);

// packageInfo.ts finds the version from a package.json named bunnynet-pulumi above the code: the bundle's is beside it.
writeFileSync(join(out, "package.json"), `${JSON.stringify({ name: "bunnynet-pulumi", version, private: true }, null, 2)}\n`);
copyFileSync(join(providerDir, "plugin", "schema.json"), join(out, "schema.json"));
const launcher = join(out, "pulumi-resource-bunnynet");
writeFileSync(launcher, '#!/bin/sh\n# The bunnynet provider plugin: Node.js (22.19 or later) on PATH runs the bundle beside this script.\nexec node "$(dirname "$0")/pulumi-resource-bunnynet.js" "$@"\n');
chmodSync(launcher, 0o755);

const platform = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
const tarball = join(providerDir, "dist", `pulumi-resource-bunnynet-v${version}-${platform}.tar.gz`);
execFileSync("tar", ["czf", tarball, "-C", out, "."]);
console.log(`built ${out} and ${tarball}`);
