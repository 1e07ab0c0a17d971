import assert from "node:assert/strict";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProviderHost, named, secret } from "../support/providerHost";

type Plain = Record<string, unknown>;

/** One invalid input: the resource's valid inputs with one thing wrong, and the exact property paths check must name. */
interface BadInput {
  kind: string;
  news: Plain;
  properties: string[];
  /** What the reason must say, where the wording matters. */
  reason?: RegExp;
}

const ID = 1001;
const VALID: Record<string, Plain> = {
  PullZoneHostname: { pullZoneId: ID, hostname: "cdn.example.com" },
  ScriptVariable: { scriptId: ID, name: "API_BASE", required: true, defaultValue: "https://api.example.com" },
  ScriptSecret: { scriptId: ID, name: "SIGNING_KEY", value: "not-a-real-secret" },
  EdgeScript: { name: "router", type: "Standalone", code: "export default {}", linkedPullZoneName: "router-zone" },
  ContainerRegistry: { type: "GitHub", url: "ghcr.io", username: "octocat", password: "not-a-real-token" },
  ContainerApp: {
    name: "shop",
    regions: { allowed: ["DE"] },
    autoscaling: { min: 1, max: 2 },
    containers: {
      web: {
        image: { registryId: ID, namespace: "library", name: "nginx", tag: "1.27" },
        env: { TOKEN: "not-a-real-token" },
        volumeMounts: { data: "/data" },
        endpoints: { site: { type: "cdn", ports: [{ container: 80 }] } },
      },
    },
    volumes: { data: { sizeGb: 1 } },
  },
  RateLimitRule: {
    pullZoneId: ID,
    name: "login",
    description: "slow down password guessing",
    configuration: {
      variableTypes: { REQUEST_URI: "" },
      operatorType: "BEGINSWITH",
      value: "/login",
      chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: "POST" }],
      actionType: "Block",
      requestCount: 10,
      counterKeyType: "IP",
      timeframe: "PerOneMinute",
      blockTime: "ForFiveMinutes",
    },
  },
  VideoThumbnail: { libraryId: ID, videoId: "80e2da74-9464-4b3b-963d-9b6adb877d94", frame: 2 },
  DnsZone: { domain: "example.com", loggingEnabled: true, logAnonymizationType: "Drop" },
  DnsRecord: { dnsZoneId: ID, type: "SRV", name: "_sip._tcp", value: "sip.example.net", priority: 10, weight: 5, port: 5060 },
  VolumeInstanceDeletion: { appId: "KRYEa1z1z5", volumeId: "8Jy9JIsVkk", instanceId: "6pHuEf9PiH", detachFirst: true, triggers: { release: "1" } },
  StorageZone: { name: "site-files", region: "DE", replicationRegions: ["NY"] },
  Database: { name: "app-db", primaryRegions: ["DE"], replicaRegions: ["NY"] },
  TeamMember: { email: "ops@example.com", firstName: "Op", lastName: "Erator", permissions: ["zones"], password: "Correct-horse-9" },
  PullZone: { name: "site-cdn", origin: { storageZoneId: ID }, zones: ["EU", "US"] },
  ShieldZone: { pullZoneId: ID, planType: "Advanced", wafEnabled: true, ddosShieldSensitivity: "High", wafDisabledRules: ["920100"] },
  VideoLibrary: { name: "videos", replicationRegions: ["NY"], encodingTier: "Premium", enabledResolutions: ["720p"], playerControls: ["play"], playerPrimaryColor: "#ff7755", captionsFontColor: "#fff" },
  StorageFile: { storageZoneId: ID, path: "css/site.css", content: "body{}", contentType: "text/css" },
  // The files examples/site ships (from dist/tests/reliability).
  StorageFolder: { storageZoneId: ID, source: join(__dirname, "..", "..", "..", "examples", "site", "public"), prefix: "www" },
  StreamVideo: {
    libraryId: ID,
    title: "Launch",
    source: { url: "https://media.example.com/launch.mp4" },
    chapters: [{ title: "Intro", start: 0, end: 10 }],
    moments: [{ label: "Demo", timestamp: 5 }],
    metaTags: [{ property: "genre", value: "talk" }],
    encodeTimeoutSeconds: 600,
  },
  StreamCollection: { libraryId: ID, name: "Talks" },
  EdgeRule: {
    pullZoneId: ID,
    description: "old host",
    priority: 2,
    actions: [{ type: "Redirect", parameters: ["https://www.example.com%{Url.Path}", "301"] }, { type: "SetResponseHeader", parameters: ["X-Moved", "yes"] }],
    triggers: [{ type: "Url", patterns: ["https://old.example.com/*"] }, { type: "RequestHeader", parameters: ["X-Legacy"], patterns: ["1"], matchType: "MatchAll" }],
    triggerMatchingType: "MatchAny",
  },
  OptimizerClass: { pullZoneId: ID, name: "thumb", width: 320, quality: 80, cropGravity: "center", aspectRatio: "16:9", autoOptimize: "high" },
  CachePurge: { pullZoneId: ID, cacheTag: "css", triggers: { content: "abc123" } },
  WafRule: {
    shieldZoneId: ID,
    name: "no admin",
    description: "the admin area from nowhere",
    conditions: [{ variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" }, { variableTypes: { GEO: "" }, operatorType: "STREQ", value: "DE", isNegated: true }],
    action: "Block",
    severity: "WARNING",
    transformations: ["LOWERCASE"],
  },
  AccessList: { shieldZoneId: ID, name: "blocked countries", type: "Country", entries: ["RU", "KP"], action: "Block", enabled: true },
};

/** The valid inputs of `type` with `changes` applied; a change to `undefined` removes the property. */
function variant(type: string, changes: Plain): Plain {
  return Object.fromEntries(Object.entries({ ...VALID[type], ...changes }).filter(([, v]) => v !== undefined));
}
const rule = (changes: Plain) => variant("RateLimitRule", changes);
const ruleConfiguration = (changes: Plain) => rule({ configuration: { ...(VALID.RateLimitRule.configuration as Plain), ...changes } });
const chained = (...conditions: Plain[]) => ruleConfiguration({ chainedConditions: conditions });

const UNKNOWN = /unknown property/;
const edgeRule = (changes: Plain) => variant("EdgeRule", changes);
const action = (type: unknown, parameters?: unknown) => edgeRule({ actions: [{ type, ...(parameters === undefined ? {} : { parameters }) }] });
const trigger = (t: Plain) => edgeRule({ triggers: [t] });
const HOSTNAME = (hostname: unknown): Plain => variant("PullZoneHostname", { hostname });
const appWeb = (changes: Plain) => {
  const web = (VALID.ContainerApp.containers as Record<string, Plain>).web;
  return variant("ContainerApp", { containers: { web: { ...web, ...changes } } });
};
const { specialSigKey, specialArchiveSig, specialAssetSig } = pulumi.runtime;

const CASES: Record<string, BadInput[]> = {
  PullZoneHostname: [
    { kind: "empty hostname", news: HOSTNAME(""), properties: ["hostname"], reason: /must not be empty/ },
    { kind: "hostname with a scheme", news: HOSTNAME("https://cdn.example.com"), properties: ["hostname"], reason: /without a scheme/ },
    { kind: "hostname with a path", news: HOSTNAME("cdn.example.com/assets"), properties: ["hostname"], reason: /without a path/ },
    { kind: "hostname with a port", news: HOSTNAME("cdn.example.com:8443"), properties: ["hostname"], reason: /without a port/ },
    { kind: "hostname with a space", news: HOSTNAME("cdn example.com"), properties: ["hostname"], reason: /spaces/ },
    { kind: "hostname with a trailing dot", news: HOSTNAME("cdn.example.com."), properties: ["hostname"], reason: /empty labels/ },
    { kind: "hostname with a doubled dot", news: HOSTNAME("cdn..example.com"), properties: ["hostname"], reason: /empty labels/ },
    { kind: "hostname with a label of 64 characters", news: HOSTNAME(`${"a".repeat(64)}.example.com`), properties: ["hostname"], reason: /longer than 63/ },
    { kind: "hostname of 254 characters", news: HOSTNAME(["a", "b", "c"].map((c) => c.repeat(63)).join(".") + `.${"d".repeat(62)}`), properties: ["hostname"], reason: /at most 253/ },
    { kind: "hostname with an underscore", news: HOSTNAME("cdn_assets.example.com"), properties: ["hostname"], reason: /letters, digits and hyphens/ },
    { kind: "hostname starting with a hyphen", news: HOSTNAME("-cdn.example.com"), properties: ["hostname"], reason: /must not start or end with a hyphen/ },
    { kind: "IPv4 address", news: HOSTNAME("192.0.2.10"), properties: ["hostname"], reason: /not an IP address/ },
    { kind: "IPv6 address", news: HOSTNAME("2001:db8::1"), properties: ["hostname"] },
    { kind: "single-label hostname", news: HOSTNAME("localhost"), properties: ["hostname"], reason: /fully qualified/ },
    { kind: "non-ASCII hostname", news: HOSTNAME("café.example.com"), properties: ["hostname"], reason: /punycode/ },
    { kind: "hostname that is a number", news: HOSTNAME(42), properties: ["hostname"] },
    { kind: "missing hostname", news: HOSTNAME(undefined), properties: ["hostname"] },
    { kind: "pull zone id that is not numeric", news: variant("PullZoneHostname", { pullZoneId: "zone-1" }), properties: ["pullZoneId"] },
    { kind: "pull zone id 0", news: variant("PullZoneHostname", { pullZoneId: 0 }), properties: ["pullZoneId"] },
    { kind: "negative pull zone id", news: variant("PullZoneHostname", { pullZoneId: -5 }), properties: ["pullZoneId"] },
    { kind: "fractional pull zone id", news: variant("PullZoneHostname", { pullZoneId: 1.5 }), properties: ["pullZoneId"] },
    { kind: "missing pull zone id", news: variant("PullZoneHostname", { pullZoneId: undefined }), properties: ["pullZoneId"] },
    { kind: "adoptExisting that is not a boolean", news: variant("PullZoneHostname", { adoptExisting: "yes" }), properties: ["adoptExisting"] },
    { kind: "unknown property (misspelt hostname)", news: variant("PullZoneHostname", { hostName: "cdn.example.com" }), properties: ["hostName"], reason: UNKNOWN },
    { kind: "tls that is another word", news: variant("PullZoneHostname", { tls: "letsencrypt" }), properties: ["tls"], reason: /must be "none", "free", or/ },
    { kind: "tls that is a boolean", news: variant("PullZoneHostname", { tls: true }), properties: ["tls"] },
    { kind: "custom tls without certificate or key", news: variant("PullZoneHostname", { tls: {} }), properties: ["tls.certificate", "tls.privateKey"], reason: /is required/ },
    { kind: "custom tls with a certificate that is not PEM", news: variant("PullZoneHostname", { tls: { certificate: "MIIB", privateKey: "k" } }), properties: ["tls.certificate"], reason: /not a PEM certificate/ },
    { kind: "force-SSL without a certificate", news: variant("PullZoneHostname", { forceSsl: true }), properties: ["forceSsl"], reason: /needs a certificate/ },
    { kind: "force-SSL that is not a boolean", news: variant("PullZoneHostname", { forceSsl: "on" }), properties: ["forceSsl"] },
    { kind: "certificate wait over an hour", news: variant("PullZoneHostname", { tls: "free", certificateWaitSeconds: 3601 }), properties: ["certificateWaitSeconds"] },
  ],
  ScriptSecret: [
    { kind: "empty name", news: variant("ScriptSecret", { name: "" }), properties: ["name"], reason: /must not be empty/ },
    { kind: "name of 257 characters", news: variant("ScriptSecret", { name: "N".repeat(257) }), properties: ["name"] },
    { kind: "missing value", news: variant("ScriptSecret", { value: undefined }), properties: ["value"] },
    { kind: "value of 4097 characters", news: variant("ScriptSecret", { value: "x".repeat(4097) }), properties: ["value"] },
    { kind: "value that is a number", news: variant("ScriptSecret", { value: 42 }), properties: ["value"] },
    { kind: "script id that is not numeric", news: variant("ScriptSecret", { scriptId: "12a" }), properties: ["scriptId"] },
    { kind: "unknown property (the API's name Secret)", news: variant("ScriptSecret", { Secret: "x" }), properties: ["Secret"], reason: UNKNOWN },
    { kind: "a name that is no environment variable's (a hyphen)", news: variant("ScriptSecret", { name: "SIGNING-KEY" }), properties: ["name"], reason: /environment variable's name/ },
  ],
  EdgeScript: [
    { kind: "empty name", news: variant("EdgeScript", { name: "" }), properties: ["name"], reason: /must not be empty/ },
    { kind: "name of 101 characters", news: variant("EdgeScript", { name: "n".repeat(101) }), properties: ["name"] },
    { kind: "type DNS (the name is Dns)", news: variant("EdgeScript", { type: "DNS" }), properties: ["type"] },
    { kind: "type as the API's number", news: variant("EdgeScript", { type: 1 }), properties: ["type"] },
    { kind: "missing code", news: variant("EdgeScript", { code: undefined }), properties: ["code"] },
    { kind: "empty code", news: variant("EdgeScript", { code: "" }), properties: ["code"], reason: /must not be empty/ },
    { kind: "code that is an archive", news: variant("EdgeScript", { code: { [specialSigKey]: specialArchiveSig, path: "." } }), properties: ["code"] },
    { kind: "code from a file that does not exist", news: variant("EdgeScript", { code: { [specialSigKey]: specialAssetSig, path: "/nonexistent/router.js" } }), properties: ["code"], reason: /cannot be read/ },
    { kind: "publish that is not a boolean", news: variant("EdgeScript", { publish: "yes" }), properties: ["publish"] },
    { kind: "linked pull zone name with a space", news: variant("EdgeScript", { linkedPullZoneName: "router zone" }), properties: ["linkedPullZoneName"] },
    { kind: "linked pull zone for a Middleware script", news: variant("EdgeScript", { type: "Middleware", linkedPullZoneName: undefined, createLinkedPullZone: true }), properties: ["createLinkedPullZone"] },
    { kind: "linked pull zone for a Dns script", news: variant("EdgeScript", { type: "Dns", linkedPullZoneName: undefined, createLinkedPullZone: true }), properties: ["createLinkedPullZone"], reason: /only a Standalone script/ },
    { kind: "linked pull zone name without a linked pull zone", news: variant("EdgeScript", { createLinkedPullZone: false }), properties: ["linkedPullZoneName"] },
    { kind: "unknown property (Terraform's content)", news: variant("EdgeScript", { content: "x" }), properties: ["content"], reason: UNKNOWN },
  ],
  ContainerApp: [
    { kind: "app name with an underscore", news: variant("ContainerApp", { name: "my_app" }), properties: ["name"] },
    { kind: "no allowed region", news: variant("ContainerApp", { regions: { allowed: [] } }), properties: ["regions.allowed"] },
    { kind: "autoscaling max below min", news: variant("ContainerApp", { autoscaling: { min: 3, max: 2 } }), properties: ["autoscaling.max"] },
    { kind: "no container", news: variant("ContainerApp", { containers: {} }), properties: ["containers"] },
    { kind: "image tag with a space", news: appWeb({ image: { registryId: ID, namespace: "library", name: "nginx", tag: "1 27" } }), properties: ["containers.web.image.tag"] },
    { kind: "image with neither tag nor digest", news: appWeb({ image: { registryId: ID, namespace: "library", name: "nginx" } }), properties: ["containers.web.image.tag"], reason: /a tag or a digest/ },
    { kind: "digest that is not sha256", news: appWeb({ image: { registryId: ID, namespace: "library", name: "nginx", digest: "md5:abc" } }), properties: ["containers.web.image.digest"] },
    { kind: "mount of a volume the app lacks", news: appWeb({ volumeMounts: { cache: "/cache" } }), properties: ["containers.web.volumeMounts.cache"] },
    { kind: "relative mount path", news: appWeb({ volumeMounts: { data: "data" } }), properties: ["containers.web.volumeMounts.data"] },
    { kind: "cdn endpoint with two ports", news: appWeb({ endpoints: { site: { type: "cdn", ports: [{ container: 80 }, { container: 81 }] } } }), properties: ["containers.web.endpoints.site.ports"] },
    { kind: "endpoint type that is not cdn or anycast", news: appWeb({ endpoints: { site: { type: "PublicIp", ports: [{ container: 80 }] } } }), properties: ["containers.web.endpoints.site.type"] },
    { kind: "tcp probe with a path", news: appWeb({ probes: { liveness: { type: "tcp", port: 80, path: "/" } } }), properties: ["containers.web.probes.liveness.path"] },
    { kind: "volume of 0 GB", news: variant("ContainerApp", { volumes: { data: { sizeGb: 0 } } }), properties: ["volumes.data.sizeGb"] },
    { kind: "unknown property (Terraform's autoscaling_min)", news: variant("ContainerApp", { autoscaling_min: 1 }), properties: ["autoscaling_min"], reason: UNKNOWN },
  ],
  ContainerRegistry: [
    { kind: "type that is not a registry the API takes", news: variant("ContainerRegistry", { type: "Quay" }), properties: ["type"] },
    { kind: "type in the API's case", news: variant("ContainerRegistry", { type: "gitHub" }), properties: ["type"] },
    { kind: "url of another host", news: variant("ContainerRegistry", { url: "registry.example.com" }), properties: ["url"], reason: /a GitHub registry is at ghcr.io/ },
    { kind: "empty url", news: variant("ContainerRegistry", { url: "" }), properties: ["url"], reason: /must not be empty/ },
    { kind: "missing username", news: variant("ContainerRegistry", { username: undefined }), properties: ["username"] },
    { kind: "empty username", news: variant("ContainerRegistry", { username: "" }), properties: ["username"], reason: /must not be empty/ },
    { kind: "missing password", news: variant("ContainerRegistry", { password: undefined }), properties: ["password"] },
    { kind: "empty password", news: variant("ContainerRegistry", { password: "" }), properties: ["password"] },
    { kind: "password that is a number", news: variant("ContainerRegistry", { password: 1234 }), properties: ["password"] },
    { kind: "unknown property (Terraform's token)", news: variant("ContainerRegistry", { token: "x" }), properties: ["token"], reason: UNKNOWN },
  ],
  ScriptVariable: [
    { kind: "empty name", news: variant("ScriptVariable", { name: "" }), properties: ["name"], reason: /must not be empty/ },
    { kind: "name of 257 characters", news: variant("ScriptVariable", { name: "N".repeat(257) }), properties: ["name"] },
    { kind: "name that is a number", news: variant("ScriptVariable", { name: 5 }), properties: ["name"] },
    { kind: "missing name", news: variant("ScriptVariable", { name: undefined }), properties: ["name"] },
    { kind: "missing script id", news: variant("ScriptVariable", { scriptId: undefined }), properties: ["scriptId"] },
    { kind: "script id that is not numeric", news: variant("ScriptVariable", { scriptId: "12a" }), properties: ["scriptId"] },
    { kind: "script id that is a boolean", news: variant("ScriptVariable", { scriptId: true }), properties: ["scriptId"] },
    { kind: "required that is not a boolean", news: variant("ScriptVariable", { required: "yes" }), properties: ["required"] },
    { kind: "default value of 4097 characters", news: variant("ScriptVariable", { defaultValue: "x".repeat(4097) }), properties: ["defaultValue"] },
    { kind: "default value that is a number", news: variant("ScriptVariable", { defaultValue: 42 }), properties: ["defaultValue"] },
    { kind: "unknown property (the API's name Value)", news: variant("ScriptVariable", { value: "x" }), properties: ["value"], reason: UNKNOWN },
    { kind: "a name that is no environment variable's (a space)", news: variant("ScriptVariable", { name: "BAD NAME" }), properties: ["name"], reason: /environment variable's name/ },
  ],
  RateLimitRule: [
    { kind: "neither zone id", news: rule({ pullZoneId: undefined }), properties: ["pullZoneId", "shieldZoneId"], reason: /exactly one/ },
    { kind: "both zone ids", news: rule({ shieldZoneId: 3001 }), properties: ["pullZoneId", "shieldZoneId"], reason: /not both/ },
    { kind: "shield zone id that is not numeric", news: rule({ pullZoneId: undefined, shieldZoneId: "shield-1" }), properties: ["shieldZoneId"] },
    { kind: "empty name", news: rule({ name: "" }), properties: ["name"], reason: /must not be empty/ },
    { kind: "blank name", news: rule({ name: "   " }), properties: ["name"], reason: /must not be empty/ },
    { kind: "description that is a number", news: rule({ description: 7 }), properties: ["description"] },
    { kind: "missing configuration", news: rule({ configuration: undefined }), properties: ["configuration"] },
    { kind: "configuration that is a string", news: rule({ configuration: "block logins" }), properties: ["configuration"] },
    { kind: "unknown top-level property", news: rule({ enabled: true }), properties: ["enabled"], reason: UNKNOWN },
    { kind: "unknown property in the configuration", news: ruleConfiguration({ burst: 3 }), properties: ["configuration.burst"], reason: UNKNOWN },
    { kind: "the API's name chainedRuleConditions", news: ruleConfiguration({ chainedRuleConditions: [] }), properties: ["configuration.chainedRuleConditions"], reason: UNKNOWN },
    { kind: "unknown property in a chained condition", news: chained({ variableTypes: { ARGS: "" }, operatorType: "CONTAINS", severityType: 1 }), properties: ["configuration.chainedConditions.0.severityType"], reason: UNKNOWN },
    { kind: "unknown timeframe name", news: ruleConfiguration({ timeframe: "PerTwoMinutes" }), properties: ["configuration.timeframe"], reason: /must be one of/ },
    { kind: "timeframe in seconds the API does not have", news: ruleConfiguration({ timeframe: 120 }), properties: ["configuration.timeframe"], reason: /must be one of/ },
    { kind: "unknown action", news: ruleConfiguration({ actionType: "Deny" }), properties: ["configuration.actionType"], reason: /must be one of/ },
    { kind: "operator number the API does not have", news: ruleConfiguration({ operatorType: 13 }), properties: ["configuration.operatorType"], reason: /must be one of/ },
    { kind: "block time the API does not have", news: ruleConfiguration({ blockTime: 45 }), properties: ["configuration.blockTime"], reason: /must be one of/ },
    { kind: "unknown severity", news: ruleConfiguration({ severityType: "FATAL" }), properties: ["configuration.severityType"], reason: /must be one of/ },
    { kind: "unknown counter key", news: ruleConfiguration({ counterKeyType: "Cookie" }), properties: ["configuration.counterKeyType"], reason: /must be one of/ },
    { kind: "unknown transformation, second in the list", news: ruleConfiguration({ transformationTypes: ["LOWERCASE", "LOWER"] }), properties: ["configuration.transformationTypes.1"], reason: /must be one of/ },
    { kind: "request count 0", news: ruleConfiguration({ requestCount: 0 }), properties: ["configuration.requestCount"] },
    { kind: "request count over int32", news: ruleConfiguration({ requestCount: 2 ** 31 }), properties: ["configuration.requestCount"] },
    { kind: "fractional request count", news: ruleConfiguration({ requestCount: 2.5 }), properties: ["configuration.requestCount"] },
    { kind: "request count as a string", news: ruleConfiguration({ requestCount: "10" }), properties: ["configuration.requestCount"] },
    { kind: "missing timeframe", news: ruleConfiguration({ timeframe: undefined }), properties: ["configuration.timeframe"] },
    { kind: "no variable to match", news: ruleConfiguration({ variableTypes: {} }), properties: ["configuration.variableTypes"], reason: /at least one variable/ },
    { kind: "unknown request variable", news: ruleConfiguration({ variableTypes: { REQUEST_URI: "", REQUEST_PATH: "" } }), properties: ["configuration.variableTypes.REQUEST_PATH"], reason: UNKNOWN },
    { kind: "negation that is not a boolean", news: ruleConfiguration({ isNegated: "yes" }), properties: ["configuration.isNegated"] },
    { kind: "chained conditions that are not a list", news: ruleConfiguration({ chainedConditions: { variableTypes: { ARGS: "" }, operatorType: "EQ" } }), properties: ["configuration.chainedConditions"] },
    { kind: "unknown operator in the second chained condition", news: chained({ variableTypes: { ARGS: "" }, operatorType: "EQ" }, { variableTypes: { ARGS: "" }, operatorType: "SIMILAR" }), properties: ["configuration.chainedConditions.1.operatorType"], reason: /must be one of/ },
    { kind: "chained condition without a variable", news: chained({ operatorType: "EQ", value: "x" }), properties: ["configuration.chainedConditions.0.variableTypes"] },
  ],
  VideoThumbnail: [
    { kind: "frame 0", news: variant("VideoThumbnail", { frame: 0 }), properties: ["frame"] },
    { kind: "frame 6 (there are 5)", news: variant("VideoThumbnail", { frame: 6 }), properties: ["frame"] },
    { kind: "fractional frame", news: variant("VideoThumbnail", { frame: 2.5 }), properties: ["frame"] },
    { kind: "frame as a string", news: variant("VideoThumbnail", { frame: "2" }), properties: ["frame"] },
    { kind: "ftp URL", news: variant("VideoThumbnail", { frame: undefined, url: "ftp://images.example.com/a.png" }), properties: ["url"], reason: /http:\/\/ or https:\/\// },
    { kind: "file URL", news: variant("VideoThumbnail", { frame: undefined, url: "file:///etc/passwd" }), properties: ["url"], reason: /http:\/\/ or https:\/\// },
    { kind: "javascript URL", news: variant("VideoThumbnail", { frame: undefined, url: "javascript:alert(1)" }), properties: ["url"] },
    { kind: "relative URL", news: variant("VideoThumbnail", { frame: undefined, url: "/images/a.png" }), properties: ["url"] },
    { kind: "URL with a space in the host", news: variant("VideoThumbnail", { frame: undefined, url: "https://images example.com/a.png" }), properties: ["url"] },
    { kind: "frame and url both set", news: variant("VideoThumbnail", { url: "https://images.example.com/a.png" }), properties: ["frame", "url"], reason: /only one thumbnail source/ },
    { kind: "file and frame both set", news: variant("VideoThumbnail", { file: "poster.png" }), properties: ["file", "frame"], reason: /only one thumbnail source/ },
    // No property holds the fault: check names the inputs as a whole.
    { kind: "no source at all", news: variant("VideoThumbnail", { frame: undefined }), properties: ["file", "frame", "url"], reason: /set exactly one of file, frame, url/ },
    { kind: "empty file path", news: variant("VideoThumbnail", { frame: undefined, file: "" }), properties: ["file"], reason: /must not be empty/ },
    { kind: "file that does not exist", news: variant("VideoThumbnail", { frame: undefined, file: "/nonexistent/poster.png" }), properties: ["file"], reason: /cannot be read/ },
    { kind: "file that is an archive", news: variant("VideoThumbnail", { frame: undefined, file: { [specialSigKey]: specialArchiveSig, path: "." } }), properties: ["file"], reason: /archive is not an image/ },
    { kind: "file that is an empty asset", news: variant("VideoThumbnail", { frame: undefined, file: { [specialSigKey]: specialAssetSig } }), properties: ["file"], reason: /empty/ },
    { kind: "file that is a number", news: variant("VideoThumbnail", { frame: undefined, file: 5 }), properties: ["file"] },
    { kind: "empty library key", news: variant("VideoThumbnail", { libraryKey: "" }), properties: ["libraryKey"] },
    { kind: "library id that is not numeric", news: variant("VideoThumbnail", { libraryId: "lib" }), properties: ["libraryId"] },
    { kind: "empty video id", news: variant("VideoThumbnail", { videoId: "" }), properties: ["videoId"] },
    { kind: "missing video id", news: variant("VideoThumbnail", { videoId: undefined }), properties: ["videoId"] },
    { kind: "unknown property (misspelt file)", news: variant("VideoThumbnail", { fiel: "poster.png" }), properties: ["fiel"], reason: UNKNOWN },
  ],
  VolumeInstanceDeletion: [
    { kind: "empty app id", news: variant("VolumeInstanceDeletion", { appId: "" }), properties: ["appId"] },
    { kind: "null app id", news: variant("VolumeInstanceDeletion", { appId: null }), properties: ["appId"] },
    { kind: "volume id that is a number", news: variant("VolumeInstanceDeletion", { volumeId: 7 }), properties: ["volumeId"] },
    { kind: "missing instance id", news: variant("VolumeInstanceDeletion", { instanceId: undefined }), properties: ["instanceId"] },
    { kind: "detachFirst that is not a boolean", news: variant("VolumeInstanceDeletion", { detachFirst: "yes" }), properties: ["detachFirst"] },
    { kind: "triggers that are a string", news: variant("VolumeInstanceDeletion", { triggers: "again" }), properties: ["triggers"] },
    { kind: "triggers that are a number", news: variant("VolumeInstanceDeletion", { triggers: 5 }), properties: ["triggers"] },
    { kind: "unknown property (misspelt instanceId)", news: variant("VolumeInstanceDeletion", { instanceid: "x" }), properties: ["instanceid"], reason: UNKNOWN },
  ],
  DnsZone: [
    { kind: "domain without a dot", news: variant("DnsZone", { domain: "localhost" }), properties: ["domain"], reason: /domain name/ },
    { kind: "domain with a scheme", news: variant("DnsZone", { domain: "https://example.com" }), properties: ["domain"] },
    { kind: "unknown anonymization type", news: variant("DnsZone", { logAnonymizationType: "Half" }), properties: ["logAnonymizationType"] },
    { kind: "custom nameservers without names", news: variant("DnsZone", { customNameservers: true }), properties: ["nameserver1", "nameserver2"], reason: /required when customNameservers/ },
    { kind: "nameserver without customNameservers", news: variant("DnsZone", { nameserver2: "ns2.example.net" }), properties: ["nameserver2"] },
    { kind: "SOA email that is not an email", news: variant("DnsZone", { soaEmail: "hostmaster" }), properties: ["soaEmail"] },
    { kind: "unknown property (misspelt domain)", news: variant("DnsZone", { domian: "example.com" }), properties: ["domian"], reason: UNKNOWN },
  ],
  DnsRecord: [
    { kind: "unknown type", news: variant("DnsRecord", { type: "SPF" }), properties: ["type"], reason: /one of A, AAAA/ },
    { kind: "SRV without a port", news: variant("DnsRecord", { port: undefined }), properties: ["port"], reason: /required for SRV/ },
    { kind: "SRV weight out of range", news: variant("DnsRecord", { weight: 70000 }), properties: ["weight"] },
    { kind: "a CAA tag on an SRV record", news: variant("DnsRecord", { tag: "issue" }), properties: ["tag"], reason: /not used by SRV/ },
    { kind: "target with a trailing dot", news: variant("DnsRecord", { value: "sip.example.net." }), properties: ["value"], reason: /trailing dot/ },
    { kind: "A record with a hostname", news: variant("DnsRecord", { type: "A", value: "example.net", priority: undefined, weight: undefined, port: undefined }), properties: ["value"] },
    { kind: "PullZone record with a value and no pull zone", news: variant("DnsRecord", { type: "PullZone", priority: undefined, weight: undefined, port: undefined }), properties: ["pullZoneId", "value"] },
    { kind: "name with a space", news: variant("DnsRecord", { name: "a b" }), properties: ["name"] },
    { kind: "unknown property (misspelt value)", news: variant("DnsRecord", { vaule: "x" }), properties: ["vaule"], reason: UNKNOWN },
  ],
  StorageZone: [
    { kind: "name with a space", news: variant("StorageZone", { name: "site files" }), properties: ["name"] },
    { kind: "missing region", news: variant("StorageZone", { region: undefined }), properties: ["region"] },
    { kind: "lower-case region", news: variant("StorageZone", { region: "de" }), properties: ["region"], reason: /storage region: one of DE, UK/ },
    { kind: "a continent as the region", news: variant("StorageZone", { region: "EU" }), properties: ["region"], reason: /must be a storage region: one of DE, UK, .*JH/ },
    { kind: "a replica region that does not exist", news: variant("StorageZone", { replicationRegions: ["NY", "XX"] }), properties: ["replicationRegions.1"], reason: /storage region/ },
    { kind: "main region among the replicas", news: variant("StorageZone", { replicationRegions: ["DE"] }), properties: ["replicationRegions"], reason: /main region/ },
    { kind: "unknown tier", news: variant("StorageZone", { zoneTier: "Fast" }), properties: ["zoneTier"] },
    { kind: "empty 404 path", news: variant("StorageZone", { custom404FilePath: "" }), properties: ["custom404FilePath"] },
  ],
  Database: [
    { kind: "name with a space", news: variant("Database", { name: "app db" }), properties: ["name"] },
    { kind: "no primary region", news: variant("Database", { primaryRegions: [] }), properties: ["primaryRegions"], reason: /at least one region/ },
    { kind: "lower-case region", news: variant("Database", { primaryRegions: ["de"] }), properties: ["primaryRegions.0"], reason: /region code/ },
    { kind: "a primary region among the replicas", news: variant("Database", { replicaRegions: ["DE", "NY"] }), properties: ["replicaRegions"], reason: /primary region \(DE\)/ },
    { kind: "unknown property (misspelt regions)", news: variant("Database", { regions: ["DE"] }), properties: ["regions"], reason: UNKNOWN },
    { kind: "a region code that is no region", news: variant("Database", { primaryRegions: ["XX"] }), properties: ["primaryRegions.0"], reason: /one of DE, UK, .*, ZA$/ },
  ],
  TeamMember: [
    { kind: "address without a domain", news: variant("TeamMember", { email: "ops" }), properties: ["email"] },
    { kind: "empty first name", news: variant("TeamMember", { firstName: " " }), properties: ["firstName"] },
    { kind: "no permission", news: variant("TeamMember", { permissions: [] }), properties: ["permissions"], reason: /at least one permission/ },
    { kind: "unknown permission (an API role)", news: variant("TeamMember", { permissions: ["SubuserManage"] }), properties: ["permissions.0"] },
    { kind: "weak password", news: variant("TeamMember", { password: "short" }), properties: ["password"], reason: /at least 12 characters/ },
  ],
  PullZone: [
    { kind: "name with a dot", news: variant("PullZone", { name: "site.cdn" }), properties: ["name"] },
    { kind: "no origin kind", news: variant("PullZone", { origin: { verifySsl: true } }), properties: ["origin"], reason: /exactly one of url, storageZoneId, scriptId/ },
    { kind: "two origin kinds", news: variant("PullZone", { origin: { url: "https://a.example", scriptId: 3 } }), properties: ["origin"], reason: /got url, scriptId/ },
    { kind: "origin URL without http(s)", news: variant("PullZone", { origin: { url: "origin.example.com" } }), properties: ["origin.url"] },
    { kind: "origin port out of range", news: variant("PullZone", { origin: { url: "https://a.example", port: 0 } }), properties: ["origin.port"] },
    { kind: "unknown delivery zone", news: variant("PullZone", { zones: ["EU", "MOON"] }), properties: ["zones.1"] },
    { kind: "lower-case blocked country", news: variant("PullZone", { blockedCountries: ["us"] }), properties: ["blockedCountries.0"] },
    { kind: "unknown IP family", news: variant("PullZone", { ipFamily: "IPv5" }), properties: ["ipFamily"] },
    { kind: "cache time below -1", news: variant("PullZone", { cacheExpirationTime: -5 }), properties: ["cacheExpirationTime"] },
    { kind: "unknown property (misspelt origin)", news: variant("PullZone", { orign: { url: "https://a.example" } }), properties: ["orign"], reason: UNKNOWN },
  ],
  ShieldZone: [
    { kind: "missing pull zone id", news: variant("ShieldZone", { pullZoneId: undefined }), properties: ["pullZoneId"] },
    { kind: "plan that does not exist", news: variant("ShieldZone", { planType: "Gold" }), properties: ["planType"], reason: /must be one of Basic, Advanced/ },
    { kind: "DDoS sensitivity out of range", news: variant("ShieldZone", { ddosShieldSensitivity: 7 }), properties: ["ddosShieldSensitivity"] },
    { kind: "a WAF rule listed twice", news: variant("ShieldZone", { wafDisabledRules: ["1", "1"] }), properties: ["wafDisabledRules"], reason: /repeat/ },
    { kind: "Terraform's nested waf block", news: variant("ShieldZone", { waf: { enabled: true } }), properties: ["waf"], reason: UNKNOWN },
    { kind: "a managed list named twice", news: variant("ShieldZone", { accessLists: [{ id: 4, action: "Block" }, { id: 4, action: "Log" }] }), properties: ["accessLists"], reason: /twice/ },
    { kind: "a managed list turned on with action None", news: variant("ShieldZone", { accessLists: [{ id: 4, action: "None" }] }), properties: ["accessLists.0.action"], reason: /must be one of/ },
    { kind: "bot detection mode that does not exist", news: variant("ShieldZone", { botDetection: { executionMode: "Ban" } }), properties: ["botDetection.executionMode"], reason: /must be one of/ },
    { kind: "fingerprint aggression 0 (Unknown)", news: variant("ShieldZone", { botDetection: { fingerprintAggression: 0 } }), properties: ["botDetection.fingerprintAggression"] },
    { kind: "upload scanner mode that does not exist", news: variant("ShieldZone", { uploadScanning: { antivirus: "Quarantine" } }), properties: ["uploadScanning.antivirus"], reason: /must be one of/ },
    { kind: "an empty block page", news: variant("ShieldZone", { customPages: { block: "  " } }), properties: ["customPages.block"], reason: /must not be empty/ },
    { kind: "a page type that does not exist", news: variant("ShieldZone", { customPages: { maintenance: "<p>soon</p>" } }), properties: ["customPages.maintenance"], reason: UNKNOWN },
  ],
  VideoLibrary: [
    { kind: "empty name", news: variant("VideoLibrary", { name: "" }), properties: ["name"] },
    { kind: "replication region that is a city", news: variant("VideoLibrary", { replicationRegions: ["Frankfurt"] }), properties: ["replicationRegions.0"] },
    { kind: "a resolution the API does not encode", news: variant("VideoLibrary", { enabledResolutions: ["4k"] }), properties: ["enabledResolutions"], reason: /unknown value/ },
    { kind: "a player control that does not exist", news: variant("VideoLibrary", { playerControls: ["rewind"] }), properties: ["playerControls"] },
    { kind: "a colour name as the player colour", news: variant("VideoLibrary", { playerPrimaryColor: "orange" }), properties: ["playerPrimaryColor"], reason: /hex colour/ },
    { kind: "a colour without its #", news: variant("VideoLibrary", { captionsFontColor: "ffffff" }), properties: ["captionsFontColor"], reason: /hex colour/ },
    { kind: "the API key as an input", news: variant("VideoLibrary", { apiKey: "x" }), properties: ["apiKey"], reason: UNKNOWN },
    { kind: "a negative bitrate", news: variant("VideoLibrary", { bitrate720p: -100 }), properties: ["bitrate720p"], reason: /at least 1/ },
    { kind: "a watermark wider than the player", news: variant("VideoLibrary", { watermarkWidth: 150 }), properties: ["watermarkWidth"], reason: /0\.\.100/ },
  ],
  StorageFile: [
    { kind: "absolute path", news: variant("StorageFile", { path: "/css/site.css" }), properties: ["path"], reason: /must not start or end with \// },
    { kind: "path climbing out with ..", news: variant("StorageFile", { path: "css/../../x" }), properties: ["path"], reason: /\.\./ },
    { kind: "neither content nor source", news: variant("StorageFile", { content: undefined }), properties: ["content", "source"], reason: /exactly one/ },
    { kind: "both content and source", news: variant("StorageFile", { source: "site.css" }), properties: ["content", "source"], reason: /only one/ },
    { kind: "a source file that does not exist", news: variant("StorageFile", { content: undefined, source: "no/such/file.css" }), properties: ["source"], reason: /cannot be read/ },
    { kind: "an archive as one file", news: variant("StorageFile", { content: undefined, source: { [specialSigKey]: specialArchiveSig, path: "." } }), properties: ["source"], reason: /StorageFolder/ },
    { kind: "empty content type", news: variant("StorageFile", { contentType: "" }), properties: ["contentType"] },
    { kind: "the checksum set by hand with a bad value", news: variant("StorageFile", { checksum: "abc" }), properties: ["checksum"] },
  ],
  StorageFolder: [
    { kind: "a folder that does not exist", news: variant("StorageFolder", { source: "no/such/folder" }), properties: ["source"], reason: /cannot be read/ },
    { kind: "a single asset instead of a folder", news: variant("StorageFolder", { source: { [specialSigKey]: specialAssetSig, text: "x" } }), properties: ["source"], reason: /StorageFile/ },
    { kind: "a remote archive", news: variant("StorageFolder", { source: { [specialSigKey]: specialArchiveSig, uri: "https://example.com/site.zip" } }), properties: ["source"], reason: /RemoteArchive/ },
    { kind: "prefix with a trailing slash", news: variant("StorageFolder", { prefix: "www/" }), properties: ["prefix"] },
    { kind: "zone id that is no number", news: variant("StorageFolder", { storageZoneId: "site" }), properties: ["storageZoneId"] },
    { kind: "deleteUnmanaged as text", news: variant("StorageFolder", { deleteUnmanaged: "yes" }), properties: ["deleteUnmanaged"] },
  ],
  StreamVideo: [
    { kind: "empty title", news: variant("StreamVideo", { title: "" }), properties: ["title"], reason: /must not be empty/ },
    { kind: "no source", news: variant("StreamVideo", { source: undefined }), properties: ["source"] },
    { kind: "a source URL that is not http(s)", news: variant("StreamVideo", { source: { url: "ftp://media.example.com/a.mp4" } }), properties: ["source"], reason: /http/ },
    { kind: "a source that is a number", news: variant("StreamVideo", { source: 42 }), properties: ["source"] },
    {
      kind: "a RemoteAsset source",
      news: variant("StreamVideo", { source: { [specialSigKey]: specialAssetSig, uri: "https://media.example.com/a.mp4" } }),
      properties: ["source"],
      reason: /RemoteAsset .*source: \{ url \}/,
    },
    { kind: "an archive as source", news: variant("StreamVideo", { source: { [specialSigKey]: specialArchiveSig, path: "videos" } }), properties: ["source"], reason: /archive is not a video/ },
    { kind: "a chapter ending before it starts", news: variant("StreamVideo", { chapters: [{ title: "Intro", start: 10, end: 2 }] }), properties: ["chapters.0.end"], reason: /before start/ },
    { kind: "a chapter starting at a fraction of a second", news: variant("StreamVideo", { chapters: [{ title: "Intro", start: 0.5, end: 2 }] }), properties: ["chapters.0.start"] },
    { kind: "a moment without a label", news: variant("StreamVideo", { moments: [{ label: "", timestamp: 1 }] }), properties: ["moments.0.label"] },
    { kind: "the description as a meta tag", news: variant("StreamVideo", { metaTags: [{ property: "description", value: "x" }] }), properties: ["metaTags.0.property"], reason: /description input/ },
    { kind: "a caption language that is not a code", news: variant("StreamVideo", { captions: { "English please": "en.vtt" } }), properties: ["captions.English please"] },
    { kind: "no time to encode", news: variant("StreamVideo", { encodeTimeoutSeconds: 0 }), properties: ["encodeTimeoutSeconds"] },
    { kind: "a collection id that is a dot segment", news: variant("StreamVideo", { collectionId: ".." }), properties: ["collectionId"] },
    { kind: "the video id as an input", news: variant("StreamVideo", { videoId: "x" }), properties: ["videoId"], reason: UNKNOWN },
  ],
  StreamCollection: [
    { kind: "empty name", news: variant("StreamCollection", { name: "" }), properties: ["name"], reason: /must not be empty/ },
    { kind: "name of 201 characters", news: variant("StreamCollection", { name: "n".repeat(201) }), properties: ["name"] },
    { kind: "library id that is not a number", news: variant("StreamCollection", { libraryId: "videos" }), properties: ["libraryId"], reason: /positive integer/ },
    { kind: "empty library key", news: variant("StreamCollection", { libraryKey: "" }), properties: ["libraryKey"] },
    { kind: "the collection id as an input", news: variant("StreamCollection", { collectionId: "x" }), properties: ["collectionId"], reason: UNKNOWN },
  ],
  EdgeRule: [
    { kind: "no action", news: edgeRule({ actions: [] }), properties: ["actions"], reason: /at least one action/ },
    { kind: "no trigger", news: edgeRule({ triggers: [] }), properties: ["triggers"], reason: /at least one trigger/ },
    { kind: "action type that does not exist", news: action("Teleport"), properties: ["actions.0.type"], reason: /ForceSSL, Redirect/ },
    { kind: "action number that does not exist", news: action(35), properties: ["actions.0.type"] },
    { kind: "redirect without a URL", news: action("Redirect", ["", "301"]), properties: ["actions.0.parameters.0"], reason: /redirect URL.*must not be empty/ },
    { kind: "redirect with status 200", news: action("Redirect", ["https://a.example", "200"]), properties: ["actions.0.parameters.1"], reason: /301, 302, 307, 308/ },
    { kind: "header name with a colon", news: action("SetResponseHeader", ["X-Frame-Options:", "DENY"]), properties: ["actions.0.parameters.0"], reason: /header name/ },
    { kind: "cache time that is not a number", news: action("OverrideCacheTime", ["1h"]), properties: ["actions.0.parameters.0"], reason: /whole number/ },
    { kind: "status code out of range", news: action("SetStatusCode", ["99"]), properties: ["actions.0.parameters.0"] },
    { kind: "four action parameters", news: action("ForceSSL", ["a", "b", "c", "d"]), properties: ["actions.0.parameters"], reason: /at most 3/ },
    { kind: "trigger type that does not exist", news: trigger({ type: "Weather", patterns: ["rain"] }), properties: ["triggers.0.type"] },
    { kind: "trigger without patterns", news: trigger({ type: "Url", patterns: [] }), properties: ["triggers.0.patterns"], reason: /at least one pattern/ },
    { kind: "country that is not a code", news: trigger({ type: "CountryCode", patterns: ["DE", "Germany"] }), properties: ["triggers.0.patterns.1"], reason: /two-letter/ },
    { kind: "header trigger without the header name", news: trigger({ type: "RequestHeader", patterns: ["1"] }), properties: ["triggers.0.parameters.0"], reason: /header name.*required/ },
    { kind: "match type that does not exist", news: edgeRule({ triggerMatchingType: "MatchSome" }), properties: ["triggerMatchingType"], reason: /MatchAny, MatchAll, MatchNone/ },
    { kind: "negative priority", news: edgeRule({ priority: -1 }), properties: ["priority"] },
    { kind: "Terraform's single action attribute", news: edgeRule({ action: "Redirect" }), properties: ["action"], reason: UNKNOWN },
  ],
  OptimizerClass: [
    { kind: "name with a space", news: variant("OptimizerClass", { name: "big thumb" }), properties: ["name"], reason: /query strings/ },
    { kind: "quality above 100", news: variant("OptimizerClass", { quality: 101 }), properties: ["quality"] },
    { kind: "brightness below -100", news: variant("OptimizerClass", { brightness: -101 }), properties: ["brightness"] },
    { kind: "gravity that does not exist", news: variant("OptimizerClass", { cropGravity: "up" }), properties: ["cropGravity"] },
    { kind: "aspect ratio as a number", news: variant("OptimizerClass", { aspectRatio: "1.77" }), properties: ["aspectRatio"], reason: /16:9/ },
    { kind: "crop without a height", news: variant("OptimizerClass", { crop: "100" }), properties: ["crop"] },
    { kind: "Terraform's snake_case attribute", news: variant("OptimizerClass", { auto_optimize: "high" }), properties: ["auto_optimize"], reason: UNKNOWN },
  ],
  WafRule: [
    { kind: "no condition", news: variant("WafRule", { conditions: [] }), properties: ["conditions"], reason: /at least one condition/ },
    { kind: "missing action", news: variant("WafRule", { action: undefined }), properties: ["action"] },
    { kind: "a rate limit's action that WAF rules lack", news: variant("WafRule", { action: "RateLimit" }), properties: ["action"], reason: /must be one of/ },
    { kind: "shield zone id that is not numeric", news: variant("WafRule", { shieldZoneId: "zone-a" }), properties: ["shieldZoneId"] },
    { kind: "blank name", news: variant("WafRule", { name: " " }), properties: ["name"], reason: /must not be empty/ },
    { kind: "a condition matching no variable", news: variant("WafRule", { conditions: [{ variableTypes: {}, operatorType: "EQ" }] }), properties: ["conditions.0.variableTypes"], reason: /at least one variable/ },
    { kind: "operator of the second condition unknown", news: variant("WafRule", { conditions: [{ variableTypes: { ARGS: "" }, operatorType: "EQ" }, { variableTypes: { ARGS: "" }, operatorType: "LIKE" }] }), properties: ["conditions.1.operatorType"], reason: /must be one of/ },
    { kind: "unknown transformation", news: variant("WafRule", { transformations: ["UPPERCASE"] }), properties: ["transformations.0"], reason: /must be one of/ },
    { kind: "Terraform's response block", news: variant("WafRule", { response: { action: "block" } }), properties: ["response"], reason: UNKNOWN },
  ],
  AccessList: [
    { kind: "no entries", news: variant("AccessList", { entries: [] }), properties: ["entries"], reason: /at least one entry/ },
    { kind: "an entry twice", news: variant("AccessList", { entries: ["RU", "RU"] }), properties: ["entries"], reason: /repeat/ },
    { kind: "a blank entry", news: variant("AccessList", { entries: ["RU", " "] }), properties: ["entries.1"], reason: /must not be empty/ },
    { kind: "an entry holding a line break", news: variant("AccessList", { entries: ["RU\nKP"] }), properties: ["entries.0"], reason: /line break/ },
    { kind: "a type that does not exist", news: variant("AccessList", { type: "Continent" }), properties: ["type"], reason: /must be one of/ },
    { kind: "action None (turn a list off with enabled)", news: variant("AccessList", { action: "None" }), properties: ["action"], reason: /must be one of/ },
    { kind: "enabled as text", news: variant("AccessList", { enabled: "yes" }), properties: ["enabled"] },
    { kind: "the API's content instead of entries", news: variant("AccessList", { entries: undefined, content: "RU" }), properties: ["entries", "content"] },
    { kind: "a country that is no ISO 3166-1 alpha-2 code", news: variant("AccessList", { entries: ["RU", "XX1"] }), properties: ["entries"], reason: /"XX1" is not valid in a list of type Country/ },
    { kind: "an IP list's address that is none", news: variant("AccessList", { type: "IP", entries: ["999.999.1.1"] }), properties: ["entries"], reason: /"999\.999\.1\.1" is not valid in a list of type IP/ },
  ],
  CachePurge: [
    { kind: "neither a pull zone nor a URL", news: variant("CachePurge", { pullZoneId: undefined, cacheTag: undefined }), properties: ["pullZoneId"], reason: /unless url/ },
    { kind: "both a pull zone and a URL", news: variant("CachePurge", { url: "https://cdn.example.com/*" }), properties: ["url"], reason: /not both/ },
    { kind: "URL without a scheme", news: { url: "cdn.example.com/app.css" }, properties: ["url"], reason: /http or https/ },
    { kind: "cache tag without a pull zone", news: { url: "https://cdn.example.com/a.css", cacheTag: "css" }, properties: ["cacheTag"] },
    { kind: "exact path without a URL", news: variant("CachePurge", { exactPath: true }), properties: ["exactPath"] },
    { kind: "triggers that are a string", news: variant("CachePurge", { triggers: "abc" }), properties: ["triggers"] },
  ],
};

/**
 * Invalid inputs sent as the engine sends them (Check over gRPC to the SDK's provider host): each is refused
 * naming the exact property, and not one API call is made.
 */
describe("reliability: bad input is refused by check, naming the property, before any API call", function () {
  let emu: TestEmulator;
  let host: ProviderHost;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    // As the engine does before any check: the provider has credentials, so a call could happen if check made one.
    await host.configure({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:streamApiUrl": emu.url });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  it("covers at least 60 distinct cases across the resources", () => {
    const all = Object.entries(CASES).flatMap(([type, cases]) => cases.map((c) => `${type}: ${c.kind}`));
    assert.ok(all.length >= 60, `${all.length} cases`);
    assert.equal(new Set(all).size, all.length, "each case is named once");
    assert.deepEqual(Object.keys(CASES).sort(), Object.keys(VALID).sort());
  });

  for (const [type, cases] of Object.entries(CASES)) {
    describe(type, () => {
      it("accepts the valid inputs every case below is made from, without an API call", async () => {
        await emu.markRequests();
        const res = await host.check(type, {}, VALID[type]);
        assert.deepEqual(res.failures, []);
        assert.deepEqual(await emu.requests(), []);
      });

      for (const bad of cases) {
        it(`${bad.kind} → ${bad.properties.join(", ")}`, async () => {
          await emu.markRequests();
          const res = await host.check(type, {}, bad.news);
          assert.deepEqual(res.failures.map(named).map((f) => f.property).sort(), [...bad.properties].sort(), JSON.stringify(res.failures));
          for (const f of res.failures.map(named)) {
            assert.ok(f.reason.length > 0, `${f.property} has a reason`);
            if (bad.reason) assert.match(f.reason, bad.reason);
          }
          assert.deepEqual(await emu.requests(), [], "no API call");
        });
      }
    });
  }
});
