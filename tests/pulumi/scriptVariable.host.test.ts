import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, ProviderHost, UNKNOWN_VALUE, providerText, secret, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { MISSING_KEY_HELP } from "bunnynet-pulumi/dist/settings.js";

const TYPE = "ScriptVariable";

describe("pulumi: ScriptVariable through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let scriptId: number;
  let counter = 0;
  const uniqueName = () => `PULUMI_VAR_${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    scriptId = Number(emu.fixtures.scriptId);
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  async function created(extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { scriptId, name: uniqueName(), ...extra });
    assert.deepEqual(checked.failures, []);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  describe("check", () => {
    it("refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, { scriptId: "abc", name: "", required: "yes", defaultValue: "x".repeat(4097), nmae: "typo" });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["defaultValue", "name", "nmae", "required", "scriptId"]);
      assert.match(byProperty.nmae, /unknown property/);
      assert.match(byProperty.name, /must not be empty/);
      assert.equal((await emu.requests()).length, 0);
    });

    it("normalises inputs: numeric-string scriptId, default required=false, adoptExisting=false, empty defaultValue unset", async () => {
      const res = await host.check(TYPE, {}, { scriptId: String(scriptId), name: "A", defaultValue: "" });
      assert.deepEqual(res.failures, []);
      assert.deepEqual(res.inputs, { scriptId, name: "A", required: false, adoptExisting: false });
    });

    it("passes values not known yet at preview through unjudged", async () => {
      const res = await host.check(TYPE, {}, { scriptId: UNKNOWN_VALUE, name: "B", required: true });
      assert.deepEqual(res.failures, []);
      assert.deepEqual(res.inputs, { scriptId: UNKNOWN_VALUE, name: "B", required: true, adoptExisting: false });
    });
  });

  describe("life cycle", () => {
    it("creates the variable with the requested values", async () => {
      const { id, outputs, inputs } = await created({ required: true, defaultValue: "v1" });
      assert.deepEqual(outputs, { ...inputs, variableId: Number(id) });
      const real = await emu.client().edgeScripts.getVariable(scriptId, Number(id));
      assert.deepEqual(real, { Id: Number(id), Name: inputs.name, Required: true, DefaultValue: "v1" });
    });

    it("diff: defaultValue and required change in place; name or scriptId replace (no delete first: no collision)", async () => {
      const { id, outputs, inputs } = await created({ defaultValue: "a" });
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, adoptExisting: true }), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, defaultValue: "b", required: true }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, name: "RENAMED" }), { changes: "some", replaces: ["name"], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, scriptId: 999 }), { changes: "some", replaces: ["scriptId"], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, name: UNKNOWN_VALUE }), { changes: "some", replaces: ["name"], deleteBeforeReplace: false });
    });

    it("update changes defaultValue and required in place, and removing defaultValue clears it", async () => {
      const { id, outputs, inputs } = await created({ defaultValue: "before" });
      await emu.markRequests();
      const updated = await host.update(TYPE, id, outputs, { ...inputs, defaultValue: "after", required: true });
      assert.equal(updated.defaultValue, "after");
      assert.equal(updated.required, true);
      assert.equal(updated.variableId, Number(id));
      const calls = await emu.requests();
      assert.deepEqual(calls.map((c) => `${c.method} ${c.route}`), ["POST /compute/script/:id/variables/:variableId"]);
      const { defaultValue: _removed, ...withoutDefault } = inputs;
      const cleared = await host.update(TYPE, id, updated, { ...withoutDefault, required: true });
      assert.equal(cleared.defaultValue, undefined);
      assert.equal((await emu.client().edgeScripts.getVariable(scriptId, Number(id))).DefaultValue, null);
    });

    it("refresh after a change outside Pulumi returns the real values and refreshed inputs", async () => {
      const { id, outputs, inputs } = await created({ defaultValue: "mine" });
      await emu.client().edgeScripts.updateVariable(scriptId, Number(id), { DefaultValue: "theirs", Required: true });
      host = await host.nextDeployment(CONFIG());
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.equal(read.id, id);
      assert.equal(read.outputs.defaultValue, "theirs");
      assert.equal(read.outputs.required, true);
      assert.deepEqual(read.inputs, { ...inputs, defaultValue: "theirs", required: true });
      // The next deployment of the unchanged program sees the drift as an in-place change back.
      assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
    });

    it("refresh after a delete outside Pulumi reports it gone (no id)", async () => {
      const { id, outputs, inputs } = await created();
      await emu.client().edgeScripts.deleteVariable(scriptId, Number(id));
      host = await host.nextDeployment(CONFIG());
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.equal(read.id, "");
    });

    it("delete removes the variable, and deleting it again succeeds", async () => {
      const { id, outputs } = await created();
      await host.delete(TYPE, id, outputs);
      await assert.rejects(emu.client().edgeScripts.getVariable(scriptId, Number(id)), NotFoundError);
      await host.delete(TYPE, id, outputs);
    });
  });

  describe("adoption instead of import", () => {
    it("without adoptExisting, create refuses an existing variable and says how to adopt it", async () => {
      const name = uniqueName();
      await emu.client().edgeScripts.addVariable(scriptId, { Name: name, Required: false, DefaultValue: "x" });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { scriptId, name, defaultValue: "x" });
      await assert.rejects(host.create(TYPE, checked.inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.match(e.message, new RegExp(`ScriptVariable scriptId=${scriptId}, name="${name}" already exists .*set adoptExisting: true`));
        return true;
      });
    });

    it("with adoptExisting, create takes over a variable that matches exactly", async () => {
      const name = uniqueName();
      const existing = await emu.client().edgeScripts.addVariable(scriptId, { Name: name, Required: true, DefaultValue: "same" });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { scriptId, name, required: true, defaultValue: "same", adoptExisting: true });
      await emu.markRequests();
      const res = await host.create(TYPE, checked.inputs);
      assert.equal(res.id, String(existing.Id));
      assert.ok(!(await emu.requests()).some((r) => r.method === "POST"), "nothing was created or changed");
    });

    it("with adoptExisting, a variable that differs is refused, naming the properties but not their values", async () => {
      const name = uniqueName();
      await emu.client().edgeScripts.addVariable(scriptId, { Name: name, Required: false, DefaultValue: "their-secret" });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { scriptId, name, required: true, defaultValue: "my-secret", adoptExisting: true });
      await assert.rejects(host.create(TYPE, checked.inputs), (e: unknown) => {
        assert.match(String(e), /differs from the inputs in: required, defaultValue/);
        assert.doesNotMatch(String(e), /secret/);
        return true;
      });
    });
  });

  describe("round trips in a row", () => {
    afterEach(() => emu.clearFaults());

    it("a create reads the script's secrets at once with its look-up (the script), not after it: two round trips in a row", async () => {
      // The look-up is held back: sent together, the secrets' read is answered first; sent after it, it could only follow.
      await emu.faults({ rules: [{ path: "^/compute/script/\\d+$", method: "GET", latencyMs: 1500 }] });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { scriptId, name: uniqueName() });
      await emu.markRequests();
      await host.create(TYPE, checked.inputs);
      const routes = (await emu.requests()).map((r) => `${r.method} ${r.route}`);
      assert.deepEqual(routes, ["GET /compute/script/:id/secrets", "GET /compute/script/:id", "POST /compute/script/:id/variables/add"]);
    });

    it("when the script is missing, both reads fail and the look-up's failure (the script's) is the one reported", async () => {
      await assert.rejects(host.create(TYPE, { scriptId: 424243, name: "X", required: false, adoptExisting: false }), (e: unknown) => {
        assert.match(String(e), /there is no edge script 424243 in this account \(GET \/compute\/script\/424243 answered 404/);
        assert.doesNotMatch(String(e), /secrets/);
        return true;
      });
    });
  });

  describe("create after an ambiguous failure", () => {
    afterEach(() => emu.clearFaults());

    it("a create whose answer was lost (500 after the server acted) is found, not repeated", async () => {
      const name = uniqueName();
      await emu.faults({ rules: [{ path: "/variables/add$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after" }] });
      const checked = await host.check(TYPE, {}, { scriptId, name });
      await emu.markRequests();
      const res = await host.create(TYPE, checked.inputs);
      const adds = (await emu.requests()).filter((r) => r.route.endsWith("/variables/add"));
      assert.equal(adds.length, 1);
      const script = await emu.client().edgeScripts.getScript(scriptId);
      assert.deepEqual(script.EdgeScriptVariables.filter((v) => v.Name === name).map((v) => String(v.Id)), [res.id]);
    });

    it("a create refused before the server acted is tried again after checking, then fails with the server's error", async () => {
      await emu.faults({ rules: [{ path: "/variables/add$", method: "POST", errorRate: 1, errorStatus: 500, phase: "before" }] });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { scriptId, name: uniqueName() });
      await emu.markRequests();
      await assert.rejects(host.create(TYPE, checked.inputs), /answered 500/);
      const routes = (await emu.requests()).map((r) => `${r.method} ${r.route}`);
      assert.equal(routes.filter((r) => r.endsWith("/variables/add")).length, 3);
      assert.equal(routes.filter((r) => r === "GET /compute/script/:id").length, 4, "a look-up before the first attempt and after each failure");
    });
  });

  describe("credentials", () => {
    it("the access key is in no provider text, output, error or host log", async () => {
      const key = emu.fixtures.accessKey;
      const text = await providerText(TYPE);
      assert.ok(!text.includes(key));
      const { id, outputs } = await created({ defaultValue: "v" });
      assert.ok(!JSON.stringify(outputs).includes(key));
      const read = await host.read(TYPE, id, outputs);
      assert.ok(!JSON.stringify(read).includes(key));
      await assert.rejects(host.create(TYPE, { scriptId: 424242, name: "X", required: false, adoptExisting: false }), (e: unknown) => {
        assert.match(String(e), /answered 404/);
        assert.ok(!String(e).includes(key));
        return true;
      });
      assert.ok(!host.logs().includes(key));
    });

    it("with no bunnynet:* config, the host falls back to BUNNYNET_* environment variables", async () => {
      const envHost = await ProviderHost.start({ env: { BUNNYNET_API_KEY: emu.fixtures.accessKey, BUNNYNET_API_URL: emu.url } });
      try {
        await envHost.configure({ "other:setting": "x" });
        const checked = await envHost.check(TYPE, {}, { scriptId, name: uniqueName() });
        const res = await envHost.create(TYPE, checked.inputs);
        assert.match(res.id, /^\d+$/);
      } finally {
        await envHost.stop();
      }
    });

    it("a wrong key is refused with 401, and neither the error nor the log contains it", async () => {
      const wrong = "wrong-key-0123456789";
      const wrongHost = await ProviderHost.start();
      try {
        await wrongHost.configure({ "bunnynet:apiKey": secret(wrong), "bunnynet:apiUrl": emu.url });
        const checked = await wrongHost.check(TYPE, {}, { scriptId, name: uniqueName() });
        await assert.rejects(wrongHost.create(TYPE, checked.inputs), (e: unknown) => {
          // Which key (its last four characters), from where, and the fix in stack config's words.
          assert.match(
            String(e),
            /answered 401[^\n]*\. The API key ending in 6789 from stack config bunnynet:apiKey was refused: set the account's API key with `pulumi config set --secret bunnynet:apiKey <key>`/,
          );
          assert.ok(!String(e).includes(wrong));
          return true;
        });
        assert.ok(!wrongHost.logs().includes(wrong));
      } finally {
        await wrongHost.stop();
      }
    });

    it("without any key, check refuses at preview with the fix, and create says it too", async () => {
      const bare = await ProviderHost.start();
      try {
        await bare.configure({ "bunnynet:apiUrl": emu.url });
        await emu.markRequests();
        const inputs = { scriptId, name: uniqueName() };
        const checked = await bare.check(TYPE, {}, inputs);
        assert.deepEqual(checked.failures, [{ property: "", reason: MISSING_KEY_HELP }]);
        assert.match(MISSING_KEY_HELP, /pulumi config set --secret bunnynet:apiKey <key>/);
        await assert.rejects(bare.create(TYPE, inputs), (e: unknown) => String(e).includes(MISSING_KEY_HELP));
        assert.deepEqual(await emu.requests(), []);
      } finally {
        await bare.stop();
      }
    });
  });
});
