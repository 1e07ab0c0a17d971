// The DNS program of tests/pulumi/dnsProgram.test.ts as a compiled entry for the real CLI (tests/engine/dns.test.ts):
// two zones, a CNAME in the zone `wwwZone` names, an MX with `mxPriority` and a PullZone record on `pullZoneId`.
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

const config = new pulumi.Config();
const domains = config.requireObject<string[]>("domains");
const zones = domains.map((domain, i) => new bunnynet.DnsZone(`zone-${i}`, { domain }));
const www = new bunnynet.DnsRecord("www", { dnsZoneId: zones[config.getNumber("wwwZone") ?? 0].dnsZoneId, type: "CNAME", name: "www", value: "site.b-cdn.net" });
new bunnynet.DnsRecord("mx", { dnsZoneId: zones[0].dnsZoneId, type: "MX", name: "@", value: "mail.example.net", priority: config.getNumber("mxPriority") ?? 10 });
new bunnynet.DnsRecord("cdn", { dnsZoneId: zones[0].dnsZoneId, type: "PullZone", name: "cdn", pullZoneId: config.requireNumber("pullZoneId") });

export const nameservers = zones[0].nameservers;
export const wwwId = www.recordId;
