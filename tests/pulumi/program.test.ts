import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { providerText } from "../support/providerHost";
import { ScriptVariable } from "bunnynet-pulumi/dist/resources/scriptVariable.js";
import { RateLimitRule, type RateLimitRuleArgs } from "bunnynet-pulumi/dist/resources/rateLimitRule.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";

const TOKEN = "pulumi-nodejs:dynamic/bunnynet:ScriptVariable";

/** Resolves an Output in a mocked program, with its secretness. */
function settle<T>(o: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  return new Promise((resolve) => pulumi.all([o, pulumi.isSecret(o)]).apply(([value, secret]) => resolve({ value: value as T, secret })));
}

describe("pulumi: a program with ScriptVariable deployed, changed, refreshed and destroyed in-process", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;
  let scriptId: number;

  before(async () => {
    emu = await startEmulator();
    scriptId = Number(emu.fixtures.scriptId);
    harness = new ProgramHarness({
      config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" },
      secretConfig: ["bunnynet:apiKey"],
    });
  });
  after(() => emu?.stop());

  const variables = async () => (await emu.client().edgeScripts.getScript(scriptId)).EdgeScriptVariables;

  let created!: ScriptVariable;
  const program = (settings: { name: string; required: boolean; defaultValue: string }) => () => {
    created = new ScriptVariable("greeting", { scriptId, name: settings.name, required: settings.required, defaultValue: pulumi.secret(settings.defaultValue) });
    return { variableId: created.variableId, name: created.name };
  };

  it("up creates the variable; a secret input stays secret in the outputs", async () => {
    const run = await harness.up(program({ name: "GREETING", required: false, defaultValue: "hello" }));
    assert.deepEqual(run.steps.map((s) => s.op), ["create"]);
    const stored = harness.resource(TOKEN, "greeting")!;
    assert.equal(run.outputs.variableId, Number(stored.id));
    assert.equal(run.outputs.name, "GREETING");
    const real = (await variables()).find((v) => v.Name === "GREETING");
    assert.deepEqual(real, { Id: Number(stored.id), Name: "GREETING", Required: false, DefaultValue: "hello" });
    assert.deepEqual(await settle(created.defaultValue), { value: "hello", secret: true });
    assert.deepEqual(await settle(created.required), { value: false, secret: false });
  });

  it("up with the same program changes nothing", async () => {
    await emu.markRequests();
    const run = await harness.up(program({ name: "GREETING", required: false, defaultValue: "hello" }));
    assert.deepEqual(run.steps.map((s) => s.op), ["same"]);
    assert.ok(!(await emu.requests()).some((r) => r.method !== "GET"));
  });

  it("up with a new default value and required updates in place (same id)", async () => {
    const before = harness.resource(TOKEN, "greeting")!.id;
    const run = await harness.up(program({ name: "GREETING", required: true, defaultValue: "bonjour" }));
    assert.deepEqual(run.steps.map((s) => s.op), ["update"]);
    assert.equal(harness.resource(TOKEN, "greeting")!.id, before);
    assert.deepEqual((await emu.client().edgeScripts.getVariable(scriptId, Number(before))).DefaultValue, "bonjour");
  });

  it("up with a new name replaces the variable: the new one exists, the old one is gone", async () => {
    const old = harness.resource(TOKEN, "greeting")!.id;
    const run = await harness.up(program({ name: "SALUTATION", required: true, defaultValue: "bonjour" }));
    assert.deepEqual(run.steps.map((s) => s.op), ["replace"]);
    const names = (await variables()).map((v) => v.Name);
    assert.ok(names.includes("SALUTATION"));
    assert.ok(!names.includes("GREETING"));
    await assert.rejects(emu.client().edgeScripts.getVariable(scriptId, Number(old)), NotFoundError);
  });

  it("refresh takes a change made outside Pulumi; the next up puts the program's values back", async () => {
    const r = harness.resource(TOKEN, "greeting")!;
    await emu.client().edgeScripts.updateVariable(scriptId, Number(r.id), { DefaultValue: "changed outside", Required: false });
    const steps = await harness.refresh();
    assert.deepEqual(steps.map((s) => s.op), ["refresh"]);
    assert.equal(harness.resource(TOKEN, "greeting")!.outputs.defaultValue, "changed outside");
    assert.equal(harness.resource(TOKEN, "greeting")!.inputs.defaultValue, "changed outside");
    const run = await harness.up(program({ name: "SALUTATION", required: true, defaultValue: "bonjour" }));
    assert.deepEqual(run.steps.map((s) => s.op), ["update"]);
    assert.equal((await emu.client().edgeScripts.getVariable(scriptId, Number(r.id))).DefaultValue, "bonjour");
  });

  it("refresh after a delete outside Pulumi drops the resource from the state; up creates it again", async () => {
    const r = harness.resource(TOKEN, "greeting")!;
    await emu.client().edgeScripts.deleteVariable(scriptId, Number(r.id));
    assert.deepEqual((await harness.refresh()).map((s) => s.op), ["gone"]);
    assert.equal(harness.resources().length, 0);
    const run = await harness.up(program({ name: "SALUTATION", required: true, defaultValue: "bonjour" }));
    assert.deepEqual(run.steps.map((s) => s.op), ["create"]);
  });

  it("a check failure stops the run before any API call and names the property", async () => {
    await emu.markRequests();
    await assert.rejects(
      harness.up(() => {
        new ScriptVariable("bad", { scriptId, name: "" });
      }),
      /ScriptVariable resource 'bad's property 'name' value \{\} has a problem: must not be empty/,
    );
    assert.equal((await emu.requests()).length, 0);
  });

  it("a nested check failure names its path in the reason, never as `value {<nil>}`", async () => {
    const configuration = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/api", requestCount: 10, timeframe: "PerSixtyOneSeconds", blockTime: "ForOneMinute" };
    await emu.markRequests();
    await assert.rejects(
      harness.up(() => {
        new RateLimitRule("nested", { shieldZoneId: 1, name: "r", configuration } as unknown as RateLimitRuleArgs);
      }),
      (e: unknown) => {
        assert.match(String(e), /RateLimitRule resource 'nested' has a problem: configuration\.timeframe: /);
        assert.doesNotMatch(String(e), /<nil>/);
        return true;
      },
    );
    assert.equal((await emu.requests()).length, 0);
  });

  it("without an API key anywhere, preview refuses at check with the fix (no API call)", async () => {
    // A plugin process of its own (it inherits no BUNNYNET_* variable), configured without a key.
    const keyless = new ProgramHarness({ config: { "bunnynet:apiUrl": emu.url }, hostPerCommand: {} });
    await emu.markRequests();
    await assert.rejects(keyless.preview(program({ name: "NO_KEY", required: false, defaultValue: "x" })), (e: unknown) => {
      assert.match(String(e), /ScriptVariable resource 'greeting' has a problem: No bunny\.net API key: set it with `pulumi config set --secret bunnynet:apiKey <key>` \(or export BUNNYNET_API_KEY in the environment of the Pulumi program\)\./);
      return true;
    });
    assert.equal((await emu.requests()).length, 0);
  });

  it("destroy deletes every variable the stack created", async () => {
    const id = harness.resource(TOKEN, "greeting")!.id;
    assert.deepEqual((await harness.destroy()).map((s) => s.op), ["delete"]);
    await assert.rejects(emu.client().edgeScripts.getVariable(scriptId, Number(id)), NotFoundError);
    assert.equal(harness.resources().length, 0);
  });

  it("the access key appears in no state: not in inputs, outputs or provider text", () => {
    // The state after destroy is empty; deploy once more to inspect a full state.
    return harness.up(program({ name: "KEYCHECK", required: false, defaultValue: "v" })).then(async (run) => {
      const everything = JSON.stringify({ state: harness.resources(), outputs: run.outputs });
      assert.ok(!everything.includes(emu.fixtures.accessKey));
      // What the program registered is the very text the provider-host tests send.
      assert.equal(harness.resources()[0].providerText, await providerText("ScriptVariable"));
      await harness.destroy();
    });
  });
});
