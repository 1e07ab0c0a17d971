import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";
import { StorageZone } from "bunnynet-pulumi/dist/resources/storageZone.js";
import { StorageFolder } from "bunnynet-pulumi/dist/resources/storageFolder.js";

const FILES = 500;
const sha = (text: string) => createHash("sha256").update(text).digest("hex").toUpperCase();
/** The files the emulator holds for a zone: path → checksum (its store, not our client). */
type Held = Record<string, string>;

/**
 * Issue 26's check for a site's files: a folder of 500 files through the kit's ProgramHarness and the SDK's real
 * provider host against a fresh emulator. The second `up` after changing 3 files and deleting 1 sends exactly those
 * 4 file requests (and one read of the zone for its name and password); an unchanged `up` sends nothing; refresh
 * shows a file changed in the zone by someone else and the next `up` puts it back; destroy leaves nothing.
 */
describe("pulumi: StorageFolder, a site's files as one resource (ProgramHarness)", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;
  let dir: string;
  let zoneId: number;

  const file = (i: number) => (i % 5 === 0 ? `assets/img/f${i}.txt` : i % 3 === 0 ? `css/f${i}.css` : `f${i}.html`);
  const program = () => {
    const zone = new StorageZone("zone", { name: "folder-site", region: "DE" });
    const site = new StorageFolder("site", { storageZoneId: zone.storageZoneId, source: dir });
    return { fileCount: site.fileCount, totalBytes: site.totalBytes, checksum: site.checksum };
  };
  const held = (): Held =>
    Object.fromEntries(
      emu.emulator.ctx.store
        .list<{ FullPath: string; Checksum: string; StorageZoneId: number }>("storagefile")
        .filter((f) => f.StorageZoneId === zoneId)
        .map((f) => [f.FullPath, f.Checksum]),
    );
  const fileRequests = async () =>
    (await emu.requests()).map((r) => `${r.method} ${decodeURIComponent(r.url)}`).sort();
  const ops = (steps: { op: string; urn: string }[]) => steps.map((s) => `${s.urn.split("::").pop()} ${s.op}`).sort();

  before(async () => {
    emu = await startEmulator();
    // A new plugin process per command, as the engine starts one: nothing is cached from one command to the next.
    harness = new ProgramHarness({ config: stackConfigFor(emu.url, String(emu.fixtures.accessKey)), secretConfig: ["bunnynet:apiKey"], hostPerCommand: {} });
    dir = mkdtempSync(join(tmpdir(), "bunnynet-folder-"));
    for (let i = 0; i < FILES; i++) {
      mkdirSync(join(dir, file(i), ".."), { recursive: true });
      writeFileSync(join(dir, file(i)), `file ${i}\n`);
    }
  });
  after(async () => {
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("one up uploads the folder of 500 files, each with its checksum", async () => {
    const run = await harness.up(program);
    assert.deepEqual(ops(run.steps), ["site create", "zone create"]);
    zoneId = Number(harness.resource("StorageZone", "zone")?.id);
    const expected = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [file(i), sha(`file ${i}\n`)]));
    assert.deepEqual(held(), expected);
    assert.equal(run.outputs.fileCount, FILES);
    assert.equal(run.outputs.totalBytes, Array.from({ length: FILES }, (_, i) => `file ${i}\n`.length).reduce((a, b) => a + b, 0));
    assert.deepEqual(harness.resource("StorageFolder", "site")?.outputs.files, expected);
  });

  it("an unchanged up makes no API call", async () => {
    await emu.markRequests();
    const run = await harness.up(program);
    assert.deepEqual(ops(run.steps), ["site same", "zone same"]);
    assert.deepEqual(await emu.requests(), []);
  });

  it("after 3 files change and 1 is deleted, preview shows it without a call, and up uploads exactly 3 and deletes exactly 1", async () => {
    for (const i of [1, 2, 3]) writeFileSync(join(dir, file(i)), `changed ${i}\n`);
    unlinkSync(join(dir, file(4)));
    await emu.markRequests();
    const preview = await harness.preview(program);
    assert.deepEqual(ops(preview.steps), ["site update", "zone same"]);
    assert.deepEqual(await emu.requests(), []);

    const checksumBefore = harness.resource("StorageFolder", "site")?.outputs.checksum;
    const run = await harness.up(program);
    assert.deepEqual(ops(run.steps), ["site update", "zone same"]);
    // The zone is read once, for its name, host and password (never stored in state).
    const expected = [`GET /storagezone/${zoneId}`, `DELETE /storage/folder-site/${file(4)}`, ...[1, 2, 3].map((i) => `PUT /storage/folder-site/${file(i)}`)];
    assert.deepEqual(await fileRequests(), expected.sort());
    const now = held();
    assert.equal(Object.keys(now).length, FILES - 1);
    assert.equal(now[file(1)], sha("changed 1\n"));
    assert.equal(now[file(4)], undefined);
    assert.equal(run.outputs.fileCount, FILES - 1);
    assert.notEqual(run.outputs.checksum, checksumBefore);
  });

  it("refresh shows a file someone else changed in the zone; the next up puts it back with one upload", async () => {
    const client = emu.client();
    const zone = await client.storage.access(zoneId);
    await client.storage.putFile(zone, file(10), Buffer.from("defaced"), { checksum: sha("defaced") });
    await harness.refresh();
    assert.equal((harness.resource("StorageFolder", "site")?.outputs.files as Held)[file(10)], sha("defaced"));
    const preview = await harness.preview(program);
    assert.deepEqual(ops(preview.steps), ["site update", "zone same"]);
    await emu.markRequests();
    await harness.up(program);
    assert.deepEqual(await fileRequests(), [`GET /storagezone/${zoneId}`, `PUT /storage/folder-site/${file(10)}`].sort());
    assert.equal(held()[file(10)], sha(`file 10\n`));
  });

  it("destroy leaves nothing: the files, then the zone", async () => {
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    assert.deepEqual(held(), {});
    assert.equal(emu.emulator.ctx.store.list("storagefile").length, 0);
    assert.equal(emu.emulator.ctx.store.get("storagezone", zoneId), undefined);
  });
});

