import { strict as assert } from "node:assert";
import { resolve } from "node:path";
import { CommandFailedError, ProgramHarness, startEmulator, type TestEmulator } from "bunnynet-emulator/testing";
import { site } from "../src/program";

/**
 * The stack deployed the way `pulumi preview`, `up`, `refresh` and `destroy` run it, against the bunny.net emulator
 * in this process: no account, no Pulumi CLI, no backend. Each command starts the SDK's real dynamic-provider host
 * where Pulumi.yaml's `main` says (src/), as the Pulumi engine does, and runs the program there.
 */
describe("my-site stack", function () {
  this.timeout(120_000);

  let emu: TestEmulator;
  let stack: ProgramHarness;
  const hostname = "www.my-site.example";

  before(async () => {
    emu = await startEmulator();
    stack = new ProgramHarness({
      project: "my-site",
      config: {
        ...emu.stackConfig(),
        "my-site:pullZoneId": String(emu.fixtures.pullZoneId),
        "my-site:scriptId": String(emu.fixtures.scriptId),
        "my-site:hostname": hostname,
        "my-site:signingKey": "a-signing-key-for-tests",
      },
      secretConfig: ["bunnynet:apiKey", "my-site:signingKey"],
      hostPerCommand: { projectDir: resolve(__dirname, "..") },
    });
  });
  after(async () => {
    await emu?.stop();
  });

  /** What a command changed in the account (the lookup reads; nothing else may). */
  const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET");

  it("preview plans three creations and changes nothing", async () => {
    await emu.markRequests();
    const { steps } = await stack.preview(site);
    assert.deepEqual(steps.map((s) => s.op), ["create", "create", "create"]);
    assert.deepEqual(await writes(), []);
  });

  it("up creates the hostname with a certificate and force-SSL, the variable and the secret", async () => {
    const { outputs } = await stack.up(site);
    assert.equal(outputs.hostname, hostname);
    assert.match(String(outputs.cdnHostname), /\.b-cdn\.net$/);
    assert.ok(Date.parse(String(outputs.certificateExpiresAt)) > Date.now());

    const onZone = await emu.client().pullZones.findHostname(emu.fixtures.pullZoneId as number, hostname);
    assert.equal(onZone?.ForceSSL, true);
    const secrets = await emu.client().edgeScripts.listSecrets(emu.fixtures.scriptId as number);
    assert.ok(secrets.some((s) => s.Name === "SIGNING_KEY"));
  });

  it("the signing key is stored as a secret in the state (encrypted by Pulumi)", () => {
    const secret = stack.resource("ScriptSecret", "signing-key");
    assert.ok(secret?.secretKeys.includes("value"), JSON.stringify(secret?.secretKeys));
  });

  it("a second up with nothing changed changes nothing", async () => {
    await emu.markRequests();
    const { steps } = await stack.up(site);
    assert.ok(steps.every((s) => s.op === "same"), JSON.stringify(steps));
    assert.deepEqual(await writes(), []);
  });

  it("a new backend URL updates the variable in place", async () => {
    stack.setConfig({ ...stack.stackConfig(), "my-site:backendUrl": "https://backend-v2.example" });
    const { steps } = await stack.up(site);
    assert.deepEqual(steps.filter((s) => s.op !== "same").map((s) => [s.op, s.urn.split("::").pop()]), [["update", "backend"]]);
  });

  it("refresh finds what someone removed in the dashboard", async () => {
    await emu.client().pullZones.removeHostname(emu.fixtures.pullZoneId as number, hostname);
    const steps = await stack.refresh();
    assert.deepEqual(steps.filter((s) => s.op === "gone").map((s) => s.urn.split("::").pop()), ["www"]);
  });

  it("a deployment that fails rejects with the kit's error, naming what it left unfinished", async () => {
    const broken = new ProgramHarness({
      project: "my-site",
      stack: "broken",
      config: { ...stack.stackConfig(), "my-site:scriptId": "999999", "my-site:hostname": "broken.my-site.example" },
      secretConfig: ["bunnynet:apiKey", "my-site:signingKey"],
      hostPerCommand: { projectDir: resolve(__dirname, "..") },
    });
    await assert.rejects(broken.up(site), (e: unknown) => {
      assert.ok(e instanceof CommandFailedError, String(e));
      assert.ok(e.unfinished.some((urn) => urn.endsWith("::backend")), e.message);
      return true;
    });
    await broken.destroy();
  });

  it("destroy deletes the rest", async () => {
    await stack.destroy();
    const secrets = await emu.client().edgeScripts.listSecrets(emu.fixtures.scriptId as number);
    assert.ok(!secrets.some((s) => s.Name === "SIGNING_KEY"));
    assert.equal(stack.resources().length, 0);
  });
});
