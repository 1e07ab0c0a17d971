import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { compileUserProject, installed, PACKAGE_NAME, type UserProject } from "../support/userProject";

/**
 * The package's public types in a user's project: a program importing the package, and using every resource,
 * lookup, client method and exported type, compiles with the tsconfig of Pulumi's TypeScript template (no
 * skipLibCheck, no esModuleInterop), and nothing the package root reaches mentions zod (whose declarations
 * need esModuleInterop). Runs against the built declarations in dist/.
 */

/** The provider's workspace package (provider/), as the repository's node_modules links it. */
const PACKAGE_DIR = installed(PACKAGE_NAME);


/** A user's program: every resource, lookup, client method and exported type, as a user would write them. */
const PROGRAM = `import { createReadStream } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "${PACKAGE_NAME}";

// Resources, with their Args types named.
const variableArgs: bunnynet.ScriptVariableArgs = { scriptId: 1, name: "GREETING", required: false, defaultValue: pulumi.secret("hello"), adoptExisting: true };
const variable = new bunnynet.ScriptVariable("greeting", variableArgs);
const zoneArgs: bunnynet.DnsZoneArgs = { domain: "example.com", loggingEnabled: true, logAnonymizationType: "Drop", dnssecEnabled: false, adoptExisting: true };
const dnsZone = new bunnynet.DnsZone("zone", zoneArgs);
const recordType: bunnynet.DnsRecordType = "CNAME";
const recordTypeName: bunnynet.DnsRecordTypeName = "TXT";
const recordArgs: bunnynet.DnsRecordArgs = { dnsZoneId: dnsZone.dnsZoneId, type: recordType, name: "www", value: "site.b-cdn.net", ttl: 300 };
export const txtRecord = new bunnynet.DnsRecord("txt", { dnsZoneId: "7" satisfies bunnynet.NumericId, type: recordTypeName, name: "txt", value: "v" });
export const recordId = new bunnynet.DnsRecord("www", recordArgs).recordId;
export const nameservers: pulumi.Output<string[]> = dnsZone.nameservers;

const condition: bunnynet.RateLimitConditionArgs = { variableTypes: { REQUEST_METHOD: "" }, operatorType: "EQ", value: "POST", isNegated: false, isRegexVariable: false };
const configuration: bunnynet.RateLimitConfigurationArgs = {
  variableTypes: { [bunnynet.RuleVariable.REQUEST_URI]: "" },
  operatorType: bunnynet.RuleOperator.BEGINSWITH,
  value: "/login",
  actionType: bunnynet.RateLimitAction.Block,
  severityType: bunnynet.RuleSeverity.WARNING,
  transformationTypes: [bunnynet.RuleTransformation.LOWERCASE, "URLDECODE"],
  requestCount: 10,
  counterKeyType: bunnynet.RateLimitCounterKey.IP,
  timeframe: bunnynet.RateLimitTimeframe.PerOneMinute,
  blockTime: bunnynet.RateLimitBlockTime.ForFiveMinutes,
  chainedConditions: [condition],
};
const variableName: bunnynet.RuleVariableName = "REQUEST_HEADERS";
const ruleArgs: bunnynet.RateLimitRuleArgs = { pullZoneId: "42", name: "login", description: "login throttling", configuration };
const rule = new bunnynet.RateLimitRule("login", ruleArgs, { protect: false });

const hostnameArgs: bunnynet.PullZoneHostnameArgs = { pullZoneId: 42, hostname: "cdn.example.com", adoptExisting: true };
const hostname = new bunnynet.PullZoneHostname("cdn", hostnameArgs);
const tls: bunnynet.TlsInput = { certificate: "-----BEGIN CERTIFICATE-----", privateKey: pulumi.secret("-----BEGIN PRIVATE KEY-----") as unknown as string };
const secured = new bunnynet.PullZoneHostname("secured", { pullZoneId: 42, hostname: "www.example.com", tls: "free", forceSsl: true });
const custom = new bunnynet.PullZoneHostname("custom", { pullZoneId: 42, hostname: "api.example.com", tls });
const certificate: pulumi.Output<bunnynet.CertificateDetails | undefined> = custom.certificate;

const secretArgs: bunnynet.ScriptSecretArgs = { scriptId: 1, name: "SIGNING_KEY", value: pulumi.secret("s3cret") };
const scriptSecret = new bunnynet.ScriptSecret("signing-key", secretArgs);

const thumbnailArgs: bunnynet.VideoThumbnailArgs = { libraryId: 7, videoId: "guid", file: new pulumi.asset.FileAsset("poster.jpg") };
const thumbnail = new bunnynet.VideoThumbnail("poster", thumbnailArgs);

const collectionArgs: bunnynet.StreamCollectionArgs = { libraryId: 7, name: "Talks", adoptExisting: true };
const collection = new bunnynet.StreamCollection("talks", collectionArgs);
const videoArgs: bunnynet.StreamVideoArgs = {
  libraryId: 7,
  title: "Keynote",
  source: new pulumi.asset.FileAsset("keynote.mp4"),
  collectionId: collection.collectionId,
  chapters: [{ title: "Intro", start: 0, end: 10 }],
  captions: { en: new pulumi.asset.FileAsset("keynote.vtt") },
};
const streamVideo = new bunnynet.StreamVideo("keynote", videoArgs);
const fetchedVideo = new bunnynet.StreamVideo("teaser", { libraryId: 7, title: "Teaser", source: { url: "https://media.example.com/t.mp4" } });
const videoLength: pulumi.Output<number> = streamVideo.length;

const shieldArgs: bunnynet.ShieldZoneArgs = {
  pullZoneId: 42,
  planType: bunnynet.ShieldPlanType.Advanced,
  wafEnabled: true,
  wafExecutionMode: bunnynet.WafExecutionMode.Block,
  wafRequestBodyLimitAction: bunnynet.WafPayloadLimitAction.Log,
  ddosShieldSensitivity: bunnynet.DdosSensitivity.High,
};
const shieldZone = new bunnynet.ShieldZone("shield", shieldArgs);
const libraryArgs: bunnynet.VideoLibraryArgs = { name: "videos", replicationRegions: ["NY"], encodingTier: bunnynet.EncodingTier.Free, enabledResolutions: ["720p"] };
const library = new bunnynet.VideoLibrary("videos", libraryArgs);
const libraryKeyOutput: pulumi.Output<string> = library.apiKey;
const shieldZoneIdOutput: pulumi.Output<number> = shieldZone.shieldZoneId;
const shieldSettings: pulumi.Output<bunnynet.ShieldZoneSettings> = shieldZone.settings;

const deletionArgs: bunnynet.VolumeInstanceDeletionArgs = { appId: "app", volumeId: "vol", instanceId: "inst", detachFirst: true, triggers: [1] };
const deletion = new bunnynet.VolumeInstanceDeletion("drain", deletionArgs);

const redirectAction: bunnynet.EdgeRuleActionArgs = { type: "Redirect" satisfies bunnynet.EdgeRuleActionType, parameters: ["https://www.example.com", "301"] };
const urlTrigger: bunnynet.EdgeRuleTriggerArgs = { type: 0 satisfies bunnynet.EdgeRuleTriggerType, patterns: [pulumi.output("https://old.example.com/*")], matchType: "MatchAny" satisfies bunnynet.EdgeRuleMatchType };
const edgeRuleArgs: bunnynet.EdgeRuleArgs = { pullZoneId: 42, actions: [redirectAction], triggers: [urlTrigger], priority: 1, description: "to www" };
const edgeRuleId: pulumi.Output<string> = new bunnynet.EdgeRule("to-www", edgeRuleArgs).edgeRuleId;
const optimizerClassArgs: bunnynet.OptimizerClassArgs = { pullZoneId: 42, name: "thumb", width: 320, cropGravity: "center" };
const optimizerClass = new bunnynet.OptimizerClass("thumb", optimizerClassArgs);
const wafRuleArgs: bunnynet.WafRuleArgs = { shieldZoneId: 3001, name: "admin", conditions: [{ variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" }], action: bunnynet.WafRuleAction.Block };
const wafRuleId: pulumi.Output<number> = new bunnynet.WafRule("admin", wafRuleArgs).ruleId;
const accessListArgs: bunnynet.AccessListArgs = { shieldZoneId: 3001, name: "countries", type: "Country", entries: ["KP"], action: bunnynet.AccessListAction.Block };
const accessListId: pulumi.Output<number> = new bunnynet.AccessList("countries", accessListArgs).accessListId;
const accessListIds: pulumi.Output<Record<string, number>> = bunnynet.getAccessListsOutput(3001).ids;
// The arguments object every lookup takes, each field an Output in the Output form (the bare id above is shorthand).
const accessListOutputArgs: bunnynet.GetAccessListsOutputArgs = { shieldZoneId: pulumi.output(3001) };
export const accessListNames = bunnynet.getAccessListsOutput(accessListOutputArgs).managedLists.apply((lists) => lists.map((l) => l.name));
const plainAccessListArgs: bunnynet.GetAccessListsArgs = { shieldZoneId: 3001 };
export const accessListCount = bunnynet.getAccessLists(plainAccessListArgs).then((r) => r.customLists.length);
const managedList: bunnynet.ShieldZoneAccessListArgs = { id: 4, action: "Block" };
const botDetection: bunnynet.ShieldZoneBotDetectionArgs = { executionMode: bunnynet.BotDetectionMode.Challenge, ipSensitivity: bunnynet.BotDetectionSensitivity.High, fingerprintAggression: bunnynet.FingerprintAggression.Medium };
const uploadScanning: bunnynet.ShieldZoneUploadScanningArgs = { antivirus: bunnynet.UploadScannerMode.Block };
const customPages: bunnynet.ShieldZoneCustomPagesArgs = { block: "<p>blocked</p>" };
const protectedZone = new bunnynet.ShieldZone("protected", { pullZoneId: 42, planType: "Advanced", accessLists: [managedList], botDetection, uploadScanning, customPages });
const purgeArgs: bunnynet.CachePurgeArgs = { pullZoneId: 42, triggers: { content: "abc" } };
const purgedAt: pulumi.Output<string> = new bunnynet.CachePurge("purge", purgeArgs).purgedAt;
const storageFileArgs: bunnynet.StorageFileArgs = { storageZoneId: 42, path: "css/site.css", content: "body{}", contentType: "text/css" };
const fileChecksum: pulumi.Output<string> = new bunnynet.StorageFile("css", storageFileArgs).checksum;
const storageFolderArgs: bunnynet.StorageFolderArgs = { storageZoneId: 42, source: new pulumi.asset.FileArchive("public"), prefix: "www" };
const siteFileCount: pulumi.Output<number> = new bunnynet.StorageFolder("site", storageFolderArgs).fileCount;
export const storageOutputs = { fileChecksum, siteFileCount };
const edgeScriptArgs: bunnynet.EdgeScriptArgs = { name: "router", type: "Standalone", code: new pulumi.asset.FileAsset("router.js") };
const edgeScript = new bunnynet.EdgeScript("router", edgeScriptArgs);
const scriptHostname: pulumi.Output<string | undefined> = edgeScript.linkedPullZoneHostname;
const storageRegion: bunnynet.StorageRegion = bunnynet.STORAGE_REGIONS[0];
const storageArgs: bunnynet.StorageZoneArgs = { name: "files", region: storageRegion, replicationRegions: ["NY"], zoneTier: "Standard", rewrite404To200: true };
const storage = new bunnynet.StorageZone("files", storageArgs);
const databaseArgs: bunnynet.DatabaseArgs = { name: "app-db", primaryRegions: ["DE"], replicaRegions: ["NY", "SG"] };
const appDatabase = new bunnynet.Database("app-db", databaseArgs);
export const databaseUrl: pulumi.Output<string> = appDatabase.url;
export const databaseToken: pulumi.Output<string> = appDatabase.readOnlyToken;
const memberPermissions: bunnynet.TeamMemberPermission[] = ["zones", "support"];
const teamMemberArgs: bunnynet.TeamMemberArgs = { email: "ops@example.com", firstName: "Op", lastName: "Erator", permissions: memberPermissions, password: new pulumi.Config().requireSecret("opsPassword") };
export const memberId: pulumi.Output<string> = new bunnynet.TeamMember("ops", teamMemberArgs).memberId;
const originArgs: bunnynet.PullZoneOriginArgs = { storageZoneId: storage.storageZoneId };
const pullZoneArgs: bunnynet.PullZoneArgs = { name: "site", origin: originArgs, zones: ["EU", "US"], ipFamily: "DualStack", blockedIps: ["192.0.2.1"] };
const site = new bunnynet.PullZone("site", pullZoneArgs);
const urlZone = new bunnynet.PullZone("api", { name: "api", origin: { url: "https://origin.example.com", port: 8443, scheme: "https" } });

// Outputs, typed as users would type them.
const storedConfiguration: pulumi.Output<bunnynet.api.RateLimitRuleConfiguration> = rule.configuration;
export const outputs = {
  libraryKey: libraryKeyOutput,
  protectedZoneId: shieldZoneIdOutput,
  waf: shieldSettings.apply((z) => z.wafEnabled),
  variableId: variable.variableId,
  required: variable.required,
  ruleId: rule.ruleId,
  shieldZoneId: rule.shieldZoneId,
  timeframe: storedConfiguration.apply((c) => c.timeframe),
  hostnameId: hostname.hostnameId,
  forceSsl: hostname.forceSsl,
  thumbnailUrl: thumbnail.thumbnailUrl,
  fingerprint: thumbnail.fingerprint,
  videoId: streamVideo.videoId,
  videoLength,
  fetchedStatus: fetchedVideo.status,
  deletedInstanceId: deletion.deletedInstanceId,
  alreadyGone: deletion.alreadyGone,
  certificateExpiry: certificate.apply((c) => c?.expiresAt),
  securedId: secured.hostnameId,
  secretId: scriptSecret.secretId,
  scriptHostname,
  releaseId: edgeScript.releaseId,
  storageZoneId: storage.storageZoneId,
  storagePassword: storage.password,
  cdnHostname: site.cdnHostname,
  urlZoneId: urlZone.pullZoneId,
  edgeRuleId,
  optimizerQuality: optimizerClass.quality,
  purgedAt,
  wafRuleId,
  protectedPages: protectedZone.customPages,
  accessListId,
  accessListIds,
};

// Lookups, plain and as Outputs.
const origin: bunnynet.SettingsOrigin = "code";
const settings: bunnynet.BunnySettings = bunnynet.resolveSettings({ apiKey: "key", timeoutMs: 5000, origin } satisfies bunnynet.SettingsInput);
const client = new bunnynet.BunnyClient(settings);
const options: bunnynet.LookupOptions = { client: bunnynet.lookupClient({ client }) };
export const apiKeyIds = bunnynet.getApiKeysOutput(options).apply((r: bunnynet.GetApiKeysResult) => r.keys.map((k: bunnynet.ApiKeyInfo) => k.id));
const regionArgs: bunnynet.GetRegionsArgs = { hasCapacity: true, anycast: true };
export const regionIds = bunnynet.getRegionsOutput(regionArgs, options).ids;
const registryArgs: bunnynet.ContainerRegistryArgs = { type: "GitHub", username: "octo", password: pulumi.secret("token") };
export const registryId = new bunnynet.ContainerRegistry("ghcr", registryArgs).registryId;
const publicRegistryArgs: bunnynet.GetContainerRegistryArgs = { type: "DockerHub" };
export const dockerHub: Promise<bunnynet.GetContainerRegistryResult> = bunnynet.getContainerRegistry(publicRegistryArgs, options);
const ghcrArgs: bunnynet.GetContainerRegistryOutputArgs = { type: "GitHub", username: pulumi.output("octo") };
export const ghcrUrl = bunnynet.getContainerRegistryOutput(ghcrArgs, options).url;
const appImage: bunnynet.ContainerAppImageArgs = { registryId: 1, namespace: "library", name: "nginx", tag: "1.27" };
const appProbe: bunnynet.ContainerAppProbeArgs = { type: "http", port: 80, path: "/healthz" };
const appPort: bunnynet.ContainerAppPortArgs = { container: 80 };
const appEndpoint: bunnynet.ContainerAppEndpointArgs = { type: "cdn", ports: [appPort], cdn: { pullZoneId: 42 } };
const appContainer: bunnynet.ContainerAppContainerArgs = { image: appImage, env: { TOKEN: pulumi.secret("t") }, probes: { readiness: appProbe }, volumeMounts: { data: "/data" }, endpoints: { site: appEndpoint } };
const appArgs: bunnynet.ContainerAppArgs = { name: "shop", regions: { allowed: ["DE"] }, autoscaling: { min: 1, max: 2 }, containers: { web: appContainer }, volumes: { data: { sizeGb: 1 } } };
const containerApp = new bunnynet.ContainerApp("shop", appArgs);
export const appHost = containerApp.endpoints.apply((e: Record<string, bunnynet.ContainerAppEndpointOutput>) => e.site.publicHost);
export const appImageTag = containerApp.containers.apply((c: Record<string, bunnynet.ContainerAppContainer>) => c.web.image.tag);
export const appProbeType = containerApp.containers.apply((c) => (c.web.probes?.readiness as bunnynet.ContainerAppProbe | undefined)?.type);
export const appEndpointType = containerApp.containers.apply((c) => (c.web.endpoints?.site as bunnynet.ContainerAppEndpoint | undefined)?.type);
const languageArgs: bunnynet.GetVideoLanguagesArgs = { code: "en" };
export const english: Promise<bunnynet.VideoLanguageInfo[]> = bunnynet.getVideoLanguages(languageArgs, options).then((r: bunnynet.GetVideoLanguagesResult) => r.languages);
const languageOutputArgs: bunnynet.GetVideoLanguagesOutputArgs = { code: pulumi.output("de") };
export const languageCodes = bunnynet.getVideoLanguagesOutput(languageOutputArgs, options).codes;
const cdnRegionArgs: bunnynet.GetCdnRegionsOutputArgs = { continentCode: pulumi.output("EU") };
export const cdnRegionCodes = bunnynet.getCdnRegionsOutput(cdnRegionArgs, options).regionCodes;
const endpointArgs: bunnynet.GetAppEndpointsArgs = { appId: "app" };
export const publicHosts = bunnynet.getAppEndpointsOutput(endpointArgs, options).publicHosts;
const logArgs: bunnynet.GetCdnLogsArgs = { pullZoneId: 42, maxEntries: 100, status: ["5xx", 404], cacheStatus: ["MISS"], from: new Date(), order: "asc" };
export const statusCodes = bunnynet.getCdnLogsOutput({ pullZoneId: 42, maxEntries: 10, from: "2026-01-01T00:00:00Z" }, options).entries.apply((e) => e.map((x) => x.statusCode));

const dnsZoneArgs: bunnynet.GetDnsZoneArgs = { domain: "example.com" };
export const dnsZoneIdOut = bunnynet.getDnsZoneOutput(dnsZoneArgs, options).dnsZoneId;
export const pullZoneHostnames = bunnynet.getPullZoneOutput({ name: "site" }, options).hostnames;
// Each argument of an Output form may itself be an Output, as in Pulumi's generated get…Output functions.
const zoneDomain: pulumi.Output<string> = pulumi.output("example.com");
const dnsZoneOutputArgs: bunnynet.GetDnsZoneOutputArgs = { domain: zoneDomain };
export const dnsZoneByOutput = bunnynet.getDnsZoneOutput(dnsZoneOutputArgs, options).nameservers;
export const dnsZoneByInlineOutput = bunnynet.getDnsZoneOutput({ domain: zoneDomain }, options).dnsZoneId;
const pullZoneOutputArgs: bunnynet.GetPullZoneOutputArgs = { id: pulumi.output(7) };
export const pullZoneByOutput = bunnynet.getPullZoneOutput(pullZoneOutputArgs, options).cdnHostname;
const logOutputArgs: bunnynet.GetCdnLogsOutputArgs = { pullZoneId: pulumi.output(42), maxEntries: 10, from: pulumi.output("2026-01-01T00:00:00Z") };
export const logsByOutput = bunnynet.getCdnLogsOutput(logOutputArgs, options).truncated;
const dnsRecordArgs: bunnynet.GetDnsRecordArgs = { dnsZoneId: 1, type: "MX", name: "@" };
const dnsRecordOutputArgs: bunnynet.GetDnsRecordOutputArgs = { dnsZoneId: pulumi.output(1), recordId: pulumi.output(7) };
export const mxValue = bunnynet.getDnsRecordOutput(dnsRecordOutputArgs, options).value;
const containerArgs: bunnynet.GetContainerAppContainerArgs = { appId: "app", name: "web" };
const containerOutputArgs: bunnynet.GetContainerAppContainerOutputArgs = { appId: pulumi.output("app"), name: "web" };
export const webContainerId = bunnynet.getContainerAppContainerOutput(containerOutputArgs, options).containerId;

// A second account through an explicit provider, for a resource and a lookup.
const stagingArgs: bunnynet.ProviderArgs = { apiKey: new pulumi.Config().requireSecret("stagingApiKey"), apiUrl: "https://api.bunny.net", maxRetries: 3 };
const staging = new bunnynet.Provider("staging", stagingArgs);
export const stagingZoneId = new bunnynet.DnsZone("staging-zone", { domain: "staging.example.com" }, { provider: staging }).dnsZoneId;
export const stagingPullZone = bunnynet.getPullZoneOutput({ name: "staging-site" }, { provider: staging }).pullZoneId;

export async function lookups(): Promise<void> {
  const foundDnsZone: bunnynet.GetDnsZoneResult = await bunnynet.getDnsZone({ dnsZoneId: 1 }, options);
  const record: bunnynet.GetDnsRecordResult = await bunnynet.getDnsRecord(dnsRecordArgs, options);
  console.log(record.recordId, record.type);
  const container: bunnynet.GetContainerAppContainerResult = await bunnynet.getContainerAppContainer(containerArgs, options);
  const image: bunnynet.AppContainerImage = container.image;
  const webEndpoint: bunnynet.AppContainerEndpoint | undefined = container.endpoints[0];
  console.log(image.tag, webEndpoint?.publicHost);
  console.log(foundDnsZone.nameservers.join(","), foundDnsZone.recordCount);
  const found: bunnynet.GetPullZoneResult = await bunnynet.getPullZone({ id: 42 } satisfies bunnynet.GetPullZoneArgs, options);
  console.log(found.cdnHostname, found.zone.Name);
  const keys: bunnynet.GetApiKeysResult = await bunnynet.getApiKeys(options);
  const regions: bunnynet.GetRegionsResult = await bunnynet.getRegions(regionArgs, options);
  const region: bunnynet.RegionInfo | undefined = regions.regions[0];
  const cdnRegions: bunnynet.GetCdnRegionsResult = await bunnynet.getCdnRegions({ regionCode: "DE" } satisfies bunnynet.GetCdnRegionsArgs, options);
  const cdnRegion: bunnynet.CdnRegionInfo | undefined = cdnRegions.regions[0];
  console.log(cdnRegion?.pricePerGigabyte);
  const endpoints: bunnynet.GetAppEndpointsResult = await bunnynet.getAppEndpoints(endpointArgs, options);
  const endpoint: bunnynet.api.Endpoint | undefined = endpoints.endpoints[0];
  const logs: bunnynet.GetCdnLogsResult = await bunnynet.getCdnLogs(logArgs, options);
  const entry: bunnynet.api.LogEntry | undefined = logs.entries[0];
  const matches: boolean = bunnynet.regionMatches({ id: "DE", hasCapacity: true }, regionArgs);
  console.log(keys.keys.length, region?.id, endpoint?.publicHost, entry?.url, logs.truncated, matches, variableName);
}

// The client: every method of every API surface, and the transport under it.
export async function useClient(c: bunnynet.BunnyClient): Promise<void> {
  const closed: bunnynet.api.CloseAccountResponse = await c.account.closeAccount({ password: "secret", reason: "moving" });

  const keyPage: bunnynet.api.ApiKeyPage = await c.apiKeys.listPage({ page: 1, perPage: 100 });
  for await (const key of c.apiKeys.list({ perPage: 100 })) console.log(key.Id, key.Roles.join(","));

  const regionPage: bunnynet.api.RegionPage = await c.containers.listRegionsPage({ limit: 10 });
  for await (const r of c.containers.listRegions({ limit: 10 })) console.log(r.id, r.hasCapacity);
  const endpointPage: bunnynet.api.EndpointPage = await c.containers.listEndpointsPage("app");
  for await (const e of c.containers.listEndpoints("app")) console.log(e.portMappings.map((p) => p.exposedPort));
  const volumes: bunnynet.api.VolumeList = await c.containers.listVolumesPage("app");
  for await (const v of c.containers.listVolumes("app")) console.log(v.volumeInstances.map((i: bunnynet.api.VolumeInstance) => i.status));
  const volume: bunnynet.api.Volume | undefined = await c.containers.findVolume("app", "vol");
  const detached: bunnynet.api.DetachVolumeResult = await c.containers.detachVolume("app", "vol");
  const deleted: bunnynet.api.DeleteVolumeInstanceResult = await c.containers.deleteVolumeInstance("app", "vol", "inst");
  const appRequest: bunnynet.api.AddApplicationRequest = { name: "shop", runtimeType: "shared", autoScaling: { min: 1, max: 1 }, regionSettings: { allowedRegionIds: ["DE"] } };
  const appId: string = await c.containers.addApp(appRequest);
  const application: bunnynet.api.Application = await c.containers.getApp(appId);
  await c.containers.updateApp(application.id, appRequest);
  const appPage: bunnynet.api.AppPage = await c.containers.listAppsPage({ limit: 10 });
  for await (const a of c.containers.listApps({ limit: 10 })) console.log(a.id, a.status, appPage.items.length);
  await c.containers.deleteApp(appId);

  const zonePage: bunnynet.api.DnsZonePage = await c.dns.listZonesPage({ page: 1, perPage: 100, search: "example" });
  for await (const z of c.dns.listZones({ search: "example" })) console.log(z.Domain, zonePage.TotalItems);
  const foundZone: bunnynet.api.DnsZone | undefined = await c.dns.findZoneByDomain("example.com");
  const newZone: bunnynet.api.DnsZone = await c.dns.addZone("example.org");
  const readZone = await c.dns.getZone(newZone.Id);
  await c.dns.updateZone(readZone.Id, { LoggingEnabled: true } satisfies bunnynet.api.UpdateDnsZoneRequest);
  const ds: bunnynet.api.DnsSecDsRecord = await c.dns.setDnssec(readZone.Id, true);
  const rec: bunnynet.api.DnsRecord = await c.dns.addRecord(readZone.Id, { Type: 3, Name: "txt", Value: "v" } satisfies bunnynet.api.AddDnsRecordRequest);
  await c.dns.updateRecord(readZone.Id, rec.Id, { Value: "w" } satisfies bunnynet.api.UpdateDnsRecordRequest);
  console.log(foundZone?.Id, ds.Enabled, (await c.dns.getRecord(readZone.Id, rec.Id)).Value);
  await c.dns.deleteRecord(readZone.Id, rec.Id);
  await c.dns.deleteZone(readZone.Id);
  const script: bunnynet.api.EdgeScript = await c.edgeScripts.getScript(1);
  const added: bunnynet.api.Variable = await c.edgeScripts.addVariable(1, { Name: "A", Required: true, DefaultValue: null });
  const got: bunnynet.api.Variable = await c.edgeScripts.getVariable(1, added.Id);
  const updated = await c.edgeScripts.updateVariable(1, got.Id, { DefaultValue: "b" } satisfies bunnynet.api.UpdateVariableRequest);
  await c.edgeScripts.deleteVariable(1, updated.Id);
  const upserted = await c.edgeScripts.upsertVariable(1, { Name: "A", DefaultValue: "c" } satisfies bunnynet.api.UpsertVariableRequest);
  const found: bunnynet.api.Variable | undefined = await c.edgeScripts.findVariableByName(1, "A");
  const secrets: bunnynet.api.Secret[] = await c.edgeScripts.listSecrets(1);
  const secret = await c.edgeScripts.addSecret(1, { Name: "K", Secret: "v" } satisfies bunnynet.api.AddSecretRequest);
  await c.edgeScripts.updateSecret(1, secret.Id, "w");
  await c.edgeScripts.upsertSecret(1, { Name: "K", Secret: "x" });
  const namedSecret: bunnynet.api.Secret | undefined = await c.edgeScripts.findSecretByName(1, "K");
  await c.edgeScripts.deleteSecret(1, secret.Id);
  const createdScript = await c.edgeScripts.createScript({ Name: "s", ScriptType: 1, Code: "x", CreateLinkedPullZone: true } satisfies bunnynet.api.AddScriptRequest);
  const withKey: bunnynet.api.EdgeScript = (await c.edgeScripts.getScriptWithKey(createdScript.script.Id)).script;
  for await (const s of c.edgeScripts.listScripts({ search: "s" })) console.log(s.LinkedPullZones.map((z: bunnynet.api.LinkedPullZone) => z.DefaultHostname));
  const sameName: bunnynet.api.EdgeScript[] = await c.edgeScripts.findScriptsByName("s");
  await c.edgeScripts.updateScript(withKey.Id, { Name: "t" } satisfies bunnynet.api.UpdateScriptRequest);
  await c.edgeScripts.setCode(withKey.Id, "y");
  const code: bunnynet.api.ScriptCode = await c.edgeScripts.getCode(withKey.Id);
  await c.edgeScripts.publish(withKey.Id, "note");
  const live: bunnynet.api.ScriptRelease = await c.edgeScripts.getActiveRelease(withKey.Id);
  for await (const r of c.edgeScripts.listReleases(withKey.Id)) console.log(r.Uuid, live.Id, code.Code, sameName.length);
  await c.edgeScripts.deleteScript(withKey.Id, { deleteLinkedPullZones: true });

  const page: bunnynet.api.LogPage = await c.logging.queryPage(42, { status: [500], limit: 10 } satisfies bunnynet.api.LogQueryParams);
  const withToken = c.logging.withBearer("token");
  for await (const e of c.logging.query("42", { search: "bot", urlContains: "/api" }, { maxEntries: 10 })) console.log(e.statusCode, e.cacheStatus);
  const day = await c.logging.downloadDay(42, new Date(), { sort: "desc", status: ["4xx"] } satisfies bunnynet.api.LogDayParams);
  const tokenPage = await withToken.queryPage(42);
  for await (const record of bunnynet.logs.parseV1Log(day, { filter: { status: [500] } })) if (record.kind === "entry") console.log(bunnynet.logs.v1EntryToJson(record).url);

  const zone: bunnynet.api.PullZone = await c.pullZones.getPullZone(42);
  await c.pullZones.addHostname(zone.Id, "cdn.example.com");
  const host: bunnynet.api.Hostname | undefined = await c.pullZones.findHostname(zone.Id, "cdn.example.com");
  await c.pullZones.removeHostname(zone.Id, "cdn.example.com");
  const withCertificates: bunnynet.api.PullZone = await c.pullZones.getPullZoneWithCertificates(42);
  await c.pullZones.loadFreeCertificate("cdn.example.com");
  await c.pullZones.addCertificate(42, "cdn.example.com", "-----BEGIN CERTIFICATE-----", "-----BEGIN PRIVATE KEY-----");
  await c.pullZones.setForceSsl(42, "cdn.example.com", true);
  await c.pullZones.removeCertificate(42, "cdn.example.com");
  const siteZone: bunnynet.api.PullZone = await c.pullZones.createPullZone({ Name: "site", OriginUrl: "https://origin.example.com" } satisfies bunnynet.api.PullZoneAddRequest);
  await c.pullZones.updatePullZone(siteZone.Id, { EnableLogging: false } satisfies bunnynet.api.PullZoneSettingsRequest);
  for await (const z of c.pullZones.listPullZones({ search: "site" })) console.log(z.Name);
  console.log((await c.pullZones.findPullZoneByName("site"))?.Id);
  await c.pullZones.deletePullZone(siteZone.Id);
  const rule: bunnynet.api.EdgeRule = await c.pullZones.addOrUpdateEdgeRule(42, { ActionType: 4, Triggers: [{ Type: 4, PatternMatches: ["KP"], PatternMatchingType: 0 }], TriggerMatchingType: 0, Enabled: true, OrderIndex: 0 } satisfies bunnynet.api.EdgeRuleRequest);
  const rules: bunnynet.api.EdgeRule[] = await c.pullZones.listEdgeRules(42);
  await c.pullZones.setEdgeRuleEnabled(42, rule.Guid, rules.length > 0);
  await c.pullZones.deleteEdgeRule(42, rule.Guid);
  const wafRule: bunnynet.api.WafRule = await c.wafRules.create({ shieldZoneId: 3001, ruleName: "admin", ruleConfiguration: { actionType: "Block", variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH" } } satisfies bunnynet.api.CreateWafRuleInput);
  await c.wafRules.update(wafRule.id, { ruleName: "admin", ruleConfiguration: { actionType: 2, variableTypes: { REQUEST_URI: "" }, operatorType: 0 } } satisfies bunnynet.api.UpdateWafRuleInput);
  const wafPage: bunnynet.api.WafRulePage = await c.wafRules.listPage(3001, { perPage: 100 });
  for await (const r of c.wafRules.list(3001)) console.log(r.ruleName);
  console.log(wafPage.data.length, (await c.wafRules.find(3001, (r) => r.ruleName === "admin"))?.id, (await c.wafRules.get(wafRule.id)).id);
  await c.wafRules.delete(wafRule.id);
  const customList: bunnynet.api.CustomAccessList = await c.accessLists.create(3001, { name: "countries", type: "Country", content: "KP" } satisfies bunnynet.api.CreateAccessListInput);
  const zoneLists: bunnynet.api.AccessLists = await c.accessLists.list(3001);
  await c.accessLists.update(3001, customList.id, { content: "RU" } satisfies bunnynet.api.UpdateAccessListInput);
  await c.accessLists.configure(3001, zoneLists.customLists[0].configurationId, { action: "Challenge", isEnabled: true } satisfies bunnynet.api.UpdateAccessListConfigurationInput);
  console.log((await c.accessLists.get(3001, customList.id)).content);
  await c.accessLists.delete(3001, customList.id);
  const bots: bunnynet.api.BotDetection = await c.shieldZones.updateBotDetection(3001, { executionMode: "Challenge" } satisfies bunnynet.api.UpdateBotDetectionInput);
  const scanning: bunnynet.api.UploadScanning = await c.shieldZones.updateUploadScanning(3001, { isEnabled: true, antivirusScanningMode: "Block" } satisfies bunnynet.api.UpdateUploadScanningInput);
  console.log(bots.executionMode, (await c.shieldZones.getBotDetection(3001)).ipAddress, scanning.isEnabled, (await c.shieldZones.getUploadScanning(3001)).csamScanningMode);
  await c.shieldZones.putCustomPage(3001, "block", "<p>blocked</p>");
  const rateLimitPage: string | undefined = await c.shieldZones.getCustomPage(3001, "rateLimit");
  console.log(rateLimitPage, await c.shieldZones.deleteCustomPage(3001, "challenge"));
  const listType: number = bunnynet.AccessListType.Country;
  const info: bunnynet.AccessListInfo | undefined = zoneLists.customLists.length > 0 ? (await bunnynet.getAccessLists(3001)).customLists[0] : undefined;
  console.log(listType, info?.name);
  const lookedUp: bunnynet.GetAccessListsResult = await bunnynet.getAccessLists(3001);
  console.log(customList.id, zoneLists.customLists.length, lookedUp.ids);
  await c.pullZones.purgeCache(42, "css");
  await c.pullZones.purgeUrl("https://cdn.example.com/*", { exactPath: false });
  const regionList: bunnynet.api.CdnRegion[] = await c.pullZones.listCdnRegions();
  const classes: bunnynet.api.OptimizerClass[] = siteZone.OptimizerClasses;
  console.log(regionList.length, classes.length);
  const storageZone: bunnynet.api.StorageZone = await c.storageZones.createStorageZone({ Name: "files", Region: "DE" } satisfies bunnynet.api.StorageZoneAddRequest);
  await c.storageZones.updateStorageZone(storageZone.Id, { ReplicationZones: ["NY"] } satisfies bunnynet.api.StorageZoneUpdateRequest);
  console.log((await c.storageZones.getStorageZone(storageZone.Id)).Password.length, (await c.storageZones.findStorageZoneByName("files"))?.Id);
  for await (const z of c.storageZones.listStorageZones()) console.log(z.Name);
  await c.storageZones.deleteStorageZone(storageZone.Id, { deleteLinkedPullZones: false });
  const databaseId: string = await c.databases.createDatabase({ name: "db", primary_regions: ["DE"], replicas_regions: [], storage_region: "us-east-1" } satisfies bunnynet.api.DatabaseCreateRequest);
  await c.databases.updateDatabase(databaseId, { primary_regions: ["DE", "NY"], replicas_regions: [] } satisfies bunnynet.api.DatabaseUpdateRequest);
  const database: bunnynet.api.DatabaseInfo = await c.databases.getDatabase(databaseId);
  console.log(database.url, (await c.databases.findDatabaseByName("db"))?.id, (await c.databases.listDatabases()).length);
  const tokenKind: bunnynet.api.DatabaseTokenAuthorization = "read-only";
  console.log((await c.databases.generateToken(databaseId, tokenKind)).length);
  await c.databases.deleteDatabase(databaseId);
  const member: bunnynet.api.TeamMemberInfo = await c.teamMembers.addMember({ Email: "a@example.com", FirstName: "A", LastName: "B", Roles: ["SubuserManage"] } satisfies bunnynet.api.TeamMemberRequest);
  await c.teamMembers.updateMember(member.Id, { Email: member.Email, FirstName: "A", LastName: "C", Roles: member.Roles });
  console.log((await c.teamMembers.getMember(member.Id)).LastName, (await c.teamMembers.findMemberByEmail("a@example.com"))?.Id, (await c.teamMembers.listMembers()).length);
  await c.teamMembers.deleteMember(member.Id);

  const shieldZone: bunnynet.api.ShieldZone = await c.shield.getShieldZoneByPullZone(42);
  const input: bunnynet.api.CreateRateLimitInput = {
    shieldZoneId: shieldZone.shieldZoneId,
    ruleName: "login",
    ruleConfiguration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/login", requestCount: 10, timeframe: "PerOneMinute", blockTime: 300 },
  };
  const created: bunnynet.api.RateLimitRule = await c.shield.createRateLimit(input);
  const rulePage: bunnynet.api.RateLimitPage = await c.shield.listRateLimitsPage(shieldZone.shieldZoneId, { page: 1, perPage: 100 });
  for await (const r of c.shield.listRateLimits(shieldZone.shieldZoneId, { perPage: 100 })) console.log(r.ruleName, r.ruleConfiguration?.timeframe);
  const byName = await c.shield.findRateLimitByName(shieldZone.shieldZoneId, "login");
  const byId = await c.shield.findRateLimit(shieldZone.shieldZoneId, (r) => r.id === byName?.id);
  const rulesNamedLogin: bunnynet.api.RateLimitRule[] = await c.shield.findRateLimits(shieldZone.shieldZoneId, (r) => r.ruleName === "login", { fresh: true });
  const fetched = await c.shield.getRateLimit(created.id);
  const changed = await c.shield.updateRateLimit(fetched.id, { ruleName: "login", ruleConfiguration: input.ruleConfiguration } satisfies bunnynet.api.UpdateRateLimitInput);
  const removed: boolean = await c.shield.deleteRateLimit(changed.id);

  const libraryKey: string = await c.stream.getLibraryKey(7);
  c.stream.forgetLibraryKey(7);
  const protectedZone: bunnynet.api.ShieldZoneDetails = await c.shieldZones.create({ pullZoneId: 42, shieldZone: { planType: "Basic", wafEnabled: true } } satisfies bunnynet.api.CreateShieldZoneInput);
  const zoneAgain = (await c.shieldZones.findByPullZone(42)) ?? (await c.shieldZones.getByPullZone(42));
  await c.shieldZones.update({ shieldZoneId: (await c.shieldZones.get(protectedZone.shieldZoneId)).shieldZoneId, shieldZone: { learningMode: zoneAgain.learningMode ?? false } } satisfies bunnynet.api.UpdateShieldZoneInput);
  const lib: bunnynet.api.VideoLibraryDetails = await c.videoLibraries.create({ Name: "videos" } satisfies bunnynet.api.CreateVideoLibraryInput);
  await c.videoLibraries.update((await c.videoLibraries.get(lib.Id)).Id, { WebhookUrl: "" } satisfies bunnynet.api.UpdateVideoLibraryInput);
  const libDeleted: boolean = await c.videoLibraries.delete((await c.videoLibraries.findByName("videos"))?.Id ?? lib.Id);
  for await (const library of c.videoLibraries.list()) console.log(library.Name, library.PullZoneId);
  console.log(libDeleted);
  const video: bunnynet.api.Video = await c.stream.getVideo(7, "guid", { libraryKey });
  const source: bunnynet.api.ThumbnailSource = { frame: 1 };
  const status: bunnynet.api.StreamStatus = await c.stream.setThumbnail(7, video.guid, source);
  const newVideo: bunnynet.api.Video = await c.stream.createVideo(7, { title: "t" } satisfies bunnynet.api.CreateVideoInput);
  await c.stream.uploadVideo(7, newVideo.guid, new Uint8Array([1]));
  const resumable = await c.stream.uploadVideoResumable(7, newVideo.guid, { length: 1, open: (start: number, end: number) => createReadStream("video.mp4", { start, end }) }, { filetype: "video/mp4", title: "t" }, { onResume: (offset: number) => console.log(offset) });
  console.log(resumable.bytesSent, resumable.resumes);
  const fetchedId: string = await c.stream.fetchVideo(7, { url: "https://media.example.com/a.mp4", title: "a" } satisfies bunnynet.api.FetchVideoInput);
  for await (const v of c.stream.listVideos(7, { search: "a" })) console.log(v.title, v.status);
  await c.stream.updateVideo(7, fetchedId, { chapters: [{ title: "a", start: 0, end: 1 } satisfies bunnynet.api.Chapter] } satisfies bunnynet.api.UpdateVideoInput);
  const caption: bunnynet.api.CaptionStatus = await c.stream.addCaption(7, fetchedId, "en", { file: new Uint8Array([1]) });
  await c.stream.deleteCaption(7, fetchedId, "en");
  await c.stream.deleteVideo(7, fetchedId);
  const col: bunnynet.api.Collection = await c.stream.createCollection(7, "c");
  await c.stream.renameCollection(7, (await c.stream.getCollection(7, col.guid)).guid, "d");
  for await (const k of c.stream.listCollections(7)) console.log(k.name);
  await c.stream.deleteCollection(7, (await c.stream.findCollectionByName(7, "d"))?.guid ?? col.guid);
  const registries: bunnynet.api.ContainerRegistry[] = await c.containers.listRegistries();
  const newRegistryId: number = await c.containers.addRegistry({ displayName: "ghcr", type: "gitHub", passwordCredentials: { userName: "octo", password: "t" } } satisfies bunnynet.api.ContainerRegistryRequest);
  await c.containers.updateRegistry((await c.containers.getRegistry(newRegistryId)).id, { displayName: "ghcr", type: "gitHub", passwordCredentials: { userName: "octo", password: "u" } });
  await c.containers.deleteRegistry(newRegistryId);
  const languages: bunnynet.api.VideoLanguage[] = await c.videoLibraries.languages();
  console.log(registries.length, languages.length);
  const zoneAccess = await c.storage.access(42);
  await c.storage.putFile(zoneAccess, "a.txt", new Uint8Array([1]), { checksum: "AB", contentType: "text/plain" });
  const described = await c.storage.describeFile(zoneAccess, "a.txt");
  const listed = await c.storage.listDirectory(zoneAccess, "");
  const allFiles = await c.storage.listFiles(zoneAccess, "");
  const content: Buffer = await c.storage.readFile(zoneAccess, "a.txt", 1024);
  await c.storage.withZone(42, (zone) => c.storage.deleteFile(zone, "a.txt"));
  console.log(described?.ObjectName, listed.length, allFiles.map((f) => f.path), content.length);
  console.log(caption.success);

  // The transport, for endpoints the client does not cover: any object with safeParse is a schema.
  const schema = { safeParse: (value: unknown) => ({ success: true as const, data: value as bunnynet.api.PullZone }) };
  const res = await c.http.request({ api: "core", method: "GET", path: "/pullzone/42", responseSchema: schema, retry: "idempotent" });
  const raw = await c.http.stream({ api: "logging", method: "GET", path: "/01-01-26/42.log" });
  console.log(c.http.baseUrl("stream"), c.http.stats.requests, res.body.Name, raw.status, c.settings.apiUrl, JSON.stringify(c.toJSON()));

  console.log(closed, keyPage, regionPage, endpointPage, volumes, volume, detached, deleted, script, upserted.created, found, page, tokenPage, host, rulePage, byName, byId, rulesNamedLogin, removed, status);
}

// Errors, as a program would tell them apart.
export function describeError(e: unknown): string {
  if (e instanceof bunnynet.InvalidRequestError) return e.issues.map((i) => i.field).join(", ");
  if (e instanceof bunnynet.RateLimitedError) return String(e.retryAfterMs);
  if (e instanceof bunnynet.TimeoutError || e instanceof bunnynet.NetworkError) return e.code ?? String(e.notSent);
  if (e instanceof bunnynet.AlreadyExistsError || e instanceof bunnynet.ValidationError) return e.field ?? "";
  if (e instanceof bunnynet.NotFoundError || bunnynet.isNotFound(e)) return "gone";
  if (e instanceof bunnynet.UnauthorizedError || e instanceof bunnynet.ForbiddenError) return "key";
  if (e instanceof bunnynet.ServerError || e instanceof bunnynet.UnexpectedStatusError || e instanceof bunnynet.UnexpectedResponseError) return "api";
  if (e instanceof bunnynet.ConfigurationError) return e.message;
  if (e instanceof bunnynet.BunnyError) return \`\${e.method} \${e.path} \${e.status} after \${e.attempts}\`;
  return String(e);
}
const details: bunnynet.BunnyErrorDetails = { method: "GET", path: "/pullzone/1", status: 404 };
export const errors = [
  describeError(new bunnynet.NotFoundError(details)),
  describeError(bunnynet.errorForStatus("GET", "/pullzone/1", 500, "{}", "1")),
  bunnynet.parseErrorBody('{"Message":"no"}').message,
  bunnynet.parseRetryAfter("2"),
];
`;

