import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: pull zones created, changed, listed and deleted", () => {
  let emu: TestEmulator;
  let counter = 0;
  const uniqueName = () => `client-pz-${++counter}`;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("creates a zone on a URL origin with its settings (201 with the zone) and a system hostname", async () => {
    const client = emu.client();
    const name = uniqueName();
    const zone = await client.pullZones.createPullZone({ Name: name, OriginUrl: "https://origin.example.com", OriginType: 0, EnableGeoZoneAF: false, BlockedIps: ["192.0.2.1"], DnsOriginPort: 8443 });
    assert.equal(zone.Name, name);
    assert.equal(zone.OriginUrl, "https://origin.example.com");
    assert.equal(zone.OriginType, 0);
    assert.equal(zone.EnableGeoZoneAF, false);
    assert.equal(zone.EnableGeoZoneEU, true);
    assert.deepEqual(zone.BlockedIps, ["192.0.2.1"]);
    assert.equal(zone.CnameDomain, "b-cdn.net");
    assert.deepEqual(zone.Hostnames.map((h) => [h.Value, h.IsSystemHostname]), [[`${name}.b-cdn.net`, true]]);
    assert.equal((await client.pullZones.getPullZone(zone.Id)).Name, name);
  });

  it("refuses a name in use anywhere (pullzone.name_taken as AlreadyExistsError), a bad origin, a missing storage zone", async () => {
    const client = emu.client();
    const name = uniqueName();
    await client.pullZones.createPullZone({ Name: name, OriginUrl: "https://a.example" });
    await assert.rejects(client.pullZones.createPullZone({ Name: name.toUpperCase(), OriginUrl: "https://a.example" }), (e: unknown) => e instanceof AlreadyExistsError && e.errorKey === "pullzone.name_taken");
    await assert.rejects(client.pullZones.createPullZone({ Name: uniqueName(), OriginUrl: "ftp://a.example" }), (e: unknown) => e instanceof ValidationError && e.field === "OriginUrl");
    await assert.rejects(client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 2, StorageZoneId: 987654 }), (e: unknown) => e instanceof ValidationError && e.field === "StorageZoneId");
    await assert.rejects(client.pullZones.createPullZone({ Name: "no spaces", OriginUrl: "https://a.example" }), (e: unknown) => e instanceof ValidationError && e.field === "Name");
  });

  it("updates settings in place and moves the origin from a URL to a storage zone (the other kind's fields cleared)", async () => {
    const client = emu.client();
    const zone = await client.pullZones.createPullZone({ Name: uniqueName(), OriginUrl: "https://a.example" });
    const storage = await client.storageZones.createStorageZone({ Name: uniqueName(), Region: "DE" });
    const updated = await client.pullZones.updatePullZone(zone.Id, { OriginType: 2, StorageZoneId: storage.Id, CacheControlMaxAgeOverride: 3600, IpFamilyPolicy: 0 });
    assert.equal(updated.OriginType, 2);
    assert.equal(updated.StorageZoneId, storage.Id);
    assert.equal(updated.OriginUrl, "");
    assert.equal(updated.CacheControlMaxAgeOverride, 3600);
    assert.equal(updated.IpFamilyPolicy, 0);
    assert.deepEqual(await client.pullZones.getPullZone(zone.Id), updated);
    await assert.rejects(client.pullZones.updatePullZone(987654, { EnableLogging: false }), NotFoundError);
  });

  it("an edge script as the origin: EdgeScriptId kept, an unknown script refused naming the field", async () => {
    const client = emu.client();
    const scriptId = Number(emu.fixtures.scriptId);
    const zone = await client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 4, EdgeScriptId: scriptId });
    assert.equal(zone.OriginType, 4);
    assert.equal(zone.EdgeScriptId, scriptId);
    assert.equal(zone.StorageZoneId, 0);
    await assert.rejects(client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 4, EdgeScriptId: 987654 }), (e: unknown) => e instanceof ValidationError && e.field === "EdgeScriptId");
  });

  it("a container app's endpoint as the origin: both ids kept; a missing id, an unknown app or an endpoint not of the app refused naming the field; another kind clears them", async () => {
    const client = emu.client();
    const appId = String(emu.fixtures.appId);
    const endpoints: { id: string }[] = [];
    for await (const e of client.containers.listEndpoints(appId)) endpoints.push(e);
    const zone = await client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 5, MagicContainersAppId: appId, MagicContainersEndpointId: endpoints[0].id });
    assert.deepEqual([zone.OriginType, zone.MagicContainersAppId, zone.MagicContainersEndpointId, zone.OriginUrl, zone.StorageZoneId, zone.EdgeScriptId], [5, appId, endpoints[0].id, "", 0, 0]);
    const refusedFor = (body: Record<string, unknown>) => client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 5, ...body }).then(
      () => "accepted",
      (e: unknown) => (e instanceof ValidationError ? e.field : String(e)),
    );
    assert.equal(await refusedFor({ MagicContainersAppId: appId }), "MagicContainersEndpointId");
    assert.equal(await refusedFor({ MagicContainersEndpointId: endpoints[0].id }), "MagicContainersAppId");
    assert.equal(await refusedFor({ MagicContainersAppId: "no-such-app", MagicContainersEndpointId: endpoints[0].id }), "MagicContainersAppId");
    assert.equal(await refusedFor({ MagicContainersAppId: appId, MagicContainersEndpointId: "no-such-endpoint" }), "MagicContainersEndpointId");
    const moved = await client.pullZones.updatePullZone(zone.Id, { OriginType: 0, OriginUrl: "https://a.example" });
    assert.deepEqual([moved.OriginType, moved.MagicContainersAppId, moved.MagicContainersEndpointId], [0, null, null]);
  });

  it("lists zones page by page and finds one by name", async () => {
    const client = emu.client();
    const names = [uniqueName(), uniqueName(), uniqueName(), uniqueName(), uniqueName(), uniqueName()];
    for (const n of names) await client.pullZones.createPullZone({ Name: n, OriginUrl: "https://a.example" });
    const seen: string[] = [];
    for await (const z of client.pullZones.listPullZones({ search: "client-pz-", perPage: 5 })) seen.push(z.Name);
    for (const n of names) assert.ok(seen.includes(n), n);
    assert.equal((await client.pullZones.findPullZoneByName(names[3]))?.Name, names[3]);
    assert.equal(await client.pullZones.findPullZoneByName("client-pz"), undefined, "a search match is not a name match");
  });

  it("deleting a zone removes its hostnames, its Shield zone and rules; a second delete is NotFoundError", async () => {
    const client = emu.client();
    // The seeded main zone has a Shield zone with rules: delete it last, in its own emulator.
    const zoneId = Number(emu.fixtures.pullZoneId);
    await client.pullZones.addHostname(zoneId, "gone-with-zone.example.com");
    const shield = await client.shield.getShieldZoneByPullZone(zoneId);
    await client.pullZones.deletePullZone(zoneId);
    await assert.rejects(client.pullZones.getPullZone(zoneId), NotFoundError);
    await assert.rejects(client.shield.getShieldZoneByPullZone(zoneId), NotFoundError);
    assert.equal(emu.emulator.ctx.store.list("shieldRateLimit", shield.shieldZoneId).length, 0);
    await assert.rejects(client.pullZones.deletePullZone(zoneId), NotFoundError);
    await assert.rejects(client.pullZones.removeHostname(zoneId, "gone-with-zone.example.com"), NotFoundError);
    // The hostname is free again for another zone.
    const other = await client.pullZones.createPullZone({ Name: uniqueName(), OriginUrl: "https://a.example" });
    await client.pullZones.addHostname(other.Id, "gone-with-zone.example.com");
  });
});
