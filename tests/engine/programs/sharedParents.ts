// Issue 42: one program, several stacks. The stack with `parents: true` makes the parents (two pull zones, a Shield
// zone, a DNS zone, a script, a storage zone, a library); every other stack declares the same children of those
// parents, by the ids in its config — as two stacks of one program (staging, production) share an account's objects
// they only reference. tests/engine/ownership.test.ts deploys them one after the other and at once.
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

const config = new pulumi.Config();
const prefix = config.require("prefix");

function parents() {
  const cdn = new bunnynet.PullZone("cdn", { name: `${prefix}-cdn`, origin: { url: "https://origin.shared.example" } });
  const guarded = new bunnynet.PullZone("guarded", { name: `${prefix}-guarded`, origin: { url: "https://origin.shared.example" } });
  // Room for two stacks' rules at once.
  const shield = new bunnynet.ShieldZone("shield", { pullZoneId: cdn.pullZoneId, planType: "Enterprise" });
  const zone = new bunnynet.DnsZone("zone", { domain: `${prefix}.example` });
  const script = new bunnynet.EdgeScript("script", { name: `${prefix}-script`, type: "Standalone", code: 'export default { fetch: () => new Response("ok") };\n' });
  const files = new bunnynet.StorageZone("files", { name: `${prefix}-files`, region: "DE" });
  const videos = new bunnynet.VideoLibrary("videos", { name: `${prefix}-videos` });
  return {
    pullZoneId: cdn.pullZoneId,
    guardedPullZoneId: guarded.pullZoneId,
    shieldZoneId: shield.shieldZoneId,
    dnsZoneId: zone.dnsZoneId,
    scriptId: script.scriptId,
    storageZoneId: files.storageZoneId,
    libraryId: videos.libraryId,
  };
}

function children() {
  const id = (name: string) => config.requireNumber(name);
  const shieldZoneId = id("shieldZoneId");
  new bunnynet.EdgeRule("force-ssl", { pullZoneId: id("pullZoneId"), actions: [{ type: "ForceSSL" }], triggers: [{ type: "Url", patterns: ["http://*"] }] });
  new bunnynet.EdgeRule("headers", {
    pullZoneId: id("pullZoneId"),
    description: "security headers",
    actions: [{ type: "SetResponseHeader", parameters: ["X-Frame-Options", "DENY"] }],
    triggers: [{ type: "Url", patterns: ["*"] }],
  });
  new bunnynet.WafRule("admin", { shieldZoneId, name: "admin", conditions: [{ variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" }], action: "Block" });
  new bunnynet.RateLimitRule("api", {
    shieldZoneId,
    name: "api",
    configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/api", requestCount: 100, timeframe: "PerOneMinute", blockTime: "ForOneMinute" },
  });
  new bunnynet.AccessList("countries", { shieldZoneId, name: "countries", type: "Country", entries: ["KP"], action: "Block" });
  new bunnynet.DnsRecord("www", { dnsZoneId: id("dnsZoneId"), type: "A", name: "www", value: "192.0.2.10" });
  new bunnynet.PullZoneHostname("www", { pullZoneId: id("pullZoneId"), hostname: `www.${prefix}.example` });
  new bunnynet.ShieldZone("guard", { pullZoneId: id("guardedPullZoneId") });
  new bunnynet.ScriptVariable("mode", { scriptId: id("scriptId"), name: "MODE", defaultValue: "live" });
  new bunnynet.StorageFile("robots", { storageZoneId: id("storageZoneId"), path: "robots.txt", content: "User-agent: *\n" });
  new bunnynet.StreamCollection("clips", { libraryId: id("libraryId"), name: "clips" });
  new bunnynet.ScriptSecret("token", { scriptId: id("scriptId"), name: "TOKEN", value: pulumi.secret("s3cret") });
  // Objects of their own, named alike in every stack (the name is the identity): the account holds one of each name.
  new bunnynet.PullZone("own-cdn", { name: `${prefix}-own-cdn`, origin: { url: "https://origin.shared.example" } });
  new bunnynet.StorageZone("own-files", { name: `${prefix}-own-files`, region: "DE" });
  new bunnynet.DnsZone("own-zone", { domain: `own.${prefix}.example` });
  new bunnynet.EdgeScript("own-script", { name: `${prefix}-own-script`, type: "Middleware", code: "export default {};\n" });
  return undefined;
}

export const made = config.getBoolean("parents") ? parents() : children();
