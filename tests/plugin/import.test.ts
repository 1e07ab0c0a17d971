import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";
import { installPlugin } from "./pluginSupport";

const PROJECT = "plugin-import";
const DOMAIN = "imported.example";
const CDN = "imported-cdn";
const ORIGIN = "https://origin.imported.example";
/** Inputs of the framework that are no property of the object (adoption is for programs that create). */
const NOT_OF_THE_OBJECT = ["adoptExisting"];

/**
 * `pulumi import` of objects made outside Pulumi, through the plugin: the engine reads each with its id alone (Read
 * with no state: pulumi/pulumi pkg/resource/deploy/step.go, ImportStep.Apply), stores the inputs the plugin answers,
 * then checks and diffs them as the program's (a failure or a change there fails the import). A program declaring the
 * inputs the import recorded, as `pulumi import` prints them to paste (tests/plugin/programs/imported.ts), then
 * previews with no change. They are the object as it is: a pull zone made by the API alone does not anonymise its
 * logs (logAnonymized false), where the resource's default is true, so a program leaving that out would change it.
 */
describe("plugin: pulumi import of a DNS zone and a pull zone", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let zoneId: number;
  let cdnId: number;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    zoneId = (await emu.client().dns.addZone(DOMAIN)).Id;
    cdnId = (await emu.client().pullZones.createPullZone({ Name: CDN, OriginUrl: ORIGIN })).Id;
    const config = stackConfigFor(emu.url, emu.fixtures.accessKey);
    stack = await EngineStack.start(emu, compiledProject("plugin-import", PROJECT, "tests/plugin/programs/imported.js"), config, ["bunnynet:apiKey"]);
    installPlugin(stack.cli);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  it("imports both by id, writing nothing", async () => {
    await emu.markRequests();
    // No code generation: the program is written already (importCodegen.test.ts tries code generation).
    await stack.cli.run(["import", "bunnynet:index:DnsZone", "zone", String(zoneId), "--yes", "--generate-code=false"], true);
    await stack.cli.run(["import", "bunnynet:index:PullZone", "cdn", String(cdnId), "--yes", "--generate-code=false"], true);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
    assert.equal((await stack.resource("zone")).id, String(zoneId));
    const cdn = await stack.resource("cdn");
    assert.equal(cdn.id, String(cdnId));
    assert.equal((cdn.inputs?.origin as { url?: string }).url, ORIGIN);
    assert.equal(typeof (cdn.outputs?.tokenAuthKey as { ciphertext?: string }).ciphertext, "string", "the token key is a secret");
  });

  it("a program declaring the imported inputs previews with no change", async () => {
    const declared = async (name: string) =>
      JSON.stringify(Object.fromEntries(Object.entries((await stack.resource(name)).inputs ?? {}).filter(([k]) => !NOT_OF_THE_OBJECT.includes(k))));
    await stack.setConfig({ [`${PROJECT}:zone`]: await declared("zone"), [`${PROJECT}:cdn`]: await declared("cdn"), [`${PROJECT}:zoneId`]: String(zoneId) });
    assert.equal(JSON.parse(await declared("zone")).domain, DOMAIN);
    await stack.cli.run(["preview", "--expect-no-changes"], true);
  });

  it("the plugin's function getPullZone answers as the TypeScript lookup; get reads the zone by its id", async () => {
    await emu.markRequests();
    await stack.cli.run(["up", "--yes", "--skip-preview", "--expect-no-changes"], true);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
    const outputs = await stack.cli.outputs();
    assert.equal(outputs.readDomain, DOMAIN);
    const found = outputs.cdnByName as { pullZoneId: number; name: string; hostnames: string[] };
    assert.deepEqual([found.pullZoneId, found.name, found.hostnames], [cdnId, CDN, [`${CDN}.b-cdn.net`]]);
  });
});
