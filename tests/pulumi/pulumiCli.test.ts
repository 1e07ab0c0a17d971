import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { PulumiCliStack, pulumiCliUnavailable } from "../support/pulumiCli";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../support/quickstart";

/**
 * The full cycle with the real Pulumi CLI and engine: up, refresh, up with a change, destroy. Runs wherever
 * `pulumi` is on PATH; elsewhere every step is reported as pending, with the reason printed.
 */
describe("pulumi CLI: the quickstart's full cycle (up, refresh, up with a change, destroy)", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let stack: PulumiCliStack;
  let work: string;
  let config: Record<string, string>;

  before(async function () {
    const reason = pulumiCliUnavailable();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    emu = await startEmulator();
    work = mkdtempSync(join(tmpdir(), "bunnynet-cli-"));
    stack = new PulumiCliStack(`test-${process.pid}`, join(work, "state"));
    config = await quickstartConfig(emu);
    await stack.init(config, QUICKSTART_SECRET_CONFIG);
  });
  after(async () => {
    await stack?.remove();
    await emu?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("up creates every resource", async () => {
    await stack.run(["up", "--yes", "--skip-preview"]);
    const out = await stack.outputs();
    const rule = await emu.client().shield.getRateLimit(Number(out.rateLimitRuleId));
    assert.equal(rule.ruleConfiguration?.requestCount, 10);
  });

  it("refresh after a change outside Pulumi, then an up with the second edition updates in place", async () => {
    const script = await emu.client().edgeScripts.getScript(Number(emu.fixtures.scriptId));
    const variable = script.EdgeScriptVariables.find((v) => v.Name === "QUICKSTART_API_BASE")!;
    await emu.client().edgeScripts.updateVariable(Number(emu.fixtures.scriptId), variable.Id, { DefaultValue: "https://changed.elsewhere", Required: true });
    await stack.run(["refresh", "--yes", "--skip-preview"]);
    await stack.run(["config", "set", "edition", "second"]);
    await stack.run(["up", "--yes", "--skip-preview"]);
    const after = await emu.client().edgeScripts.getVariable(Number(emu.fixtures.scriptId), variable.Id);
    assert.equal(after.DefaultValue, "https://api-v2.quickstart.example");
  });

  it("destroy removes everything, and the state holds no key", async () => {
    const state = await stack.run(["stack", "export"], true);
    assert.ok(!state.includes(emu.fixtures.accessKey));
    // Nor the api hostname's private key (a line of its body) or the script secret's value.
    assert.ok(!state.includes(config[`${QUICKSTART_PROJECT}:apiCertificateKey`].split("\n")[1]));
    assert.ok(!state.includes(config[`${QUICKSTART_PROJECT}:signingKey`]));
    await stack.run(["destroy", "--yes", "--skip-preview"]);
    const script = await emu.client().edgeScripts.getScript(Number(emu.fixtures.scriptId));
    assert.ok(!script.EdgeScriptVariables.some((v) => v.Name.startsWith("QUICKSTART_")));
  });
});
