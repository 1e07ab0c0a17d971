import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as BunnyStorage from "@bunny.net/storage-sdk";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * The emulator's Storage API as bunny.net's own client sees it: `@bunny.net/storage-sdk` (a devDependency), its
 * code unchanged. The SDK cannot be given a base URL: `regions.addr` (dist/lib.js:47-70) maps each region to a fixed
 * `https://<region>.storage.bunnycdn.com` and throws for anything else, and every call builds its URL from it. So the
 * test stands in for DNS only: the global `fetch` the SDK calls is wrapped to send `https://storage.bunnycdn.com/…`
 * to the emulator's `/storage/…` over a real connection, method, headers and body untouched. `file.get` sends
 * `DESCRIBE` (dist/lib.js:158), which the emulator takes in spite of Node's parser (see emulator/surfaces/storage.ts).
 */

const VENDOR_ORIGIN = "https://storage.bunnycdn.com/";
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex").toUpperCase();
const bodyOf = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]).stream();

describe("emulator: bunny.net's storage SDK against the Storage API", () => {
  let emu: TestEmulator;
  let zone: ReturnType<typeof BunnyStorage.zone.connect_with_accesskey>;
  let zoneName: string;
  let password: string;
  const realFetch = globalThis.fetch;
  /** Every request the SDK sent, as method and emulator path: proof the wrapped fetch carried it. */
  const sent: string[] = [];

  before(async () => {
    emu = await startEmulator();
    const client = emu.client();
    const created = await client.storageZones.createStorageZone({ Name: "sdk-files", Region: "DE" });
    ({ password } = await client.storage.access(created.Id));
    zoneName = created.Name;
    zone = BunnyStorage.zone.connect_with_accesskey(BunnyStorage.regions.StorageRegion.Falkenstein, zoneName, password);
    globalThis.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      assert.ok(url.startsWith(VENDOR_ORIGIN), `the SDK called ${url}`);
      const path = `/storage/${url.slice(VENDOR_ORIGIN.length)}`;
      sent.push(`${init?.method ?? "GET"} ${path}`);
      return realFetch(`${emu.url}${path}`, init);
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await emu.stop();
  });

  it("uploads with a checksum, lists, describes and downloads the file", async () => {
    const bytes = Buffer.from("body { color: teal }\n");
    assert.equal(await BunnyStorage.file.upload(zone, "css/site.css", bodyOf(bytes), { sha256Checksum: sha(bytes), contentType: "text/css" }), true);
    assert.ok(sent.includes(`PUT /storage/${zoneName}/css/site.css`));

    const root = await BunnyStorage.file.list(zone, "/");
    assert.deepEqual(root.map((f) => [f.objectName, f.isDirectory]), [["css", true]]);
    const [listed] = await BunnyStorage.file.list(zone, "css");
    assert.equal(listed.objectName, "site.css");
    assert.equal(listed.length, bytes.length);
    assert.equal(listed.checksum, sha(bytes));
    assert.equal(listed.contentType, "text/css");

    const described = await BunnyStorage.file.get(zone, "css/site.css");
    assert.equal(described.guid, listed.guid);
    assert.equal(described.objectName, "site.css");
    assert.equal(described.path, `/${zoneName}/css/`);
    assert.equal(described.checksum, sha(bytes));
    assert.equal(described.isDirectory, false);
    assert.equal((await BunnyStorage.file.get(zone, "css")).isDirectory, true);
    await assert.rejects(BunnyStorage.file.get(zone, "css/missing.css"), /File not found/);

    const { stream, length } = await BunnyStorage.file.download(zone, "css/site.css");
    assert.equal(length, bytes.length);
    assert.deepEqual(Buffer.from(await new Response(stream).arrayBuffer()), bytes);
  });

  it("takes DESCRIBE's stand-in method only as DESCRIBE: sent as itself it is refused", async () => {
    const res = await realFetch(`${emu.url}/storage/${zoneName}/css/site.css`, { method: "PROPFIND", headers: { AccessKey: password } });
    assert.equal(res.status, 405);
  });

  it("refuses an upload whose checksum does not match its body, and stores nothing", async () => {
    const bytes = Buffer.from("the body sent");
    await assert.rejects(BunnyStorage.file.upload(zone, "refused.txt", bodyOf(bytes), { sha256Checksum: sha(Buffer.from("another body")) }), /checksum invalid/);
    await assert.rejects(BunnyStorage.file.download(zone, "refused.txt"), /File not found/);
  });

  it("deletes a file, then a directory with everything in it", async () => {
    for (const name of ["docs/a.txt", "docs/deep/b.txt", "keep.txt"]) await BunnyStorage.file.upload(zone, name, bodyOf(Buffer.from(name)));
    assert.equal(await BunnyStorage.file.remove(zone, "keep.txt"), true);
    await assert.rejects(BunnyStorage.file.get(zone, "keep.txt"), /File not found/);
    assert.equal(await BunnyStorage.file.remove(zone, "keep.txt"), false, "a second delete finds nothing");

    assert.equal(await BunnyStorage.file.removeDirectory(zone, "docs"), true);
    assert.deepEqual((await BunnyStorage.file.list(zone, "/")).map((f) => f.objectName), ["css"]);
    await assert.rejects(BunnyStorage.file.download(zone, "docs/deep/b.txt"), /File not found/);
  });

  it("makes an empty directory, which is listed and described as one, and removed", async () => {
    assert.equal(await BunnyStorage.file.createDirectory(zone, "empty/inner"), true);
    assert.deepEqual((await BunnyStorage.file.list(zone, "empty")).map((f) => [f.objectName, f.isDirectory]), [["inner", true]]);
    assert.deepEqual(await BunnyStorage.file.list(zone, "empty/inner"), []);
    const described = await BunnyStorage.file.get(zone, "empty/inner");
    assert.equal(described.isDirectory, true);
    assert.equal(described.path, `/${zoneName}/empty/`);
    assert.equal(await BunnyStorage.file.createDirectory(zone, "empty/inner"), true, "made again: the same directory");
    assert.equal(await BunnyStorage.file.removeDirectory(zone, "empty"), true);
    assert.ok(!(await BunnyStorage.file.list(zone, "/")).some((f) => f.objectName === "empty"));
    await assert.rejects(BunnyStorage.file.get(zone, "empty/inner"), /File not found/);
  });

  it("a wrong password is refused for every method, and writes nothing", async () => {
    const wrong = BunnyStorage.zone.connect_with_accesskey(BunnyStorage.regions.StorageRegion.Falkenstein, zoneName, `${password}x`);
    const unauthorized = new RegExp(`Unauthorized access to storage zone: ${zoneName}`);
    await assert.rejects(BunnyStorage.file.list(wrong, "/"), unauthorized);
    await assert.rejects(BunnyStorage.file.get(wrong, "css/site.css"), unauthorized);
    await assert.rejects(BunnyStorage.file.download(wrong, "css/site.css"), unauthorized);
    await assert.rejects(BunnyStorage.file.upload(wrong, "intruder.txt", bodyOf(Buffer.from("x"))), unauthorized);
    assert.equal(await BunnyStorage.file.createDirectory(wrong, "intruder"), false);
    assert.equal(await BunnyStorage.file.remove(wrong, "css/site.css"), false);
    assert.deepEqual((await BunnyStorage.file.list(zone, "css")).map((f) => f.objectName), ["site.css"]);
    await assert.rejects(BunnyStorage.file.download(zone, "intruder.txt"), /File not found/);
    await assert.rejects(BunnyStorage.file.get(zone, "intruder"), /File not found/);
  });
});
