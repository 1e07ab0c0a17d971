import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { NotFoundError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import type { StorageZoneAccess } from "bunnynet-pulumi/dist/client/storage.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex").toUpperCase();

describe("client: the Storage API (a zone's files)", () => {
  let emu: TestEmulator;
  let zone: StorageZoneAccess;

  before(async () => {
    emu = await startEmulator();
    const created = await emu.client().storageZones.createStorageZone({ Name: "client-files", Region: "DE" });
    zone = await emu.client().storage.access(created.Id);
  });
  after(() => emu.stop());

  it("uploads with the checksum, lists directories recursively, reads one file's details, deletes", async () => {
    const client = emu.client();
    await client.storage.putFile(zone, "index.html", Buffer.from("<h1>hi</h1>"), { checksum: sha("<h1>hi</h1>"), contentType: "text/html" });
    await client.storage.putFile(zone, "css/site.css", () => Readable.from([Buffer.from("body{}")]), { checksum: sha("body{}") });
    await client.storage.putFile(zone, "css/deep/a b.txt", Buffer.from("x"), { checksum: sha("x") });
    const files = (await client.storage.listFiles(zone, "")).sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(files, [
      { path: "css/deep/a b.txt", length: 1, checksum: sha("x") },
      { path: "css/site.css", length: 6, checksum: sha("body{}") },
      { path: "index.html", length: 11, checksum: sha("<h1>hi</h1>") },
    ]);
    assert.deepEqual((await client.storage.listFiles(zone, "css")).map((f) => f.path).sort(), ["deep/a b.txt", "site.css"]);
    const described = await client.storage.describeFile(zone, "index.html");
    assert.equal(described?.ContentType, "text/html");
    assert.equal(await client.storage.describeFile(zone, "nothing.txt"), undefined);
    await client.storage.deleteFile(zone, "css/deep/a b.txt");
    await assert.rejects(client.storage.deleteFile(zone, "css/deep/a b.txt"), NotFoundError);
    assert.deepEqual(await client.storage.listDirectory(zone, "css/deep"), []);
  });

  it("a stream of known size is sent with its Content-Length, one of unknown size chunked; the request log says which", async () => {
    const client = emu.client();
    const text = "sized body";
    await emu.markRequests();
    await client.storage.putFile(zone, "sized.txt", { length: text.length, open: () => Readable.from([Buffer.from("sized "), Buffer.from("body")]) }, { checksum: sha(text) });
    await client.storage.putFile(zone, "chunked.txt", () => Readable.from([Buffer.from(text)]), { checksum: sha(text) });
    const puts = (await emu.requests()).filter((r) => r.method === "PUT");
    assert.deepEqual(
      puts.map((r) => [r.url.split("/").pop(), r.status, r.contentLength, r.chunked]),
      [
        ["sized.txt", 201, text.length, undefined],
        ["chunked.txt", 201, undefined, true],
      ],
    );
    assert.equal((await client.storage.describeFile(zone, "sized.txt"))?.Checksum, sha(text));
  });

  it("an empty file is a file (streamed or not)", async () => {
    const client = emu.client();
    await client.storage.putFile(zone, "empty.txt", Buffer.alloc(0), { checksum: sha("") });
    await client.storage.putFile(zone, "empty-stream.txt", () => Readable.from([]), { checksum: sha("") });
    for (const path of ["empty.txt", "empty-stream.txt"]) assert.deepEqual([(await client.storage.describeFile(zone, path))?.Length, (await client.storage.describeFile(zone, path))?.Checksum], [0, sha("")]);
  });

  it("the emulator serves a file's bytes with its type, and the read-only password may read but not write", async () => {
    const client = emu.client();
    const body = Buffer.from([0, 1, 2, 250, 251, 252]);
    await client.storage.putFile(zone, "bin/data.bin", body, { checksum: createHash("sha256").update(body).digest("hex"), contentType: "application/x-test" });
    await client.storage.putFile(zone, "bin/data.bin", body, { checksum: createHash("sha256").update(body).digest("hex"), contentType: "application/x-test" });
    const readOnly = (await client.storageZones.getStorageZone(zone.zoneId)).ReadOnlyPassword;
    const res = await fetch(`${emu.url}/storage/${zone.name}/bin/data.bin`, { headers: { AccessKey: readOnly } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-test");
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), body);
    const write = await fetch(`${emu.url}/storage/${zone.name}/bin/data.bin`, { method: "DELETE", headers: { AccessKey: readOnly } });
    assert.equal(write.status, 401);
  });

  it("a body that does not match its checksum is refused; the file keeps its old content", async () => {
    const client = emu.client();
    await client.storage.putFile(zone, "kept.txt", Buffer.from("old"), { checksum: sha("old") });
    await assert.rejects(client.storage.putFile(zone, "kept.txt", Buffer.from("new"), { checksum: sha("other") }), ValidationError);
    assert.equal((await client.storage.describeFile(zone, "kept.txt"))?.Checksum, sha("old"));
  });

  it("a wrong password is refused (401) and never appears in the error", async () => {
    const wrong = { ...zone, password: "not-the-password-1234" };
    const error = await emu.client().storage.listDirectory(wrong, "").catch((e: unknown) => e);
    assert.ok(error instanceof UnauthorizedError);
    assert.ok(!String((error as Error).message).includes("not-the-password-1234"));
  });

  it("refuses a path no file can have before sending", async () => {
    await emu.markRequests();
    for (const path of ["/abs.txt", "a//b", "../x", "dir/", ""]) {
      await assert.rejects(emu.client().storage.putFile(zone, path, Buffer.from("x"), { checksum: sha("x") }), /path/);
    }
    assert.deepEqual(await emu.requests(), []);
  });

  it("without storageApiUrl, only a bunny.net storage host receives the zone password", async () => {
    const client = emu.client({ storageApiUrl: undefined });
    await assert.rejects(client.storage.listDirectory({ ...zone, hostname: "evil.example.com" }, ""), /no bunny.net storage host/);
  });

  it("the emulator keeps bodies on disk beside its SQLite file, and a reset removes them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bunnynet-emulator-data-"));
    const disk = await startEmulator(join(dir, "state.db"));
    try {
      const client = disk.client();
      const onDisk = await client.storage.access((await client.storageZones.createStorageZone({ Name: "disk-files", Region: "DE" })).Id);
      await client.storage.putFile(onDisk, "a.txt", Buffer.from("on disk"), { checksum: sha("on disk") });
      assert.equal(readdirSync(join(dir, "state.db.files")).length, 1);
      await disk.reset();
      assert.deepEqual(readdirSync(join(dir, "state.db.files")), []);
    } finally {
      await disk.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("deleting the zone takes its files", async () => {
    const client = emu.client();
    await client.storageZones.deleteStorageZone(zone.zoneId);
    assert.equal(emu.emulator.ctx.store.list("storagefile", zone.zoneId).length, 0);
  });
});
