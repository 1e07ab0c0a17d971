import assert from "node:assert/strict";
import { DNS_RECORD_TYPE_NAMES, RECORD_TYPE_RULES, TYPE_SPECIFIC_FIELDS, recordTypeName, typeFailures } from "bunnynet-pulumi/dist/resources/dnsRecordTypes.js";
import { DNS_RECORD_TYPES } from "bunnynet-pulumi/dist/schemas/dnsEnums.js";

const none = new Set<string>();
const properties = (inputs: Record<string, unknown>, unknown = none) => typeFailures(inputs, unknown).map((f) => f.property).sort();

describe("unit: DNS record type rules", () => {
  it("names every type of DnsRecordTypes, by name in any case or by number, and nothing else", () => {
    assert.equal(DNS_RECORD_TYPE_NAMES.length, 16);
    for (const name of DNS_RECORD_TYPE_NAMES) {
      assert.equal(recordTypeName(name.toLowerCase()), name);
      assert.equal(recordTypeName(DNS_RECORD_TYPES[name]), name);
    }
    assert.equal(recordTypeName(16), undefined);
    assert.equal(recordTypeName("constructor"), undefined);
    assert.equal(recordTypeName(true), undefined);
  });

  it("refuses, for each type, every type-specific field it does not use", () => {
    for (const type of DNS_RECORD_TYPE_NAMES) {
      const unused = TYPE_SPECIFIC_FIELDS.filter((f) => !(f in RECORD_TYPE_RULES[type].fields));
      const inputs: Record<string, unknown> = { type, value: RECORD_TYPE_RULES[type].value === "none" ? undefined : "x" };
      for (const f of unused) inputs[f] = f === "tag" || f === "latencyZone" || f === "monitorType" || f === "smartRoutingType" ? "None" : 1;
      const refused = typeFailures(inputs, none).filter((f) => f.reason.startsWith("is not used"));
      assert.deepEqual(refused.map((f) => f.property).sort(), [...unused].sort(), type);
    }
  });

  it("requires each type's own fields, and judges nothing not known yet", () => {
    assert.deepEqual(properties({ type: "SRV", value: "sip.example.net" }), ["port", "priority", "weight"]);
    assert.deepEqual(properties({ type: "SRV", value: "sip.example.net" }, new Set(["port", "priority", "weight"])), []);
    assert.deepEqual(properties({ type: "PullZone" }), ["pullZoneId"]);
    assert.deepEqual(properties({ type: "A", port: 1 }, new Set(["type"])), []);
    assert.deepEqual(properties({ type: "CAA", value: "letsencrypt.org", tag: "is sue" }), ["tag"]);
  });

  it("checks values by type: addresses, hostnames without a trailing dot, the null MX, URLs, TLSA", () => {
    const ok = (type: string, value: string, extra: Record<string, unknown> = {}) => properties({ type, value, ...extra }).length === 0;
    assert.ok(ok("A", "192.0.2.1") && !ok("A", "2001:db8::1"));
    assert.ok(ok("AAAA", "2001:db8::1") && !ok("AAAA", "192.0.2.1"));
    assert.ok(ok("CNAME", "a.example.net") && !ok("CNAME", "a.example.net.") && !ok("CNAME", "a b"));
    assert.ok(ok("MX", ".", { priority: 0 }) && ok("MX", "mx.example.net", { priority: 10 }));
    assert.ok(ok("Redirect", "https://example.net/x") && !ok("Redirect", "example.net"));
    assert.ok(ok("TLSA", "3 1 1 AB12") && !ok("TLSA", "3 1 AB12"));
    assert.ok(ok("TXT", "any text at all") && !ok("TXT", "x".repeat(65536)));
  });
});
