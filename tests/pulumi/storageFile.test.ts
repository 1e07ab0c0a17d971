import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestEmulator } from "../support/emulator";
import { type ProviderHost, UNKNOWN_VALUE, named, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import type { StorageZoneAccess } from "bunnynet-pulumi/dist/client/storage.js";

const TYPE = "StorageFile";
const sha = (text: string) => createHash("sha256").update(text).digest("hex").toUpperCase();
const ASSET = { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17" };

describe("pulumi: StorageFile through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let zone: StorageZoneAccess;
  let dir: string;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    const created = await emu.client().storageZones.createStorageZone({ Name: "pulumi-file", Region: "DE" });
    zone = await emu.client().storage.access(created.Id);
    dir = mkdtempSync(join(tmpdir(), "bunnynet-file-"));
  });
  after(async () => {
    await stopEmulatorAndHost(emu, host);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const stored = (path: string) => emu.client().storage.describeFile(zone, path);

  it("check refuses bad input naming each property, before any API call; unknowns are left to up", async () => {
    await emu.markRequests();
    const failures = async (news: Record<string, unknown>) => (await host.check(TYPE, {}, news)).failures.map(named).map((f) => `${f.property}: ${f.reason}`);
    assert.deepEqual(await failures({ storageZoneId: zone.zoneId, path: "/a.txt", content: "x" }), ["path: must not start or end with / (a path inside the zone, such as css/site.css)"]);
    assert.deepEqual(await failures({ storageZoneId: zone.zoneId, path: "a/../b", content: "x" }), ["path: must not contain . or .. segments"]);
    assert.deepEqual((await failures({ storageZoneId: zone.zoneId, path: "a.txt" })).sort(), ["content: set exactly one of content (text) and source (a file)", "source: set exactly one of content (text) and source (a file)"]);
    assert.deepEqual((await failures({ storageZoneId: zone.zoneId, path: "a.txt", content: "x", source: "f" })).sort(), ["content: only one of content and source may be set", "source: only one of content and source may be set"]);
    assert.match((await failures({ storageZoneId: zone.zoneId, path: "a.txt", source: join(dir, "missing.txt") })).join(), /^source: cannot be read/);
    assert.match((await failures({ storageZoneId: zone.zoneId, path: "a.txt", source: { "4dabf18193072939515e22adb298388d": "0def7320c3a5731c473e5ecbe6d01bc7", path: dir } })).join(), /^source: an archive is not one file/);
    assert.match((await failures({ storageZoneId: "zone", path: "a.txt", content: "x" })).join(), /^storageZoneId/);
    assert.deepEqual(await failures({ storageZoneId: zone.zoneId, path: "a.txt", content: UNKNOWN_VALUE }), []);
    assert.deepEqual(await emu.requests(), []);
  });

  it("a secret content is never printed by the engine beside a failure", async () => {
    const res = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "a.txt", content: "token-123", source: "f" });
    assert.ok(res.failures.every((f) => f.property === ""), JSON.stringify(res.failures));
  });

  it("uploads text with its checksum and content type; size and dates are outputs", async () => {
    const checked = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "docs/readme.txt", content: "hello", contentType: "text/plain" });
    assert.equal(checked.inputs.checksum, sha("hello"));
    const { id, outputs } = await host.create(TYPE, checked.inputs);
    assert.equal(id, `${zone.zoneId}/docs/readme.txt`);
    assert.deepEqual([outputs.size, outputs.checksum, outputs.contentType], [5, sha("hello"), "text/plain"]);
    assert.equal((await stored("docs/readme.txt"))?.Checksum, sha("hello"));
  });

  it("a changed local file at the same path is a change at check and uploads again (Terraform #40)", async () => {
    const path = join(dir, "page.html");
    writeFileSync(path, "<p>one</p>");
    const first = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "page.html", source: path });
    const { id, outputs } = await host.create(TYPE, first.inputs);
    writeFileSync(path, "<p>two</p>");
    const second = await host.check(TYPE, first.inputs, { storageZoneId: zone.zoneId, path: "page.html", source: path });
    assert.equal(second.inputs.checksum, sha("<p>two</p>"));
    const diff = await host.diff(TYPE, id, outputs, second.inputs);
    assert.deepEqual([diff.changes, diff.replaces], ["some", []]);
    await host.update(TYPE, id, outputs, second.inputs);
    assert.equal((await stored("page.html"))?.Checksum, sha("<p>two</p>"));
    // The same file again: no change.
    const third = await host.check(TYPE, second.inputs, { storageZoneId: zone.zoneId, path: "page.html", source: path });
    assert.equal((await host.diff(TYPE, id, { ...outputs, checksum: sha("<p>two</p>") }, third.inputs)).changes, "none");
  });

  it("a StringAsset is uploaded; a path change replaces", async () => {
    const checked = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "asset.txt", source: { ...ASSET, text: "from an asset" } });
    const { id, outputs } = await host.create(TYPE, checked.inputs);
    assert.equal((await stored("asset.txt"))?.Checksum, sha("from an asset"));
    const moved = await host.check(TYPE, checked.inputs, { storageZoneId: zone.zoneId, path: "moved.txt", source: { ...ASSET, text: "from an asset" } });
    assert.deepEqual((await host.diff(TYPE, id, outputs, moved.inputs)).replaces, ["path"]);
  });

  it("refresh shows a file changed by someone else, and a deleted one as gone", async () => {
    const checked = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "drift.txt", content: "mine" });
    const { id, outputs } = await host.create(TYPE, checked.inputs);
    await emu.client().storage.putFile(zone, "drift.txt", Buffer.from("theirs"), { checksum: sha("theirs") });
    const read = await host.read(TYPE, id, outputs, checked.inputs);
    assert.equal(read.inputs?.checksum, sha("theirs"));
    assert.equal((await host.diff(TYPE, id, read.outputs, checked.inputs)).changes, "some");
    await emu.client().storage.deleteFile(zone, "drift.txt");
    assert.equal((await host.read(TYPE, id, outputs, checked.inputs)).id, "");
  });

  it("an existing file is refused unless adoptExisting, then overwritten with the program's content", async () => {
    await emu.client().storage.putFile(zone, "existing.txt", Buffer.from("old"), { checksum: sha("old") });
    const refused = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "existing.txt", content: "new" });
    await assert.rejects(host.create(TYPE, refused.inputs), /already exists.*adoptExisting/);
    const adopting = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "existing.txt", content: "new", adoptExisting: true });
    await host.create(TYPE, adopting.inputs);
    assert.equal((await stored("existing.txt"))?.Checksum, sha("new"));
  });

  it("delete removes the file; a file already gone, or a zone deleted with its files, is success", async () => {
    const checked = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "bye.txt", content: "bye" });
    const { id, outputs } = await host.create(TYPE, checked.inputs);
    await host.delete(TYPE, id, outputs);
    assert.equal(await stored("bye.txt"), undefined);
    await host.delete(TYPE, id, outputs);
    const other = await emu.client().storageZones.createStorageZone({ Name: "pulumi-file-gone", Region: "DE" });
    const inGone = await host.check(TYPE, {}, { storageZoneId: other.Id, path: "x.txt", content: "x" });
    const made = await host.create(TYPE, inGone.inputs);
    await emu.client().storageZones.deleteStorageZone(other.Id);
    await host.delete(TYPE, made.id, made.outputs);
    assert.equal((await host.read(TYPE, made.id, made.outputs, inGone.inputs)).id, "");
  });

  it("the zone's password never reaches the state", async () => {
    const checked = await host.check(TYPE, {}, { storageZoneId: zone.zoneId, path: "secret-free.txt", content: "x" });
    const { outputs } = await host.create(TYPE, checked.inputs);
    assert.ok(!JSON.stringify(outputs).includes(zone.password));
  });
});
