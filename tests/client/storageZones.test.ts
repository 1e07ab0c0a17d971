import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: storage zones", () => {
  let emu: TestEmulator;
  let counter = 0;
  const uniqueName = () => `client-storage-${++counter}`;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("creates a zone (201 with its passwords and hostname), reads it, finds it by name", async () => {
    const client = emu.client();
    const name = uniqueName();
    const zone = await client.storageZones.createStorageZone({ Name: name, Region: "NY", ReplicationRegions: ["DE"], ZoneTier: 0 });
    assert.equal(zone.Name, name);
    assert.equal(zone.Region, "NY");
    assert.deepEqual(zone.ReplicationRegions, ["DE"]);
    assert.equal(zone.StorageHostname, "ny.storage.bunnycdn.com");
    assert.ok(zone.Password.length > 20 && zone.ReadOnlyPassword.length > 20 && zone.Password !== zone.ReadOnlyPassword);
    assert.deepEqual(await client.storageZones.getStorageZone(zone.Id), zone);
    assert.equal((await client.storageZones.findStorageZoneByName(name.toUpperCase()))?.Id, zone.Id);
    assert.equal(await client.storageZones.findStorageZoneByName(`${name}-not-there`), undefined);
  });

  it("refuses a name in use (storagezone.name_taken as AlreadyExistsError) and a bad region (naming the field)", async () => {
    const client = emu.client();
    const name = uniqueName();
    await client.storageZones.createStorageZone({ Name: name, Region: "DE" });
    await assert.rejects(client.storageZones.createStorageZone({ Name: name, Region: "DE" }), (e: unknown) => e instanceof AlreadyExistsError && e.errorKey === "storagezone.name_taken");
    // The client refuses a region it does not know before sending (a lower-case one too); so does the server.
    // @ts-expect-error -- not a storage region
    await assert.rejects(client.storageZones.createStorageZone({ Name: uniqueName(), Region: "de" }), /Region.*must be a storage region/);
    // @ts-expect-error -- not a storage region
    await assert.rejects(client.storageZones.createStorageZone({ Name: uniqueName(), Region: "EU" }), /Region.*must be a storage region: one of DE, UK/);
    const sent = client.http.request({ api: "core", method: "POST", path: "/storagezone", json: { Name: uniqueName(), Region: "XX" }, retry: "create" });
    await assert.rejects(sent, (e: unknown) => e instanceof ValidationError && e.field === "Region");
  });

  it("adds a replication region in place; removing one is refused (Terraform #60)", async () => {
    const client = emu.client();
    const zone = await client.storageZones.createStorageZone({ Name: uniqueName(), Region: "DE", ReplicationRegions: ["NY"] });
    await client.storageZones.updateStorageZone(zone.Id, { ReplicationZones: ["NY", "SG"], Rewrite404To200: true, Custom404FilePath: "/404.html" });
    const updated = await client.storageZones.getStorageZone(zone.Id);
    assert.deepEqual(updated.ReplicationRegions, ["NY", "SG"]);
    assert.equal(updated.Rewrite404To200, true);
    assert.equal(updated.Custom404FilePath, "/404.html");
    await assert.rejects(client.storageZones.updateStorageZone(zone.Id, { ReplicationZones: ["SG"] }), (e: unknown) => e instanceof ValidationError && e.field === "ReplicationZones");
  });

  it("deleting takes its pull zones with it by default, keeps them with deleteLinkedPullZones=false; a second delete is NotFoundError", async () => {
    const client = emu.client();
    const withZones = await client.storageZones.createStorageZone({ Name: uniqueName(), Region: "DE" });
    const linked = await client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 2, StorageZoneId: withZones.Id });
    assert.deepEqual((await client.storageZones.getStorageZone(withZones.Id)).PullZones.map((p) => p.Id), [linked.Id]);
    await client.storageZones.deleteStorageZone(withZones.Id);
    await assert.rejects(client.pullZones.getPullZone(linked.Id), NotFoundError);
    await assert.rejects(client.storageZones.deleteStorageZone(withZones.Id), NotFoundError);

    const keeping = await client.storageZones.createStorageZone({ Name: uniqueName(), Region: "DE" });
    const kept = await client.pullZones.createPullZone({ Name: uniqueName(), OriginType: 2, StorageZoneId: keeping.Id });
    await client.storageZones.deleteStorageZone(keeping.Id, { deleteLinkedPullZones: false });
    assert.equal((await client.pullZones.getPullZone(kept.Id)).Id, kept.Id);
    await assert.rejects(client.storageZones.getStorageZone(keeping.Id), NotFoundError);
  });
});
