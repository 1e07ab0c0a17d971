import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, nameOf, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";
import { installPlugin, previewSteps } from "./pluginSupport";

const PROJECT = "plugin-site";
const DOMAIN = "plugin.example";
const CDN = "plugin-cdn";
const RESOURCES = ["zone", "www", "mail", "cdn", "cdn-www"];
const SIG = "4dabf18193072939515e22adb298388d";

/**
 * The provider plugin pulumi-resource-bunnynet through the real Pulumi CLI and engine (tests/plugin/programs/site.ts:
 * a DNS zone with two records, a pull zone with a hostname, declared by their `bunnynet:index:*` tokens with the SDK's
 * CustomResource, as a program in any language does through its SDK), installed from its tarball into the stack's
 * PULUMI_HOME, against the emulator.
 *
 * Engine behaviours relied on (pulumi/pulumi at v3.259.0; the CLI run is v3.276.0):
 * - The default provider is configured with the stack's `bunnynet:*` config as its inputs, an explicit provider with
 *   its arguments (sdk/go/common/resource/plugin/provider_plugin.go, Configure: `Args`).
 * - At preview the engine calls Create and Update with `preview: true` when Configure answered supportsPreview
 *   (provider_plugin.go Create and Update, `if req.Preview`; pkg/resource/deploy/step.go:372 and :1018 pass
 *   `Preview: DryRun`), and takes their outputs as the resources' outputs for the rest of the preview.
 * - A DetailedDiff names each changed property in `preview --json`'s step (`detailedDiff`, `diffReasons`).
 * - A provider's inputs go to CheckConfig first, and its failures stop the provider's registration with them
 *   (pkg/resource/deploy/providers/registry.go:677-686 in v3.276.0), before any resource is checked.
 */
