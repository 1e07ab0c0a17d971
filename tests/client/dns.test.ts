import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, InvalidRequestError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { DNS_RECORD_TYPES } from "bunnynet-pulumi/dist/schemas/dnsEnums.js";
import { dnsTargetsOf } from "bunnynet-emulator/dist/surfaces/dns/routes.js";

describe("client: DNS zones and records", () => {
  let emu: TestEmulator;
  let counter = 0;
  const domain = () => `client-${++counter}.dns-test.example`;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("reads the seeded zone with bunny.net's nameservers and its records", async () => {
    const zone = await emu.client().dns.getZone(Number(emu.fixtures.dnsZoneId));
    assert.equal(zone.Domain, emu.fixtures.dnsZoneDomain);
    assert.deepEqual([zone.Nameserver1, zone.Nameserver2], ["kiki.bunny.net", "coco.bunny.net"]);
    assert.deepEqual(
      zone.Records.map((r) => [r.Type, r.Name, r.Value]),
      [
        [DNS_RECORD_TYPES.A, "", "192.0.2.10"],
        [DNS_RECORD_TYPES.CNAME, "www", "emulator-dns.example"],
      ],
    );
  });

  it("adds a zone (one call), finds it by domain, updates its settings, and refuses the same domain again", async () => {
    const dns = emu.client().dns;
    const name = domain();
    await emu.markRequests();
    const zone = await dns.addZone(name.toUpperCase());
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["POST /dnszone"]);
    assert.equal(zone.Domain, name);
    assert.equal((await dns.findZoneByDomain(`${name}.`))?.Id, zone.Id);
    assert.equal(await dns.findZoneByDomain(`x${name}`), undefined);
    const updated = await dns.updateZone(zone.Id, { CustomNameserversEnabled: true, Nameserver1: "ns1.example.net", Nameserver2: "ns2.example.net", SoaEmail: "dns@example.net", LoggingEnabled: true, LogAnonymizationType: 1, CertificateKeyType: 1 });
    assert.deepEqual([updated.Nameserver1, updated.Nameserver2, updated.SoaEmail, updated.LoggingEnabled, updated.LogAnonymizationType, updated.CertificateKeyType], ["ns1.example.net", "ns2.example.net", "dns@example.net", true, 1, 1]);
    await assert.rejects(dns.addZone(name), (e: unknown) => e instanceof AlreadyExistsError && e.field === "Domain");
  });

  it("refuses bad zone settings with the API's error naming the field", async () => {
    const dns = emu.client().dns;
    const zone = await dns.addZone(domain());
    await assert.rejects(dns.updateZone(zone.Id, { CustomNameserversEnabled: true }), (e: unknown) => e instanceof ValidationError && e.field === "Nameserver1");
    await assert.rejects(dns.updateZone(zone.Id, { SoaEmail: "not-an-email" }), (e: unknown) => e instanceof ValidationError && e.field === "SoaEmail");
    // The client's own check refuses a value outside the documented enum before sending.
    await assert.rejects(dns.updateZone(zone.Id, { LogAnonymizationType: 7 as 0 }), InvalidRequestError);
  });

  it("turns DNSSEC on and off", async () => {
    const dns = emu.client().dns;
    const zone = await dns.addZone(domain());
    const on = await dns.setDnssec(zone.Id, true);
    assert.equal(on.Enabled, true);
    assert.ok(on.PublicKey.length > 0);
    assert.equal((await dns.getZone(zone.Id)).DnsSecEnabled, true);
    assert.equal((await dns.setDnssec(zone.Id, false)).Enabled, false);
  });

  it("adds, updates (204, read back through the zone) and deletes a record", async () => {
    const dns = emu.client().dns;
    const zone = await dns.addZone(domain());
    const added = await dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.MX, Name: "", Value: "mail.example.net", Priority: 10, Ttl: 600 });
    assert.deepEqual([added.Type, added.Name, added.Value, added.Priority, added.Ttl], [4, "", "mail.example.net", 10, 600]);
    await dns.updateRecord(zone.Id, added.Id, { Priority: 20, Comment: "backup" });
    const read = await dns.getRecord(zone.Id, added.Id);
    assert.deepEqual([read.Priority, read.Comment, read.Value], [20, "backup", "mail.example.net"]);
    await dns.deleteRecord(zone.Id, added.Id);
    await assert.rejects(dns.getRecord(zone.Id, added.Id), NotFoundError);
    await assert.rejects(dns.deleteRecord(zone.Id, added.Id), NotFoundError);
  });

  it("links PullZone and Script records by id, and refuses ids that do not exist", async () => {
    const dns = emu.client().dns;
    const zone = await dns.addZone(domain());
    const pullZoneId = Number(emu.fixtures.pullZoneId);
    const pz = await dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.PullZone, Name: "cdn", PullZoneId: pullZoneId });
    assert.equal(pz.LinkName, String(pullZoneId));
    // The value is a label, kept as sent; without one the zone's name (as bunny.net's Terraform provider sends it).
    const zoneName = (await emu.client().pullZones.getPullZone(pullZoneId)).Name;
    assert.equal(pz.Value, zoneName);
    const labelled = await dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.PullZone, Name: "cdn2", PullZoneId: pullZoneId, Value: "my label" });
    assert.equal(labelled.Value, "my label");
    const script = await dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.Script, Name: "edge", ScriptId: Number(emu.fixtures.scriptId) });
    assert.equal(script.LinkName, String(emu.fixtures.scriptId));
    await assert.rejects(dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.PullZone, Name: "x", PullZoneId: 987654 }), (e: unknown) => e instanceof ValidationError && e.field === "PullZoneId");
    await assert.rejects(dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.A, Name: "x", Value: "not-an-ip" }), (e: unknown) => e instanceof ValidationError && e.field === "Value");
    await assert.rejects(dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.CNAME, Name: "x", Value: "target.example." }), (e: unknown) => e instanceof ValidationError && e.field === "Value");
  });

  it("deleting a zone takes its records: they are gone on read and on delete", async () => {
    const dns = emu.client().dns;
    const zone = await dns.addZone(domain());
    const record = await dns.addRecord(zone.Id, { Type: DNS_RECORD_TYPES.TXT, Name: "note", Value: "hello" });
    await dns.deleteZone(zone.Id);
    await assert.rejects(dns.getZone(zone.Id), NotFoundError);
    await assert.rejects(dns.getRecord(zone.Id, record.Id), NotFoundError);
    await assert.rejects(dns.deleteRecord(zone.Id, record.Id), NotFoundError);
    assert.equal(emu.emulator.ctx.store.get("dnsrecord", record.Id), undefined);
  });

  it("pages through zones and bounds perPage as documented", async () => {
    const dns = emu.client().dns;
    for (let i = 0; i < 6; i++) await dns.addZone(`page-${i}.paging.example`);
    const found: string[] = [];
    for await (const z of dns.listZones({ search: "paging.example", perPage: 5 })) found.push(z.Domain);
    assert.equal(found.length, 6);
    await assert.rejects(dns.listZonesPage({ perPage: 2 }), InvalidRequestError);
  });

  it("dnsTargetsOf: the longest zone holding a hostname, and its routing records at exactly that name", async () => {
    const dns = emu.client().dns;
    const parent = await dns.addZone("targets.example");
    const child = await dns.addZone("sub.targets.example");
    const pullZoneId = Number(emu.fixtures.pullZoneId);
    await dns.addRecord(parent.Id, { Type: DNS_RECORD_TYPES.CNAME, Name: "www", Value: "site.b-cdn.net" });
    await dns.addRecord(parent.Id, { Type: DNS_RECORD_TYPES.TXT, Name: "www", Value: "ignored" });
    await dns.addRecord(parent.Id, { Type: DNS_RECORD_TYPES.A, Name: "off", Value: "192.0.2.1", Disabled: true });
    await dns.addRecord(child.Id, { Type: DNS_RECORD_TYPES.PullZone, Name: "cdn", PullZoneId: pullZoneId });
    assert.deepEqual(dnsTargetsOf(emu.emulator.ctx.store, "WWW.targets.example."), { zoneFound: true, records: [{ type: "CNAME", value: "site.b-cdn.net" }] });
    const cdn = dnsTargetsOf(emu.emulator.ctx.store, "cdn.sub.targets.example");
    assert.deepEqual(cdn.records.map((r) => [r.type, r.pullZoneId]), [["PullZone", pullZoneId]]);
    assert.deepEqual(dnsTargetsOf(emu.emulator.ctx.store, "off.targets.example"), { zoneFound: true, records: [] });
    assert.deepEqual(dnsTargetsOf(emu.emulator.ctx.store, "elsewhere.example"), { zoneFound: false, records: [] });
  });
});
