// Every resource and lookup of bunnynet-pulumi in one program: the examples of docs/reference/, each page's between
// its `region <Name>` and `endregion` markers (docs/reference.ts copies them there; `npm run docs`). CI deploys it
// against the emulator: up, an unchanged up, destroy (tests/engine/referenceExamples.test.ts). The same program is in
// Python, Go and YAML beside this folder.
//
// Config (`bunnynet-reference-typescript:`): `appId`, `volumeId` and `instanceId`, a volume instance of an app made
// elsewhere that VolumeInstanceDeletion deletes. Files come from ../assets, relative to Pulumi.yaml.
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

const config = new pulumi.Config();

// region DnsRecord
// region DnsZone
const zone = new bunnynet.DnsZone("zone", { domain: "example.com" });
// endregion
const apex = new bunnynet.DnsRecord("apex", { dnsZoneId: zone.dnsZoneId, type: "A", name: "", value: "192.0.2.10", ttl: 300 });
// endregion

// region StorageZone
const files = new bunnynet.StorageZone("files", { name: "example-files", region: "DE", custom404FilePath: "/404.html" });
// endregion

// region StorageFolder
// Every file under ../assets/public, uploaded to the zone's root; an up sends only the files that changed.
const content = new bunnynet.StorageFolder("content", { storageZoneId: files.storageZoneId, source: "../assets/public" });
// endregion

// region StorageFile
const robots = new bunnynet.StorageFile("robots", {
  storageZoneId: files.storageZoneId,
  path: "robots.txt",
  content: "User-agent: *\nAllow: /\n",
  contentType: "text/plain",
});
// endregion

// region PullZone
// A pull zone serving the storage zone `files`.
const cdn = new bunnynet.PullZone("cdn", { name: "example-cdn", origin: { storageZoneId: files.storageZoneId } });
// The plugin's SDKs (Python, Go, YAML) also read a zone without managing it with `get` and its `id`; this package's
// resources have no `get` (dynamic providers): read one with getPullZone.
// endregion

// region PullZoneHostname
// www.example.com points at the pull zone (a record in `zone`), then gets a free certificate.
const wwwRecord = new bunnynet.DnsRecord("www-record", { dnsZoneId: zone.dnsZoneId, type: "CNAME", name: "www", value: cdn.cdnHostname });
const www = new bunnynet.PullZoneHostname(
  "www",
  { pullZoneId: cdn.pullZoneId, hostname: "www.example.com", tls: "free", forceSsl: true },
  { dependsOn: [wwwRecord] },
);
// endregion

// region EdgeRule
const headers = new bunnynet.EdgeRule("security-headers", {
  pullZoneId: cdn.pullZoneId,
  description: "security headers",
  actions: [
    { type: "SetResponseHeader", parameters: ["X-Content-Type-Options", "nosniff"] },
    { type: "SetResponseHeader", parameters: ["X-Frame-Options", "DENY"] },
  ],
  triggers: [{ type: "Url", patterns: ["*"] }],
});
// Every plain-HTTP request redirected to HTTPS.
const forceHttps = new bunnynet.EdgeRule("force-https", {
  pullZoneId: cdn.pullZoneId,
  description: "HTTP to HTTPS",
  actions: [{ type: "ForceSSL" }],
  triggers: [{ type: "Url", patterns: ["http://*"] }],
});
// endregion

// region OptimizerClass
// Images under the pull zone resized with `?class=thumbnail`.
const thumbnailClass = new bunnynet.OptimizerClass("thumbnail", { pullZoneId: cdn.pullZoneId, name: "thumbnail", width: 320, height: 180, quality: 80 });
// endregion

// region ShieldZone
const shield = new bunnynet.ShieldZone("shield", { pullZoneId: cdn.pullZoneId, planType: "Advanced", wafEnabled: true });
// endregion