/** Every `bunnynet.X` the program should name: the root's exports, and each method of the client's surfaces. */
function expectedUses(checker: ts.TypeChecker, moduleSymbol: ts.Symbol): string[] {
  const exported = checker.getExportsOfModule(moduleSymbol);
  const uses = exported.map((s) => `bunnynet.${s.name}`);
  const client = exported.find((s) => s.name === "BunnyClient");
  assert.ok(client, "the package exports BunnyClient");
  const clientClass = client.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(client) : client;
  for (const surface of checker.getDeclaredTypeOfSymbol(clientClass).getProperties()) {
    for (const method of checker.getTypeOfSymbol(surface).getProperties()) {
      if (method.flags & ts.SymbolFlags.Method) uses.push(`.${surface.name}.${method.name}(`);
    }
  }
  return uses;
}

function isInside(file: string, dir: string): boolean {
  const rel = relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep);
}

describe("distribution: the public types in a user's project (Pulumi's template tsconfig)", function () {
  this.timeout(300_000);
  let project: UserProject;
  let projectDir: string;
  let program: ts.Program;

  before(() => {
    project = compileUserProject(PROGRAM);
    ({ dir: projectDir, program } = project);
  });

  after(() => project?.remove());

  it("a program using every resource, lookup, client method and exported type compiles with zero diagnostics", () => {
    const { count, text } = project.diagnostics();
    assert.equal(count, 0, text);
  });

  it("the program names every export of the package root and every method of the client", () => {
    const index = program.getSourceFile(join(projectDir, "index.ts"));
    assert.ok(index);
    const checker = program.getTypeChecker();
    const importOfPackage = index.statements.find((s): s is ts.ImportDeclaration => ts.isImportDeclaration(s) && (s.moduleSpecifier as ts.StringLiteral).text === PACKAGE_NAME);
    assert.ok(importOfPackage);
    const moduleSymbol = checker.getSymbolAtLocation(importOfPackage.moduleSpecifier);
    assert.ok(moduleSymbol, `${PACKAGE_NAME} resolves`);
    const missing = expectedUses(checker, moduleSymbol).filter((use) => !PROGRAM.includes(use));
    assert.deepEqual(missing, [], "use these in PROGRAM (tests/distribution/publicTypes.test.ts), as a user would");
  });

  it("no declaration the package root reaches mentions zod, and no zod declaration is loaded", () => {
    const packageDir = realpathSync(PACKAGE_DIR);
    const zodDir = realpathSync(installed("zod"));
    const files = program.getSourceFiles().map((f) => ({ name: realpathSync(f.fileName), text: f.text }));
    const ours = files.filter((f) => isInside(f.name, packageDir) && !isInside(f.name, join(packageDir, "node_modules")));
    assert.ok(ours.some((f) => f.name === join(packageDir, "dist", "index.d.ts")), "the program reaches the package root's declarations");
    assert.deepEqual(
      ours.filter((f) => /zod/i.test(f.text)).map((f) => relative(packageDir, f.name)),
      [],
      "declarations reachable from the package root that mention zod: public signatures take their types from provider/types.generated " +
        "(see provider/scripts/generatePublicTypes.mjs), resources import from pulumi/base and pulumi/types (see provider/pulumi/index.ts)",
    );
    assert.deepEqual(
      files.filter((f) => isInside(f.name, zodDir)).map((f) => relative(zodDir, f.name)).slice(0, 5),
      [],
      "zod declarations loaded by the user's program",
    );
  });
});
