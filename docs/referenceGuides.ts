/** How the reference pages (docs/reference.ts) are grouped in the index, and which hand-written guide each links. */
import { tokenName } from "./referenceNames";

/** The index's sections: every resource and function is in exactly one (the generator fails on one that is not). */
export const GROUPS: { title: string; members: string[] }[] = [
  { title: "DNS", members: ["DnsZone", "DnsRecord", "getDnsZone", "getDnsRecord"] },
  { title: "CDN and pull zones", members: ["PullZone", "PullZoneHostname", "EdgeRule", "OptimizerClass", "CachePurge", "getPullZone", "getCdnLogs", "getCdnRegions"] },
  { title: "Shield", members: ["ShieldZone", "WafRule", "RateLimitRule", "AccessList", "getAccessLists"] },
  { title: "Edge scripting", members: ["EdgeScript", "ScriptSecret", "ScriptVariable"] },
  { title: "Storage", members: ["StorageZone", "StorageFolder", "StorageFile", "getRegions"] },
  { title: "Stream", members: ["VideoLibrary", "StreamCollection", "StreamVideo", "VideoThumbnail", "getVideoLanguages"] },
  { title: "Magic Containers", members: ["ContainerApp", "ContainerRegistry", "VolumeInstanceDeletion", "getAppEndpoints", "getContainerAppContainer", "getContainerRegistry"] },
  { title: "Databases", members: ["Database"] },
  { title: "Account", members: ["TeamMember", "getApiKeys"] },
];

/**
 * The hand-written guide section (docs/guides/) that says how each resource behaves beyond its inputs, what it costs in
 * API calls and how it compares with bunny.net's Terraform provider; lookups share one guide. Each page links it, and
 * the README's row of a resource links the same section (tests/docs.test.ts).
 */
export const GUIDE_SECTIONS: Record<string, string> = {
  DnsZone: "dns.md#dnszone-and-dnsrecord",
  DnsRecord: "dns.md#dnszone-and-dnsrecord",
  PullZone: "cdn.md#pullzone",
  PullZoneHostname: "cdn.md#pullzonehostname",
  EdgeRule: "cdn.md#edgerule",
  OptimizerClass: "cdn.md#optimizerclass",
  CachePurge: "cdn.md#cachepurge",
  StorageZone: "storage.md#storagezone",
  StorageFile: "storage.md#storagefile-and-storagefolder",
  StorageFolder: "storage.md#storagefile-and-storagefolder",
  ShieldZone: "shield.md#shieldzone",
  RateLimitRule: "shield.md#ratelimitrule",
  WafRule: "shield.md#wafrule-and-accesslist",
  AccessList: "shield.md#wafrule-and-accesslist",
  VideoLibrary: "stream.md#videolibrary",
  StreamVideo: "stream.md#streamvideo-and-streamcollection",
  StreamCollection: "stream.md#streamvideo-and-streamcollection",
  VideoThumbnail: "stream.md#videothumbnail",
  EdgeScript: "edge-scripting.md#edgescript",
  ScriptVariable: "edge-scripting.md#scriptvariable-and-scriptsecret",
  ScriptSecret: "edge-scripting.md#scriptvariable-and-scriptsecret",
  ContainerApp: "containers.md#containerapp",
  ContainerRegistry: "containers.md#containerregistry",
  VolumeInstanceDeletion: "containers.md#volumeinstancedeletion",
  Database: "databases-and-team.md#database",
  TeamMember: "databases-and-team.md#teammember",
};
const LOOKUPS_GUIDE = "lookups.md";

/** A page's line linking its guide (tests/docs.test.ts fails on a resource of the schema with no guide section). */
export function guideLine(token: string): string[] {
  const name = tokenName(token);
  const isFunction = name.startsWith("get");
  const section = isFunction ? LOOKUPS_GUIDE : GUIDE_SECTIONS[name];
  if (!section) return [];
  return [`How it behaves beyond its ${isFunction ? "arguments" : "inputs"}, its cost in API calls and Terraform's equivalent: [the guide](../guides/${section}).`, ""];
}
