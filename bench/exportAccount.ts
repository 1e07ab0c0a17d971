import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STORAGE_API_PATH } from "bunnynet-emulator/testing";
import { BunnyClient } from "bunnynet-pulumi";
import { countRequests, printTable, spawnEmulator } from "./support";

/**
 * `bunnynet export` of a large account: sites made through the API (each a DNS zone with records, a storage zone
 * with two files, a pull zone on it with hostnames, an edge rule and an optimizer class, Shield with rate-limit
 * rules, a WAF rule and a custom access list, an edge script with variables and a secret, a DNS script with a
 * variable, a video library with a collection, a container registry named in the dashboard, a container app from it
 * with two containers, environment values, a volume, a CDN endpoint on the site's pull zone and an Anycast endpoint)
 * until the account holds about N objects
 * (default 1000), then one export as a user runs it (the CLI in its own process). Prints the wall time, the API calls
 * it made, and calls per exported object: most reads are per zone or script, not per object (records, hostnames,
 * edge rules, classes and variables come with their zone or script); an access list and a storage file take a read
 * each (a list's entries, a file's bytes), and an app one (the listing names apps, each is read whole).
 */

const target = Number(process.argv[2] ?? 1000);
const CLI = require.resolve("bunnynet-pulumi/dist/cli/main.js");

/**
 * Objects one site adds (besides the pull zones and hostnames the API makes for the script and the library): DNS zone,
 * records, storage zone, its files (one StorageFolder), pull zone, hostnames, edge rule, optimizer class, Shield zone,
 * rate limits, WAF rule, access list, edge script, variables, secret, DNS script, its variable, library, collection,
 * registry, app.
 */
const PER_SITE = 1 + 6 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1;

