import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, UNKNOWN_VALUE, secret, named } from "../support/providerHost";
import { VolumeInstanceDeletion } from "bunnynet-pulumi/dist/resources/volumeInstanceDeletion.js";

const TYPE = "VolumeInstanceDeletion";
const TOKEN = `pulumi-nodejs:dynamic/bunnynet:${TYPE}`;

describe("pulumi: VolumeInstanceDeletion through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let appId: string;
  let attachedVolumeId: string;
  let detachedVolumeId: string;

  before(async () => {
    emu = await startEmulator();
    appId = String(emu.fixtures.appId);
    attachedVolumeId = String(emu.fixtures.attachedVolumeId);
    detachedVolumeId = String(emu.fixtures.detachedVolumeId);
    host = await ProviderHost.start();
    await host.configure({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  const volume = async (volumeId: string) => (await emu.client().containers.findVolume(appId, volumeId))!;
  const instanceIds = async (volumeId: string) => (await volume(volumeId)).volumeInstances.map((i) => i.id);
  const routes = async () => (await emu.requests()).map((r) => `${r.method} ${r.route}`);

  async function checked(props: Record<string, unknown>) {
    const res = await host.check(TYPE, {}, { appId, ...props });
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  describe("check", () => {
    it("refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, { appId: "", volumeId: 7, detachFirst: "yes", triggers: "again", instanceid: "x" });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["appId", "detachFirst", "instanceId", "instanceid", "triggers", "volumeId"]);
      assert.match(byProperty.instanceid, /unknown property/);
      assert.equal((await emu.requests()).length, 0);
    });

    it("defaults detachFirst to false; triggers may be a map or an array", async () => {
      assert.deepEqual(await checked({ volumeId: "v", instanceId: "i" }), { appId, volumeId: "v", instanceId: "i", detachFirst: false });
      assert.deepEqual((await checked({ volumeId: "v", instanceId: "i", triggers: ["a", 1] })).triggers, ["a", 1]);
      assert.deepEqual((await checked({ volumeId: "v", instanceId: "i", triggers: { image: "v2" } })).triggers, { image: "v2" });
    });
  });

  describe("create runs the deletion", () => {
    it("refuses an instance of an attached volume, naming the volume and detachFirst, without sending a delete or detach", async () => {
      const instanceId = String(emu.fixtures.attachedInstanceId);
      const inputs = await checked({ volumeId: attachedVolumeId, instanceId });
      await emu.markRequests();
      await assert.rejects(host.create(TYPE, inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.match(e.message, new RegExp(`Volume ${attachedVolumeId} \\("api-data"\\) is still attached, so its instance ${instanceId} cannot be deleted\\. Set detachFirst: true`));
        return true;
      });
      assert.deepEqual(await routes(), ["GET /mc/apps/:appId/volumes"]);
      assert.ok((await instanceIds(attachedVolumeId)).includes(instanceId));
    });

    it("deletes an instance of a detached volume, without detaching", async () => {
      const instanceId = String(emu.fixtures.detachedInstanceId);
      const inputs = await checked({ volumeId: detachedVolumeId, instanceId });
      await emu.markRequests();
      const { id, outputs } = await host.create(TYPE, inputs);
      assert.equal(id, instanceId);
      const { deletedAt, ...rest } = outputs;
      assert.deepEqual(rest, { ...inputs, deletedInstanceId: instanceId, detached: false, alreadyGone: false });
      assert.ok(!Number.isNaN(Date.parse(String(deletedAt))));
      assert.deepEqual(await routes(), ["GET /mc/apps/:appId/volumes", "DELETE /mc/apps/:appId/volumes/:volumeId/instances/:instanceId"]);
      assert.ok(!(await instanceIds(detachedVolumeId)).includes(instanceId));
    });

    it("an instance already gone counts as done (alreadyGone), without a delete", async () => {
      const inputs = await checked({ volumeId: detachedVolumeId, instanceId: String(emu.fixtures.detachedInstanceId) });
      await emu.markRequests();
      const { outputs } = await host.create(TYPE, inputs);
      assert.equal(outputs.alreadyGone, true);
      assert.deepEqual(await routes(), ["GET /mc/apps/:appId/volumes"]);
      const missingApp = await checked({ appId: "no-such-app", volumeId: detachedVolumeId, instanceId: "x" });
      assert.equal((await host.create(TYPE, missingApp)).outputs.alreadyGone, true);
    });

    it("a 404 from the delete itself (gone meanwhile) counts as done", async () => {
      const [instanceId] = await instanceIds(detachedVolumeId);
      const inputs = await checked({ volumeId: detachedVolumeId, instanceId });
      // Refused before the route runs: the server's word that the instance is not there.
      await emu.faults({ rules: [{ path: "/instances/", method: "DELETE", errorRate: 1, errorStatus: 404, phase: "before" }] });
      try {
        await emu.markRequests();
        const { outputs } = await host.create(TYPE, inputs);
        assert.deepEqual([outputs.alreadyGone, outputs.detached], [true, false]);
        assert.deepEqual((await emu.requests()).filter((r) => r.method === "DELETE").map((r) => r.status), [404]);
      } finally {
        await emu.clearFaults();
      }
    });

    it("a delete whose answer was lost fails that run; the next run finds the instance gone and counts it done", async () => {
      const [instanceId] = await instanceIds(detachedVolumeId);
      const inputs = await checked({ volumeId: detachedVolumeId, instanceId });
      await emu.faults({ rules: [{ path: "/instances/", method: "DELETE", errorRate: 1, errorStatus: 500, phase: "after" }] });
      try {
        await assert.rejects(host.create(TYPE, inputs), /answered 500/);
      } finally {
        await emu.clearFaults();
      }
      assert.ok(!(await instanceIds(detachedVolumeId)).includes(instanceId), "the server did delete it");
      await emu.markRequests();
      const { outputs } = await host.create(TYPE, inputs);
      assert.equal(outputs.alreadyGone, true);
      assert.deepEqual(await routes(), ["GET /mc/apps/:appId/volumes"]);
    });

    it("with detachFirst, detaches the attached volume and then deletes the instance", async () => {
      const instanceId = String(emu.fixtures.attachedInstanceId);
      const inputs = await checked({ volumeId: attachedVolumeId, instanceId, detachFirst: true });
      await emu.markRequests();
      const { outputs } = await host.create(TYPE, inputs);
      assert.equal(outputs.detached, true);
      assert.equal(outputs.alreadyGone, false);
      assert.deepEqual(await routes(), [
        "GET /mc/apps/:appId/volumes",
        "POST /mc/apps/:appId/volumes/:volumeId/detach",
        "DELETE /mc/apps/:appId/volumes/:volumeId/instances/:instanceId",
      ]);
      const after = await volume(attachedVolumeId);
      assert.ok(!after.volumeInstances.some((i) => i.id === instanceId));
      assert.ok(after.volumeInstances.every((i) => i.status === "detached"));
    });
  });

  describe("after the deletion", () => {
    let done: { id: string; outputs: Record<string, unknown>; inputs: Record<string, unknown> };
    before(async () => {
      const inputs = await checked({ volumeId: detachedVolumeId, instanceId: "gone-already", triggers: { release: "1" } });
      done = { ...(await host.create(TYPE, inputs)), inputs };
    });

    it("diff: detachFirst changes in place; triggers or another instance replace (the same instance: old one first)", async () => {
      const { id, outputs, inputs } = done;
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, detachFirst: true }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, triggers: { release: "2" } }), { changes: "some", replaces: ["triggers"], deleteBeforeReplace: true });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, triggers: UNKNOWN_VALUE }), { changes: "some", replaces: ["triggers"], deleteBeforeReplace: true });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, instanceId: "other" }), { changes: "some", replaces: ["instanceId"], deleteBeforeReplace: false });
    });

    it("update (detachFirst only) and refresh keep the stored outcome and call nothing; delete does nothing, twice", async () => {
      const { id, outputs, inputs } = done;
      await emu.markRequests();
      const updated = await host.update(TYPE, id, outputs, { ...inputs, detachFirst: true });
      assert.deepEqual(updated, { ...outputs, detachFirst: true });
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.equal(read.id, id);
      assert.deepEqual(read.outputs, outputs);
      assert.deepEqual(read.inputs, inputs);
      await host.delete(TYPE, id, outputs);
      await host.delete(TYPE, id, outputs);
      assert.equal((await emu.requests()).length, 0);
    });
  });

  describe("in a program", () => {
    it("runs once, again only when triggers change, keeps its outcome on refresh, and destroy calls nothing", async () => {
      const [instanceId] = await instanceIds(attachedVolumeId);
      const harness = new ProgramHarness({
        config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url },
        secretConfig: ["bunnynet:apiKey"],
      });
      const program = (release: string) => () => {
        new VolumeInstanceDeletion("drop-cache", { appId, volumeId: attachedVolumeId, instanceId, detachFirst: true, triggers: { release } });
      };
      const deletes = async () => (await emu.requests()).filter((r) => r.method === "DELETE").length;
      const volumeReads = async () => (await routes()).filter((r) => r === "GET /mc/apps/:appId/volumes").length;

      await emu.markRequests();
      assert.deepEqual((await harness.up(program("1"))).steps.map((s) => s.op), ["create"]);
      assert.equal(await deletes(), 1);
      const first = harness.resource(TOKEN, "drop-cache")!;
      assert.deepEqual([first.outputs.alreadyGone, first.outputs.deletedInstanceId], [false, instanceId]);

      await emu.markRequests();
      assert.deepEqual((await harness.up(program("1"))).steps.map((s) => s.op), ["same"]);
      assert.equal((await emu.requests()).length, 0);

      await emu.markRequests();
      assert.deepEqual((await harness.up(program("2"))).steps.map((s) => s.op), ["replace"]);
      assert.equal(await volumeReads(), 1, "the deletion ran again");
      assert.equal(harness.resource(TOKEN, "drop-cache")!.outputs.alreadyGone, true);

      await emu.markRequests();
      assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
      assert.deepEqual((await harness.destroy()).map((s) => s.op), ["delete"]);
      assert.equal((await emu.requests()).length, 0);
    });
  });
});
