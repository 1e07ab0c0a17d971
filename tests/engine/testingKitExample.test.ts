import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";

const PROJECT = "my-site";
const HOSTNAME = "www.my-site.example";
const RESOURCES = ["www", "backend", "signing-key"];

/**
 * examples/testing-kit's program (the stack its own mocha test deploys through the kit) through the real Pulumi CLI
 * and engine: up, an unchanged up that reads only its lookup, refresh without drift, a new backend URL updated in
 * place, a hostname removed in the dashboard found gone by refresh, destroy. The engine behaviours relied on are
 * cited in tests/support/engineCycle.ts.
 */
describe("engine: examples/testing-kit's program", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  const pullZoneId = () => Number(emu.fixtures.pullZoneId);
  const scriptId = () => Number(emu.fixtures.scriptId);

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    const config = {
      ...stackConfigFor(emu.url, emu.fixtures.accessKey),
      [`${PROJECT}:pullZoneId`]: String(emu.fixtures.pullZoneId),
      [`${PROJECT}:scriptId`]: String(emu.fixtures.scriptId),
      [`${PROJECT}:hostname`]: HOSTNAME,
      [`${PROJECT}:signingKey`]: "a-signing-key-for-the-engine",
    };
    stack = await EngineStack.start(emu, compiledProject("engine-testing-kit", PROJECT, "examples/testing-kit/src/index.js"), config, ["bunnynet:apiKey", `${PROJECT}:signingKey`]);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const variable = async () => (await emu.client().edgeScripts.getScript(scriptId())).EdgeScriptVariables.find((v) => v.Name === "BACKEND_URL");

  it("up creates the hostname with a certificate, the variable and the secret", async () => {
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
    const hostname = await emu.client().pullZones.findHostname(pullZoneId(), HOSTNAME);
    assert.deepEqual([hostname?.HasCertificate, hostname?.ForceSSL], [true, true]);
    assert.ok(!(await stack.exportText()).includes("a-signing-key-for-the-engine"));
  });

  it("an unchanged up reads only the lookup; refresh finds no drift; preview plans nothing", async () => {
    await stack.expectUnchangedUp(RESOURCES, ["GET /pullzone/:id"]);
    await stack.expectNoDrift(RESOURCES);
  });

  it("a new backend URL updates the variable in place", async () => {
    await stack.setConfig({ [`${PROJECT}:backendUrl`]: "https://backend-v2.example" });
    assert.deepEqual(Object.entries(await stack.up()).filter(([, op]) => op !== "same"), [["backend", "update"]]);
    assert.equal((await variable())?.DefaultValue, "https://backend-v2.example");
  });

  it("refresh finds what someone removed in the dashboard", async () => {
    await emu.client().pullZones.removeHostname(pullZoneId(), HOSTNAME);
    assert.deepEqual(Object.entries(await stack.refresh()).filter(([, op]) => op !== "same"), [["www", "delete"]]);
  });

  it("destroy leaves nothing", async () => {
    await stack.destroy();
    assert.deepEqual(await stack.resources(), []);
    assert.equal(await variable(), undefined);
    assert.ok(!(await emu.client().edgeScripts.listSecrets(scriptId())).some((s) => s.Name === "SIGNING_KEY"));
  });
});
