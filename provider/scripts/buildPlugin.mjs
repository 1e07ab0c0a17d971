// Builds the provider plugin pulumi-resource-bunnynet into dist/pulumi-plugin/ (from provider/plugin/*.ts, bundled
// with esbuild into one file that needs only `node` on PATH), and its tarballs in dist/, one per platform Pulumi
// downloads for, named as the engine asks a GitHub release for them (standardAssetName in pulumi/pulumi
// sdk/go/common/workspace/plugins.go: pulumi-resource-bunnynet-v<version>-<os>-<arch>.tar.gz). The bundle is
// platform-independent, so every tarball holds the same bytes; each is also what
// `pulumi plugin install resource bunnynet <version> --file <tgz>` takes. The tarballs are deterministic (names sorted,
// mtimes, owners and the gzip header fixed) where tar is GNU tar.
// Run from provider/ (npm run build:plugin) or the workspace root (npm run build:plugin).
//
// Shipped as an executable plugin (the launcher script), not a source plugin: a PulumiPlugin.yaml with `runtime: nodejs`
// would have the engine start the bundle through the Node.js language host (pulumi-language-nodejs, RunPlugin), which
// a Python, Go or YAML user need not have; the launcher needs only `node`. So no PulumiPlugin.yaml is written.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The platforms a tarball is written for: every os-arch pair the engine downloads a plugin for (PluginDescriptor.Download
 * in plugins.go: darwin, linux, windows × amd64, arm64). On Windows the engine looks for the plugin's executable with
 * the extensions .exe and .cmd (getCandidateExtensions, ibid.), so the .cmd launcher below is what it runs there.
 */
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"];

const providerDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(providerDir, "package.json"), "utf8"));
const out = join(providerDir, "dist", "pulumi-plugin");
rmSync(out, { recursive: true, force: true });
for (const old of readdirSync(join(providerDir, "dist"), { withFileTypes: true }).filter((e) => /^pulumi-resource-bunnynet-v.*\.tar\.gz$/.test(e.name))) {
  rmSync(join(providerDir, "dist", old.name));
}
mkdirSync(out, { recursive: true });

/** The bundle, loaded by the entry file below (pulumi-resource-bunnynet.js), which the launchers run. */
const BUNDLE = "pulumi-resource-bunnynet.bundle.js";

const result = await build({
  entryPoints: [join(providerDir, "plugin", "main.ts")],
  outfile: join(out, BUNDLE),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  // The map is written apart (below), not shipped: 15 MB a user's plugin never reads.
  sourcemap: "external",
  metafile: true,
  logLevel: "warning",
  // The SDK's closure serializer (which the plugin never runs) loads TypeScript through a shim that falls back to a
  // vendored copy by a path computed at run time: the shim is bundled as an empty module instead, ts-node left out.
  external: ["ts-node"],
  plugins: [
    {
      // The SDK's root loads its program runtime and npm's packages (see plugin/sdkStandIn.ts): the plugin gets a
      // stand-in; its protobuf stubs (@pulumi/pulumi/proto/*) are what it uses of the SDK.
      name: "no-sdk-runtime",
      setup(b) {
        b.onResolve({ filter: /^@pulumi\/pulumi$/ }, () => ({ path: join(providerDir, "plugin", "sdkStandIn.ts") }));
      },
    },
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

// What serving needs and nothing else: a module of the SDK's runtime or of npm in the bundle is a build error.
const UNSERVED = [/node_modules\/@pulumi\/pulumi\/(?!proto\/)/, /node_modules\/@npmcli\//, /node_modules\/(tar|sigstore|glob)\//];
const unserved = Object.keys(result.metafile.inputs).filter((input) => UNSERVED.some((pattern) => pattern.test(input)));
if (unserved.length > 0) {
  console.error(`the plugin's bundle holds what it never runs:\n  ${unserved.slice(0, 20).join("\n  ")}`);
  process.exit(1);
}
// The source map apart (dist/pulumi-plugin-map/, in neither the tarballs nor the npm package), for reading a stack
// trace by hand; the bundle names no map.
const mapDir = join(providerDir, "dist", "pulumi-plugin-map");
rmSync(mapDir, { recursive: true, force: true });
mkdirSync(mapDir);
renameSync(join(out, `${BUNDLE}.map`), join(mapDir, `${BUNDLE}.map`));

// The entry turns on Node's compile cache (module.enableCompileCache, Node 22.1 and later; off with
// NODE_DISABLE_COMPILE_CACHE=1) before it loads the bundle: from the second start on, V8 reads the bundle's compiled
// code from the cache folder (NODE_COMPILE_CACHE, else the system's temporary folder) instead of compiling 4 MB again.
// It must be a file of its own: the cache applies only to modules loaded after it is on.
writeFileSync(
  join(out, "pulumi-resource-bunnynet.js"),
  `"use strict";\nconst nodeModule = require("node:module");\nif (typeof nodeModule.enableCompileCache === "function") nodeModule.enableCompileCache();\nrequire("./${BUNDLE}");\n`,
);

// packageInfo.ts finds the version from a package.json named bunnynet-pulumi above the code: the bundle's is beside it.
writeFileSync(join(out, "package.json"), `${JSON.stringify({ name: "bunnynet-pulumi", version, private: true }, null, 2)}\n`);
copyFileSync(join(providerDir, "plugin", "schema.json"), join(out, "schema.json"));
const launcher = join(out, "pulumi-resource-bunnynet");
writeFileSync(launcher, '#!/bin/sh\n# The bunnynet provider plugin: Node.js (22.19 or later) on PATH runs the bundle beside this script.\nexec node "$(dirname "$0")/pulumi-resource-bunnynet.js" "$@"\n');
chmodSync(launcher, 0o755);
writeFileSync(
  `${launcher}.cmd`,
  "@echo off\r\nrem The bunnynet provider plugin: Node.js (22.19 or later) on PATH runs the bundle beside this script.\r\nnode \"%~dp0pulumi-resource-bunnynet.js\" %*\r\n",
);

// One archive for all: GNU tar's flags make it the same bytes from the same files; gzipSync writes no name or mtime.
const gnuTar = /GNU tar/.test(execFileSync("tar", ["--version"], { encoding: "utf8" }));
const fixed = gnuTar ? ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "--format=ustar"] : [];
const archive = gzipSync(execFileSync("tar", [...fixed, "-cf", "-", "-C", out, "."], { maxBuffer: 256 * 1024 * 1024 }), { level: 9 });
for (const platform of PLATFORMS) {
  writeFileSync(join(providerDir, "dist", `pulumi-resource-bunnynet-v${version}-${platform}.tar.gz`), archive);
}
console.log(`built ${out} and its tarballs for ${PLATFORMS.join(", ")} in ${join(providerDir, "dist")}`);
