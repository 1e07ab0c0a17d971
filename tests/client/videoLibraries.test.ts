import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { InvalidRequestError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: video libraries (create, update, get, delete, find) against the emulator", function () {
  let emu: TestEmulator;
  let counter = 0;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu?.stop());
  const client = () => emu.client().videoLibraries;
  const uniqueName = () => `library ${++counter}`;

  it("creates a library in one call: its id, keys, replication regions and settings in the answer", async () => {
    const name = uniqueName();
    await emu.markRequests();
    const library = await client().create({ Name: name, ReplicationRegions: ["NY", "SG"], EncodingTier: "Premium", EnabledResolutions: "720p,1080p", KeepOriginalFiles: false });
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`), ["POST /videolibrary 201"]);
    assert.equal(library.Name, name);
    assert.ok(library.ApiKey && library.ReadOnlyApiKey && library.ApiKey !== library.ReadOnlyApiKey);
    assert.deepEqual(library.ReplicationRegions, ["NY", "SG"]);
    assert.equal(library.EncodingTier, 1);
    assert.equal(library.EnabledResolutions, "720p,1080p");
    assert.equal(library.KeepOriginalFiles, false);
    assert.deepEqual(await client().get(library.Id), library);
    assert.equal((await client().findByName(name))?.Id, library.Id);
    assert.equal(await client().findByName("no such library"), undefined);
    const listed: number[] = [];
    for await (const l of client().list()) listed.push(l.Id);
    assert.ok(listed.includes(library.Id) && new Set(listed).size === listed.length, "every library once");
  });

  it("update changes the settings given, the name too, and keeps the rest", async () => {
    const library = await client().create({ Name: uniqueName(), KeepOriginalFiles: false });
    const updated = await client().update(library.Id, { Name: "renamed", WebhookUrl: "https://hooks.example/stream", Controls: "play,progress" });
    assert.equal(updated.Name, "renamed");
    assert.equal(updated.WebhookUrl, "https://hooks.example/stream");
    assert.equal(updated.Controls, "play,progress");
    assert.equal(updated.KeepOriginalFiles, false);
  });

  it("bad input is refused before sending, naming the field", async () => {
    await emu.markRequests();
    const refuses = (p: Promise<unknown>, field: RegExp) => assert.rejects(p, (e: unknown) => e instanceof InvalidRequestError && field.test(e.message));
    await refuses(client().create({ Name: "" }), /Name/);
    await refuses(client().create({ Name: "x", ReplicationRegions: ["new york"] }), /ReplicationRegions\.0/);
    await refuses(client().create({ Name: "x", EnabledResolutions: "720p,4k" }), /EnabledResolutions/);
    await refuses(client().create({ Name: "x", EncodingTier: "Gold" as never }), /EncodingTier/);
    await refuses(client().update(1, { ReplicationRegions: ["NY"] } as never), /ReplicationRegions/);
    await refuses(client().update(1, { Bitrate720p: -100 }), /Bitrate720p/);
    await refuses(client().update(1, { WatermarkWidth: 101 }), /WatermarkWidth/);
    assert.deepEqual(await emu.requests(), []);
  });

  it("the server refuses on its own what the document refuses (400 naming the field)", async () => {
    const res = await fetch(`${emu.url}/videolibrary`, { method: "POST", headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify({ Name: "x", Colour: "red" }) });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { Field: string }).Field, "Colour");
    const regions = await fetch(`${emu.url}/videolibrary`, { method: "POST", headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify({ Name: "x", ReplicationRegions: ["XX"] }) });
    assert.equal(regions.status, 400);
  });

  it("the server refuses a bitrate below 1, a watermark outside 0..100 (%) and a negative captions size, naming the field", async () => {
    const library = await client().create({ Name: "ranges" });
    for (const [field, value] of [["Bitrate720p", -100], ["Bitrate240p", 0], ["WatermarkPositionLeft", -1], ["WatermarkHeight", 101], ["CaptionsFontSize", -1], ["PlayerVersion", 0]] as const) {
      const res = await fetch(`${emu.url}/videolibrary/${library.Id}`, { method: "POST", headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify({ [field]: value }) });
      assert.deepEqual([res.status, ((await res.json()) as { Field: string }).Field], [400, field]);
    }
    assert.equal((await client().update(library.Id, { Bitrate720p: 1, WatermarkWidth: 100, CaptionsFontSize: 0 })).Bitrate720p, 1);
  });

  it("delete removes the library with its videos, its key stops working, and a second delete reports it gone", async () => {
    const c = emu.client();
    const id = Number(emu.fixtures.otherVideoLibraryId);
    const key = String(emu.fixtures.otherVideoLibraryKey);
    await c.stream.getVideo(id, String(emu.fixtures.otherVideoId), { libraryKey: key });
    assert.equal(await client().delete(id), true);
    await assert.rejects(client().get(id), NotFoundError);
    await assert.rejects(c.stream.getVideo(id, String(emu.fixtures.otherVideoId), { libraryKey: key }), NotFoundError);
    assert.equal(emu.emulator.ctx.store.list("video", id).length, 0);
    assert.equal(await client().delete(id), false);
    await assert.rejects(client().update(id, { Name: "x" }), NotFoundError);
  });

  it("a refused update of a known library is a ValidationError from the server", async () => {
    const library = await client().create({ Name: uniqueName() });
    const res = await emu.client().http.request({ api: "core", method: "POST", path: `/videolibrary/${library.Id}`, json: { CaptionsFontSize: "big" }, responseSchema: { safeParse: (v: unknown) => ({ success: true as const, data: v }) } }).catch((e: unknown) => e);
    assert.ok(res instanceof ValidationError, String(res));
  });
});
