import assert from "node:assert/strict";
import { STORAGE_API_PATH } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";

const PROJECT = "engine-accounts";
const RESOURCES = ["account-a", "account-b", "zone-a", "www-a", "zone-b", "www-b"];
const changed = (ops: Record<string, string>) => Object.entries(ops).filter(([, op]) => op !== "same");

/**
 * Two bunnynet.Providers in one program, each its own emulated account (tests/engine/programs/explicitProviders.ts,
 * the program of tests/pulumi/explicitProvider.test.ts), through the real Pulumi CLI and engine: the whole cycle, a
 * rotated key, and the state holding no key.
 *
 * Engine behaviours relied on (pulumi/pulumi v3.259.0), besides those in tests/support/engineCycle.ts:
 * - One plugin process per provider resource, configured with that provider's inputs (pkg/resource/deploy/providers/
 *   registry.go:893 `Create`, :861 and :962 `Configure` with the provider's inputs; :788 `Same`).
 * - A provider's changed inputs: DiffConfig is unimplemented for dynamic providers (@pulumi/pulumi
 *   cmd/dynamic-provider/index.js:206), read as unknown (pkg/resource/plugin/provider_plugin.go:792 and :842), which
 *   the registry turns into "some changes, no replacement" (providers/registry.go:763-769), so a rotated key updates
 *   the provider and replaces nothing under it.
 * - Refresh and destroy configure each provider from the inputs saved in state (providers/registry.go:466
 *   `NewRegistry`, loaded with the prior state's providers); `refresh --run-program` runs the program and refreshes
 *   with the providers it registers (pkg/resource/deploy/deployment_executor.go:222), whose new inputs it saves;
 *   `destroy --run-program` likewise deletes with them (deployment_executor.go:217-219, destroyMode: providers are
 *   updated, resources skipped, then deleted: step_generator.go:1020-1060).
 */
