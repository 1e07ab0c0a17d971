import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";

const PROJECT = "bunnynet-edge";
const EXAMPLE_DIR = join(__dirname, "..", "..", "..", "examples", "gitops");
const changed = (ops: Record<string, string>) => Object.entries(ops).filter(([, op]) => op !== "same");

/**
 * examples/gitops (as tests/pulumi/gitops.test.ts runs it through the kit) through the real Pulumi CLI and engine:
 * two stacks of the program, each configured by the example's own stack file (Pulumi.staging.yaml,
 * Pulumi.production.yaml: lists and objects, which the engine hands the program as JSON text), deployed side by side;
 * each unchanged up makes no call and its refresh finds no drift; a change to staging's config changes staging only;
 * destroying staging leaves production, destroying production leaves nothing. The stack files name a real account's
 * zone and scripts: `pulumi config set` points them at the emulator's. The engine behaviours relied on are cited in
 * tests/support/engineCycle.ts.
 */
describe("engine: examples/gitops, two stacks from their stack files", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  const stacks: Record<string, EngineStack> = {};
  let projectDir: string;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    projectDir = compiledProject("engine-gitops", PROJECT, "examples/gitops/index.js");
    for (const name of ["staging", "production"]) {
      copyFileSync(join(EXAMPLE_DIR, `Pulumi.${name}.yaml`), join(projectDir, `Pulumi.${name}.yaml`));
      const scriptId = name === "staging" ? emu.fixtures.emptyScriptId : emu.fixtures.otherEmptyScriptId;
      const config = { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, [`${PROJECT}:pullZoneId`]: String(emu.fixtures.pullZoneId), [`${PROJECT}:scriptId`]: String(scriptId) };
      stacks[name] = await EngineStack.start(emu, projectDir, config, ["bunnynet:apiKey"], name);
    }
  });
  after(async () => {
    for (const stack of Object.values(stacks)) await stack.dispose();
    await emu?.stop();
  });

  const rules = async () => {
    const names: string[] = [];
    for await (const r of emu.client().shield.listRateLimits(Number(emu.fixtures.shieldZoneId))) names.push(r.ruleName ?? "");
    return names.sort();
  };
  const hostnames = async () => (await emu.client().pullZones.getPullZone(Number(emu.fixtures.pullZoneId))).Hostnames.filter((h) => !h.IsSystemHostname).map((h) => h.Value).sort();
  let names: Record<string, string[]> = {};

  it("staging and production deploy from their stack files side by side", async () => {
    names = { staging: Object.keys(await stacks.staging.up()), production: Object.keys(await stacks.production.up()) };
    assert.deepEqual((await stacks.production.cli.outputs()).hostnames, ["www.example.com", "example.com"]);
    assert.deepEqual(await hostnames(), ["example.com", "staging.example.com", "www.example.com"]);
    assert.deepEqual(await rules(), ["production-api", "production-login", "staging-login"]);
  });

  it("each stack's unchanged up makes no API call; refresh finds no drift; preview plans nothing", async () => {
    for (const name of ["staging", "production"]) {
      await stacks[name].expectUnchangedUp(names[name]);
      await stacks[name].expectNoDrift(names[name]);
    }
  });

  it("a change to staging's config changes staging only: a new hostname, a dropped variable, a stricter limit", async () => {
    await stacks.staging.setConfig({
      [`${PROJECT}:hostnames`]: JSON.stringify(["staging.example.com", "preview.example.com"]),
      [`${PROJECT}:variables`]: JSON.stringify({ API_BASE_URL: { value: "https://api.staging.example.com", required: true } }),
      [`${PROJECT}:rateLimits`]: JSON.stringify([{ name: "login", path: "/login", method: "POST", requestsPerMinute: 20, blockMinutes: 5 }]),
    });
    assert.deepEqual(Object.fromEntries(changed(await stacks.staging.up())), { "hostname-preview.example.com": "create", "variable-FEATURE_FLAGS": "delete", "rate-limit-login": "update" });
    assert.deepEqual(await hostnames(), ["example.com", "preview.example.com", "staging.example.com", "www.example.com"]);
    assert.equal((await emu.client().shield.findRateLimitByName(Number(emu.fixtures.shieldZoneId), "production-login"))?.ruleConfiguration?.requestCount, 10);
  });

  it("destroying staging leaves production untouched; destroying production leaves nothing", async () => {
    await stacks.staging.destroy();
    assert.deepEqual(await hostnames(), ["example.com", "www.example.com"]);
    assert.deepEqual(await rules(), ["production-api", "production-login"]);
    await stacks.production.destroy();
    assert.deepEqual(await hostnames(), []);
    assert.deepEqual(await rules(), []);
  });
});
