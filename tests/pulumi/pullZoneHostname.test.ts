import assert from "node:assert/strict";
import type { PullZoneRecord } from "bunnynet-emulator/dist/surfaces/pullZones.js";
import type { TestEmulator } from "../support/emulator";
import { ProviderHost, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";

import { refusal, takeOverValue } from "../support/takeOver";

const TYPE = "PullZoneHostname";

describe("pulumi: PullZoneHostname through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let pullZoneId: number;
  let otherZoneId: number;
  let counter = 0;
  const uniqueHostname = () => `cdn${++counter}.pulumi-test.example`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    pullZoneId = Number(emu.fixtures.pullZoneId);
    otherZoneId = Number(emu.fixtures.loggingDisabledPullZoneId);
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  const onZone = async (zoneId: number, hostname: string) => emu.client().pullZones.findHostname(zoneId, hostname);

  async function checked(props: Record<string, unknown>) {
    const res = await host.check(TYPE, {}, props);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  async function created(extra: Record<string, unknown> = {}) {
    const inputs = await checked({ pullZoneId, hostname: uniqueHostname(), ...extra });
    const res = await host.create(TYPE, inputs);
    return { ...res, inputs };
  }

  describe("check", () => {
    it("refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, { pullZoneId: "zone-1", hostname: "https://cdn.example.com/path", adoptExisting: "yes", hostnmae: "x" });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["adoptExisting", "hostname", "hostnmae", "pullZoneId"]);
      assert.match(byProperty.hostname, /bare hostname, without a scheme/);
      assert.match(byProperty.hostnmae, /unknown property/);
      const bare = await host.check(TYPE, {}, { pullZoneId, hostname: "localhost" });
      assert.deepEqual(bare.failures.map(named).map((f) => f.property), ["hostname"]);
      assert.equal((await emu.requests()).length, 0);
    });

    it("normalises inputs: numeric-string zone id, lowercased hostname, no TLS, a 120 s certificate wait, adoptExisting=false", async () => {
      const inputs = await checked({ pullZoneId: String(pullZoneId), hostname: "CDN.Example.COM" });
      assert.deepEqual(inputs, { pullZoneId, hostname: "cdn.example.com", tls: "none", forceSsl: false, certificateWaitSeconds: 120, adoptExisting: false });
    });
  });

  describe("life cycle", () => {
    it("creates the hostname on the zone, with its id and flags as outputs", async () => {
      const { id, outputs, inputs } = await created();
      const real = await onZone(pullZoneId, String(inputs.hostname));
      assert.ok(real, "the hostname is on the zone");
      assert.equal(id, String(real.Id));
      assert.deepEqual(outputs, { ...inputs, hostnameId: real.Id, forceSsl: false, hasCertificate: false, isSystemHostname: false });
    });

    it("a zone that does not exist: the error says there is no such pull zone in this account (issue 37)", async () => {
      const inputs = await checked({ pullZoneId: 424242, hostname: uniqueHostname() });
      await assert.rejects(host.create(TYPE, inputs), (e: unknown) => {
        assert.match(String(e), /^HostError: create: there is no pull zone 424242 in this account \(POST \/pullzone\/424242\/addHostname answered 404/);
        return true;
      });
    });

    it("diff: nothing but adoptExisting changed is no change; another hostname or zone replaces, without deleting first", async () => {
      const { id, outputs, inputs } = await created();
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, adoptExisting: true }), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, hostname: "other.example.com" }), { changes: "some", replaces: ["hostname"], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, pullZoneId: otherZoneId }), { changes: "some", replaces: ["pullZoneId"], deleteBeforeReplace: false });
    });

    it("refresh of an unchanged hostname keeps id and outputs", async () => {
      const { id, outputs, inputs } = await created();
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.equal(read.id, id);
      assert.deepEqual(read.outputs, outputs);
      assert.deepEqual(read.inputs, inputs);
    });

    it("refresh after a removal outside Pulumi, or with the zone gone, reports it gone (no id)", async () => {
      const { id, outputs, inputs } = await created();
      await emu.client().pullZones.removeHostname(pullZoneId, String(inputs.hostname));
      host = await host.nextDeployment(CONFIG());
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
      const onMissingZone = { ...outputs, pullZoneId: 987654 };
      assert.equal((await host.read(TYPE, id, onMissingZone, { ...inputs, pullZoneId: 987654 })).id, "");
    });

    it("delete removes the hostname; deleting it again, or on a zone that is gone, succeeds", async () => {
      const { id, outputs, inputs } = await created();
      await host.delete(TYPE, id, outputs);
      assert.equal(await onZone(pullZoneId, String(inputs.hostname)), undefined);
      await host.delete(TYPE, id, outputs);
      await host.delete(TYPE, id, { ...outputs, pullZoneId: 987654 });
    });
  });

  describe("adoption (the 'already registered' half-success)", () => {
    it("without adoptExisting, a hostname already on its zone is not taken (no proof of whose it is); the refusal's command takes it, adding nothing", async () => {
      const hostname = uniqueHostname();
      await emu.client().pullZones.addHostname(pullZoneId, hostname);
      const existing = (await onZone(pullZoneId, hostname))!;
      const inputs = await checked({ pullZoneId, hostname });
      await emu.markRequests();
      const refused = await refusal(host.create(TYPE, inputs));
      assert.match(refused, /keeps nothing on a PullZoneHostname that shows which stack made it/);
      const adopt = takeOverValue(refused);
      assert.ok(adopt.endsWith(`=${existing.Id}`), adopt);
      host = await host.nextDeployment(CONFIG(), { env: { BUNNYNET_ADOPT: adopt } });
      const res = await host.create(TYPE, inputs);
      assert.equal(res.id, String(existing.Id));
      // Each time the API refuses the add (the hostname is registered): that refusal is the look-up, then the zone tells whose it is.
      assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.status}`), ["POST 400", "GET 200", "POST 400", "GET 200"]);
      host = await host.nextDeployment(CONFIG());
    });

    it("with adoptExisting, a hostname already on the zone is taken over as it is (written in any case)", async () => {
      const hostname = uniqueHostname();
      await emu.client().pullZones.addHostname(pullZoneId, hostname);
      const existing = (await onZone(pullZoneId, hostname))!;
      const inputs = await checked({ pullZoneId, hostname: hostname.toUpperCase(), adoptExisting: true });
      await emu.markRequests();
      const res = await host.create(TYPE, inputs);
      assert.equal(res.id, String(existing.Id));
      assert.equal(res.outputs.hostname, hostname);
      // A program asking to adopt looks first: nothing is sent to be refused.
      assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.status}`), ["GET 200"], "nothing was added");
    });

    it("a hostname registered on another zone cannot be adopted: the error says so, with or without adoptExisting", async () => {
      const hostname = uniqueHostname();
      await emu.client().pullZones.addHostname(otherZoneId, hostname);
      for (const adoptExisting of [false, true]) {
        const inputs = await checked({ pullZoneId, hostname, adoptExisting });
        await assert.rejects(host.create(TYPE, inputs), new RegExp(`${hostname.replace(/\./g, "\\.")} is already registered on another pull zone, not on pull zone ${pullZoneId}: it cannot be adopted`));
      }
      assert.ok(await onZone(otherZoneId, hostname), "the other zone keeps it");
      assert.equal(await onZone(pullZoneId, hostname), undefined);
    });

    it("the zone's system hostname is managed without being added: force-SSL on, and off again on delete, the hostname stays", async () => {
      const zone = await emu.client().pullZones.getPullZone(pullZoneId);
      const system = zone.Hostnames.find((h) => h.IsSystemHostname)!;
      const inputs = await checked({ pullZoneId, hostname: system.Value, forceSsl: true });
      await emu.markRequests();
      const res = await host.create(TYPE, inputs);
      assert.equal(res.id, String(system.Id));
      assert.equal(res.outputs.isSystemHostname, true);
      assert.ok(!(await emu.requests()).some((r) => r.route === "/pullzone/:id/addHostname"), "nothing was added");
      assert.equal((await onZone(pullZoneId, system.Value))?.ForceSSL, true);
      await host.delete(TYPE, res.id, res.outputs);
      const after = await onZone(pullZoneId, system.Value);
      assert.equal(after?.ForceSSL, false);
      assert.equal(after?.HasCertificate, true, "bunny.net's own certificate stays");
    });

    it("a managed hostname (IsManagedHostname, not the system one) is configured like the system one: not added, not removed on delete", async () => {
      // Arranged straight in the emulator's store: bunny.net makes managed hostnames, no route adds one.
      const store = emu.emulator.ctx.store;
      const zone = store.get<PullZoneRecord>("pullzone", pullZoneId)!;
      const system = zone.Hostnames.find((h) => h.IsSystemHostname)!;
      const managed = "managed-edge.b-cdn.net";
      zone.Hostnames.push({ ...system, Id: store.nextId("hostname"), Value: managed, IsSystemHostname: false, IsManagedHostname: true });
      store.put("pullzone", pullZoneId, zone);
      const inputs = await checked({ pullZoneId, hostname: managed, tls: "free", forceSsl: true });
      await emu.markRequests();
      const res = await host.create(TYPE, inputs);
      assert.equal(res.outputs.isSystemHostname, true);
      assert.equal((await onZone(pullZoneId, managed))?.ForceSSL, true);
      await host.delete(TYPE, res.id, res.outputs);
      const routes = (await emu.requests()).map((r) => r.route);
      assert.ok(!routes.includes("/pullzone/:id/addHostname") && !routes.includes("/pullzone/:id/removeHostname"), routes.join(", "));
      assert.equal((await onZone(pullZoneId, managed))?.ForceSSL, false, "still on the zone, force-SSL off");
    });

    it("an add whose answer was lost (500 after the server acted) is found on the zone and kept, not refused", async () => {
      await emu.faults({ rules: [{ path: "/addHostname$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after" }] });
      try {
        const inputs = await checked({ pullZoneId, hostname: uniqueHostname() });
        await emu.markRequests();
        const res = await host.create(TYPE, inputs);
        assert.equal(res.id, String((await onZone(pullZoneId, String(inputs.hostname)))!.Id));
        assert.equal((await emu.requests()).filter((r) => r.method === "POST").length, 1);
      } finally {
        await emu.clearFaults();
      }
    });
  });
});
