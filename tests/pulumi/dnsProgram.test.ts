import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { DnsRecord } from "bunnynet-pulumi/dist/resources/dnsRecord.js";
import { DnsZone } from "bunnynet-pulumi/dist/resources/dnsZone.js";

const RECORD = "pulumi-nodejs:dynamic/bunnynet:DnsRecord";

describe("pulumi: a program with DNS zones and records, up to destroy, in-process", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    harness = new ProgramHarness({
      config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" },
      secretConfig: ["bunnynet:apiKey"],
    });
  });
  after(() => emu?.stop());

  const domains = ["program-a.dns.example", "program-b.dns.example"];
  const program = (wwwZone: 0 | 1, mxPriority = 10) => () => {
    const zones = domains.map((domain, i) => new DnsZone(`zone-${i}`, { domain }));
    const pullZoneId = Number(emu.fixtures.pullZoneId);
    const www = new DnsRecord("www", { dnsZoneId: zones[wwwZone].dnsZoneId, type: "CNAME", name: "www", value: "site.b-cdn.net" });
    new DnsRecord("mx", { dnsZoneId: zones[0].dnsZoneId, type: "MX", name: "@", value: "mail.example.net", priority: mxPriority });
    new DnsRecord("cdn", { dnsZoneId: zones[0].dnsZoneId, type: "PullZone", name: "cdn", pullZoneId });
    return { nameservers: zones[0].nameservers, wwwId: www.recordId };
  };
  const recordsOf = async (i: number) => {
    const zone = await emu.client().dns.findZoneByDomain(domains[i]);
    return zone ? zone.Records.map((r) => r.Name).sort() : undefined;
  };

  it("up creates the zones and their records, in order", async () => {
    const run = await harness.up(program(0));
    assert.deepEqual(run.steps.map((s) => s.op), ["create", "create", "create", "create", "create"]);
    assert.deepEqual(run.outputs.nameservers, ["kiki.bunny.net", "coco.bunny.net"]);
    assert.deepEqual(await recordsOf(0), ["", "cdn", "www"]);
  });

  it("an unchanged up makes no API call", async () => {
    await emu.markRequests();
    const run = await harness.up(program(0));
    assert.ok(run.steps.every((s) => s.op === "same"));
    assert.deepEqual(await emu.requests(), []);
  });

  it("refresh finds no drift, and a changed priority updates in place", async () => {
    const steps = await harness.refresh();
    assert.ok(steps.every((s) => s.op === "refresh"));
    const preview = await harness.preview(program(0));
    assert.ok(preview.steps.every((s) => s.op === "same"), JSON.stringify(preview.steps));
    const before = harness.resource(RECORD, "mx")!.id;
    const run = await harness.up(program(0, 20));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => s.op), ["update"]);
    assert.equal(harness.resource(RECORD, "mx")!.id, before);
  });

  it("moving a record to another zone replaces it (Terraform #90)", async () => {
    const old = harness.resource(RECORD, "www")!.id;
    const run = await harness.up(program(1, 20));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => s.op), ["replace"]);
    assert.notEqual(harness.resource(RECORD, "www")!.id, old);
    assert.deepEqual(await recordsOf(0), ["", "cdn"]);
    assert.deepEqual(await recordsOf(1), ["www"]);
  });

  it("destroy leaves nothing", async () => {
    await harness.destroy();
    assert.equal(await recordsOf(0), undefined);
    assert.equal(await recordsOf(1), undefined);
  });
});
