import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { DnsRecord } from "bunnynet-pulumi/dist/resources/dnsRecord.js";
import { DnsZone } from "bunnynet-pulumi/dist/resources/dnsZone.js";
import { EdgeScript } from "bunnynet-pulumi/dist/resources/edgeScript.js";
import { ScriptSecret } from "bunnynet-pulumi/dist/resources/scriptSecret.js";
import { ScriptVariable } from "bunnynet-pulumi/dist/resources/scriptVariable.js";

const SCRIPT = "pulumi-nodejs:dynamic/bunnynet:EdgeScript";

/**
 * A DNS script (EdgeScript type Dns, Terraform's bunnynet_dns_script) with a variable (bunnynet_dns_script_variable),
 * answered by a DnsRecord of type Script, in one program from up to destroy; a secret on it is refused saying why.
 */
describe("pulumi: a DNS script pointed at by a Script record, in one program", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;
  const domain = "dns-script.example";
  const code = (answer: string) => `export default { async onDnsQuery() { return "${answer}"; } };`;

  before(async () => {
    emu = await startEmulator();
    harness = new ProgramHarness({
      config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" },
      secretConfig: ["bunnynet:apiKey"],
    });
  });
  after(() => emu?.stop());

  const program = (answer: string, region = "EU") => () => {
    const zone = new DnsZone("zone", { domain });
    const script = new EdgeScript("geo", { name: "geo-dns", type: "Dns", code: code(answer) });
    new ScriptVariable("region", { scriptId: script.scriptId, name: "REGION", defaultValue: region });
    const record = new DnsRecord("geo", { dnsZoneId: zone.dnsZoneId, type: "Script", name: "geo", scriptId: script.scriptId });
    return { scriptId: script.scriptId, recordId: record.recordId };
  };

  it("up creates the DNS script (published, no pull zone), its variable and the record that points at it", async () => {
    const run = await harness.up(program("192.0.2.1"));
    assert.deepEqual(run.steps.map((s) => s.op), ["create", "create", "create", "create"]);
    const scriptId = Number(run.outputs.scriptId);
    const { script } = await emu.client().edgeScripts.getScriptWithKey(scriptId);
    assert.equal(script.ScriptType, 0);
    assert.deepEqual(script.LinkedPullZones, []);
    assert.match((await emu.client().edgeScripts.getActiveRelease(scriptId)).Code, /192\.0\.2\.1/);
    assert.deepEqual(script.EdgeScriptVariables.map((v) => [v.Name, v.DefaultValue]), [["REGION", "EU"]]);
    const zone = (await emu.client().dns.findZoneByDomain(domain))!;
    const record = zone.Records.find((r) => r.Name === "geo")!;
    assert.equal(Number(record.LinkName), scriptId);
  });

  it("an unchanged up changes nothing; new code publishes in place and a new variable value updates in place", async () => {
    assert.ok((await harness.up(program("192.0.2.1"))).steps.every((s) => s.op === "same"));
    const before = harness.resource(SCRIPT, "geo")!.id;
    const run = await harness.up(program("192.0.2.2", "US"));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => s.op), ["update", "update"]);
    assert.equal(harness.resource(SCRIPT, "geo")!.id, before);
    assert.match((await emu.client().edgeScripts.getActiveRelease(Number(before))).Code, /192\.0\.2\.2/);
  });

  it("a secret on the DNS script is refused, naming the script's type and what to use instead", async () => {
    const withSecret = () => {
      const outputs = program("192.0.2.2", "US")();
      new ScriptSecret("token", { scriptId: outputs.scriptId, name: "TOKEN", value: "dns-secret-value" });
      return outputs;
    };
    await assert.rejects(harness.up(withSecret), /is a Dns script, which has no secrets: use a ScriptVariable/);
  });

  it("a Dns script cannot ask for a linked pull zone (refused at check, before any call)", async () => {
    await emu.markRequests();
    await assert.rejects(
      harness.preview(() => {
        new EdgeScript("bad", { name: "bad-dns", type: "Dns", code: code("x"), createLinkedPullZone: true });
      }),
      /createLinkedPullZone.*only a Standalone script has a linked pull zone/s,
    );
    assert.deepEqual((await emu.requests()).filter((r) => r.route.startsWith("/compute")), []);
  });

  it("destroy leaves nothing", async () => {
    const scriptId = Number(harness.resource(SCRIPT, "geo")!.id);
    assert.deepEqual((await emu.client().edgeScripts.findScriptsByName("geo-dns")).map((s) => s.Id), [scriptId], "the DNS script is listed before");
    await harness.destroy();
    assert.equal(await emu.client().dns.findZoneByDomain(domain), undefined);
    assert.deepEqual(await emu.client().edgeScripts.findScriptsByName("geo-dns"), []);
  });
});
