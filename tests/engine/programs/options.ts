// DNS zones and records, each with a resource option users reach for, for tests/engine/options.test.ts through the
// real CLI. Config (`engine-options:`): `domain`; `valueA`, `valueB` (the addresses of records a and b); `adoptA`
// (adoptExisting on record a); `ignoredValue` (record "ignored" has ignoreChanges: ["value"]); `dbrZone` (0 or 1: the
// zone of record "dbr", which has deleteBeforeReplace; moving it to another zone replaces it); `protectB`;
// `importZoneId` (the resource option `import` on another zone, "imported"). Zone "kept" has retainOnDelete.
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

const config = new pulumi.Config();
const domain = config.require("domain");
const zone = new bunnynet.DnsZone("zone", { domain });
const other = new bunnynet.DnsZone("other", { domain: `other.${domain}` });
new bunnynet.DnsZone("kept", { domain: `kept.${domain}` }, { retainOnDelete: true });
new bunnynet.DnsRecord("a", { dnsZoneId: zone.dnsZoneId, type: "A", name: "a", value: config.get("valueA") ?? "192.0.2.1", adoptExisting: config.getBoolean("adoptA") });
new bunnynet.DnsRecord("b", { dnsZoneId: zone.dnsZoneId, type: "A", name: "b", value: config.get("valueB") ?? "192.0.2.2" }, { protect: config.getBoolean("protectB") });
new bunnynet.DnsRecord("ignored", { dnsZoneId: zone.dnsZoneId, type: "TXT", name: "ignored", value: config.get("ignoredValue") ?? "first" }, { ignoreChanges: ["value"] });
new bunnynet.DnsRecord("dbr", { dnsZoneId: (config.getNumber("dbrZone") ? other : zone).dnsZoneId, type: "TXT", name: "dbr", value: "delete before replace" }, { deleteBeforeReplace: true });
const importZoneId = config.get("importZoneId");
if (importZoneId) new bunnynet.DnsZone("imported", { domain: `imported.${domain}` }, { import: importZoneId });

export const zoneId = zone.dnsZoneId;
