import assert from "node:assert/strict";
import { Agent, request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * The Storage API over HTTPS at the root of its own host (emulator/storageHttps.ts), as clients that build the URL
 * from a zone's StorageHostname reach it (bunny.net's Terraform provider: `https://<StorageHostname>/<zone>/<path>`):
 * the zone answers that host, and a client trusting the certificate the emulator hands out stores, describes, reads
 * and deletes a file there with the zone's password.
 */
describe("emulator: the Storage API over HTTPS on the zone's StorageHostname", () => {
  let emu: TestEmulator;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("a zone answers the HTTPS host, where its files are served with its password, DESCRIBE included", async () => {
    const storage = await emu.emulator.listenStorageHttps();
    assert.match(storage.storageHostname, /^localhost:\d+$/);
    assert.deepEqual(await emu.emulator.listenStorageHttps(), storage, "a second call answers the same server");
    const zone = await emu.client().storageZones.createStorageZone({ Name: "https-files", Region: "DE" });
    const read = await emu.client().storageZones.getStorageZone(zone.Id);
    assert.equal(read.StorageHostname, storage.storageHostname);

    const dispatcher = new Agent({ connect: { ca: storage.certificateAuthorityPem } });
    const at = (path: string) => `https://${read.StorageHostname}/${read.Name}/${path}`;
    const send = async (method: string, path: string, body?: string) => {
      const res = await request(at(path), { method, dispatcher, headers: { AccessKey: String(read.Password) }, body });
      return { status: res.statusCode, text: await res.body.text() };
    };
    try {
      assert.equal((await send("PUT", "docs/hello.txt", "hello")).status, 201);
      assert.deepEqual(await send("GET", "docs/hello.txt"), { status: 200, text: "hello" });
      const described = await send("DESCRIBE", "docs/hello.txt");
      assert.equal(described.status, 200);
      assert.equal((JSON.parse(described.text) as { Length: number }).Length, 5);
      assert.equal((await send("DELETE", "docs/hello.txt")).status, 200);
      assert.equal((await send("GET", "docs/hello.txt")).status, 404);
      const refused = await request(at("docs/x.txt"), { method: "PUT", dispatcher, headers: { AccessKey: "wrong" }, body: "x" });
      assert.equal(refused.statusCode, 401);
      await refused.body.dump();
    } finally {
      await dispatcher.close();
    }
  });
});
