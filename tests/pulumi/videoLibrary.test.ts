import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { ProgramHarness } from "../support/programHarness";

const TYPE = "VideoLibrary";
const TOKEN = `pulumi-nodejs:dynamic/bunnynet:${TYPE}`;
type Plain = Record<string, unknown>;
const none = { changes: "none", replaces: [], deleteBeforeReplace: false };
const inPlace = { changes: "some", replaces: [], deleteBeforeReplace: false };

describe("pulumi: VideoLibrary through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const uniqueName = () => `host library ${++counter}`;

  async function checked(news: Plain): Promise<Plain> {
    const res = await host.check(TYPE, {}, news);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }
  async function created(news: Plain) {
    const inputs = await checked(news);
    return { ...(await host.create(TYPE, inputs)), inputs };
  }

  it("refuses bad input naming the property, without a single API call; unknown values pass at preview", async () => {
    const bad: { news: Plain; property: string }[] = [
      { news: {}, property: "name" },
      { news: { name: "" }, property: "name" },
      { news: { name: "v", replicationRegions: ["Frankfurt"] }, property: "replicationRegions.0" },
      { news: { name: "v", enabledResolutions: ["720p", "4k"] }, property: "enabledResolutions" },
      { news: { name: "v", enabledResolutions: [] }, property: "enabledResolutions" },
      { news: { name: "v", outputCodecs: ["mpeg2"] }, property: "outputCodecs" },
      { news: { name: "v", playerControls: ["rewind"] }, property: "playerControls" },
      { news: { name: "v", encodingTier: "Gold" }, property: "encodingTier" },
      { news: { name: "v", bitrate720p: 2.5 }, property: "bitrate720p" },
      { news: { name: "v", apiKey: "mine" }, property: "apiKey" },
    ];
    await emu.markRequests();
    for (const b of bad) {
      const res = await host.check(TYPE, {}, b.news);
      assert.deepEqual(res.failures.map(named).map((f) => f.property), [b.property], JSON.stringify(b.news));
    }
    assert.deepEqual(await emu.requests(), []);
    assert.deepEqual((await host.check(TYPE, {}, { name: UNKNOWN_VALUE, encodingTier: "Premium" })).failures, []);
  });

  it("creates in one call when only create-model settings are given; the keys are outputs; an unchanged program shows no diff", async () => {
    const name = uniqueName();
    await emu.markRequests();
    const { id, outputs, inputs } = await created({ name, replicationRegions: ["NY"], encodingTier: "Premium", enabledResolutions: ["720p", "1080p"] });
    // The look-up of a library of that name (adoption), then the create.
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /videolibrary", "POST /videolibrary"]);
    const library = await emu.client().videoLibraries.get(id);
    assert.equal(outputs.libraryId, Number(id));
    assert.equal(outputs.apiKey, library.ApiKey);
    assert.equal(outputs.readOnlyApiKey, library.ReadOnlyApiKey);
    assert.deepEqual(outputs.enabledResolutions, ["720p", "1080p"]);
    assert.equal(library.EnabledResolutions, "720p,1080p");
    assert.equal(outputs.keepOriginalFiles, undefined);
    assert.equal((outputs.settings as Plain).keepOriginalFiles, true);
    assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), none);
  });

  it("settings only the update model has are set by a second call at create", async () => {
    await emu.markRequests();
    const { id } = await created({ name: uniqueName(), webhookUrl: "https://hooks.example/v", playerControls: ["play", "progress"] });
    assert.deepEqual((await emu.requests()).filter((r) => r.method === "POST").map((r) => r.route), ["/videolibrary", "/videolibrary/:id"]);
    const library = await emu.client().videoLibraries.get(id);
    assert.equal(library.WebhookUrl, "https://hooks.example/v");
    assert.equal(library.Controls, "play,progress");
  });

  it("diff: the name and settings change in place (one call); replication regions replace, adding one too", async () => {
    const { id, outputs, inputs } = await created({ name: uniqueName(), replicationRegions: ["NY"] });
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, name: "renamed" }), inPlace);
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, watchtimeHeatmapEnabled: true }), inPlace);
    // The same name identifies the new library too, so the old one goes first.
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, replicationRegions: ["NY", "SG"] }), { changes: "some", replaces: ["replicationRegions"], deleteBeforeReplace: true });
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, replicationRegions: undefined }), none, "no longer given: left as it is");
    const news = await checked({ ...inputs, name: "renamed library", drmEnabled: true });
    await emu.markRequests();
    const updated = await host.update(TYPE, id, outputs, news);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["POST /videolibrary/:id"]);
    assert.equal(updated.name, "renamed library");
    assert.equal(updated.drmEnabled, true);
    assert.equal(updated.apiKey, outputs.apiKey);
  });

  it("refresh shows a change made elsewhere as drift on what the program gives", async () => {
    const { id, outputs, inputs } = await created({ name: uniqueName(), keepOriginalFiles: true });
    await emu.client().videoLibraries.update(id, { KeepOriginalFiles: false, ShowHeatmap: true });
    const read = await host.read(TYPE, id, outputs, inputs);
    assert.equal(read.inputs?.keepOriginalFiles, false);
    assert.equal(read.inputs?.watchtimeHeatmapEnabled, undefined);
    assert.equal((read.outputs.settings as Plain).watchtimeHeatmapEnabled, true);
    assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), inPlace);
  });

  it("adoption: a library of the same name is refused without adoptExisting, adopted with it", async () => {
    const name = uniqueName();
    const existing = await emu.client().videoLibraries.create({ Name: name });
    host = await host.nextDeployment(hostConfig(emu));
    const inputs = await checked({ name });
    await assert.rejects(host.create(TYPE, inputs), (e: unknown) => e instanceof HostError && /already exists .*adoptExisting: true/.test(e.message));
    const adopted = await host.create(TYPE, { ...inputs, adoptExisting: true });
    assert.equal(adopted.id, String(existing.Id));
    assert.equal(adopted.outputs.apiKey, existing.ApiKey);
  });

  it("delete removes the library with its videos; deleting it again, or refreshing it, finds it gone", async () => {
    const { id, outputs, inputs } = await created({ name: uniqueName() });
    await host.delete(TYPE, id, outputs);
    await assert.rejects(emu.client().videoLibraries.get(id), NotFoundError);
    await host.delete(TYPE, id, outputs);
    host = await host.nextDeployment(hostConfig(emu));
    assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
  });
});

