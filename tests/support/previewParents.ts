import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/**
 * A parent of each kind with children that take only its id output (tests/engine/previewParents.test.ts through the
 * real CLI, tests/pulumi/previewParents.test.ts through the testing kit): each parent's one setting comes from config
 * (the keys of PARENT_SETTINGS), so a test can change a parent alone and count the steps its preview plans.
 */
export function previewParents(): void {
  const config = new pulumi.Config();
  const prefix = config.get("prefix") ?? "parents";

  const zone = new bunnynet.DnsZone("zone", { domain: `${prefix}.example`, loggingEnabled: config.getBoolean("dnsLogging") ?? false });
  new bunnynet.DnsRecord("record", { dnsZoneId: zone.dnsZoneId, type: "A", name: "www", value: "192.0.2.10" });

  const storage = new bunnynet.StorageZone("files", { name: `${prefix}-files`, region: "DE", custom404FilePath: config.get("notFoundPage") ?? "/404.html" });
  const cdn = new bunnynet.PullZone("cdn", {
    name: `${prefix}-cdn`,
    origin: { storageZoneId: storage.storageZoneId },
    cacheExpirationTime: config.getNumber("cacheExpirationTime") ?? 3600,
  });
  new bunnynet.PullZoneHostname("www", { pullZoneId: cdn.pullZoneId, hostname: `www.${prefix}.example` });
  new bunnynet.EdgeRule("headers", {
    pullZoneId: cdn.pullZoneId,
    description: "nosniff",
    actions: [{ type: "SetResponseHeader", parameters: ["X-Content-Type-Options", "nosniff"] }],
    triggers: [{ type: "Url", patterns: ["*"] }],
  });
  const shield = new bunnynet.ShieldZone("shield", { pullZoneId: cdn.pullZoneId, learningMode: config.getBoolean("learningMode") ?? false });
  new bunnynet.RateLimitRule("api-limit", {
    shieldZoneId: shield.shieldZoneId,
    name: "api limit",
    configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/api", requestCount: 100, timeframe: "PerOneMinute", blockTime: "ForFiveMinutes" },
  });

  const greeting = config.get("greeting") ?? "hello";
  const script = new bunnynet.EdgeScript("edge", { name: `${prefix}-edge`, type: "Standalone", code: `export default { fetch: () => new Response("${greeting}") };\n` });
  new bunnynet.ScriptVariable("variable", { scriptId: script.scriptId, name: "GREETING", defaultValue: "hello" });

  const videos = new bunnynet.VideoLibrary("videos", { name: `${prefix}-videos`, blockNoneReferrer: config.getBoolean("blockNoneReferrer") ?? false });
  new bunnynet.StreamCollection("collection", { libraryId: videos.libraryId, name: "talks" });
}

/** Every resource of the program, by name. */
export const PREVIEW_PARENTS_RESOURCES = ["zone", "record", "files", "cdn", "www", "headers", "shield", "api-limit", "edge", "variable", "videos", "collection"];

/** Each parent, the config key of its one setting and a new value for it. */
export const PARENT_SETTINGS: [parent: string, key: string, value: string][] = [
  ["cdn", "cacheExpirationTime", "60"],
  ["zone", "dnsLogging", "true"],
  ["files", "notFoundPage", "/missing.html"],
  ["shield", "learningMode", "true"],
  ["edge", "greeting", "hi"],
  ["videos", "blockNoneReferrer", "true"],
];
