import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";
import { quickstart } from "../../examples/quickstart/program";
import { CertificateProvision } from "bunnynet-pulumi/dist/schemas/pullZones.js";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../support/quickstart";

const short = (urn: string) => urn.split("::").pop();

/**
 * The quickstart (every resource and lookup) deployed, redeployed unchanged, changed, refreshed and destroyed
 * against the emulator, with the SDK's real provider host serving the resources over gRPC.
 */
describe("pulumi: the quickstart through the real provider host", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let harness: ProgramHarness;
  let config: Record<string, string>;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: QUICKSTART_PROJECT });
    config = await quickstartConfig(emu);
    harness = new ProgramHarness({ project: QUICKSTART_PROJECT, config, secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  const client = () => emu.client();
  const zoneHostnames = async () => (await client().pullZones.getPullZone(Number(emu.fixtures.pullZoneId))).Hostnames.map((h) => h.Value);
  const hostname = (name: string) => client().pullZones.findHostname(Number(emu.fixtures.pullZoneId), name);
  const variables = async () => (await client().edgeScripts.getScript(Number(emu.fixtures.scriptId))).EdgeScriptVariables;
  const video = () => client().stream.getVideo(Number(emu.fixtures.videoLibraryId), String(emu.fixtures.videoId));

  it("up creates every resource and the API holds them", async () => {
    const run = await harness.up(quickstart);
    assert.deepEqual(run.steps.map((s) => s.op).sort(), Array(7).fill("create"));
    const www = await hostname("www.quickstart.example");
    assert.deepEqual([www?.HasCertificate, www?.CertificateProvisionType, www?.ForceSSL], [true, CertificateProvision.Http01, true], "a free certificate and force-SSL");
    const api = await hostname("api.quickstart.example");
    assert.deepEqual([api?.HasCertificate, api?.CertificateProvisionType, api?.ForceSSL], [true, CertificateProvision.Custom, false], "the custom certificate");
    assert.ok(Date.parse(String(run.outputs.wwwCertificateExpiresAt)) > Date.now());
    assert.match(String(run.outputs.apiCertificateIssuer), /Emulator Test CA/);
    const secrets = await client().edgeScripts.listSecrets(Number(emu.fixtures.scriptId));
    assert.equal(String(secrets.find((s) => s.Name === "QUICKSTART_SIGNING_KEY")?.Id), String(run.outputs.signingKeySecretId), "the signing key is a secret");
    assert.ok(!(await variables()).some((v) => v.Name === "QUICKSTART_SIGNING_KEY"), "not a variable");
    const rule = await client().shield.getRateLimit(Number(run.outputs.rateLimitRuleId));
    assert.equal(rule.ruleName, "quickstart-login");
    assert.equal(rule.ruleConfiguration?.requestCount, 10);
    assert.equal(rule.ruleConfiguration?.chainedRuleConditions?.length, 1);
    const vars = await variables();
    assert.equal(vars.find((v) => v.Name === "QUICKSTART_API_BASE")?.DefaultValue, "https://api.quickstart.example");
    assert.equal((await video()).thumbnailFileName, "thumbnail_2.jpg");
    const volume = await client().containers.findVolume(String(emu.fixtures.appId), String(emu.fixtures.attachedVolumeId));
    assert.ok(!volume?.volumeInstances.some((i) => i.id === emu.fixtures.attachedInstanceId), "the instance was deleted");
    assert.equal(run.outputs.apiKeyCount, emu.fixtures.apiKeyCount);
    assert.ok(Array.isArray(run.outputs.regionsWithCapacity) && (run.outputs.regionsWithCapacity as string[]).length > 20);
  });

  it("an unchanged up changes nothing and reads only the lookups", async () => {
    await emu.markRequests();
    const run = await harness.up(quickstart);
    assert.deepEqual(run.steps.map((s) => s.op), Array(7).fill("same"));
    const calls = await emu.requests();
    assert.deepEqual(calls.map((c) => c.method), ["GET", "GET", "GET", "GET"], "one read per lookup, none for the resources");
    assert.deepEqual(calls.map((c) => c.route).sort(), ["/apikey", "/mc/apps/:appId/endpoints", "/mc/regions", "/v2/pullzones/:pullZoneId/logs"]);
  });

  it("the second edition updates force-SSL of the api hostname, the rule, the variable and the thumbnail in place; nothing is replaced", async () => {
    const ids = new Map(harness.resources().map((r) => [r.name, r.id]));
    harness.setConfig({ ...config, [`${QUICKSTART_PROJECT}:edition`]: "second" }, QUICKSTART_SECRET_CONFIG);
    const run = await harness.up(quickstart);
    const byName = Object.fromEntries(run.steps.map((s) => [short(s.urn), s.op]));
    assert.deepEqual(byName, { www: "same", api: "update", "login-limit": "update", "api-base": "update", "signing-key": "same", poster: "update", "old-cache-instance": "same" });
    assert.equal((await hostname("api.quickstart.example"))?.ForceSSL, true);
    for (const r of harness.resources()) assert.equal(r.id, ids.get(r.name), `${r.name} kept its id`);
    assert.equal((await client().shield.getRateLimit(Number(run.outputs.rateLimitRuleId))).ruleConfiguration?.requestCount, 5);
    assert.equal((await variables()).find((v) => v.Name === "QUICKSTART_API_BASE")?.DefaultValue, "https://api-v2.quickstart.example");
    assert.equal((await video()).thumbnailFileName, "thumbnail_4.jpg");
  });

  it("refresh sees a change made outside Pulumi, and the next up puts the program's values back", async () => {
    const variable = (await variables()).find((v) => v.Name === "QUICKSTART_API_BASE")!;
    await client().edgeScripts.updateVariable(Number(emu.fixtures.scriptId), variable.Id, { DefaultValue: "https://changed.elsewhere", Required: true });
    await harness.refresh();
    assert.equal(harness.resources().find((r) => r.name === "api-base")?.outputs.defaultValue, "https://changed.elsewhere");
    const run = await harness.up(quickstart);
    assert.equal(run.steps.find((s) => short(s.urn) === "api-base")?.op, "update");
    assert.equal((await variables()).find((v) => v.Name === "QUICKSTART_API_BASE")?.DefaultValue, "https://api-v2.quickstart.example");
  });

  it("the access key is in no stored state (inputs, outputs, provider texts) and no host log", () => {
    const key = emu.fixtures.accessKey;
    assert.ok(harness.resources().length === 7);
    assert.ok(!JSON.stringify(harness.resources()).includes(key));
    assert.ok(!host.logs().includes(key));
  });

  it("destroy removes what the stack made and leaves the video as it is", async () => {
    const ruleId = Number(harness.resources().find((r) => r.name === "login-limit")?.id);
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    assert.ok(!(await zoneHostnames()).some((h) => h.endsWith(".quickstart.example")));
    assert.ok(!(await client().edgeScripts.listSecrets(Number(emu.fixtures.scriptId))).some((s) => s.Name.startsWith("QUICKSTART_")));
    assert.ok(!(await variables()).some((v) => v.Name.startsWith("QUICKSTART_")));
    await assert.rejects(client().shield.getRateLimit(ruleId), { name: "NotFoundError" });
    assert.equal((await video()).thumbnailFileName, "thumbnail_4.jpg", "the thumbnail stays: the API has no way to unset it");
  });
});
