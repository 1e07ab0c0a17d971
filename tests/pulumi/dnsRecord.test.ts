import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";

import { ownerMark } from "bunnynet-pulumi/dist/pulumi/ownership.js";

const TYPE = "DnsRecord";

describe("pulumi: DnsRecord through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let zoneId: number;
  let counter = 0;
  const unique = (prefix = "rec") => `${prefix}-${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    zoneId = (await emu.client().dns.addZone("records.pulumi-dns.example")).Id;
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);
  const routes = async () => (await emu.requests()).map((r) => `${r.method} ${r.route}`);

  /** One valid record of each of the sixteen types (name, then the type's own fields). */
  const VALID: Record<string, () => Record<string, unknown>> = {
    A: () => ({ value: "192.0.2.1", weight: 50, monitorType: "Http" }),
    AAAA: () => ({ value: "2001:db8::1" }),
    CNAME: () => ({ value: "target.example.net", accelerated: false }),
    TXT: () => ({ value: "v=spf1 -all" }),
    MX: () => ({ value: "mail.example.net", priority: 10 }),
    Redirect: () => ({ value: "https://example.net/landing" }),
    Flatten: () => ({ value: "target.example.net" }),
    PullZone: () => ({ pullZoneId: Number(emu.fixtures.pullZoneId) }),
    SRV: () => ({ name: `_sip._tcp.${unique("srv")}`, value: "sip.example.net", priority: 10, weight: 5, port: 5060 }),
    CAA: () => ({ value: "letsencrypt.org", tag: "issue", flags: 0 }),
    PTR: () => ({ value: "host.example.net" }),
    Script: () => ({ scriptId: String(emu.fixtures.scriptId) }),
    NS: () => ({ value: "ns1.example.net" }),
    SVCB: () => ({ value: "svc.example.net", priority: 1 }),
    HTTPS: () => ({ value: "svc.example.net alpn=h2", priority: 1 }),
    TLSA: () => ({ name: `_443._tcp.${unique("tlsa")}`, value: "3 1 1 ab12cd34" }),
  };

  async function created(type: string, extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { dnsZoneId: zoneId, type, name: unique(), ...VALID[type](), ...extra });
    assert.deepEqual(checked.failures, [], `${type}: ${JSON.stringify(checked.failures)}`);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  describe("check, per type, before any call", () => {
    const BAD: [string, Record<string, unknown>, string[]][] = [
      ["A", { value: "192.0.2.300", port: 1 }, ["port", "value"]],
      ["AAAA", { value: "192.0.2.1", weight: 101 }, ["value", "weight"]],
      ["CNAME", { value: "target.example.", priority: 1 }, ["priority", "value"]],
      ["TXT", { value: "x", weight: 1 }, ["weight"]],
      ["MX", { value: "mail.example.net" }, ["priority"]],
      ["Redirect", { value: "ftp://example.net" }, ["value"]],
      ["Flatten", { value: "t.example.net", tag: "issue" }, ["tag"]],
      ["PullZone", { value: "zone.b-cdn.net" }, ["pullZoneId", "value"]],
      ["SRV", { value: "sip.example.net", priority: 1, weight: 70000 }, ["port", "weight"]],
      ["CAA", { value: "letsencrypt.org", flags: 256 }, ["flags", "tag"]],
      ["PTR", { value: "host.example.net", scriptId: 1 }, ["scriptId"]],
      ["Script", {}, ["scriptId"]],
      ["NS", { value: "ns1.example.net", accelerated: true }, ["accelerated"]],
      ["SVCB", { value: "svc.example.net" }, ["priority"]],
      ["HTTPS", { value: "svc.example.net", priority: 70000 }, ["priority"]],
      ["TLSA", { value: "not tlsa" }, ["value"]],
    ];
    for (const [type, fields, properties] of BAD) {
      it(`${type}: refuses ${properties.join(", ")}, naming them`, async () => {
        await emu.markRequests();
        const res = await host.check(TYPE, {}, { dnsZoneId: zoneId, type, name: "x", ...fields });
        assert.deepEqual(res.failures.map(named).map((f) => f.property).sort(), properties);
        assert.ok(res.failures.map(named).every((f) => f.reason.includes(type) || /must/.test(f.reason)), JSON.stringify(res.failures));
        assert.deepEqual(await emu.requests(), []);
      });
    }

    it("refuses an unknown type, a bad name and a typo, each by property", async () => {
      const res = await host.check(TYPE, {}, { dnsZoneId: "z", type: "Bogus", name: "bad name.", value: "x", vaule: "y" });
      assert.deepEqual(res.failures.map(named).map((f) => f.property).sort(), ["dnsZoneId", "name", "type", "vaule"]);
      assert.match(named(res.failures.find((f) => named(f).property === "type")!).reason, /A, AAAA, CNAME, TXT, MX, Redirect, Flatten, PullZone, SRV, CAA, PTR, Script, NS, SVCB, HTTPS, TLSA/);
    });

    it("takes the type by name in any case or by number, '@' for the apex, and the defaults", async () => {
      const res = await host.check(TYPE, {}, { dnsZoneId: String(zoneId), type: "cname", name: "@", value: "t.example.net" });
      assert.deepEqual(res.failures, []);
      assert.deepEqual(res.inputs, { dnsZoneId: zoneId, type: "CNAME", name: "", value: "t.example.net", ttl: 300, enabled: true, adoptExisting: false });
      assert.equal((await host.check(TYPE, {}, { dnsZoneId: zoneId, type: 4, name: "", value: "m.example.net", priority: 5 })).inputs.type, "MX");
    });

    it("at preview, an unknown type judges no type-specific field, and an unknown field is not required", async () => {
      assert.deepEqual((await host.check(TYPE, {}, { dnsZoneId: UNKNOWN_VALUE, type: UNKNOWN_VALUE, name: "x", port: 1 })).failures, []);
      assert.deepEqual((await host.check(TYPE, {}, { dnsZoneId: zoneId, type: "PullZone", name: "x", pullZoneId: UNKNOWN_VALUE })).failures, []);
      assert.deepEqual((await host.check(TYPE, {}, { dnsZoneId: zoneId, type: "A", name: "x", value: UNKNOWN_VALUE })).failures, []);
    });
  });

  describe("life cycle", () => {
    for (const type of Object.keys(VALID)) {
      it(`${type}: created in one call; a refresh reads it back as the program wrote it (no drift)`, async () => {
        await emu.markRequests();
        const { id, outputs, inputs } = await created(type);
        assert.deepEqual((await routes()).filter((r) => !r.startsWith("GET")), ["PUT /dnszone/:zoneId/records"]);
        assert.equal(outputs.recordId, Number(id));
        const read = await host.read(TYPE, id, outputs, inputs);
        assert.deepEqual(read.inputs, inputs);
        assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      });
    }

    it("a PullZone record keeps its pull zone's id (linkName) and reads it back", async () => {
      const { outputs } = await created("PullZone");
      assert.equal(outputs.pullZoneId, Number(emu.fixtures.pullZoneId));
      assert.equal(outputs.linkName, String(emu.fixtures.pullZoneId));
      assert.equal(outputs.value, undefined);
    });

    it("diff: another zone replaces (Terraform #90); type, name, value and the type's fields change in place", async () => {
      const { id, outputs, inputs } = await created("A");
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, dnsZoneId: 999 }), { changes: "some", replaces: ["dnsZoneId"], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, value: "192.0.2.2", name: "moved", weight: 10 }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    });

    it("update changes the record in place (one POST, read back through the zone); a removed field goes back to unset", async () => {
      const { id, outputs, inputs } = await created("A", { comment: "first" });
      await emu.markRequests();
      const { weight: _w, comment: _c, monitorType: _m, ...rest } = inputs;
      const updated = await host.update(TYPE, id, outputs, { ...rest, value: "192.0.2.99", ttl: 60, enabled: false });
      assert.deepEqual(await routes(), ["POST /dnszone/:zoneId/records/:id", "GET /dnszone/:id"]);
      assert.deepEqual([updated.value, updated.ttl, updated.enabled, updated.weight, updated.comment, updated.monitorType], ["192.0.2.99", 60, false, undefined, undefined, undefined]);
      const real = await emu.client().dns.getRecord(zoneId, Number(id));
      // The comment removed, only the owner's mark is left in it (pulumi/ownership.ts).
      assert.deepEqual([real.Value, real.Weight, real.Disabled, real.Comment, real.MonitorType], ["192.0.2.99", 0, true, ownerMark(`urn:pulumi:test::bunnynet-test::pulumi-nodejs:dynamic/bunnynet:${TYPE}::test`), 0]);
    });

    it("update can change the type in place when the new type's fields come with it", async () => {
      const { id, outputs, inputs } = await created("CNAME");
      const updated = await host.update(TYPE, id, outputs, { ...inputs, type: "MX", value: "mail.example.net", priority: 5, accelerated: undefined });
      assert.deepEqual([updated.type, updated.priority, updated.recordId], ["MX", 5, Number(id)]);
    });

    it("refresh shows a change made outside Pulumi; the unchanged program plans it back in place", async () => {
      const { id, outputs, inputs } = await created("MX");
      await emu.client().dns.updateRecord(zoneId, Number(id), { Priority: 99, Value: "other.example.net" });
      host = await host.nextDeployment(CONFIG());
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.deepEqual(read.inputs, { ...inputs, priority: 99, value: "other.example.net" });
      assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
    });
  });

  describe("already gone", () => {
    it("a record deleted outside Pulumi reads as gone; deleting it succeeds", async () => {
      const { id, outputs, inputs } = await created("TXT");
      await emu.client().dns.deleteRecord(zoneId, Number(id));
      host = await host.nextDeployment(CONFIG());
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
      await host.delete(TYPE, id, outputs);
    });

    it("a record whose zone was deleted first (taking it along) reads as gone, and its delete succeeds", async () => {
      const otherZone = (await emu.client().dns.addZone("gone.pulumi-dns.example")).Id;
      const { id, outputs, inputs } = await created("TXT", { dnsZoneId: otherZone });
      await emu.client().dns.deleteZone(otherZone);
      host = await host.nextDeployment(CONFIG());
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
      await host.delete(TYPE, id, outputs);
    });

    it("delete removes the record", async () => {
      const { id, outputs } = await created("AAAA");
      await host.delete(TYPE, id, outputs);
      await assert.rejects(emu.client().dns.getRecord(zoneId, Number(id)), NotFoundError);
    });
  });

  describe("adoption instead of import", () => {
    it("without adoptExisting, a record with the same type, name and value is refused with how to adopt it, naming its identity as set", async () => {
      const name = unique();
      await emu.client().dns.addRecord(zoneId, { Type: 3, Name: name, Value: "same" });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { dnsZoneId: zoneId, type: "TXT", name, value: "same" });
      await assert.rejects(host.create(TYPE, checked.inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.ok(e.message.includes(`DnsRecord dnsZoneId=${zoneId}, type="TXT", name="${name}", value="same" already exists`), e.message);
        assert.match(e.message, /set adoptExisting: true/);
        assert.doesNotMatch(e.message, /pullZoneId|scriptId|undefined/, "a TXT record has neither");
        return true;
      });
    });

    it("with adoptExisting, the matching record is taken over without a write; a differing one is refused naming the property", async () => {
      const name = unique();
      const existing = await emu.client().dns.addRecord(zoneId, { Type: 3, Name: name, Value: "mine", Ttl: 300 });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { dnsZoneId: zoneId, type: "TXT", name, value: "mine", adoptExisting: true });
      await emu.markRequests();
      assert.equal((await host.create(TYPE, checked.inputs)).id, String(existing.Id));
      assert.deepEqual(await routes(), ["GET /dnszone/:id"]);
      const differs = await host.check(TYPE, {}, { dnsZoneId: zoneId, type: "TXT", name, value: "mine", ttl: 60, adoptExisting: true });
      await assert.rejects(host.create(TYPE, differs.inputs), /differs from the inputs in: ttl/);
    });
  });
});
