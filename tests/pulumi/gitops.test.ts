import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { edge } from "../../examples/gitops/program";

const EXAMPLE_DIR = join(__dirname, "..", "..", "..", "examples", "gitops");

/** A stack file's config as the engine hands it to the program: objects and lists as JSON text. */
function stackFileConfig(stack: string): Record<string, string> {
  const file = load(readFileSync(join(EXAMPLE_DIR, `Pulumi.${stack}.yaml`), "utf8")) as { config: Record<string, unknown> };
  return Object.fromEntries(Object.entries(file.config).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}

/**
 * The GitOps example: two stacks of the same program, each declared by its own stack file, deployed side by side
 * against one emulator; then a change to one stack file (what a merged pull request does) applied.
 */
describe("pulumi: the GitOps example's two stacks", function () {
  let emu: TestEmulator;
  const stacks: Record<string, ProgramHarness> = {};

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu?.stop());

  const harnessFor = (stack: string, override: Record<string, string> = {}) => {
    const config = {
      ...stackFileConfig(stack),
      // The stack files name a real account's zone and scripts; here they are the emulator's (one script per stack).
      "bunnynet-edge:pullZoneId": String(emu.fixtures.pullZoneId),
      "bunnynet-edge:scriptId": String(stack === "staging" ? emu.fixtures.emptyScriptId : emu.fixtures.otherEmptyScriptId),
      "bunnynet:apiKey": emu.fixtures.accessKey,
      "bunnynet:apiUrl": emu.url,
      ...override,
    };
    stacks[stack] ??= new ProgramHarness({ project: "bunnynet-edge", stack, config, secretConfig: ["bunnynet:apiKey"] });
    stacks[stack].setConfig(config, ["bunnynet:apiKey"]);
    return stacks[stack];
  };

  const rules = async () => {
    const names: string[] = [];
    for await (const r of emu.client().shield.listRateLimits(Number(emu.fixtures.shieldZoneId))) names.push(r.ruleName ?? "");
    return names.sort();
  };
  const hostnames = async () => (await emu.client().pullZones.getPullZone(Number(emu.fixtures.pullZoneId))).Hostnames.filter((h) => !h.IsSystemHostname).map((h) => h.Value).sort();

  it("staging and production deploy from their stack files side by side", async () => {
    await harnessFor("staging").up(edge);
    const production = await harnessFor("production").up(edge);
    assert.deepEqual(production.outputs.hostnames, ["www.example.com", "example.com"]);
    assert.deepEqual(await hostnames(), ["example.com", "staging.example.com", "www.example.com"]);
    assert.deepEqual(await rules(), ["production-api", "production-login", "staging-login"]);
    const challenge = (await emu.client().shield.findRateLimitByName(Number(emu.fixtures.shieldZoneId), "production-api"))!;
    assert.equal(challenge.ruleConfiguration?.actionType, 3, "Challenge");
  });

  it("a merged change to the staging file changes staging only: a new hostname, a dropped variable, a stricter limit", async () => {
    const staging = stackFileConfig("staging");
    const run = await harnessFor("staging", {
      "bunnynet-edge:hostnames": JSON.stringify([...JSON.parse(staging["bunnynet-edge:hostnames"]), "preview.example.com"]),
      "bunnynet-edge:variables": JSON.stringify({ API_BASE_URL: { value: "https://api.staging.example.com", required: true } }),
      "bunnynet-edge:rateLimits": JSON.stringify([{ name: "login", path: "/login", method: "POST", requestsPerMinute: 20, blockMinutes: 5 }]),
    }).up(edge);
    const ops = Object.fromEntries(run.steps.map((s) => [s.urn.split("::").pop(), s.op]));
    assert.equal(ops["hostname-preview.example.com"], "create");
    assert.equal(ops["hostname-staging.example.com"], "same");
    assert.equal(ops["variable-FEATURE_FLAGS"], "delete");
    assert.equal(ops["rate-limit-login"], "update");
    assert.deepEqual(await hostnames(), ["example.com", "preview.example.com", "staging.example.com", "www.example.com"]);
    assert.equal((await emu.client().shield.findRateLimitByName(Number(emu.fixtures.shieldZoneId), "production-login"))?.ruleConfiguration?.requestCount, 10);
  });

  it("destroying staging leaves production untouched", async () => {
    await stacks.staging.destroy();
    assert.deepEqual(await hostnames(), ["example.com", "www.example.com"]);
    assert.deepEqual(await rules(), ["production-api", "production-login"]);
    await stacks.production.destroy();
    assert.deepEqual(await hostnames(), []);
  });
});
