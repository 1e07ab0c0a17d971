import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";

const PROJECT = "engine-dns";
const DOMAINS = ["engine-a.dns.example", "engine-b.dns.example"];
const RESOURCES = ["zone-0", "zone-1", "www", "mx", "cdn"];

/**
 * The DNS program of tests/pulumi/dnsProgram.test.ts (tests/engine/programs/dns.ts) through the real Pulumi CLI and
 * engine against the emulator: up, an unchanged up with no API call, refresh without drift, a changed priority
 * updated in place, destroy leaving nothing; first, a misspelt `bunnynet:` key refused at preview. The engine behaviours
 * relied on are cited in tests/support/engineCycle.ts, and: a dynamic provider is configured with the whole stack
 * config, namespaces kept (pulumi/pulumi v3.276.0 pkg/resource/deploy/target.go:52-67).
 */
describe("engine: the DNS program (zones and records)", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let stack: EngineStack;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    const config = {
      ...stackConfigFor(emu.url, emu.fixtures.accessKey),
      [`${PROJECT}:domains`]: JSON.stringify(DOMAINS),
      [`${PROJECT}:pullZoneId`]: String(emu.fixtures.pullZoneId),
    };
    stack = await EngineStack.start(emu, compiledProject("engine-dns", PROJECT, "tests/engine/programs/dns.js"), config, ["bunnynet:apiKey"]);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const recordsOf = async (i: number) => {
    const zone = await emu.client().dns.findZoneByDomain(DOMAINS[i]);
    return zone ? zone.Records.map((r) => r.Name).sort() : undefined;
  };

  it("a misspelt bunnynet: key fails preview, naming the setting meant, and nothing is written", async () => {
    await stack.setConfig({ "bunnynet:apiKeyy": "x" });
    await emu.markRequests();
    await assert.rejects(stack.preview(), /bunnynet:apiKeyy is not a setting of bunnynet: did you mean bunnynet:apiKey\?/);
    assert.deepEqual(await emu.requests(), [], "refused before any request");
    await stack.cli.run(["config", "rm", "bunnynet:apiKeyy"], true);
  });

  it("up creates the zones and their records", async () => {
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
    assert.deepEqual(await recordsOf(0), ["", "cdn", "www"]);
  });

  it("an unchanged up makes no API call; refresh finds no drift; preview plans nothing", async () => {
    await stack.expectUnchangedUp(RESOURCES);
    await stack.expectNoDrift(RESOURCES);
  });

  it("a changed priority updates the record in place", async () => {
    const before = (await stack.resource("mx")).id;
    await stack.setConfig({ [`${PROJECT}:mxPriority`]: "20" });
    const ops = await stack.up();
    assert.deepEqual(Object.entries(ops).filter(([, op]) => op !== "same"), [["mx", "update"]]);
    assert.equal((await stack.resource("mx")).id, before);
  });

  it("a record deleted outside: refresh drops it from the state (a delete step), the next up creates it again", async () => {
    const zone = (await emu.client().dns.findZoneByDomain(DOMAINS[0]))!;
    await emu.client().dns.deleteRecord(zone.Id, zone.Records.find((r) => r.Name === "cdn")!.Id);
    assert.deepEqual(Object.entries(await stack.refresh()).filter(([, op]) => op !== "same"), [["cdn", "delete"]]);
    assert.ok(!(await stack.resources()).some((r) => r.urn.endsWith("::cdn")));
    assert.deepEqual(Object.entries(await stack.up()).filter(([, op]) => op !== "same"), [["cdn", "create"]]);
    assert.deepEqual(await recordsOf(0), ["", "cdn", "www"]);
  });

  it("destroy leaves nothing", async () => {
    assert.deepEqual(await stack.destroy(), Object.fromEntries(RESOURCES.map((name) => [name, "delete"])));
    assert.equal(await recordsOf(0), undefined);
    assert.equal(await recordsOf(1), undefined);
  });
});
