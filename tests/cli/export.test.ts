import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STORAGE_API_PATH, stackConfigFor } from "bunnynet-emulator/testing";
import type { StorageZoneAccess } from "bunnynet-pulumi/dist/client/storage.js";
import { readAccount } from "bunnynet-pulumi/dist/cli/export/account.js";
import { STORAGE_EXPORT_LIMITS } from "bunnynet-pulumi/dist/cli/export/kinds.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { emulatorEnv, runTool } from "../support/cli";
import { compileExportedProject } from "../support/exportedProject";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";

/**
 * Issue 28: `bunnynet export` writes an existing account out as a Pulumi project. An account holding a site made
 * through the API as a dashboard user would (not with our resources; a registry named in the dashboard and a container
 * app among them) is exported; the project compiles under Pulumi's template tsconfig; deployed through the SDK's real
 * provider host it adopts every object with no write but the script secret's value and the registries' passwords (the
 * API never returns them); an unchanged up calls nothing, refresh finds no drift, and the API's answers are byte for
 * byte those of before.
 */

const PROJECT = "exported-site";
const SECRET_VALUE = "s3cret-token-value-export";
const REGISTRY_PASSWORD = "ghp_export-registry-token";
const TEAM_REGISTRY_PASSWORD = "ghp_team-images-token";
const APP_DATABASE_URL = "postgres://app:app-env-s3cret@db.internal/app";
/** The config the report asks for: the values the API never returns, and the app's environment values. */
const SECRET_CONFIG = {
  exportSiteEdgeApiToken: SECRET_VALUE,
  githubExportOctoPassword: REGISTRY_PASSWORD,
  teamImagesExportTeamPassword: TEAM_REGISTRY_PASSWORD,
  exportSiteAppWebDatabaseUrl: APP_DATABASE_URL,
  exportSiteAppWebMode: "production",
};

