import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { getPullZone } from "bunnynet-pulumi/dist/lookups/pullZones.js";

const TYPE = "PullZone";

describe("pulumi: PullZone through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  const uniqueName = () => `pulumi-pz-${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  async function created(extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { name: uniqueName(), origin: { url: "https://origin.example.com" }, ...extra });
    assert.deepEqual(checked.failures, []);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  describe("check", () => {
    it("refuses bad input naming each property, without any API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, {
        name: "has space",
        origin: { url: "ftp://x.example", port: 70000 },
        zones: ["EU", "MARS"],
        blockedCountries: ["de"],
        cacheExpirationTime: -2,
        ipFamily: "IPv5",
        tier: "Gold",
        nmae: "typo",
      });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["blockedCountries.0", "cacheExpirationTime", "ipFamily", "name", "nmae", "origin.port", "origin.url", "tier", "zones.1"]);
      assert.equal((await emu.requests()).length, 0);
    });

    it("an origin must be exactly one kind, named at preview: none, or two, are refused", async () => {
      const none = await host.check(TYPE, {}, { name: "a", origin: { hostHeader: "x.example" } });
      assert.deepEqual(none.failures.map(named).map((f) => f.property), ["origin"]);
      assert.match(none.failures.map(named)[0].reason, /exactly one of url, storageZoneId, scriptId, containerAppId with containerEndpointId, frontsContainerEndpoint \(got none\)/);
      const two = await host.check(TYPE, {}, { name: "a", origin: { url: "https://x.example", storageZoneId: 5 } });
      assert.match(two.failures.map(named)[0].reason, /got url, storageZoneId/);
    });

    it("normalises with the defaults of a new zone, sorts sets, and leaves unknowns (a storage zone not made yet) to up", async () => {
      const res = await host.check(TYPE, {}, { name: "a", origin: { storageZoneId: "12" }, blockedIps: ["2.2.2.2", "1.1.1.1"] });
      assert.deepEqual(res.failures, []);
      assert.deepEqual(res.inputs.origin, { storageZoneId: 12, forwardHostHeader: false, verifySsl: false, followRedirects: false });
      assert.deepEqual(res.inputs.blockedIps, ["1.1.1.1", "2.2.2.2"]);
      assert.deepEqual(res.inputs.zones, ["AF", "ASIA", "EU", "SA", "US"]);
      const unknown = await host.check(TYPE, {}, { name: "a", origin: { storageZoneId: UNKNOWN_VALUE } });
      assert.deepEqual(unknown.failures, []);
      assert.deepEqual(unknown.inputs.origin, { storageZoneId: UNKNOWN_VALUE, forwardHostHeader: false, verifySsl: false, followRedirects: false });
    });
  });

  describe("life cycle", () => {
    it("creates the zone in one call with its settings; cdnHostname is the whole name.b-cdn.net (Terraform #16)", async () => {
      await emu.markRequests();
      const { id, outputs, inputs } = await created({ origin: { url: "https://origin.example.com", port: 8443, scheme: "https", hostHeader: "www.example.com" }, zones: ["EU", "US"], ipFamily: "IPv4Only", corsEnabled: false, requestCoalescingEnabled: true, errorPageWhitelabel: true });
      const writes = (await emu.requests()).filter((r) => r.method !== "GET");
      assert.deepEqual(writes.map((r) => `${r.method} ${r.route}`), ["POST /pullzone"]);
      assert.equal(outputs.cdnHostname, `${inputs.name}.b-cdn.net`);
      assert.equal(outputs.pullZoneId, Number(id));
      const real = await emu.client().pullZones.getPullZone(Number(id));
      assert.equal(real.OriginHostHeader, "www.example.com");
      assert.equal(real.EnableGeoZoneASIA, false);
      assert.equal(real.IpFamilyPolicy, 0);
      assert.equal(real.EnableAccessControlOriginHeader, false);
      assert.equal(real.EnableRequestCoalescing, true);
      assert.equal(real.ErrorPageWhitelabel, true);
      assert.equal(outputs.requestCoalescingTimeout, 30);
      assert.equal(outputs.tokenAuthKey, real.ZoneSecurityKey);
      assert.deepEqual((outputs.origin as Record<string, unknown>).port, 8443);
    });

    it("diff: settings and the origin change in place; a new name replaces", async () => {
      const { id, outputs, inputs } = await created();
      const diff = (news: Record<string, unknown>) => host.diff(TYPE, id, outputs, { ...inputs, ...news });
      assert.deepEqual(await diff({}), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await diff({ cacheExpirationTime: 60, blockedIps: ["192.0.2.1"] }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await diff({ origin: { storageZoneId: 5, forwardHostHeader: false, verifySsl: false, followRedirects: false } }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await diff({ name: "renamed" }), { changes: "some", replaces: ["name"], deleteBeforeReplace: false });
    });

    it("update sends every setting in one POST /pullzone/{id}, moving the origin to a storage zone", async () => {
      const { id, outputs, inputs } = await created();
      const storage = await emu.client().storageZones.createStorageZone({ Name: uniqueName(), Region: "DE" });
      await emu.markRequests();
      const checked = await host.check(TYPE, inputs, { ...inputs, origin: { storageZoneId: storage.Id }, blockedReferrers: ["bad.example"], logEnabled: false });
      const updated = await host.update(TYPE, id, outputs, checked.inputs);
      const writes = (await emu.requests()).filter((r) => r.method !== "GET");
      assert.deepEqual(writes.map((r) => `${r.method} ${r.route}`), ["POST /pullzone/:id"]);
      assert.deepEqual(updated.origin, { storageZoneId: storage.Id, forwardHostHeader: false, verifySsl: false, followRedirects: false });
      const real = await emu.client().pullZones.getPullZone(Number(id));
      assert.equal(real.StorageZoneId, storage.Id);
      assert.deepEqual(real.BlockedReferrers, ["bad.example"]);
      assert.equal(real.EnableLogging, false);
    });

    it("refresh shows drift made outside Pulumi; a zone deleted outside (or with its storage zone) reads as gone", async () => {
      const { id, outputs, inputs } = await created();
      await emu.client().pullZones.updatePullZone(Number(id), { BlockedIps: ["203.0.113.9"], EnableTLS1: false });
      host = await host.nextDeployment(CONFIG());
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.deepEqual(read.inputs, { ...inputs, blockedIps: ["203.0.113.9"], enableTls1: false });
      assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });

      const storage = await emu.client().storageZones.createStorageZone({ Name: uniqueName(), Region: "DE" });
      const onStorage = await created({ origin: { storageZoneId: storage.Id } });
      await emu.client().storageZones.deleteStorageZone(storage.Id);
      host = await host.nextDeployment(CONFIG());
      assert.equal((await host.read(TYPE, onStorage.id, onStorage.outputs, onStorage.inputs)).id, "");
      await host.delete(TYPE, onStorage.id, onStorage.outputs);
    });

    it("delete removes the zone with its hostnames; deleting again (already gone) succeeds", async () => {
      const { id, outputs } = await created();
      await emu.client().pullZones.addHostname(Number(id), "pulumi-delete.example.com");
      await host.delete(TYPE, id, outputs);
      await assert.rejects(emu.client().pullZones.getPullZone(Number(id)), NotFoundError);
      await host.delete(TYPE, id, outputs);
    });
  });

  describe("adoption and names", () => {
    it("a name in use in this account: refused without adoptExisting; with it, adopted and given the program's settings", async () => {
      const name = uniqueName();
      const existing = await emu.client().pullZones.createPullZone({ Name: name, OriginUrl: "https://old.example" });
      host = await host.nextDeployment(CONFIG());
      const plain = await host.check(TYPE, {}, { name, origin: { url: "https://new.example" } });
      await assert.rejects(host.create(TYPE, plain.inputs), (e: unknown) => e instanceof HostError && /PullZone name=".*" already exists .*adoptExisting: true/.test(e.message));
      const adopting = await host.check(TYPE, {}, { name, origin: { url: "https://new.example" }, adoptExisting: true, cacheExpirationTime: 120 });
      const res = await host.create(TYPE, adopting.inputs);
      assert.equal(res.id, String(existing.Id));
      const real = await emu.client().pullZones.getPullZone(existing.Id);
      assert.equal(real.OriginUrl, "https://new.example");
      assert.equal(real.CacheControlMaxAgeOverride, 120);
    });
  });

  describe("getPullZone", () => {
    it("finds a zone by id or by name, and names what it did not find", async () => {
      const { id, inputs } = await created();
      const client = emu.client();
      const byId = await getPullZone({ id }, { client });
      const byName = await getPullZone({ name: String(inputs.name) }, { client });
      assert.equal(byId.pullZoneId, Number(id));
      assert.equal(byName.pullZoneId, Number(id));
      assert.equal(byName.cdnHostname, `${String(inputs.name)}.b-cdn.net`);
      assert.deepEqual(byName.hostnames, [`${String(inputs.name)}.b-cdn.net`]);
      await assert.rejects(getPullZone({ name: "no-such-zone" }, { client }), /no pull zone named "no-such-zone"/);
      await assert.rejects(getPullZone({ id: 987654 }, { client }), NotFoundError);
    });
  });
});