// region WafRule
const adminOnly = new bunnynet.WafRule("admin-only", {
  shieldZoneId: shield.shieldZoneId,
  name: "admin only from the office",
  conditions: [
    { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" },
    { variableTypes: { REMOTE_ADDR: "" }, operatorType: "STREQ", value: "198.51.100.7", isNegated: true },
  ],
  action: "Block",
});
// endregion

// region RateLimitRule
const apiLimit = new bunnynet.RateLimitRule("api-limit", {
  shieldZoneId: shield.shieldZoneId,
  name: "api limit",
  configuration: {
    variableTypes: { REQUEST_URI: "" },
    operatorType: "BEGINSWITH",
    value: "/api",
    requestCount: 100,
    timeframe: "PerOneMinute",
    blockTime: "ForFiveMinutes",
  },
});
// endregion

// region AccessList
const blockedCountries = new bunnynet.AccessList("blocked-countries", {
  shieldZoneId: shield.shieldZoneId,
  name: "blocked countries",
  type: "Country",
  entries: ["KP", "RU"],
  action: "Block",
});
// endregion

// region EdgeScript
const script = new bunnynet.EdgeScript("edge", {
  name: "example-edge",
  type: "Standalone",
  code: 'export default { fetch: () => new Response("hello from the edge") };\n',
});
// endregion

// region ScriptVariable
const greeting = new bunnynet.ScriptVariable("greeting", { scriptId: script.scriptId, name: "GREETING", defaultValue: "hello" });
// endregion

// region ScriptSecret
const apiToken = new bunnynet.ScriptSecret("api-token", { scriptId: script.scriptId, name: "API_TOKEN", value: config.getSecret("apiToken") ?? pulumi.secret("change-me") });
// endregion

// region VideoLibrary
const videos = new bunnynet.VideoLibrary("videos", { name: "example-videos" });
// endregion

// region StreamCollection
const tutorials = new bunnynet.StreamCollection("tutorials", { libraryId: videos.libraryId, name: "Tutorials" });
// endregion

// region StreamVideo
// Uploaded from a local file; `up` waits until the video plays.
const intro = new bunnynet.StreamVideo("intro", { libraryId: videos.libraryId, collectionId: tutorials.collectionId, title: "Intro", source: "../assets/intro.mp4" });
// endregion

// region VideoThumbnail
const poster = new bunnynet.VideoThumbnail("poster", { libraryId: videos.libraryId, videoId: intro.videoId, file: "../assets/poster.png" });
// endregion

// region ContainerRegistry
const ghcr = new bunnynet.ContainerRegistry("ghcr", { type: "GitHub", username: "example-bot", password: config.getSecret("ghcrToken") ?? pulumi.secret("not-a-real-token") });
// endregion

// region ContainerApp
// region getContainerRegistry
// Docker Hub's public registry, which every account has.
const dockerHub = bunnynet.getContainerRegistryOutput({ type: "DockerHub" });
// endregion
const app = new bunnynet.ContainerApp("app", {
  name: "example-app",
  regions: { allowed: ["DE", "UK"], required: ["DE"] },
  autoscaling: { min: 1, max: 2 },
  containers: {
    web: {
      image: { registryId: dockerHub.registryId, namespace: "library", name: "nginx", tag: "1.27" },
      env: { LOG_LEVEL: "info" },
      endpoints: { direct: { type: "anycast", ports: [{ container: 80, exposed: 80 }] } },
    },
  },
});
// endregion

// region getAppEndpoints
const endpoints = bunnynet.getAppEndpointsOutput({ appId: app.appId });
// endregion

// region getContainerAppContainer
const web = bunnynet.getContainerAppContainerOutput({ appId: app.appId, name: "web" });
// endregion

// region VolumeInstanceDeletion
// Deletes one instance of a volume of an app made elsewhere (ids from the stack's config), detaching the volume first.
// Runs once; deleting this resource deletes nothing.
const oldInstance = new bunnynet.VolumeInstanceDeletion("old-instance", {
  appId: config.require("appId"),
  volumeId: config.require("volumeId"),
  instanceId: config.require("instanceId"),
  detachFirst: true,
});
// endregion

// region Database
const db = new bunnynet.Database("db", { name: "example-db", primaryRegions: ["DE"], replicaRegions: ["NY"] });
// endregion

// region TeamMember
const member = new bunnynet.TeamMember("ops", { email: "ops@example.com", firstName: "Ada", lastName: "Lovelace", permissions: ["zones", "support"] });
// endregion

// region CachePurge
// Purges the pull zone's cache whenever the uploaded files change.
const purge = new bunnynet.CachePurge("purge", { pullZoneId: cdn.pullZoneId, triggers: { files: content.checksum } }, { dependsOn: [content, robots] });
// endregion

// region getDnsZone
const zoneByDomain = bunnynet.getDnsZoneOutput({ domain: zone.domain });
// endregion

// region getDnsRecord
const wwwByName = bunnynet.getDnsRecordOutput({ dnsZoneId: wwwRecord.dnsZoneId, name: wwwRecord.name, type: "CNAME" });
// endregion

// region getPullZone
const cdnByName = bunnynet.getPullZoneOutput({ name: cdn.name });
// endregion

// region getCdnLogs
const serverErrors = bunnynet.getCdnLogsOutput({ pullZoneId: cdn.pullZoneId, status: ["5xx"], maxEntries: 20 });
// endregion

// region getCdnRegions
const europe = bunnynet.getCdnRegionsOutput({ continentCode: "EU" });
// endregion

// region getAccessLists
const accessLists = bunnynet.getAccessListsOutput({ shieldZoneId: shield.shieldZoneId });
// endregion

// region getRegions
const regions = bunnynet.getRegionsOutput({ hasCapacity: true });
// endregion

// region getVideoLanguages
const languages = bunnynet.getVideoLanguagesOutput({});
// endregion

// region getApiKeys
const apiKeys = bunnynet.getApiKeysOutput();
// endregion

export = {
  nameservers: zone.nameservers,
  apexRecordId: apex.recordId,
  storageZoneId: files.storageZoneId,
  siteFiles: content.fileCount,
  robotsChecksum: robots.checksum,
  url: pulumi.interpolate`https://${www.hostname}`,
  edgeRuleId: headers.edgeRuleId,
  forceHttpsRuleId: forceHttps.edgeRuleId,
  optimizerClass: thumbnailClass.name,
  wafRuleId: adminOnly.ruleId,
  rateLimitRuleId: apiLimit.ruleId,
  accessListId: blockedCountries.accessListId,
  greetingId: greeting.variableId,
  apiTokenId: apiToken.secretId,
  videoLength: intro.length,
  thumbnailUrl: poster.thumbnailUrl,
  ghcrRegistryId: ghcr.registryId,
  appStatus: app.status,
  appPublicHosts: endpoints.publicHosts,
  webImage: web.image,
  deletedInstance: oldInstance.deletedInstanceId,
  databaseId: db.databaseId,
  memberId: member.memberId,
  purgedAt: purge.purgedAt,
  zoneRecordCount: zoneByDomain.recordCount,
  wwwTarget: wwwByName.value,
  cdnHostname: cdnByName.cdnHostname,
  serverErrors: serverErrors.entries.apply((entries) => entries.length),
  europeRegions: europe.regionCodes,
  customAccessLists: accessLists.customLists.apply((lists) => lists.length),
  storageRegions: regions.ids,
  videoLanguages: languages.codes.apply((codes) => codes.length),
  apiKeyCount: apiKeys.keys.apply((keys) => keys.length),
};