describe("cli: bunnynet export", function () {
  let emu: TestEmulator;
  let root: string;
  let out: string;
  let site: {
    dnsZoneId: number;
    pullZoneId: number;
    storageZoneId: number;
    scriptId: number;
    dnsScriptId: number;
    libraryId: number;
    linkedPullZoneId: number;
    shieldZoneId: number;
    registryId: number;
    teamRegistryId: number;
    appId: string;
    appPullZoneId: number;
    /** The pull zone the API made for the app's endpoint that names none. */
    endpointPullZoneId: number;
    storage: StorageZoneAccess;
    libraryKey: string;
  };

  /** A documented GET (with the account key unless another is given): the raw body, for byte-for-byte comparison. */
  async function raw(path: string, key: string = emu.fixtures.accessKey): Promise<string> {
    const res = await fetch(`${emu.url}${path}`, { headers: { AccessKey: key } });
    assert.equal(res.status, 200, `GET ${path}`);
    return res.text();
  }
  /** Every object's answer by its path. */
  const snapshot = async (): Promise<Record<string, string>> => {
    const storage = `${STORAGE_API_PATH}/${site.storage.name}`;
    const paths: [path: string, key?: string][] = [
      ...[
        `/dnszone/${site.dnsZoneId}`,
        `/pullzone/${site.pullZoneId}`,
        `/pullzone/${site.linkedPullZoneId}`,
        `/storagezone/${site.storageZoneId}`,
        `/compute/script/${site.scriptId}`,
        `/compute/script/${site.scriptId}/secrets`,
        `/compute/script/${site.dnsScriptId}`,
        `/videolibrary/${site.libraryId}`,
        `/shield/shield-zone/${site.shieldZoneId}`,
        `/shield/rate-limits/${site.shieldZoneId}`,
        `/shield/waf/custom-rules/${site.shieldZoneId}`,
        `/shield/shield-zone/${site.shieldZoneId}/access-lists`,
        `/mc/registries/${site.registryId}`,
        `/mc/registries/${site.teamRegistryId}`,
        `/mc/apps/${site.appId}`,
        `/pullzone/${site.appPullZoneId}`,
        `/pullzone/${site.endpointPullZoneId}`,
      ].map((path): [string] => [path]),
      [`/library/${site.libraryId}/collections`, site.libraryKey],
      ...[`${storage}/`, `${storage}/assets/`, `${storage}/assets/site.css`].map((path): [string, string] => [path, site.storage.password]),
    ];
    return Object.fromEntries(await Promise.all(paths.map(async ([path, key]) => [path, await raw(path, key)])));
  };

  before(async () => {
    emu = await startEmulator();
    root = mkdtempSync(join(tmpdir(), "bunnynet-export-"));
    out = join(root, PROJECT);
    const client = emu.client();
    // The site, made through the API as the dashboard makes it.
    const dns = await client.dns.addZone("export-site.example");
    const storage = await client.storageZones.createStorageZone({ Name: "export-site-files", Region: "DE" });
    const cdn = await client.pullZones.createPullZone({ Name: "export-site-cdn", OriginType: 2, StorageZoneId: storage.Id });
    await client.dns.addRecord(dns.Id, { Type: 2, Name: "www", Value: `${cdn.Name}.b-cdn.net`, Ttl: 300 });
    await client.dns.addRecord(dns.Id, { Type: 3, Name: "", Value: "v=spf1 -all", Ttl: 3600 });
    await client.pullZones.addHostname(cdn.Id, "www.export-site.example");
    await client.pullZones.loadFreeCertificate("www.export-site.example");
    await client.pullZones.setForceSsl(cdn.Id, "www.export-site.example", true);
    const shield = await client.shieldZones.create({ pullZoneId: cdn.Id, shieldZone: { planType: "Advanced" } });
    await client.shield.createRateLimit({
      shieldZoneId: shield.shieldZoneId,
      ruleName: "api limit",
      ruleDescription: "",
      ruleConfiguration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/api", requestCount: 100, timeframe: "PerOneMinute", blockTime: "ForFiveMinutes" },
    });
    const script = await client.edgeScripts.createScript({ Name: "export-site-edge", ScriptType: 1, Code: 'export default { fetch: () => new Response("hi") };\n', CreateLinkedPullZone: true });
    await client.edgeScripts.publish(script.script.Id);
    await client.edgeScripts.addVariable(script.script.Id, { Name: "GREETING", Required: false, DefaultValue: "hello" });
    await client.edgeScripts.addSecret(script.script.Id, { Name: "API_TOKEN", Secret: SECRET_VALUE });
    const library = await client.videoLibraries.create({ Name: "export-site-videos" });
    const linked = (await client.edgeScripts.getScript(script.script.Id)).LinkedPullZones[0];
    // The kinds that hang off the site: an edge rule and an image class of the pull zone, a WAF rule, a custom
    // access list and a managed one switched on, a registry, a DNS script with a variable answering a record, a video
    // collection, and files in the storage zone (one in a folder).
    await client.pullZones.addOrUpdateEdgeRule(cdn.Id, {
      ActionType: 5,
      ActionParameter1: "X-Frame-Options",
      ActionParameter2: "DENY",
      Triggers: [{ Type: 0, PatternMatches: ["*/admin/*"], PatternMatchingType: 0 }],
      TriggerMatchingType: 0,
      Description: "frame deny",
      Enabled: true,
      OrderIndex: 0,
    });
    await client.pullZones.updatePullZone(cdn.Id, { OptimizerClasses: [{ Name: "thumb", Properties: { width: "200", quality: "80" } }] });
    await client.wafRules.create({ shieldZoneId: shield.shieldZoneId, ruleName: "block admin", ruleConfiguration: { actionType: "Block", variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/wp-admin" } });
    await client.accessLists.create(shield.shieldZoneId, { name: "blocked countries", type: "Country", content: "RU\nKP" });
    const managed = (await client.accessLists.list(shield.shieldZoneId)).managedLists[0];
    await client.accessLists.configure(shield.shieldZoneId, managed.configurationId, { isEnabled: true, action: "Challenge" });
    const registryId = await client.containers.addRegistry({ displayName: "GitHub", type: "gitHub", passwordCredentials: { userName: "export-octo", password: REGISTRY_PASSWORD } });
    const dnsScript = await client.edgeScripts.createScript({ Name: "export-site-dns", ScriptType: 0, Code: "export default function handleQuery() { return null; }\n", CreateLinkedPullZone: false });
    await client.edgeScripts.publish(dnsScript.script.Id);
    await client.edgeScripts.addVariable(dnsScript.script.Id, { Name: "REGION", Required: false, DefaultValue: "eu" });
    await client.dns.addRecord(dns.Id, { Type: 11, Name: "dyn", ScriptId: dnsScript.script.Id, Ttl: 300 });
    await client.stream.createCollection(library.Id, "keynotes");
    // A registry named in the dashboard, and an app pulling from it: two containers, environment values, a volume, a
    // CDN endpoint on a pull zone of the account, one on the pull zone the API makes for it (Terraform #53) and an
    // Anycast endpoint. Deployed at once, so its status is settled.
    const teamRegistryId = await client.containers.addRegistry({ displayName: "team images", type: "gitHub", passwordCredentials: { userName: "export-team", password: TEAM_REGISTRY_PASSWORD } });
    const appZone = await client.pullZones.createPullZone({ Name: "export-site-app-cdn", OriginUrl: "https://origin.export-site.example" });
    await emu.faults({ appDeployMs: 0 });
    const appId = await client.containers.addApp({
      name: "export-site-app",
      runtimeType: "shared",
      autoScaling: { min: 1, max: 3 },
      regionSettings: { allowedRegionIds: ["DE", "UK"], requiredRegionIds: ["DE"] },
      containerTemplates: [
        {
          name: "web",
          imageRegistryId: String(teamRegistryId),
          imageNamespace: "export-team",
          imageName: "site",
          imageTag: "1.4.2",
          environmentVariables: [
            { name: "DATABASE_URL", value: APP_DATABASE_URL },
            { name: "MODE", value: "production" },
          ],
          endpoints: [
            { displayName: "site", cdn: { isSslEnabled: true, pullZoneId: appZone.Id, portMappings: [{ containerPort: 8080 }] } },
            { displayName: "preview", cdn: { portMappings: [{ containerPort: 8081 }] } },
          ],
          volumeMounts: [{ name: "data", mountPath: "/var/data" }],
        },
        {
          name: "resolver",
          imageRegistryId: "1",
          imageNamespace: "library",
          imageName: "coredns",
          imageTag: "1.11.1",
          endpoints: [{ displayName: "dns", anycast: { type: "iPv4", portMappings: [{ containerPort: 53, protocols: ["udp"] }] } }],
        },
      ],
      volumes: [{ name: "data", size: 5 }],
    });
    await emu.clearFaults();
    const preview = (await client.containers.getApp(appId)).containerTemplates.flatMap((t) => t.endpoints).find((e) => e.displayName === "preview");
    const endpointPullZoneId = Number(preview?.pullZoneId);
    assert.ok((await client.pullZones.getPullZone(endpointPullZoneId)).Id === endpointPullZoneId, "the API made the endpoint's pull zone");
    const files = await client.storage.access(storage.Id);
    for (const [path, text] of [["index.html", "<h1>hi</h1>\n"], ["assets/site.css", "h1 { color: red }\n"]]) {
      await client.storage.putFile(files, path, Buffer.from(text), { checksum: createHash("sha256").update(text).digest("hex") });
    }
    site = {
      dnsZoneId: dns.Id,
      pullZoneId: cdn.Id,
      storageZoneId: storage.Id,
      scriptId: script.script.Id,
      dnsScriptId: dnsScript.script.Id,
      libraryId: library.Id,
      linkedPullZoneId: linked.Id,
      shieldZoneId: shield.shieldZoneId,
      registryId,
      teamRegistryId,
      appId,
      appPullZoneId: appZone.Id,
      endpointPullZoneId,
      storage: files,
      libraryKey: await client.stream.getLibraryKey(library.Id),
    };
  });
  after(async () => {
    rmSync(root, { recursive: true, force: true });
    await emu?.stop();
  });

  it("refuses a folder that has files, before any API call", async () => {
    const full = join(root, "full");
    mkdirSync(full);
    writeFileSync(join(full, "index.ts"), "// mine\n");
    await emu.markRequests();
    const run = await runTool(["export", "--out", full], emulatorEnv(emu));
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--out .* already has files \(index\.ts\)/);
    assert.equal(readFileSync(join(full, "index.ts"), "utf8"), "// mine\n");
    assert.deepEqual(await emu.requests(), []);
    const unknownKind = await runTool(["export", "--out", join(root, "other"), "--only", "Bucket"], emulatorEnv(emu));
    assert.equal(unknownKind.code, 2);
    assert.match(unknownKind.stderr, /--only: unknown kind "Bucket"/);
  });

  it("writes the project, import.json and a report, with references between objects and the secret read from config", async () => {
    await emu.markRequests();
    const run = await runTool(["export", "--out", out], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /read \d+ pull zones/);
    assert.match(run.stderr, /read 1 optimizer class\n/);
    assert.deepEqual(
      // Exchanging the key for the JWT the databases take is a POST that changes nothing.
      (await emu.requests()).filter((r) => r.method !== "GET" && r.url !== "/apikey/exchange"),
      [],
      "the export only reads",
    );
    for (const file of ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts", "import.json", "EXPORT-REPORT.md", "scripts/export-site-edge.js"]) assert.ok(existsSync(join(out, file)), file);
    const program = readFileSync(join(out, "index.ts"), "utf8");
    for (const text of readdirSync(out).filter((f) => f.endsWith(".ts") || f.endsWith(".json") || f.endsWith(".md")).map((f) => readFileSync(join(out, f), "utf8"))) {
      assert.ok(!text.includes(SECRET_VALUE), "no secret value in the files");
    }
    assert.match(program, /new bunnynet\.PullZone\("export-site-cdn", \{\n {2}name: "export-site-cdn",\n {2}origin: \{\n {4}storageZoneId: exportSiteFiles\.storageZoneId,/);
    assert.match(program, /value: exportSiteCdn\.cdnHostname,/);
    assert.match(program, /pullZoneId: exportSiteCdn\.pullZoneId,/);
    // Settings the resources leave to the API are stated as the objects have them.
    assert.match(program, /new bunnynet\.ShieldZone\("export-site-cdn-shield", \{\n {2}pullZoneId: exportSiteCdn\.pullZoneId,\n {2}planType: bunnynet\.ShieldPlanType\.\w+,/);
    assert.match(program, /new bunnynet\.VideoLibrary\("export-site-videos", \{\n {2}name: "export-site-videos",\n {2}playerVersion: \d,/);
    assert.match(program, /operatorType: bunnynet\.RuleOperator\.BEGINSWITH,/);
    assert.match(program, /value: config\.requireSecret\("exportSiteEdgeApiToken"\)/);
    assert.match(program, /code: fs\.readFileSync\("scripts\/export-site-edge\.js", "utf8"\)/);
    assert.ok(!program.includes(`"export-site-edge.b-cdn.net"`) && !/PullZone\("export-site-edge"/.test(program), "the script's own pull zone is not declared");
    assert.ok(!program.includes('hostname: "export-site-cdn.b-cdn.net"'), "the zone's own hostname is not declared");
    // The kinds hanging off the site, each with references to its parent.
    assert.match(program, /new bunnynet\.EdgeRule\("export-site-cdn-frame-deny", \{\n {2}pullZoneId: exportSiteCdn\.pullZoneId,\n {2}actions: \[/);
    assert.match(program, /new bunnynet\.OptimizerClass\("export-site-cdn-thumb", \{\n {2}pullZoneId: exportSiteCdn\.pullZoneId,\n {2}name: "thumb",\n {2}width: 200,/);
    assert.match(program, /new bunnynet\.WafRule\("block-admin", \{\n {2}shieldZoneId: exportSiteCdnShield\.shieldZoneId,/);
    assert.match(program, /action: bunnynet\.WafRuleAction\.Block,/);
    // Enum members inside a list of objects too (the rule's conditions).
    assert.match(program, /conditions: \[\n {4}\{\n {6}variableTypes: \{\n {8}REQUEST_URI: "",\n {6}\},\n {6}operatorType: bunnynet\.RuleOperator\.BEGINSWITH,\n {6}value: "\/wp-admin",/);
    assert.match(program, /new bunnynet\.AccessList\("blocked-countries", \{\n {2}shieldZoneId: exportSiteCdnShield\.shieldZoneId,\n {2}name: "blocked countries",\n {2}type: bunnynet\.AccessListType\.Country,\n {2}entries: \["KP", "RU"\],/);
    assert.match(program, /accessLists: \[\n {4}\{\n {6}id: \d+,\n {6}action: bunnynet\.AccessListAction\.Challenge,\n {4}\},\n {2}\],/);
    assert.match(program, /new bunnynet\.ContainerRegistry\("github-export-octo", \{\n {2}type: "GitHub",\n {2}url: "ghcr\.io",\n {2}username: "export-octo",\n {2}password: config\.requireSecret\("githubExportOctoPassword"\),/);
    assert.match(program, /new bunnynet\.EdgeScript\("export-site-dns", \{\n {2}name: "export-site-dns",\n {2}type: "Dns",/);
    assert.match(program, /new bunnynet\.ScriptVariable\("export-site-dns-region", \{\n {2}scriptId: exportSiteDns\.scriptId,/);
    assert.match(program, /new bunnynet\.DnsRecord\("export-site-example-dyn-script", \{[^}]*\n {2}scriptId: exportSiteDns\.scriptId,/);
    assert.match(program, /new bunnynet\.StreamCollection\("export-site-videos-keynotes", \{\n {2}libraryId: exportSiteVideos\.libraryId,\n {2}name: "keynotes",/);
    assert.match(program, /new bunnynet\.StorageFolder\("export-site-files-content", \{\n {2}storageZoneId: exportSiteFiles\.storageZoneId,\n {2}source: "storage\/export-site-files-content",\n\}, \{ protect: true \}\);/);
    assert.equal(readFileSync(join(out, "storage/export-site-files-content/assets/site.css"), "utf8"), "h1 { color: red }\n");
    assert.equal(readFileSync(join(out, "storage/export-site-files-content/index.html"), "utf8"), "<h1>hi</h1>\n");
    for (const text of [program, readFileSync(join(out, "EXPORT-REPORT.md"), "utf8")]) {
      for (const value of [REGISTRY_PASSWORD, TEAM_REGISTRY_PASSWORD, APP_DATABASE_URL, "production"]) assert.ok(!text.includes(value), "no password or environment value in the files");
    }
    // A registry named in the dashboard is declared with its own name (by which it is found and adopted).
    assert.match(program, /new bunnynet\.ContainerRegistry\("team-images-export-team", \{\n {2}type: "GitHub",\n {2}displayName: "team images",\n {2}url: "ghcr\.io",\n {2}username: "export-team",\n {2}password: config\.requireSecret\("teamImagesExportTeamPassword"\),/);
    // The app: its image's registry and its CDN endpoint's pull zone as references, environment values from config.
    const app = /new bunnynet\.ContainerApp\("export-site-app", (\{\n[^]*?\n\})/.exec(program)?.[1] ?? assert.fail("the app is declared");
    assert.match(app, /\n {2}autoscaling: \{\n {4}min: 1,\n {4}max: 3,\n {2}\},\n {2}regions: \{\n {4}allowed: \["DE", "UK"\],\n {4}required: \["DE"\],\n {2}\},/);
    assert.match(app, /\n {4}web: \{\n {6}image: \{\n {8}registryId: teamImagesExportTeam\.registryId,\n {8}namespace: "export-team",\n {8}name: "site",\n {8}tag: "1\.4\.2",/);
    assert.match(app, /env: \{\n {8}DATABASE_URL: config\.requireSecret\("exportSiteAppWebDatabaseUrl"\),\n {8}MODE: config\.requireSecret\("exportSiteAppWebMode"\),/);
    assert.match(app, /volumeMounts: \{\n {8}data: "\/var\/data",/);
    assert.match(app, /site: \{\n {10}type: "cdn",\n {10}ports: \[\n {12}\{\n {14}container: 8080,\n {12}\},\n {10}\],\n {10}cdn: \{\n {12}originSsl: true,\n {12}pullZoneId: exportSiteAppCdn\.pullZoneId,/);
    assert.match(app, /resolver: \{\n {6}image: \{\n {8}registryId: 1,/);
    assert.match(app, /dns: \{\n {10}type: "anycast",/);
    assert.match(app, /volumes: \{\n {4}data: \{\n {6}sizeGb: 5,/);
    assert.match(program, /new bunnynet\.PullZone\("export-site-app-cdn", \{/);
    // The zone the API made for the other endpoint is left to the app: not declared, its endpoint naming no zone.
    const endpointZone = await emu.client().pullZones.getPullZone(site.endpointPullZoneId);
    assert.ok(!program.includes(`"${endpointZone.Name}"`), "the endpoint's own pull zone is not declared");
    assert.match(app, /preview: \{\n {10}type: "cdn",\n {10}ports: \[\n {12}\{\n {14}container: 8081,\n {12}\},\n {10}\],\n {8}\},/);
    assert.match(run.stdout, /the pull zone the API made for endpoint preview of container app export-site-app, managed with the app/);
    assert.match(run.stdout, /pulumi config set --secret exportSiteAppWebDatabaseUrl/);
    assert.match(run.stdout, /pulumi config set --secret teamImagesExportTeamPassword/);
    assert.ok(!/Magic Containers apps/.test(run.stdout), "apps are exported");
    // Every resource is protected; all but the storage folder (which takes over the files there by itself) adopt.
    const folders = (program.match(/new bunnynet\.StorageFolder\(/g) ?? []).length;
    assert.equal((program.match(/adoptExisting: true/g) ?? []).length + folders, (program.match(/\{ protect: true \}\);/g) ?? []).length);
    assert.match(run.stdout, /pulumi config set --secret githubExportOctoPassword/);
    assert.match(run.stdout, /cache purges: a purge is an action/);
    assert.match(run.stdout, /videos of video libraries: StreamVideo cannot adopt/);
    const imports = JSON.parse(readFileSync(join(out, "import.json"), "utf8")) as { nameTable: object; resources: { type: string; name: string; id: string }[] };
    assert.deepEqual(imports.nameTable, {});
    assert.ok(imports.resources.some((r) => r.type === "pulumi-nodejs:dynamic/bunnynet:DnsZone" && r.name === "export-site-example" && r.id === String(site.dnsZoneId)));
    assert.equal(imports.resources.length, (program.match(/new bunnynet\./g) ?? []).length);
    assert.match(run.stdout, /pulumi config set --secret exportSiteEdgeApiToken/);
    assert.match(run.stdout, /the linked pull zone of edge script export-site-edge/);
  });

  it("--pull-zone narrows the export to that zone and what it holds; --only to the kinds named", async () => {
    const narrowed = join(root, "cdn-only");
    const run = await runTool(["export", "--out", narrowed, "--pull-zone", "export-site-cdn"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const program = readFileSync(join(narrowed, "index.ts"), "utf8");
    const types = [...program.matchAll(/new bunnynet\.(\w+)\(/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(types)], ["PullZone", "PullZoneHostname", "EdgeRule", "OptimizerClass", "ShieldZone", "RateLimitRule", "WafRule", "AccessList"]);
    // The storage zone was not exported: its id stays a number.
    assert.match(program, new RegExp(`storageZoneId: ${site.storageZoneId},`));
    const records = join(root, "records-only");
    const only = await runTool(["export", "--out", records, "--dns-zone", "export-site.example", "--only", "dnsrecord"], emulatorEnv(emu));
    assert.equal(only.code, 0, only.stderr);
    const recordTypes = [...readFileSync(join(records, "index.ts"), "utf8").matchAll(/new bunnynet\.(\w+)\(/g)].map((m) => m[1]);
    assert.deepEqual(recordTypes, ["DnsRecord", "DnsRecord", "DnsRecord"]);
    // What tells a script's linked pull zone (the scripts) is read even when only pull zones are written.
    const zonesOnly = await runTool(["export", "--out", join(root, "zones-only"), "--only", "PullZone"], emulatorEnv(emu));
    assert.equal(zonesOnly.code, 0, zonesOnly.stderr);
    assert.match(zonesOnly.stdout, /the linked pull zone of edge script export-site-edge/);
    const zonesProgram = readFileSync(join(root, "zones-only", "index.ts"), "utf8");
    assert.deepEqual([...new Set([...zonesProgram.matchAll(/new bunnynet\.(\w+)\(/g)].map((m) => m[1]))], ["PullZone"]);
    assert.ok(!/PullZone\("export-site-edge/.test(zonesProgram), "the script's own pull zone is not declared");
  });

  it("declares one of two objects with the same identity (adoption would take the first for both), and says so", async () => {
    const client = emu.client();
    const first = await client.edgeScripts.createScript({ Name: "twin-edge", ScriptType: 2, Code: "export default {};\n", CreateLinkedPullZone: false });
    const second = await client.edgeScripts.createScript({ Name: "twin-edge", ScriptType: 2, Code: "export default {};\n", CreateLinkedPullZone: false });
    const twins = join(root, "twins");
    const run = await runTool(["export", "--out", twins, "--script", "twin-edge"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    assert.equal((readFileSync(join(twins, "index.ts"), "utf8").match(/new bunnynet\.EdgeScript\(/g) ?? []).length, 1);
    assert.match(run.stdout, new RegExp(`edge script twin-edge \\(id ${second.script.Id}\\): has the same name as the one with id ${first.script.Id}`));
    await client.edgeScripts.deleteScript(first.script.Id, { deleteLinkedPullZones: false });
    await client.edgeScripts.deleteScript(second.script.Id, { deleteLinkedPullZones: false });
  });

  it("writes the account's databases and team members, adoptable, without their tokens or passwords", async () => {
    const client = emu.client();
    const databaseId = await client.databases.createDatabase({ name: "export-db", primary_regions: ["DE"], replicas_regions: ["SG", "NY"], storage_region: "us-east-1" });
    const member = await client.teamMembers.addMember({ Email: "export-ops@example.com", FirstName: "Ex", LastName: "Port", Roles: ["SubuserSupport", "SubuserManage"], Password: "Correct-horse-9" });
    const dir = join(root, "team-and-data");
    const run = await runTool(["export", "--out", dir, "--only", "Database", "--only", "TeamMember"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const program = readFileSync(join(dir, "index.ts"), "utf8");
    assert.deepEqual([...program.matchAll(/new bunnynet\.(\w+)\(/g)].map((m) => m[1]).sort(), ["Database", "TeamMember"]);
    assert.match(program, /name: "export-db",[\s\S]*primaryRegions: \["DE"\],[\s\S]*replicaRegions: \["NY", "SG"\]/);
    assert.match(program, /email: "export-ops@example.com",[\s\S]*permissions: \["support", "zones"\]/);
    assert.doesNotMatch(program, /Correct-horse-9|password|Token/);
    await client.databases.deleteDatabase(databaseId);
    await client.teamMembers.deleteMember(member.Id);
  });

  it("an object it cannot read is reported, the rest written, and the exit code says the result is partial", async () => {
    await emu.faults({ rules: [{ path: `^/compute/script/${site.scriptId}/secrets$`, method: "GET", errorRate: 1, errorStatus: 403, phase: "before" }] });
    try {
      const partial = join(root, "partial");
      const run = await runTool(["export", "--out", partial, "--script", "export-site-edge"], emulatorEnv(emu));
      assert.equal(run.code, 4, run.stderr);
      assert.match(run.stdout, /- the script secrets of edge script export-site-edge: cannot be read: /);
      const program = readFileSync(join(partial, "index.ts"), "utf8");
      assert.match(program, /new bunnynet\.EdgeScript\("export-site-edge"/);
      assert.match(program, /new bunnynet\.ScriptVariable\("export-site-edge-greeting"/);
      assert.ok(!program.includes("ScriptSecret"));
    } finally {
      await emu.clearFaults();
    }
  });

  it("reads the files from the Storage API --storage-api-url names; one it cannot reach is reported naming the flag and BUNNYNET_STORAGE_API_URL", async () => {
    const { BUNNYNET_STORAGE_API_URL: _storage, ...env } = emulatorEnv(emu);
    const files = join(root, "storage-flag");
    const run = await runTool(["export", "--out", files, "--only", "StorageFolder", "--storage-api-url", `${emu.url}${STORAGE_API_PATH}`], env);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(readdirSync(join(files, "storage"), { recursive: true }).map(String).some((f) => f.endsWith("index.html")));
    const unreachable = await runTool(["export", "--out", join(root, "storage-unreachable"), "--only", "StorageFolder", "--storage-api-url", "http://127.0.0.1:9/storage"], env);
    assert.equal(unreachable.code, 4, unreachable.stderr);
    assert.match(unreachable.stdout, /cannot be read: .*Could not connect to 127\.0\.0\.1:9: check that it is reachable, or set the URL with --storage-api-url <value> \(or export BUNNYNET_STORAGE_API_URL=<value>\)/);
  });

  it("--help names the Storage API's flag and variable", async () => {
    const help = await runTool(["export", "--help"], emulatorEnv(emu));
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /BUNNYNET_STORAGE_API_URL/);
    assert.match(help.stdout, /--storage-api-url URL/);
  });

  it("a storage zone larger than the export downloads is reported, not declared, and none of its files is read", async () => {
    const saved = { ...STORAGE_EXPORT_LIMITS };
    STORAGE_EXPORT_LIMITS.files = 1;
    try {
      await emu.markRequests();
      const exported = await readAccount(emu.client(), { only: new Set(["StorageFolder"]), filters: {}, progress: () => undefined });
      assert.ok(exported);
      assert.deepEqual(exported.sections, []);
      const skipped = exported.skipped.find((s) => s.what === "storage folder (the files of storage zone export-site-files)");
      assert.match(skipped?.reason ?? "", /^2 files of 30 bytes, more than the export downloads \(1 files, \d+ bytes\)/);
      const requests = await emu.requests();
      assert.ok(requests.some((r) => r.url.endsWith("/export-site-files/")), "the zone was listed");
      assert.deepEqual(
        requests.filter((r) => /\/(index\.html|site\.css)$/.test(r.url)),
        [],
        "no file was downloaded",
      );
    } finally {
      Object.assign(STORAGE_EXPORT_LIMITS, saved);
    }
  });

  it("compiles under Pulumi's template tsconfig, and with noUnusedLocals (nothing declared that is not used)", () => {
    compileExportedProject(out, join(out, "bin-strict"), { noUnusedLocals: true });
    compileExportedProject(out);
  });

  describe("deployed through the provider host", () => {
    let host: ProviderHost;
    let harness: ProgramHarness;
    let before: Record<string, string>;
    /** The compiled program, run afresh at each command in the project's folder, as `pulumi up` runs index.ts. */
    const program = () => {
      const main = require.resolve(join(out, "bin", "index.js"));
      delete require.cache[main];
      return require(main) as Record<string, unknown>;
    };
    async function inProject<T>(command: () => Promise<T>): Promise<T> {
      const cwd = process.cwd();
      process.chdir(out);
      try {
        return await command();
      } finally {
        process.chdir(cwd);
      }
    }

    it("adopts every object: nothing is written but the script secret's value and the registries' passwords", async () => {
      host = await ProviderHost.start({ project: PROJECT, projectDir: out });
      harness = new ProgramHarness({
        project: PROJECT,
        config: { ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)), ...Object.fromEntries(Object.entries(SECRET_CONFIG).map(([key, value]) => [`${PROJECT}:${key}`, value])) },
        secretConfig: ["bunnynet:apiKey", ...Object.keys(SECRET_CONFIG).map((key) => `${PROJECT}:${key}`)],
        providerHost: host,
      });
      before = await snapshot();
      await emu.markRequests();
      const run = await inProject(() => harness.up(program));
      const declared = (readFileSync(join(out, "index.ts"), "utf8").match(/new bunnynet\./g) ?? []).length;
      assert.equal(run.steps.filter((s) => s.op === "create").length, declared);
      const writes = (await emu.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.url}`);
      const secrets = writes.filter((w) => /\/compute\/script\/\d+\/secrets/.test(w) || w.includes(`/mc/registries/${site.registryId}`) || w.includes(`/mc/registries/${site.teamRegistryId}`));
      assert.deepEqual(
        writes.filter((w) => !secrets.includes(w)),
        [],
        "no write but script secrets and the registry password",
      );
      assert.ok(secrets.some((w) => w.includes(`/compute/script/${site.scriptId}/secrets`)), "the secret's value was set");
      assert.ok(secrets.some((w) => w.includes(`/mc/registries/${site.registryId}`)), "the registry's password was set");
      assert.ok(secrets.some((w) => w.includes(`/mc/registries/${site.teamRegistryId}`)), "the dashboard-named registry was adopted, its password set");
      assert.ok(harness.resources().every((r) => r.outputs.adoptExisting === true || r.type.endsWith(":StorageFolder")));
    });

    it("an unchanged up calls nothing, refresh finds no drift, and the API answers as before", async () => {
      await emu.markRequests();
      const again = await inProject(() => harness.up(program));
      assert.ok(again.steps.every((s) => s.op === "same"), again.steps.filter((s) => s.op !== "same").map((s) => `${s.urn} ${s.op}`).join(", "));
      assert.deepEqual(await emu.requests(), []);
      const stored = new Map(harness.resources().map((r) => [r.urn, JSON.stringify(r)]));
      await inProject(() => harness.refresh());
      const drifted = harness.resources().filter((r) => stored.get(r.urn) !== JSON.stringify(r));
      assert.deepEqual(
        drifted.map((r) => `${r.name}: ${JSON.stringify(r.inputs)} was ${JSON.stringify((JSON.parse(stored.get(r.urn) ?? "{}") as { inputs: unknown }).inputs)} ${Object.keys(r.outputs).filter((k) => JSON.stringify(r.outputs[k]) !== JSON.stringify((JSON.parse(stored.get(r.urn) ?? "{}") as { outputs: Record<string, unknown> }).outputs?.[k])).join(", ")}`),
        [],
        "refresh finds no drift",
      );
      const after = await snapshot();
      // The secrets' listing carries LastModified and the registry lastUpdatedAt, which setting the secret value and
      // the password moved: every other answer is unchanged.
      const written = [`/compute/script/${site.scriptId}/secrets`, `/mc/registries/${site.registryId}`, `/mc/registries/${site.teamRegistryId}`];
      const unwritten = (answers: Record<string, string>) => Object.fromEntries(Object.entries(answers).filter(([path]) => !written.includes(path)));
      assert.deepEqual(Object.keys(after), Object.keys(before));
      assert.deepEqual(unwritten(after), unwritten(before));
      await host.stop();
    });
  });
});
