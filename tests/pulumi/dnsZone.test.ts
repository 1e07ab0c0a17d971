import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { getDnsZone } from "bunnynet-pulumi/dist/lookups/dnsZones.js";

const TYPE = "DnsZone";

describe("pulumi: DnsZone through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  const uniqueDomain = () => `zone-${++counter}.pulumi-dns.example`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);
  const routes = async () => (await emu.requests()).map((r) => `${r.method} ${r.route}`);

  async function created(extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { domain: uniqueDomain(), ...extra });
    assert.deepEqual(checked.failures, []);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  describe("check", () => {
    it("refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, { domain: "not a domain", loggingEnabled: "yes", logAnonymizationType: "Half", soaEmail: "nobody", certificateKeyType: "Dsa", domian: "typo" });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["certificateKeyType", "domain", "domian", "logAnonymizationType", "loggingEnabled", "soaEmail"]);
      assert.match(byProperty.domain, /domain name/);
      assert.match(byProperty.domian, /unknown property/);
      assert.deepEqual(await emu.requests(), []);
    });

    it("custom nameservers: both needed with customNameservers, refused without it", async () => {
      const need = await host.check(TYPE, {}, { domain: "a.example", customNameservers: true, nameserver1: "ns1.example.net" });
      assert.deepEqual(need.failures.map(named).map((f) => f.property), ["nameserver2"]);
      const unused = await host.check(TYPE, {}, { domain: "a.example", nameserver1: "ns1.example.net" });
      assert.deepEqual(unused.failures.map(named).map((f) => f.property), ["nameserver1"]);
      assert.match(named(unused.failures[0]).reason, /customNameservers: true/);
    });

    it("normalises the domain (case, trailing dot) and fills the defaults; unknown values pass unjudged", async () => {
      const res = await host.check(TYPE, {}, { domain: "Example.COM." });
      assert.deepEqual(res.failures, []);
      assert.deepEqual(res.inputs, { domain: "example.com", customNameservers: false, loggingEnabled: false, logIpAnonymization: true, logAnonymizationType: "OneDigit", certificateKeyType: "Ecdsa", dnssecEnabled: false, adoptExisting: false });
      const preview = await host.check(TYPE, {}, { domain: UNKNOWN_VALUE, customNameservers: UNKNOWN_VALUE, nameserver1: "ns1.example.net" });
      assert.deepEqual(preview.failures, []);
    });
  });

  describe("life cycle", () => {
    it("creates a zone with the defaults in one call, with bunny.net's nameservers", async () => {
      await emu.markRequests();
      const { id, outputs, inputs } = await created();
      assert.deepEqual(await routes(), ["POST /dnszone"]);
      assert.deepEqual(outputs, { ...inputs, dnsZoneId: Number(id), nameservers: ["kiki.bunny.net", "coco.bunny.net"], nameserversDetected: false });
    });

    it("creates a zone with its settings: the add, one update and DNSSEC", async () => {
      await emu.markRequests();
      const { id, outputs } = await created({ customNameservers: true, nameserver1: "ns1.example.net", nameserver2: "ns2.example.net", soaEmail: "dns@example.net", loggingEnabled: true, logAnonymizationType: "Drop", certificateKeyType: "Rsa", dnssecEnabled: true });
      assert.deepEqual(await routes(), ["POST /dnszone", "POST /dnszone/:id", "POST /dnszone/:id/dnssec"]);
      assert.deepEqual(outputs.nameservers, ["ns1.example.net", "ns2.example.net"]);
      const real = await emu.client().dns.getZone(Number(id));
      assert.deepEqual([real.SoaEmail, real.LoggingEnabled, real.LogAnonymizationType, real.CertificateKeyType, real.DnsSecEnabled], ["dns@example.net", true, 1, 1, true]);
    });

    it("diff: settings change in place, the domain replaces", async () => {
      const { id, outputs, inputs } = await created();
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, loggingEnabled: true, dnssecEnabled: true }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      const moved = await host.diff(TYPE, id, outputs, { ...inputs, domain: "other.example" });
      assert.deepEqual(moved.replaces, ["domain"]);
    });

    it("update sets the settings and DNSSEC in place, and turning custom nameservers off gives bunny.net's back", async () => {
      const { id, outputs, inputs } = await created({ customNameservers: true, nameserver1: "ns1.example.net", nameserver2: "ns2.example.net" });
      await emu.markRequests();
      const updated = await host.update(TYPE, id, outputs, { ...inputs, customNameservers: false, nameserver1: undefined, nameserver2: undefined, loggingEnabled: true, dnssecEnabled: true });
      assert.deepEqual(await routes(), ["POST /dnszone/:id", "POST /dnszone/:id/dnssec"]);
      assert.deepEqual(updated.nameservers, ["kiki.bunny.net", "coco.bunny.net"]);
      assert.equal(updated.loggingEnabled, true);
      assert.equal(updated.dnssecEnabled, true);
      assert.equal(updated.dnsZoneId, Number(id));
    });

    it("refresh shows a change made outside Pulumi, and the unchanged program then plans it back", async () => {
      const { id, outputs, inputs } = await created();
      await emu.client().dns.updateZone(Number(id), { LoggingEnabled: true, CertificateKeyType: 1 });
      host = await host.nextDeployment(CONFIG());
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.equal(read.outputs.loggingEnabled, true);
      assert.deepEqual(read.inputs, { ...inputs, loggingEnabled: true, certificateKeyType: "Rsa" });
      assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
    });

    it("a zone deleted outside Pulumi reads as gone, and deleting it again succeeds", async () => {
      const { id, outputs, inputs } = await created();
      await emu.client().dns.deleteZone(Number(id));
      host = await host.nextDeployment(CONFIG());
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
      await host.delete(TYPE, id, outputs);
    });

    it("delete removes the zone", async () => {
      const { id, outputs } = await created();
      await host.delete(TYPE, id, outputs);
      await assert.rejects(emu.client().dns.getZone(Number(id)), NotFoundError);
    });
  });

  describe("adoption instead of import", () => {
    it("without adoptExisting, the API's refusal of a taken domain says how to adopt it", async () => {
      const domain = uniqueDomain();
      await emu.client().dns.addZone(domain);
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { domain });
      await assert.rejects(host.create(TYPE, checked.inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.match(e.message, new RegExp(`DnsZone domain="${domain.replace(/\./g, "\\.")}" already exists .*set adoptExisting: true`));
        return true;
      });
    });

    it("with adoptExisting, a zone that matches is looked up and taken over, with no write (no add sent to be refused)", async () => {
      const domain = uniqueDomain();
      const existing = await emu.client().dns.addZone(domain);
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { domain, adoptExisting: true });
      await emu.markRequests();
      const res = await host.create(TYPE, checked.inputs);
      assert.equal(res.id, String(existing.Id));
      assert.deepEqual(await routes(), ["GET /dnszone"]);
    });

    it("with adoptExisting, a zone whose settings differ is refused, naming them", async () => {
      const domain = uniqueDomain();
      const existing = await emu.client().dns.addZone(domain);
      await emu.client().dns.updateZone(existing.Id, { LoggingEnabled: true });
      host = await host.nextDeployment(CONFIG());
      const checked = await host.check(TYPE, {}, { domain, adoptExisting: true });
      await assert.rejects(host.create(TYPE, checked.inputs), /differs from the inputs in: loggingEnabled/);
    });
  });

  describe("getDnsZone", () => {
    it("finds a zone by id or by domain, and says so when there is none", async () => {
      const client = emu.client();
      const byId = await getDnsZone({ dnsZoneId: String(emu.fixtures.dnsZoneId) }, { client });
      assert.equal(byId.domain, emu.fixtures.dnsZoneDomain);
      assert.deepEqual(byId.nameservers, ["kiki.bunny.net", "coco.bunny.net"]);
      assert.equal(byId.recordCount, 2);
      const byDomain = await getDnsZone({ domain: `${String(emu.fixtures.dnsZoneDomain).toUpperCase()}.` }, { client });
      assert.equal(byDomain.dnsZoneId, Number(emu.fixtures.dnsZoneId));
      await assert.rejects(getDnsZone({ domain: "missing.example" }, { client }), /no DNS zone for domain missing\.example/);
      await assert.rejects(getDnsZone({ dnsZoneId: 987654 }, { client }), /no DNS zone with id 987654/);
      await assert.rejects(getDnsZone({ dnsZoneId: "abc" }, { client }), /positive integer/);
    });
  });
});