async function makeSite(client: BunnyClient, n: number): Promise<void> {
  const name = `bench-export-${n}`;
  const dns = await client.dns.addZone(`${name}.example`);
  const storage = await client.storageZones.createStorageZone({ Name: `${name}-files`, Region: "DE" });
  const cdn = await client.pullZones.createPullZone({ Name: `${name}-cdn`, OriginType: 2, StorageZoneId: storage.Id });
  await client.dns.addRecord(dns.Id, { Type: 2, Name: "www", Value: `${cdn.Name}.b-cdn.net`, Ttl: 300 });
  for (let i = 0; i < 5; i++) await client.dns.addRecord(dns.Id, { Type: 3, Name: `txt${i}`, Value: `record ${i}`, Ttl: 300 });
  for (const host of ["www", "static"]) await client.pullZones.addHostname(cdn.Id, `${host}.${name}.example`);
  await client.pullZones.addOrUpdateEdgeRule(cdn.Id, {
    ActionType: 5,
    ActionParameter1: "X-Site",
    ActionParameter2: String(n),
    Triggers: [{ Type: 0, PatternMatches: ["*"], PatternMatchingType: 0 }],
    TriggerMatchingType: 0,
    Description: "site header",
    Enabled: true,
    OrderIndex: 0,
  });
  await client.pullZones.updatePullZone(cdn.Id, { OptimizerClasses: [{ Name: "thumb", Properties: { width: "200" } }] });
  const files = await client.storage.access(storage.Id);
  for (const path of ["index.html", "assets/site.css"]) {
    const body = `${path} of site ${n}\n`;
    await client.storage.putFile(files, path, Buffer.from(body), { checksum: createHash("sha256").update(body).digest("hex") });
  }
  const shield = await client.shieldZones.create({ pullZoneId: cdn.Id, shieldZone: { planType: "Advanced" } });
  await client.wafRules.create({ shieldZoneId: shield.shieldZoneId, ruleName: "block admin", ruleConfiguration: { actionType: "Block", variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/wp-admin" } });
  await client.accessLists.create(shield.shieldZoneId, { name: "blocked", type: "Country", content: "RU\nKP" });
  for (const path of ["/api", "/login"]) {
    await client.shield.createRateLimit({
      shieldZoneId: shield.shieldZoneId,
      ruleName: `limit ${path}`,
      ruleDescription: "",
      ruleConfiguration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: path, requestCount: 100, timeframe: "PerOneMinute", blockTime: "ForFiveMinutes" },
    });
  }
  const script = await client.edgeScripts.createScript({ Name: `${name}-edge`, ScriptType: 1, Code: `export default { fetch: () => new Response("${n}") };\n`, CreateLinkedPullZone: true });
  await client.edgeScripts.publish(script.script.Id);
  for (const v of ["GREETING", "MODE"]) await client.edgeScripts.addVariable(script.script.Id, { Name: v, Required: false, DefaultValue: "x" });
  await client.edgeScripts.addSecret(script.script.Id, { Name: "TOKEN", Secret: `secret-${n}` });
  const dnsScript = await client.edgeScripts.createScript({ Name: `${name}-dns`, ScriptType: 0, Code: "export default function handleQuery() { return null; }\n", CreateLinkedPullZone: false });
  await client.edgeScripts.publish(dnsScript.script.Id);
  await client.edgeScripts.addVariable(dnsScript.script.Id, { Name: "REGION", Required: false, DefaultValue: "eu" });
  const library = await client.videoLibraries.create({ Name: `${name}-videos` });
  await client.stream.createCollection(library.Id, "keynotes");
  const registryId = await client.containers.addRegistry({ displayName: `${name} images`, type: "gitHub", passwordCredentials: { userName: `${name}-octo`, password: `token-${n}` } });
  await client.containers.addApp({
    name: `${name}-app`,
    runtimeType: "shared",
    autoScaling: { min: 1, max: 2 },
    regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: [] },
    containerTemplates: [
      {
        name: "web",
        imageRegistryId: String(registryId),
        imageNamespace: `${name}-octo`,
        imageName: "site",
        imageTag: "1.0",
        environmentVariables: [{ name: "SITE", value: String(n) }],
        endpoints: [{ displayName: "site", cdn: { pullZoneId: cdn.Id, portMappings: [{ containerPort: 8080 }] } }],
        volumeMounts: [{ name: "data", mountPath: "/data" }],
      },
      { name: "dns", imageRegistryId: "1", imageNamespace: "library", imageName: "coredns", imageTag: "1.11.1", endpoints: [{ displayName: "dns", anycast: { type: "iPv4", portMappings: [{ containerPort: 53, protocols: ["udp"] }] } }] },
    ],
    volumes: [{ name: "data", size: 1 }],
  });
}

function runExport(env: NodeJS.ProcessEnv, out: string): Promise<{ code: number | null; ms: number; stderr: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "export", "--out", out], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, ms: performance.now() - started, stderr }));
  });
}

async function main(): Promise<void> {
  const emu = await spawnEmulator();
  const root = mkdtempSync(join(tmpdir(), "bench-export-"));
  try {
    const storageApiUrl = `${emu.url}${STORAGE_API_PATH}`;
    const client = new BunnyClient({ apiKey: emu.accessKey, apiUrl: emu.url, streamApiUrl: emu.url, storageApiUrl });
    const sites = Math.max(1, Math.ceil(target / PER_SITE));
    for (let n = 0; n < sites; n++) await makeSite(client, n);
    const before = await countRequests(emu, Number.MAX_SAFE_INTEGER);
    const out = join(root, "account");
    const run = await runExport({ PATH: process.env.PATH, BUNNYNET_API_KEY: emu.accessKey, BUNNYNET_API_URL: emu.url, BUNNYNET_STREAM_API_URL: emu.url, BUNNYNET_STORAGE_API_URL: storageApiUrl }, out);
    if (run.code !== 0) throw new Error(`export exited with ${run.code}: ${run.stderr}`);
    const calls = (await countRequests(emu, before.last)).count;
    const exported = (JSON.parse(readFileSync(join(out, "import.json"), "utf8")) as { resources: unknown[] }).resources.length;
    printTable(`bunnynet export of an account (${sites} sites made through the API)`, [
      { "objects exported": exported, "API calls": calls, "calls per object": calls / exported, "wall ms": Math.round(run.ms), "ms per object": run.ms / exported },
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emu.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
