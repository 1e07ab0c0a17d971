import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, nameOf, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../support/quickstart";

/**
 * examples/quickstart through the real Pulumi CLI and engine (tests/pulumi/pulumiCli.test.ts covers its up, refresh
 * after a change, second edition and destroy): an unchanged up reads only the four lookups, refresh finds no drift,
 * preview plans nothing, destroy removes what the stack made. The engine behaviours relied on are cited in
 * tests/support/engineCycle.ts.
 */
describe("engine: examples/quickstart, unchanged up, refresh, destroy", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let names: string[];

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    stack = await EngineStack.start(emu, compiledProject("engine-quickstart", QUICKSTART_PROJECT, "examples/quickstart/index.js"), await quickstartConfig(emu), QUICKSTART_SECRET_CONFIG);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const client = () => emu.client();

  it("up creates the seven resources", async () => {
    const ops = await stack.up();
    names = Object.keys(ops);
    assert.equal(names.length, 7);
    assert.ok(Object.values(ops).every((op) => op === "create"));
  });

  it("an unchanged up reads only the lookups; refresh finds no drift; preview plans nothing", async () => {
    await stack.expectUnchangedUp(names, ["GET /apikey", "GET /mc/apps/:appId/endpoints", "GET /mc/regions", "GET /v2/pullzones/:pullZoneId/logs"]);
    await stack.expectNoDrift(names);
  });

  it("destroy removes what the stack made", async () => {
    const ruleId = Number((await stack.resources()).find((r) => nameOf(r.urn) === "login-limit")?.id);
    await stack.destroy();
    assert.deepEqual(await stack.resources(), []);
    const hostnames = (await client().pullZones.getPullZone(Number(emu.fixtures.pullZoneId))).Hostnames.map((h) => h.Value);
    assert.ok(!hostnames.some((h) => h.endsWith(".quickstart.example")));
    const script = await client().edgeScripts.getScript(Number(emu.fixtures.scriptId));
    assert.ok(!script.EdgeScriptVariables.some((v) => v.Name.startsWith("QUICKSTART_")));
    assert.ok(!(await client().edgeScripts.listSecrets(Number(emu.fixtures.scriptId))).some((s) => s.Name.startsWith("QUICKSTART_")));
    await assert.rejects(client().shield.getRateLimit(ruleId), { name: "NotFoundError" });
  });
});
