import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { CommandFailedError, ProgramHarness } from "../support/programHarness";
import { StorageZone } from "bunnynet-pulumi/dist/resources/storageZone.js";
import { PullZone } from "bunnynet-pulumi/dist/resources/pullZone.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";

const TYPE = "StorageZone";

describe("pulumi: StorageZone through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  const uniqueName = () => `pulumi-storage-${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  async function created(extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { name: uniqueName(), region: "DE", ...extra });
    assert.deepEqual(checked.failures, []);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  it("check refuses bad input naming each property, without any API call; the main region among replicas too", async () => {
    await emu.markRequests();
    const res = await host.check(TYPE, {}, { name: "no spaces", region: "de", replicationRegions: ["NY", 3], zoneTier: "Fast", rewrite404To200: "yes", nmae: "typo" });
    const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
    assert.deepEqual(Object.keys(byProperty).sort(), ["name", "nmae", "region", "replicationRegions.1", "rewrite404To200", "zoneTier"]);
    const same = await host.check(TYPE, {}, { name: "ok", region: "DE", replicationRegions: ["DE"] });
    assert.deepEqual(same.failures.map(named).map((f) => f.property), ["replicationRegions"]);
    assert.equal((await emu.requests()).length, 0);
  });

  it("check normalises (regions sorted without repeats, defaults) and leaves unknowns to up", async () => {
    const res = await host.check(TYPE, {}, { name: "a", region: "DE", replicationRegions: ["SG", "NY", "SG"] });
    assert.deepEqual(res.inputs, { name: "a", region: "DE", replicationRegions: ["NY", "SG"], zoneTier: "Standard", rewrite404To200: false, adoptExisting: false });
    const unknown = await host.check(TYPE, {}, { name: UNKNOWN_VALUE, region: "DE", replicationRegions: UNKNOWN_VALUE });
    assert.deepEqual(unknown.failures, []);
  });

  it("creates the zone with its settings; passwords, hostname and id are outputs", async () => {
    const { id, outputs } = await created({ replicationRegions: ["NY"], rewrite404To200: true, custom404FilePath: "/404.html" });
    const real = await emu.client().storageZones.getStorageZone(Number(id));
    assert.equal(outputs.storageZoneId, Number(id));
    assert.equal(outputs.hostname, "storage.bunnycdn.com");
    assert.equal(outputs.password, real.Password);
    assert.equal(outputs.readOnlyPassword, real.ReadOnlyPassword);
    assert.deepEqual(real.ReplicationRegions, ["NY"]);
    assert.equal(real.Rewrite404To200, true);
    assert.equal(real.Custom404FilePath, "/404.html");
  });

  it("diff: adding a replication region is in place, removing one replaces; name, region, tier replace", async () => {
    const { id, outputs, inputs } = await created({ replicationRegions: ["NY"] });
    const diff = (news: Record<string, unknown>) => host.diff(TYPE, id, outputs, { ...inputs, ...news });
    assert.deepEqual(await diff({}), { changes: "none", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ replicationRegions: ["NY", "SG"] }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ replicationRegions: ["SG"] }), { changes: "some", replaces: ["replicationRegions"], deleteBeforeReplace: true });
    assert.deepEqual(await diff({ replicationRegions: UNKNOWN_VALUE }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ rewrite404To200: true }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ name: "other" }), { changes: "some", replaces: ["name"], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ region: "NY" }), { changes: "some", replaces: ["region"], deleteBeforeReplace: true });
    assert.deepEqual(await diff({ zoneTier: "Edge" }), { changes: "some", replaces: ["zoneTier"], deleteBeforeReplace: true });
  });

  it("update adds a region and the 404 settings in place (same id, same passwords)", async () => {
    const { id, outputs, inputs } = await created();
    const updated = await host.update(TYPE, id, outputs, { ...inputs, replicationRegions: ["LA"], rewrite404To200: true });
    assert.deepEqual(updated.replicationRegions, ["LA"]);
    assert.equal(updated.rewrite404To200, true);
    assert.equal(updated.password, outputs.password);
    assert.deepEqual((await emu.client().storageZones.getStorageZone(Number(id))).ReplicationRegions, ["LA"]);
  });

  it("refresh shows drift made outside Pulumi, and a zone deleted outside as gone", async () => {
    const { id, outputs, inputs } = await created();
    await emu.client().storageZones.updateStorageZone(Number(id), { ReplicationZones: ["SG"], Rewrite404To200: true });
    host = await host.nextDeployment(CONFIG());
    const read = await host.read(TYPE, id, outputs, inputs);
    assert.deepEqual(read.inputs, { ...inputs, replicationRegions: ["SG"], rewrite404To200: true });
    // Putting the program back would remove SG: a replacement.
    assert.deepEqual((await host.diff(TYPE, id, read.outputs, inputs)).replaces, ["replicationRegions"]);
    await emu.client().storageZones.deleteStorageZone(Number(id));
    host = await host.nextDeployment(CONFIG());
    assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
  });

  it("delete refuses while a pull zone serves from the zone, naming it (issue 37); deleting again (already gone) succeeds", async () => {
    const { id, outputs, inputs } = await created();
    const pullZone = await emu.client().pullZones.createPullZone({ Name: uniqueName(), OriginType: 2, StorageZoneId: Number(id) });
    await emu.markRequests();
    await assert.rejects(host.delete(TYPE, id, outputs), (e: unknown) => {
      assert.ok(e instanceof HostError);
      assert.match(e.message, new RegExp(`Storage zone ${String(inputs.name)} \\(id ${id}\\) is not deleted: it is the origin of pull zone ${pullZone.Name} \\(id ${pullZone.Id}\\)`));
      return true;
    });
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /storagezone/:id"], "nothing deleted");
    // The original of a replacement (its diff said so in this deployment) goes; its pull zones are never deleted with it.
    assert.deepEqual((await host.diff(TYPE, id, outputs, { ...inputs, region: "NY" })).replaces, ["region"]);
    await host.delete(TYPE, id, outputs);
    await assert.rejects(emu.client().storageZones.getStorageZone(Number(id)), NotFoundError);
    assert.equal((await emu.client().pullZones.getPullZone(pullZone.Id)).Id, pullZone.Id);
    await host.delete(TYPE, id, outputs);
  });

  it("delete of a zone no pull zone uses needs one read and the delete", async () => {
    const { id, outputs } = await created();
    await emu.markRequests();
    await host.delete(TYPE, id, outputs);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /storagezone/:id", "DELETE /storagezone/:id"]);
  });

  it("adoption: refused without adoptExisting; with it, a zone of that name is taken over and given the 404 settings", async () => {
    const name = uniqueName();
    const existing = await emu.client().storageZones.createStorageZone({ Name: name, Region: "DE" });
    host = await host.nextDeployment(CONFIG());
    const plain = await host.check(TYPE, {}, { name, region: "DE" });
    await assert.rejects(host.create(TYPE, plain.inputs), (e: unknown) => e instanceof HostError && /already exists .*adoptExisting: true/.test(e.message));
    const adopting = await host.check(TYPE, {}, { name, region: "DE", rewrite404To200: true, adoptExisting: true });
    const res = await host.create(TYPE, adopting.inputs);
    assert.equal(res.id, String(existing.Id));
    assert.equal((await emu.client().storageZones.getStorageZone(existing.Id)).Rewrite404To200, true);
    const otherRegion = await host.check(TYPE, {}, { name, region: "NY", adoptExisting: true });
    await assert.rejects(host.create(TYPE, otherRegion.inputs), /differs from the inputs in: region/);
  });
});

