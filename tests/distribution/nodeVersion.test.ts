import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { MINIMUM_NODE_VERSION, unsupportedNodeReason } from "bunnynet-pulumi/dist/supportedNode.js";
import { pluginLauncher } from "../plugin/pluginSupport";

/**
 * A Node.js older than the package supports with its version, or undefined: the first on PATH, else the system's
 * (`/usr/bin/node`: Debian 12 ships Node 20, and `npm run` puts the repository's Node 24 first on PATH).
 */
function oldNode(): { path: string; version: string } | undefined {
  const candidates = [...(process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, "node")), "/usr/bin/node", "/usr/local/bin/node"];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const version = spawnSync(path, ["--version"], { encoding: "utf8" }).stdout?.trim().replace(/^v/, "");
    if (version && unsupportedNodeReason("x", version)) return { path, version };
  }
  return undefined;
}

const NO_OLD_NODE = `no Node.js older than ${MINIMUM_NODE_VERSION} on PATH nor at /usr/bin/node or /usr/local/bin/node`;

describe("distribution: an unsupported Node.js gets one clear sentence", () => {
  it(`the minimum is ${MINIMUM_NODE_VERSION} (undici 8's engines); older versions are refused, newer accepted`, () => {
    for (const old of ["20.20.2", "v20.20.2", "22.0.0", "22.18.9", "21.99.99"]) assert.match(unsupportedNodeReason("bunnynet-pulumi", old) ?? "", /needs Node\.js 22\.19\.0 or newer/, old);
    for (const ok of ["22.19.0", "22.19.1", "22.20.0", "23.0.0", "24.21.0", "v26.1.0"]) assert.equal(unsupportedNodeReason("bunnynet-pulumi", ok), undefined, ok);
  });

  const old = oldNode();
  const skipWithoutOldNode = (ctx: Mocha.Context) => {
    if (old) return;
    console.log(`      skipped: ${NO_OLD_NODE}`);
    ctx.skip();
  };
  const on = old ? `on Node.js ${old.version} (${old.path})` : "on an old Node.js (none found: skipped)";
  const cases: [what: string, args: string[]][] = [
    ['require("bunnynet-pulumi")', ["-e", 'require("bunnynet-pulumi")']],
    ["the provider entry point", ["-e", 'require("bunnynet-pulumi/dist/pulumi/entry.js")']],
    ['require("bunnynet-emulator/testing")', ["-e", 'require("bunnynet-emulator/testing")']],
    ["bunnynet --help", [require.resolve("bunnynet-pulumi/dist/cli/main.js"), "--help"]],
    ["bunnynet-emulator --help", [require.resolve("bunnynet-emulator/dist/main.js"), "--help"]],
  ];
  for (const [what, args] of cases) {
    it(`${what} ${on} fails naming the versions, not inside undici`, function () {
      skipWithoutOldNode(this);
      const run = spawnSync(old!.path, args, { encoding: "utf8", cwd: join(__dirname, "..", "..", "..") });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /(bunnynet-pulumi|bunnynet|bunnynet-emulator) needs Node\.js 22\.19\.0 or newer .* but this is Node\.js \d+\.\d+\.\d+/);
      assert.doesNotMatch(run.stderr, /reading 'bind'|undici\/lib/);
    });
  }

  // Issue 44: the bundled plugin loaded undici before any check and died inside it ("exited prematurely", the stack
  // trace of undici/lib/interceptor/decompress.js). Started as the engine starts it: its sh launcher runs the first
  // `node` on PATH, with the engine's address as its argument.
  it(`the provider plugin (its launcher, as the engine starts it) ${on} prints the package's sentence and no port, not a stack trace inside undici`, function () {
    skipWithoutOldNode(this);
    const run = spawnSync(pluginLauncher(), ["127.0.0.1:1"], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${dirname(old!.path)}${delimiter}${process.env.PATH ?? ""}` },
      timeout: 30_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, "", "the plugin printed a port");
    assert.equal(run.stderr, `${unsupportedNodeReason("pulumi-resource-bunnynet", old!.version)}\n`);
  });
});
