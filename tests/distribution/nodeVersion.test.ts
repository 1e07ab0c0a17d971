import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { MINIMUM_NODE_VERSION, unsupportedNodeReason } from "bunnynet-pulumi/dist/supportedNode.js";

/** A Node.js older than the package supports, found on PATH (Node 20 ships on these machines), or undefined. */
function oldNodeOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, "node");
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["--version"], { encoding: "utf8" }).stdout?.trim();
    if (version && unsupportedNodeReason("x", version)) return candidate;
  }
  return undefined;
}

describe("distribution: an unsupported Node.js gets one clear sentence", () => {
  it(`the minimum is ${MINIMUM_NODE_VERSION} (undici 8's engines); older versions are refused, newer accepted`, () => {
    for (const old of ["20.20.2", "v20.20.2", "22.0.0", "22.18.9", "21.99.99"]) assert.match(unsupportedNodeReason("bunnynet-pulumi", old) ?? "", /needs Node\.js 22\.19\.0 or newer/, old);
    for (const ok of ["22.19.0", "22.19.1", "22.20.0", "23.0.0", "24.21.0", "v26.1.0"]) assert.equal(unsupportedNodeReason("bunnynet-pulumi", ok), undefined, ok);
  });

  const oldNode = oldNodeOnPath();
  const cases: [what: string, args: string[]][] = [
    ['require("bunnynet-pulumi")', ["-e", 'require("bunnynet-pulumi")']],
    ["the provider entry point", ["-e", 'require("bunnynet-pulumi/dist/pulumi/entry.js")']],
    ['require("bunnynet-emulator/testing")', ["-e", 'require("bunnynet-emulator/testing")']],
    ["bunnynet --help", [require.resolve("bunnynet-pulumi/dist/cli/main.js"), "--help"]],
    ["bunnynet-emulator --help", [require.resolve("bunnynet-emulator/dist/main.js"), "--help"]],
  ];
  for (const [what, args] of cases) {
    it(`${what} on ${oldNode ? "an old Node.js from PATH" : "an old Node.js (none on PATH: skipped)"} fails naming the versions, not inside undici`, function () {
      if (!oldNode) this.skip();
      const run = spawnSync(oldNode, args, { encoding: "utf8", cwd: join(__dirname, "..", "..", "..") });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /(bunnynet-pulumi|bunnynet|bunnynet-emulator) needs Node\.js 22\.19\.0 or newer .* but this is Node\.js \d+\.\d+\.\d+/);
      assert.doesNotMatch(run.stderr, /reading 'bind'|undici\/lib/);
    });
  }
});