describe("pulumi: StorageZone and a PullZone on it in a program (up, unchanged up, refresh, destroy)", function () {
  let emu: TestEmulator;
  let host: ProviderHost;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));

  it("deploys in one up, stores the passwords and the token key as secrets, then changes nothing", async () => {
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const program = () => {
      const storage = new StorageZone("files", { name: "program-files", region: "DE" });
      const cdn = new PullZone("cdn", { name: "program-cdn", origin: { storageZoneId: storage.storageZoneId } });
      return { cdnHostname: cdn.cdnHostname, password: storage.password };
    };
    const first = await harness.up(program);
    assert.deepEqual(first.steps.map((s) => s.op), ["create", "create"]);
    assert.equal(first.outputs.cdnHostname, "program-cdn.b-cdn.net");
    const storage = harness.resource("pulumi-nodejs:dynamic/bunnynet:StorageZone", "files")!;
    const cdn = harness.resource("pulumi-nodejs:dynamic/bunnynet:PullZone", "cdn")!;
    assert.ok(storage.secretKeys.includes("password") && storage.secretKeys.includes("readOnlyPassword"), String(storage.secretKeys));
    assert.ok(cdn.secretKeys.includes("tokenAuthKey"), String(cdn.secretKeys));
    assert.equal((await emu.client().pullZones.getPullZone(Number(cdn.id))).StorageZoneId, Number(storage.id));

    await emu.markRequests();
    const again = await harness.up(program);
    assert.deepEqual(again.steps.map((s) => s.op), ["same", "same"]);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), [], "an unchanged up writes nothing");
    const refreshed = await harness.refresh();
    assert.deepEqual(refreshed.map((s) => s.op), ["refresh", "refresh"]);
    assert.deepEqual((await harness.preview(program)).steps.map((s) => s.op), ["same", "same"], "no drift after refresh");

    await harness.destroy();
    await assert.rejects(emu.client().pullZones.getPullZone(Number(cdn.id)), NotFoundError);
    await assert.rejects(emu.client().storageZones.getStorageZone(Number(storage.id)), NotFoundError);
  });

  it("removing the StorageZone while a PullZone still serves from it fails the up naming the pull zone, and deletes nothing (issue 37)", async () => {
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    await harness.up(() => {
      const storage = new StorageZone("files", { name: "in-use-files", region: "DE" });
      new PullZone("cdn", { name: "in-use-cdn", origin: { storageZoneId: storage.storageZoneId } });
    });
    const storageId = Number(harness.resource("pulumi-nodejs:dynamic/bunnynet:StorageZone", "files")!.id);
    const cdnId = Number(harness.resource("pulumi-nodejs:dynamic/bunnynet:PullZone", "cdn")!.id);
    // The storage zone leaves the program; the pull zone keeps its id (written down, as a user might).
    const withoutStorage = () => void new PullZone("cdn", { name: "in-use-cdn", origin: { storageZoneId: storageId } });
    await assert.rejects(harness.up(withoutStorage), (e: unknown) => {
      assert.ok(e instanceof CommandFailedError);
      assert.match(e.message, /Storage zone in-use-files \(id \d+\) is not deleted: it is the origin of pull zone in-use-cdn \(id \d+\), which would be left serving from a zone that is gone/);
      return true;
    });
    assert.equal((await emu.client().storageZones.getStorageZone(storageId)).Id, storageId, "the storage zone is still there");
    assert.equal((await emu.client().pullZones.getPullZone(cdnId)).StorageZoneId, storageId, "and still the pull zone's origin");
    assert.ok(harness.resource("pulumi-nodejs:dynamic/bunnynet:StorageZone", "files"), "and still in the state");
    // Once the pull zone serves from elsewhere, the zone goes.
    const run = await harness.up(() => void new PullZone("cdn", { name: "in-use-cdn", origin: { url: "https://origin.example.com" } }));
    assert.deepEqual(run.steps.map((s) => s.op).sort(), ["delete", "update"]);
    await assert.rejects(emu.client().storageZones.getStorageZone(storageId), NotFoundError);
    await harness.destroy();
  });

  it("a region change replaces the zone under its pull zone (the old one deleted first), and the pull zone moves to the new one", async () => {
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const program = (region: "DE" | "NY") => () => {
      const storage = new StorageZone("files", { name: "moving-files", region });
      new PullZone("cdn", { name: "moving-cdn", origin: { storageZoneId: storage.storageZoneId } });
    };
    await harness.up(program("DE"));
    const before = Number(harness.resource("pulumi-nodejs:dynamic/bunnynet:StorageZone", "files")!.id);
    const run = await harness.up(program("NY"));
    assert.deepEqual(run.steps.map((s) => `${s.urn.split("::").pop()} ${s.op}`).sort(), ["cdn update", "files replace"]);
    const after = Number(harness.resource("pulumi-nodejs:dynamic/bunnynet:StorageZone", "files")!.id);
    assert.notEqual(after, before);
    const cdnId = Number(harness.resource("pulumi-nodejs:dynamic/bunnynet:PullZone", "cdn")!.id);
    assert.equal((await emu.client().pullZones.getPullZone(cdnId)).StorageZoneId, after);
    await assert.rejects(emu.client().storageZones.getStorageZone(before), NotFoundError);
    await harness.destroy();
  });
});
