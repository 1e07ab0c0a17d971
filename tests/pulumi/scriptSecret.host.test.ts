import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import type { TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, named, secret, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";

const TYPE = "ScriptSecret";

/**
 * ScriptSecret through the SDK's provider host: a write-only value (never read back, never in the emulator's
 * request log), updates in place, refresh that notices a secret changed, deleted, or deleted and recreated
 * outside Pulumi, adoption that writes the value, and names shared with variables refused both ways.
 */
describe("pulumi: ScriptSecret through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let scriptId: number;
  let counter = 0;
  const uniqueName = () => `PULUMI_SECRET_${++counter}`;
  const uniqueValue = () => `s3cr3t-value-${counter}-${Math.random().toString(36).slice(2)}`;
  const values: string[] = [];

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    scriptId = Number(emu.fixtures.scriptId);
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  const secrets = () => emu.client().edgeScripts.listSecrets(scriptId);

  async function checked(props: Record<string, unknown>) {
    const res = await host.check(TYPE, {}, props);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  async function created(extra: Record<string, unknown> = {}) {
    const value = uniqueValue();
    values.push(value);
    const inputs = await checked({ scriptId, name: uniqueName(), value: secret(value), ...extra });
    const res = await host.create(TYPE, inputs);
    return { ...res, inputs, value };
  }

  it("check refuses bad input naming each property, without an API call and without echoing the value", async () => {
    await emu.markRequests();
    const long = "k".repeat(4097);
    const res = await host.check(TYPE, {}, { scriptId: "abc", name: "", value: secret(long), vaule: "typo" });
    const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
    assert.deepEqual(Object.keys(byProperty).sort(), ["name", "scriptId", "value", "vaule"]);
    assert.ok(!JSON.stringify(res.failures).includes("kkkk"));
    const missing = await host.check(TYPE, {}, { scriptId, name: "X" });
    assert.deepEqual(missing.failures.map(named).map((f) => f.property), ["value"]);
    assert.equal((await emu.requests()).length, 0);
  });

  it("creates the secret: id and LastModified as outputs, the value stored only under `value`", async () => {
    const { id, outputs, inputs } = await created();
    const real = (await secrets()).find((s) => s.Name === inputs.name)!;
    assert.equal(id, String(real.Id));
    assert.deepEqual(outputs, { ...inputs, secretId: real.Id, lastModified: real.LastModified });
  });

  it("a new value updates in place and moves LastModified; the name replaces", async () => {
    const { id, outputs, inputs } = await created();
    const changed = { ...inputs, value: uniqueValue() };
    values.push(String(changed.value));
    assert.deepEqual(await host.diff(TYPE, id, outputs, changed), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual((await host.diff(TYPE, id, outputs, { ...inputs, name: "OTHER" })).replaces, ["name"]);
    const updated = await host.update(TYPE, id, outputs, changed);
    assert.equal(updated.secretId, outputs.secretId);
    assert.notEqual(updated.lastModified, outputs.lastModified);
    assert.equal(updated.value, changed.value);
  });

  it("refresh: unchanged keeps the value; changed outside Pulumi leaves it unknown (the next up writes it again); deleted is gone", async () => {
    const { id, outputs, inputs } = await created();
    const same = await host.read(TYPE, id, outputs, inputs);
    assert.deepEqual(same.outputs, outputs);

    await emu.client().edgeScripts.updateSecret(scriptId, Number(id), "set in the dashboard");
    host = await host.nextDeployment(CONFIG());
    const drifted = await host.read(TYPE, id, outputs, inputs);
    assert.equal(drifted.id, id);
    assert.equal(drifted.inputs!.value, undefined, "the value is no longer known");
    assert.equal((await host.diff(TYPE, id, drifted.outputs, inputs)).changes, "some");
    const fixed = await host.update(TYPE, id, drifted.outputs, inputs);
    assert.equal(fixed.value, inputs.value);

    await emu.client().edgeScripts.deleteSecret(scriptId, Number(id));
    host = await host.nextDeployment(CONFIG());
    assert.equal((await host.read(TYPE, id, fixed, inputs)).id, "");
  });

  it("refresh of a secret deleted and recreated outside Pulumi shows the new one, with its value unknown", async () => {
    const { id, outputs, inputs } = await created();
    await emu.client().edgeScripts.deleteSecret(scriptId, Number(id));
    const recreated = await emu.client().edgeScripts.addSecret(scriptId, { Name: String(inputs.name), Secret: "someone else's" });
    host = await host.nextDeployment(CONFIG());
    const read = await host.read(TYPE, id, outputs, inputs);
    assert.equal(read.id, String(recreated.Id));
    assert.equal(read.inputs!.value, undefined);
    assert.equal((await host.diff(TYPE, read.id, read.outputs, inputs)).changes, "some");
  });

  it("delete removes the secret; deleting it again succeeds", async () => {
    const { id, outputs, inputs } = await created();
    await host.delete(TYPE, id, outputs);
    assert.ok(!(await secrets()).some((s) => s.Name === inputs.name));
    await host.delete(TYPE, id, outputs);
  });

  it("an existing secret is refused without adoptExisting; with it, it is adopted and the program's value written", async () => {
    const name = uniqueName();
    const existing = await emu.client().edgeScripts.addSecret(scriptId, { Name: name, Secret: "old" });
    host = await host.nextDeployment(CONFIG());
    const value = uniqueValue();
    values.push(value);
    const inputs = await checked({ scriptId, name, value: secret(value) });
    await assert.rejects(host.create(TYPE, inputs), (e: unknown) => e instanceof HostError && /ScriptSecret scriptId=\d+, name="PULUMI_SECRET_\d+" already exists .*set adoptExisting: true/.test(e.message));
    // The next `pulumi up`, with adoptExisting set.
    host = await host.nextDeployment(CONFIG());
    await emu.markRequests();
    const adopted = await host.create(TYPE, { ...inputs, adoptExisting: true });
    assert.equal(adopted.id, String(existing.Id));
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /compute/script/:id/secrets", "POST /compute/script/:id/secrets/:secretId"], "the value is written");
    assert.notEqual(adopted.outputs.lastModified, existing.LastModified);
  });

  it("a create reads the script (its type and variables) at once with its look-up (the secrets), not after it: two round trips in a row", async () => {
    // The look-up is held back: sent together, the script's read is answered first; sent after it, it could only follow.
    await emu.faults({ rules: [{ path: "^/compute/script/\\d+/secrets$", method: "GET", latencyMs: 1500 }] });
    try {
      host = await host.nextDeployment(CONFIG());
      await emu.markRequests();
      await created();
      const routes = (await emu.requests()).map((r) => `${r.method} ${r.route}`);
      assert.deepEqual(routes, ["GET /compute/script/:id", "GET /compute/script/:id/secrets", "POST /compute/script/:id/secrets"]);
    } finally {
      await emu.clearFaults();
    }
  });

  it("a name used by a variable of the script is refused, and a variable cannot take a secret's name", async () => {
    const inputs = await checked({ scriptId, name: "API_BASE_URL", value: secret("x") });
    await assert.rejects(host.create(TYPE, inputs), /API_BASE_URL is a variable of edge script \d+: a secret cannot have the name of a variable/);
    const { inputs: made } = await created();
    const variable = await host.check("ScriptVariable", {}, { scriptId, name: made.name });
    await assert.rejects(host.create("ScriptVariable", variable.inputs), /PULUMI_SECRET_\d+ is a secret of edge script \d+: a variable cannot have the name of a secret/);
    // The emulator refuses both too, for a client that does not look first.
    await assert.rejects(emu.client().edgeScripts.addVariable(scriptId, { Name: String(made.name), Required: false }), /edgescript\.name_in_use/);
  });

  it("no value is in the emulator's whole request log, in a listing, or in the host's output", async () => {
    const { id, outputs, inputs } = await created();
    await host.read(TYPE, id, outputs, inputs);
    await host.delete(TYPE, id, outputs);
    const log = JSON.stringify(emu.emulator.ctx.requestLog.since(0));
    assert.ok(log.includes("/secrets"), "the log has the secret requests");
    const listed = JSON.stringify(await secrets());
    for (const value of values) {
      assert.ok(!log.includes(value), "a value in the request log");
      assert.ok(!listed.includes(value), "a value in a listing");
      assert.ok(!host.logs().includes(value), "a value in the host's output");
    }
    assert.ok(values.length >= 5);
  });

  it("a value the program passes as a plain string is still stored as a secret (inputs and outputs)", async () => {
    const harness = new ProgramHarness({ project: "secret-test", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    await harness.up(() => ({ id: new bunnynet.ScriptSecret("plain", { scriptId, name: uniqueName(), value: "given-in-plain-text" }).secretId }));
    const [stored] = harness.resources();
    assert.deepEqual(stored.secretKeys, ["value"]);
    await harness.destroy();
  });
});