describe("plugin: pulumi-resource-bunnynet through the real CLI", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let secondKey: string;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    secondKey = (await emu.addAccount()).accessKey;
    const config = { ...stackConfigFor(emu.url, emu.fixtures.accessKey), [`${PROJECT}:domain`]: DOMAIN, [`${PROJECT}:cdnName`]: CDN, [`${PROJECT}:url`]: emu.url };
    stack = await EngineStack.start(emu, compiledProject("plugin-site", PROJECT, "tests/plugin/programs/site.js"), config, ["bunnynet:apiKey"]);
    installPlugin(stack.cli);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const zoneOf = (domain: string, key = emu.fixtures.accessKey) => emu.client({ apiKey: key }).dns.findZoneByDomain(domain);

  it("up creates the zone, its records, the pull zone and its hostname", async () => {
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
    const zone = await zoneOf(DOMAIN);
    assert.deepEqual(zone?.Records.map((r) => r.Name).sort(), ["", "www"]);
    const cdn = await emu.client().pullZones.findPullZoneByName(CDN);
    assert.deepEqual(cdn?.Hostnames.map((h) => h.Value).sort(), [`cdn.${DOMAIN}`, `${CDN}.b-cdn.net`]);
    assert.equal((await stack.cli.outputs()).zoneId, zone?.Id);
  });

  it("an unchanged up changes nothing and sends no request; refresh finds no drift", async () => {
    await stack.expectUnchangedUp(RESOURCES);
    await stack.expectNoDrift(RESOURCES);
  });

  it("the state holds the key only encrypted, and every secretOutputs value encrypted", async () => {
    const text = await stack.exportText();
    assert.ok(!text.includes(emu.fixtures.accessKey), "the key in plain text");
    const cdn = await stack.resource("cdn");
    const tokenAuthKey = cdn.outputs?.tokenAuthKey as Record<string, unknown>;
    assert.equal(tokenAuthKey[SIG], "1b47061264138c4ac30d75fd1eb44270");
    assert.equal(typeof tokenAuthKey.ciphertext, "string");
    const key = (await emu.client().pullZones.findPullZoneByName(CDN))!.ZoneSecurityKey;
    assert.ok(!text.includes(key), "the pull zone's token key in plain text");
    const provider = (await stack.resources()).find((r) => r.type === "pulumi:providers:bunnynet");
    assert.equal(typeof (provider?.inputs?.apiKey as Record<string, unknown>)?.ciphertext, "string");
  });

  it("an explicit provider deploys into its own account", async () => {
    await stack.cli.run(["config", "set", "--secret", "--", `${PROJECT}:secondKey`, secondKey], true);
    const ops = await stack.up();
    assert.deepEqual(Object.entries(ops).filter(([, op]) => op !== "same"), [["second", "create"], ["zone-second", "create"]]);
    assert.ok(await zoneOf(`second.${DOMAIN}`, secondKey), "the zone is in the second account");
    assert.equal(await zoneOf(`second.${DOMAIN}`), undefined, "and not in the first");
    assert.ok(!(await stack.exportText()).includes(secondKey), "the second key in plain text");
  });

  it("a zone setting changed outside Pulumi: preview shows one update naming it, the records unchanged", async () => {
    const zone = (await zoneOf(DOMAIN))!;
    await emu.client().dns.updateZone(zone.Id, { LoggingEnabled: true });
    await emu.markRequests();
    const steps = await previewSteps(stack.cli, ["--refresh"]);
    const changed = steps.filter((s) => s.op !== "same" && s.op !== "refresh" && s.op !== "read");
    assert.deepEqual(changed.map((s) => [nameOf(s.urn), s.op]), [["zone", "update"]]);
    assert.deepEqual(changed[0].diffReasons, ["loggingEnabled"]);
    assert.equal(changed[0].detailedDiff?.loggingEnabled?.kind, "update");
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), [], "preview writes nothing");
    const text = await stack.cli.run(["preview", "--diff", "--refresh"], true);
    assert.match(text, /~ bunnynet:index:DnsZone: \(update\)/);
    assert.match(text, /~ loggingEnabled: true => false/);
    assert.doesNotMatch(text, /replace/);
    // up sets it back: one update, as preview said.
    assert.deepEqual(Object.entries(await stack.up(["--refresh"])).filter(([, op]) => op !== "same" && op !== "refresh"), [["zone", "update"]]);
    assert.equal((await zoneOf(DOMAIN))?.LoggingEnabled, false);
  });

  it("a changed zone setting in the program: preview shows the zone updated and its records unchanged", async () => {
    await stack.setConfig({ [`${PROJECT}:zoneLogging`]: "true" });
    const steps = await previewSteps(stack.cli);
    assert.deepEqual(steps.filter((s) => s.op !== "same").map((s) => [nameOf(s.urn), s.op, s.diffReasons]), [["zone", "update", ["loggingEnabled"]]]);
    await stack.cli.run(["config", "rm", `${PROJECT}:zoneLogging`], true);
  });

  it("a bad input is refused at preview, naming the property", async () => {
    await stack.setConfig({ [`${PROJECT}:ttl`]: "-5" });
    await assert.rejects(previewSteps(stack.cli), /www[\s\S]*ttl/);
    await stack.cli.run(["config", "rm", `${PROJECT}:ttl`], true);
    // A provider's bad setting: CheckConfig names it.
    await stack.setConfig({ [`${PROJECT}:url`]: "not-a-url" });
    await assert.rejects(previewSteps(stack.cli), /second[\s\S]*apiUrl/);
    await stack.setConfig({ [`${PROJECT}:url`]: emu.url });
  });

  it("a misspelt bunnynet: key is refused by CheckConfig at preview, naming the setting meant", async () => {
    await stack.setConfig({ "bunnynet:apiKeyy": "x" });
    await assert.rejects(previewSteps(stack.cli), /bunnynet:apiKeyy is not a setting of bunnynet: did you mean bunnynet:apiKey\?/);
    await stack.cli.run(["config", "rm", "bunnynet:apiKeyy"], true);
    await stack.setConfig({ "bunnynet:apiUrll": emu.url });
    await assert.rejects(previewSteps(stack.cli), /bunnynet:apiUrll is not a setting of bunnynet: did you mean bunnynet:apiUrl\?/);
    await stack.cli.run(["config", "rm", "bunnynet:apiUrll"], true);
  });

  it("a changed API URL updates the provider and replaces nothing under it (DiffConfig)", async () => {
    await stack.setConfig({ [`${PROJECT}:url`]: `${emu.url}/` });
    const steps = await previewSteps(stack.cli);
    assert.deepEqual(steps.filter((s) => s.op !== "same").map((s) => [nameOf(s.urn), s.op, s.diffReasons]), [["second", "update", ["apiUrl"]]]);
    await stack.setConfig({ [`${PROJECT}:url`]: emu.url });
  });

  it("destroy leaves nothing, in either account", async () => {
    await stack.destroy();
    assert.equal(await zoneOf(DOMAIN), undefined);
    assert.equal(await zoneOf(`second.${DOMAIN}`, secondKey), undefined);
    assert.equal(await emu.client().pullZones.findPullZoneByName(CDN), undefined);
    assert.deepEqual(await stack.resources(), []);
  });
});