describe("pulumi: StorageFolder's progress, sources and refusals through one provider host", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  let zoneId: number;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    await host.configure({ ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)) });
    zoneId = (await emu.client().storageZones.createStorageZone({ Name: "folder-progress", Region: "DE" })).Id;
    dir = mkdtempSync(join(tmpdir(), "bunnynet-folder-"));
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `p${i}.txt`), `p ${i}`);
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("reports its progress in the plugin's log, which the engine shows", async () => {
    const checked = await host.check("StorageFolder", {}, { storageZoneId: zoneId, source: dir, prefix: "site" });
    assert.deepEqual(checked.failures, []);
    assert.equal(Object.keys(checked.inputs.files as Held).length, 20);
    await host.create("StorageFolder", checked.inputs);
    assert.match(host.logs(), /StorageFolder: uploaded to folder-progress\/site 20\/20/);
  });

  it("check refuses bad input naming the property, without any API call", async () => {
    await emu.markRequests();
    const failures = async (news: Record<string, unknown>) => (await host.check("StorageFolder", {}, news)).failures.map((f) => `${f.property}: ${f.reason}`);
    assert.match((await failures({ storageZoneId: zoneId, source: join(dir, "missing") })).join(), /source: cannot be read/);
    assert.match((await failures({ storageZoneId: zoneId, source: dir, prefix: "/site/" })).join(), /^prefix: must not start or end with \//);
    assert.match((await failures({ storageZoneId: "zone", source: dir })).join(), /^storageZoneId/);
    assert.match((await failures({ storageZoneId: zoneId, source: join(dir, "p1.txt") })).join(), /source: cannot be read: .* is not a folder/);
    assert.deepEqual(await emu.requests(), []);
  });

  it("deleteUnmanaged: refresh shows a file nobody manages below the prefix and up deletes it; without it, such a file stays", async () => {
    const client = emu.client();
    const zone = await client.storage.access(zoneId);
    const folder = async (prefix: string, deleteUnmanaged: boolean) => {
      const checked = await host.check("StorageFolder", {}, { storageZoneId: zoneId, source: dir, prefix, deleteUnmanaged });
      return { inputs: checked.inputs, ...(await host.create("StorageFolder", checked.inputs)) };
    };
    const strict = await folder("strict", true);
    const lenient = await folder("lenient", false);
    for (const prefix of ["strict", "lenient"]) await client.storage.putFile(zone, `${prefix}/stray/by-hand.txt`, Buffer.from("x"), { checksum: sha("x") });

    const read = await host.read("StorageFolder", strict.id, strict.outputs, strict.inputs);
    assert.equal((read.inputs?.files as Held)["strict/stray/by-hand.txt"], sha("x"));
    assert.equal((await host.diff("StorageFolder", strict.id, read.outputs, strict.inputs)).changes, "some");
    await emu.markRequests();
    await host.update("StorageFolder", strict.id, read.outputs, strict.inputs, strict.inputs);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.url}`).filter((r) => r.startsWith("DELETE")), ["DELETE /storage/folder-progress/strict/stray/by-hand.txt"]);

    const lenientRead = await host.read("StorageFolder", lenient.id, lenient.outputs, lenient.inputs);
    assert.equal((await host.diff("StorageFolder", lenient.id, lenientRead.outputs, lenient.inputs)).changes, "none");
    await host.delete("StorageFolder", lenient.id, lenient.outputs, lenient.inputs);
    assert.deepEqual((await client.storage.listFiles(zone, "lenient")).map((f) => f.path), ["stray/by-hand.txt"]);
  });

  it("an AssetArchive of StringAssets uploads under the prefix", async () => {
    const archive = { "4dabf18193072939515e22adb298388d": "0def7320c3a5731c473e5ecbe6d01bc7", assets: { "a/b.txt": { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", text: "bee" } } };
    const checked = await host.check("StorageFolder", {}, { storageZoneId: zoneId, source: archive, prefix: "arch" });
    assert.deepEqual(checked.failures, []);
    assert.deepEqual(checked.inputs.files, { "arch/a/b.txt": sha("bee") });
    await host.create("StorageFolder", checked.inputs);
    const zone = await emu.client().storage.access(zoneId);
    assert.equal((await emu.client().storage.describeFile(zone, "arch/a/b.txt"))?.Checksum, sha("bee"));
  });
});