describe("pulumi: a program with a VideoLibrary, in-process: the keys only as secrets", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;
  before(async () => {
    emu = await startEmulator();
    harness = new ProgramHarness({ config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" }, secretConfig: ["bunnynet:apiKey"] });
  });
  after(() => emu?.stop());
  const program = (heatmap: boolean) => () => {
    const library = new bunnynet.VideoLibrary("videos", { name: "site videos", watchtimeHeatmapEnabled: heatmap, enabledResolutions: ["720p"] });
    return { libraryId: library.libraryId };
  };

  it("up creates it, the keys are stored as secrets only, an unchanged up writes nothing, refresh finds no drift, destroy deletes it", async () => {
    const run = await harness.up(program(false));
    assert.deepEqual(run.steps.map((s) => s.op), ["create"]);
    const stored = harness.resource(TOKEN, "videos")!;
    const library = await emu.client().videoLibraries.get(stored.id);
    assert.ok(stored.secretKeys.includes("apiKey") && stored.secretKeys.includes("readOnlyApiKey"));
    const plain = JSON.stringify({ inputs: stored.inputs, outputs: Object.fromEntries(Object.entries(stored.outputs).filter(([k]) => !stored.secretKeys.includes(k))) });
    assert.ok(!plain.includes(String(library.ApiKey)) && !plain.includes(String(library.ReadOnlyApiKey)), "no key outside the secret properties");
    await emu.markRequests();
    const again = await harness.up(program(false));
    assert.ok(again.steps.every((s) => s.op === "same"));
    assert.ok((await emu.requests()).every((r) => r.method === "GET"));
    assert.deepEqual((await harness.up(program(true))).steps.map((s) => s.op), ["update"]);
    assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
    assert.ok((await harness.preview(program(true))).steps.every((s) => s.op === "same"), "no drift after the refresh");
    await harness.destroy();
    await assert.rejects(emu.client().videoLibraries.get(stored.id), NotFoundError);
  });
});
