import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { NotFoundError, UnauthorizedError } from "bunnynet-pulumi/dist/http/errors.js";
import { startEmulator, type TestEmulator } from "../support/emulator";

const sha = (text: string) => createHash("sha256").update(text).digest("hex").toUpperCase();

describe("emulator: several accounts, each with its own keys and objects", () => {
  let emu: TestEmulator;
  let otherKey: string;

  before(async () => {
    emu = await startEmulator();
    ({ accessKey: otherKey } = await emu.addAccount());
  });
  after(() => emu.stop());

  it("an added account has a key of its own, refused as the first account's and the other way round", async () => {
    assert.notEqual(otherKey, emu.fixtures.accessKey);
    const first = emu.client();
    const other = emu.client({ apiKey: otherKey });
    const firstKeys = new Set((await first.apiKeys.listPage()).Items.map((k) => k.Key));
    const otherKeys = new Set((await other.apiKeys.listPage()).Items.map((k) => k.Key));
    assert.ok(otherKeys.has(otherKey) && !firstKeys.has(otherKey));
    assert.ok(firstKeys.has(emu.fixtures.accessKey) && !otherKeys.has(emu.fixtures.accessKey));
  });

  it("an object of one account is a 404 with the other's key, and ids never collide", async () => {
    const first = emu.client();
    const other = emu.client({ apiKey: otherKey });
    const a = await first.dns.addZone("first-account.example");
    const b = await other.dns.addZone("other-account.example");
    assert.notEqual(a.Id, b.Id);
    await assert.rejects(other.dns.getZone(a.Id), NotFoundError);
    await assert.rejects(first.dns.getZone(b.Id), NotFoundError);
    assert.equal(await other.dns.findZoneByDomain("first-account.example"), undefined);
    assert.equal((await first.dns.getZone(a.Id)).Domain, "first-account.example");
    // A record written with the other key to the first account's zone: refused, nothing written there.
    await assert.rejects(other.dns.addRecord(a.Id, { Type: 0, Name: "www", Value: "192.0.2.1", Ttl: 300 }), NotFoundError);
    assert.deepEqual((await first.dns.getZone(a.Id)).Records, []);
  });

  it("a library's key reaches its own account's library only; storage passwords likewise", async () => {
    const first = emu.client();
    const other = emu.client({ apiKey: otherKey });
    const library = await other.videoLibraries.create({ Name: "other-library" });
    const video = await other.stream.createVideo(library.Id, { title: "only here" });
    assert.equal((await other.stream.getVideo(library.Id, video.guid)).title, "only here");
    await assert.rejects(first.videoLibraries.get(library.Id), NotFoundError);
    // A tus upload carries no AccessKey, only its library's signature: it runs in the account of the library it names.
    const bytes = Buffer.from("not a video, but bytes");
    await other.stream.uploadVideoResumable(library.Id, video.guid, { length: bytes.length, open: (start, end) => Readable.from([bytes.subarray(start, end + 1)]) }, { filetype: "video/mp4", title: "only here" });
    assert.equal((await other.stream.getVideo(library.Id, video.guid)).originalHash, createHash("sha256").update(bytes).digest("hex"));

    const zone = await other.storage.access((await other.storageZones.createStorageZone({ Name: "other-files", Region: "DE" })).Id);
    await other.storage.putFile(zone, "a.txt", Buffer.from("other"), { checksum: sha("other") });
    assert.deepEqual((await other.storage.listFiles(zone, "")).map((f) => f.path), ["a.txt"]);
    await assert.rejects(first.storageZones.getStorageZone(zone.zoneId), NotFoundError);
    // The first account's own zone of that name would be another zone: its password does not open this one.
    const mine = await first.storage.access((await first.storageZones.createStorageZone({ Name: "first-files", Region: "DE" })).Id);
    await assert.rejects(first.storage.listFiles({ ...zone, password: mine.password }, ""), UnauthorizedError);
  });

  it("every account's CDN logs are read with its key or a logging token it issued, for its own zones only", async () => {
    /** POST /_emulator/logging-token in the account whose key is sent (the first without one). */
    const issue = async (pullZoneId: number, accessKey?: string) =>
      fetch(`${emu.url}/_emulator/logging-token`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(accessKey === undefined ? {} : { AccessKey: accessKey }) },
        body: JSON.stringify({ pullZoneId }),
      });
    const tokenOf = async (pullZoneId: number, accessKey?: string) => {
      const res = await issue(pullZoneId, accessKey);
      assert.equal(res.status, 200);
      return ((await res.json()) as { token: string }).token;
    };
    const first = emu.client();
    const other = emu.client({ apiKey: otherKey });
    const otherFixtures = (await (await fetch(`${emu.url}/_emulator/fixtures`, { headers: { AccessKey: otherKey } })).json()) as { pullZoneId: number; accessKey: string };
    assert.equal(otherFixtures.accessKey, otherKey, "the admin routes act in the account whose key is sent");
    const otherZone = Number(otherFixtures.pullZoneId);
    const firstZone = Number(emu.fixtures.pullZoneId);

    // The account key reads the account's seeded logs; live traffic goes to the account named.
    assert.ok((await other.logging.queryPage(otherZone, { limit: 5 })).data.length > 0);
    const traffic = await fetch(`${emu.url}/_emulator/logs/traffic`, { method: "POST", headers: { "content-type": "application/json", AccessKey: otherKey }, body: JSON.stringify({ pullZoneId: otherZone, count: 2 }) });
    assert.equal(traffic.status, 200);
    const live = ((await traffic.json()) as { requestIds: string[] }).requestIds;
    // With origin-shield requests: the generator makes 3% of requests Origin Shield's, which a query leaves out by default.
    const newestPage = { limit: 10, includeOriginShield: true };
    const newest = (await other.logging.queryPage(otherZone, newestPage)).data.map((e) => e.requestId);
    assert.ok(live.every((id) => newest.includes(id)), "the live requests are the other account's zone's");

    // A token the other account issued reads its zone; the first account's tokens and zones stay the first's.
    const otherToken = await tokenOf(otherZone, otherKey);
    const byToken = await first.logging.withBearer(otherToken).queryPage(otherZone, newestPage);
    assert.deepEqual(byToken.data.map((e) => e.requestId), newest);
    assert.ok((await first.logging.withBearer(await tokenOf(firstZone)).queryPage(firstZone, { limit: 1 })).data.length > 0);
    await assert.rejects(other.logging.withBearer(await tokenOf(firstZone, otherKey)).queryPage(firstZone, { limit: 1 }), NotFoundError, "a zone of another account is not found with the other's token");
    // A key that is no account's is refused, not given the first account's token.
    assert.equal((await issue(firstZone, "not-an-account-key")).status, 403);
  });

  it("the certificate admin routes act in the account whose key is sent, and refuse a key that is no account's", async () => {
    const admin = (path: string, body: unknown, accessKey?: string) =>
      fetch(`${emu.url}/_emulator/${path}`, { method: "POST", headers: { "content-type": "application/json", ...(accessKey === undefined ? {} : { AccessKey: accessKey }) }, body: JSON.stringify(body) });
    const other = emu.client({ apiKey: otherKey });
    const first = emu.client();
    const zoneOf = async (client: typeof first, name: string, hostname: string) => {
      const zone = await client.pullZones.createPullZone({ Name: name, OriginUrl: "https://origin.example.com" });
      await client.pullZones.addHostname(zone.Id, hostname);
    };
    await zoneOf(other, "other-certs", "shop.other-certs.example");
    await zoneOf(first, "first-certs", "shop.first-certs.example");

    // DNS not pointing yet: sent with the other account's key, it holds back that account's certificate only.
    assert.equal((await admin("dns-pending", { hostname: "shop.other-certs.example", attempts: 1 }, otherKey)).status, 200);
    await assert.rejects(other.pullZones.loadFreeCertificate("shop.other-certs.example"), /do not point to bunny.net yet/);
    await other.pullZones.loadFreeCertificate("shop.other-certs.example");
    // Without a key, the first account's.
    assert.equal((await admin("dns-pending", { hostname: "shop.first-certs.example", attempts: 1 })).status, 200);
    await assert.rejects(first.pullZones.loadFreeCertificate("shop.first-certs.example"), /do not point to bunny.net yet/);

    // Certificates issued elsewhere count in the account they are sent for.
    assert.equal((await admin("certificates-issued", { domain: "other-certs.example", count: 50 }, otherKey)).status, 200);
    await assert.rejects(other.pullZones.loadFreeCertificate("shop.other-certs.example"), /rateLimited/);
    // Sent with the other account's key, the first account's domain is not counted in the first account.
    assert.equal((await admin("certificates-issued", { domain: "first-certs.example", count: 50 }, otherKey)).status, 200);
    await first.pullZones.loadFreeCertificate("shop.first-certs.example");

    for (const path of ["dns-pending", "certificates-issued", "account-jwts/revoke"]) {
      const res = await admin(path, path === "dns-pending" ? { hostname: "x.example", attempts: 1 } : { domain: "x.example", count: 1 }, "not-an-account-key");
      assert.equal(res.status, 403, path);
    }
  });

  it("reset goes back to the first account alone: the added key is refused", async () => {
    const disposable = await startEmulator();
    try {
      const { accessKey } = await disposable.addAccount();
      await disposable.client({ apiKey: accessKey }).dns.addZone("gone.example");
      await disposable.reset();
      await assert.rejects(disposable.client({ apiKey: accessKey }).dns.findZoneByDomain("gone.example"), UnauthorizedError);
    } finally {
      await disposable.stop();
    }
  });

  it("a file-backed emulator keeps its added accounts across a restart, each beside the first store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bunnynet-accounts-"));
    try {
      const path = join(dir, "state.db");
      let disk = await startEmulator(path);
      const { accessKey } = await disk.addAccount();
      const zone = await disk.client({ apiKey: accessKey }).dns.addZone("kept.example");
      await disk.stop();
      assert.ok(existsSync(`${path}.account-2`));
      disk = await startEmulator(path);
      try {
        assert.equal((await disk.client({ apiKey: accessKey }).dns.getZone(zone.Id)).Domain, "kept.example");
        await assert.rejects(disk.client().dns.getZone(zone.Id), NotFoundError);
      } finally {
        await disk.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