describe("engine: explicit providers, two accounts in one program", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let keyA: string;
  let keyB: string;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    keyA = (await emu.addAccount()).accessKey;
    keyB = (await emu.addAccount()).accessKey;
    // No bunnynet config at all: nothing in the program uses the default provider.
    const config = { [`${PROJECT}:keyA`]: keyA, [`${PROJECT}:keyB`]: keyB, [`${PROJECT}:url`]: emu.url, [`${PROJECT}:storageUrl`]: `${emu.url}${STORAGE_API_PATH}` };
    stack = await EngineStack.start(emu, compiledProject("engine-accounts", PROJECT, "tests/engine/programs/explicitProviders.js"), config, [`${PROJECT}:keyA`]);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const domainsOf = async (key: string) => (await emu.client({ apiKey: key }).dns.listZonesPage({ perPage: 1000 })).Items.map((z) => z.Domain).filter((d) => d.endsWith(".accounts.example"));
  const recordOf = async (key: string, zone: string) => (await emu.client({ apiKey: key }).dns.getZone(Number((await stack.resource(zone)).id))).Records;

  it("preview plans both accounts' resources and writes nothing", async () => {
    await emu.markRequests();
    assert.deepEqual(await stack.preview(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
  });

  it("one up deploys to two accounts, each holding only its own objects (read back with each key)", async () => {
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
    assert.deepEqual(await domainsOf(keyA), ["a.accounts.example"]);
    assert.deepEqual(await domainsOf(keyB), ["b.accounts.example"]);
    assert.deepEqual(await domainsOf(emu.fixtures.accessKey), []);
    assert.deepEqual((await recordOf(keyB, "zone-b")).map((r) => r.Value), ["192.0.2.2"]);
    // The lookup given B's provider read account B.
    const keys = (await stack.cli.outputs()).keysOfB as string[];
    assert.ok(keys.includes(keyB) && !keys.includes(keyA));
  });

  it("an unchanged up makes no resource call; refresh finds no drift; preview plans nothing", async () => {
    await emu.markRequests();
    const ops = await stack.up();
    assert.deepEqual(changed(ops), []);
    // The lookup runs at every up: its one read of account B's keys is the only request.
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /apikey"]);
    await stack.expectNoDrift(RESOURCES);
  });

  it("the state holds neither key in plain text (the plain-config key is made secret by the provider)", async () => {
    const state = await stack.exportText();
    assert.ok(!state.includes(keyA) && !state.includes(keyB));
    const provider = await stack.resource("account-b");
    assert.equal((provider.inputs?.["bunnynet:apiKey"] as Record<string, unknown>)?.["4dabf18193072939515e22adb298388d"], "1b47061264138c4ac30d75fd1eb44270");
  });

  it("a config change updates account B's record in place", async () => {
    await stack.setConfig({ [`${PROJECT}:valueB`]: "192.0.2.22" });
    assert.deepEqual(changed(await stack.up()), [["www-b", "update"]]);
    assert.deepEqual((await recordOf(keyB, "zone-b")).map((r) => r.Value), ["192.0.2.22"]);
  });

  it("a record changed outside in account A: refresh (with A's saved key) shows it, up puts it back", async () => {
    const [record] = await recordOf(keyA, "zone-a");
    await emu.client({ apiKey: keyA }).dns.updateRecord(Number((await stack.resource("zone-a")).id), record.Id, { Value: "198.51.100.9" });
    assert.deepEqual(changed(await stack.refresh()), [["www-a", "update"]]);
    assert.deepEqual(changed(await stack.up()), [["www-a", "update"]]);
    assert.deepEqual((await recordOf(keyA, "zone-a")).map((r) => r.Value), ["192.0.2.1"]);
  });

  it("a rotated key updates its provider only: nothing is replaced and nothing written", async () => {
    const otherKeyOfB = (await emu.client({ apiKey: keyB }).apiKeys.listPage()).Items.map((k) => k.Key).find((k) => k !== keyB)!;
    const ids = (await stack.resources()).map((r) => r.id).sort();
    await stack.setConfig({ [`${PROJECT}:keyB`]: otherKeyOfB });
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up()), [["account-b", "update"]]);
    assert.deepEqual((await stack.resources()).map((r) => r.id).sort(), ids);
    assert.ok((await emu.requests()).every((r) => r.method === "GET"), "no write to either account");
    await stack.expectNoDrift(RESOURCES);
  });

  it("refresh --run-program configures the provider from the program: given account A's key, B's objects are gone from the state (not from B)", async () => {
    const keyOfB = (await stack.cli.run(["config", "get", `${PROJECT}:keyB`], true)).trim();
    await stack.setConfig({ [`${PROJECT}:keyB`]: keyA });
    await emu.markRequests();
    assert.deepEqual(changed(await stack.refresh(["--run-program"])), [["account-b", "update"], ["zone-b", "delete"], ["www-b", "delete"]]);
    assert.ok((await emu.requests()).every((r) => r.method === "GET"), "no write");
    assert.deepEqual(await domainsOf(keyB), ["b.accounts.example"], "still in account B");
    // Back to B's key: the next up finds B's objects there again only by adopting them; here they are removed by hand.
    await stack.setConfig({ [`${PROJECT}:keyB`]: keyOfB });
    const zoneB = (await emu.client({ apiKey: keyB }).dns.listZonesPage({ perPage: 1000 })).Items.find((z) => z.Domain === "b.accounts.example")!;
    await emu.client({ apiKey: keyB }).dns.deleteZone(zoneB.Id);
    assert.deepEqual(changed(await stack.up()), [["account-b", "update"], ["zone-b", "create"], ["www-b", "create"]]);
  });

  it("destroy leaves both accounts (and the first) without the program's objects", async () => {
    assert.deepEqual(changed(await stack.destroy()).map(([name]) => name).sort(), [...RESOURCES].sort());
    assert.deepEqual(await stack.resources(), []);
    for (const key of [keyA, keyB, emu.fixtures.accessKey]) assert.deepEqual(await domainsOf(key), []);
  });

  it("destroy --run-program deletes with the provider as the program configures it: given account A's key, B's deletes find nothing there, and B keeps its objects", async () => {
    const config = { [`${PROJECT}:keyA`]: keyA, [`${PROJECT}:keyB`]: keyB, [`${PROJECT}:url`]: emu.url, [`${PROJECT}:storageUrl`]: `${emu.url}${STORAGE_API_PATH}` };
    const other = await EngineStack.start(emu, compiledProject("engine-accounts", PROJECT, "tests/engine/programs/explicitProviders.js"), config, [`${PROJECT}:keyA`], `engine-${process.pid}-run-program`);
    try {
      await other.up();
      await other.setConfig({ [`${PROJECT}:keyB`]: keyA });
      await emu.markRequests();
      const ops = await other.destroy(["--run-program"]);
      assert.deepEqual(Object.keys(ops).sort(), [...RESOURCES].sort());
      assert.deepEqual(await other.resources(), []);
      // zone-b's delete went to account A, which answered 404 ("already gone"); account B still holds it.
      assert.ok((await emu.requests()).some((r) => r.method === "DELETE" && r.status === 404));
      assert.deepEqual(await domainsOf(keyA), []);
      assert.deepEqual(await domainsOf(keyB), ["b.accounts.example"]);
    } finally {
      const zoneB = (await emu.client({ apiKey: keyB }).dns.listZonesPage({ perPage: 1000 })).Items.find((z) => z.Domain === "b.accounts.example");
      if (zoneB) await emu.client({ apiKey: keyB }).dns.deleteZone(zoneB.Id);
      await other.dispose();
    }
  });
});
