import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { DnsRecord } from "bunnynet-pulumi/dist/resources/dnsRecord.js";
import { DnsZone } from "bunnynet-pulumi/dist/resources/dnsZone.js";
import { Provider, type ProviderArgs } from "bunnynet-pulumi/dist/provider.js";
import { getAccessListsOutput } from "bunnynet-pulumi/dist/lookups/accessLists.js";
import { getApiKeysOutput } from "bunnynet-pulumi/dist/lookups/apiKeys.js";
import { getCdnRegionsOutput } from "bunnynet-pulumi/dist/lookups/cdnRegions.js";
import { getContainerRegistryOutput } from "bunnynet-pulumi/dist/lookups/containerRegistries.js";
import { getVideoLanguagesOutput } from "bunnynet-pulumi/dist/lookups/videoLanguages.js";
import { getDnsZone } from "bunnynet-pulumi/dist/lookups/dnsZones.js";
import { STORAGE_API_PATH } from "bunnynet-emulator/dist/testing/stackConfig.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";

const PROVIDER = "pulumi:providers:pulumi-nodejs";
const ZONE = "pulumi-nodejs:dynamic/bunnynet:DnsZone";

/**
 * Two `bunnynet.Provider`s in one program, each its own emulated account, through the kit's real provider hosts (one
 * plugin process per provider, as the engine starts them).
 */
describe("pulumi: explicit providers, two accounts in one program", function () {
  let emu: TestEmulator;
  let keyA: string;
  let keyB: string;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    keyA = (await emu.addAccount()).accessKey;
    keyB = (await emu.addAccount()).accessKey;
    // No stack config at all: nothing in the program uses the default provider.
    harness = new ProgramHarness({ hostPerCommand: {} });
  });
  after(() => emu?.stop());

  const settings = (apiKey: pulumi.Input<string>): ProviderArgs => ({
    apiKey,
    apiUrl: emu.url,
    streamApiUrl: emu.url,
    loggingApiUrl: emu.url,
    storageApiUrl: `${emu.url}${STORAGE_API_PATH}`,
    maxRetries: 1,
  });
  const program = (a: string, b: string) => () => {
    const accountA = new Provider("account-a", settings(pulumi.secret(a)));
    // A plain key: the provider marks it secret itself.
    const accountB = new Provider("account-b", settings(b));
    const zoneA = new DnsZone("zone-a", { domain: "a.accounts.example" }, { provider: accountA });
    new DnsRecord("www-a", { dnsZoneId: zoneA.dnsZoneId, type: "A", name: "www", value: "192.0.2.1" }, { provider: accountA });
    const zoneB = new DnsZone("zone-b", { domain: "b.accounts.example" }, { provider: accountB });
    new DnsRecord("www-b", { dnsZoneId: zoneB.dnsZoneId, type: "A", name: "www", value: "192.0.2.2" }, { provider: accountB });
    return { keysOfB: getApiKeysOutput({ provider: accountB }).apply((r) => r.keys.map((k) => k.key)) };
  };
  const domainsOf = async (key: string) => (await emu.client({ apiKey: key }).dns.listZonesPage({ perPage: 1000 })).Items.map((z) => z.Domain).sort();
  /** Every object of every account, as the emulator stores it. */
  const accountsSnapshot = () =>
    emu.emulator.accounts.stores().map((store) => JSON.stringify(store.db.prepare("SELECT kind, id, parent, data FROM objects ORDER BY kind, id").all()));
  let untouched: string[];

  it("preview plans both accounts' resources with check only", async () => {
    untouched = accountsSnapshot();
    const run = await harness.preview(program(keyA, keyB));
    assert.deepEqual(run.steps.map((s) => s.op), ["create", "create", "create", "create", "create", "create"]);
    assert.ok(run.rpcs.every((r) => r.method === "check"));
  });

  it("one up deploys to two accounts, and each holds only its own objects (read back with each key)", async () => {
    const run = await harness.up(program(keyA, keyB));
    assert.ok(run.steps.every((s) => s.op === "create"), JSON.stringify(run.steps));
    // Each account also holds the zone the emulator seeds in every account.
    const ours = async (key: string) => (await domainsOf(key)).filter((d) => d.endsWith(".accounts.example"));
    assert.deepEqual(await ours(keyA), ["a.accounts.example"]);
    assert.deepEqual(await ours(keyB), ["b.accounts.example"]);
    assert.deepEqual(await ours(emu.fixtures.accessKey), []);
    const zoneB = harness.resource(ZONE, "zone-b")!;
    assert.deepEqual((await emu.client({ apiKey: keyB }).dns.getZone(Number(zoneB.id))).Records.map((r) => r.Value), ["192.0.2.2"]);
    await assert.rejects(emu.client({ apiKey: keyA }).dns.getZone(Number(zoneB.id)), /404/);
    // The resources keep which provider manages them, as the engine's state does.
    assert.equal(zoneB.provider, harness.resource(PROVIDER, "account-b")!.urn);
  });

  it("a lookup given { provider } reads that provider's account", async () => {
    const run = await harness.preview(program(keyA, keyB));
    const keys = run.outputs.keysOfB as string[];
    assert.ok(keys.includes(keyB) && !keys.includes(keyA) && !keys.includes(emu.fixtures.accessKey));
  });

  it("every lookup given { provider } reads with that provider's key, with no stack config to fall back on", async () => {
    const clientB = emu.client({ apiKey: keyB });
    const { value: pullZoneOfB } = await clientB.pullZones.listPullZones().next();
    const shieldZoneId = (await clientB.shield.getShieldZoneByPullZone(pullZoneOfB!.Id)).shieldZoneId;
    // Account B's shield zone is not account A's: only B's key reads its lists.
    await assert.rejects(emu.client({ apiKey: keyA }).accessLists.list(shieldZoneId), /404/);
    await emu.markRequests();
    const run = await harness.preview(() => {
      const accountB = new Provider("account-b", settings(keyB));
      const provider = { provider: accountB };
      return {
        listNames: getAccessListsOutput({ shieldZoneId }, provider).managedLists.apply((lists) => lists.map((l) => l.name)),
        regionCodes: getCdnRegionsOutput({}, provider).regionCodes,
        languageCodes: getVideoLanguagesOutput({}, provider).codes,
        dockerHubId: getContainerRegistryOutput({ type: "DockerHub" }, provider).registryId,
      };
    });
    assert.ok((run.outputs.listNames as string[]).length > 0, JSON.stringify(run.outputs));
    assert.ok((run.outputs.regionCodes as string[]).length > 0 && (run.outputs.languageCodes as string[]).length > 0, JSON.stringify(run.outputs));
    assert.equal(typeof run.outputs.dockerHubId, "number");
    const lookups = (await emu.requests()).filter((r) => ["/region", "/videolibrary/languages", "/mc/registries", `/shield/shield-zone/${shieldZoneId}/access-lists`].some((p) => r.url.startsWith(p)));
    assert.equal(lookups.length, 4, JSON.stringify(lookups));
    assert.ok(lookups.every((r) => r.status === 200), JSON.stringify(lookups));
  });

  it("the state holds no plain key: the providers' keys are secret inputs, and no other value carries one", () => {
    for (const name of ["account-a", "account-b"]) {
      const provider = harness.resource(PROVIDER, name)!;
      assert.ok(provider.secretKeys.includes("bunnynet:apiKey"), name);
      assert.equal(provider.inputs["bunnynet:apiUrl"], emu.url);
    }
    for (const r of harness.resources()) {
      const plain = (values: Record<string, unknown>) => JSON.stringify(Object.entries(values).filter(([k]) => !r.secretKeys.includes(k)));
      for (const shown of [plain(r.inputs), plain(r.outputs), r.providerText]) {
        assert.ok(!shown.includes(keyA) && !shown.includes(keyB), `${r.urn} holds a key in plain text`);
      }
    }
  });

  it("an unchanged up changes nothing; a rotated key updates its provider and replaces none of its resources", async () => {
    const unchanged = await harness.up(program(keyA, keyB));
    assert.ok(unchanged.steps.every((s) => s.op === "same"), JSON.stringify(unchanged.steps));
    // Another key of account B (the emulator seeds several per account): what a rotation leaves the program with.
    const otherKeyOfB = (await emu.client({ apiKey: keyB }).apiKeys.listPage()).Items.map((k) => k.Key).find((k) => k !== keyB)!;
    const ids = harness.resources().map((r) => r.id);
    await emu.markRequests();
    const rotated = await harness.up(program(keyA, otherKeyOfB));
    const changed = rotated.steps.filter((s) => s.op !== "same");
    assert.deepEqual(changed, [{ op: "update", urn: harness.resource(PROVIDER, "account-b")!.urn }]);
    assert.deepEqual(harness.resources().map((r) => r.id), ids);
    assert.ok((await emu.requests()).every((r) => r.method === "GET"), "no write to either account");
    // Refresh and destroy configure each provider from its inputs saved at this up: the rotated key reads account B.
    const refreshed = await harness.refresh();
    assert.equal(refreshed.filter((s) => s.op === "refresh").length, 4);
  });

  it("destroy leaves both accounts (and the first) exactly as they were", async () => {
    const steps = await harness.destroy();
    assert.equal(steps.length, 6);
    assert.deepEqual(harness.resources(), []);
    assert.deepEqual(accountsSnapshot(), untouched);
  });

  it("refresh uses each provider's inputs saved at the last up: a provider re-keyed to another account finds its objects gone there", async () => {
    const moved = new ProgramHarness({ hostPerCommand: {} });
    const single = (key: string) => () => {
      const account = new Provider("account", settings(key));
      new DnsZone("zone", { domain: "moved.accounts.example" }, { provider: account });
    };
    await moved.up(single(keyB));
    const zone = moved.resource(ZONE, "zone")!;
    // The key of another account: the engine replaces nothing (a provider's new inputs never replace), so the zone
    // stays in the state with its id in account B, and the next refresh reads it with the saved key of account A.
    const rekeyed = await moved.up(single(keyA));
    assert.deepEqual(rekeyed.steps.map((s) => s.op), ["update", "same"]);
    assert.deepEqual(await moved.refresh(), [{ op: "gone", urn: zone.urn }]);
    assert.equal((await emu.client({ apiKey: keyB }).dns.getZone(Number(zone.id))).Domain, "moved.accounts.example");
  });

  it("refresh --run-program (and destroy --run-program) configures each provider from the program's current inputs, and keeps them, as the engine does", async () => {
    const harness = new ProgramHarness({ hostPerCommand: {} });
    const single = (key: string) => () => {
      const account = new Provider("account", settings(key));
      const zone = new DnsZone("zone", { domain: "run-program.accounts.example" }, { provider: account });
      return { domain: zone.domain };
    };
    await harness.up(single(keyB));
    const zone = harness.resource(ZONE, "zone")!;
    const inB = async () => (await emu.client({ apiKey: keyB }).dns.getZone(Number(zone.id))).Domain;
    // The program run last (key B), the provider configured from it: the zone is read in account B.
    assert.deepEqual(await harness.refresh({ runProgram: true }), [{ op: "refresh", urn: zone.urn }]);
    // The program now gives the provider account A's key. Without the program, refresh still reads with the saved key
    // (B); with it, the provider takes the program's key, in whose account the zone is not: gone from the state.
    assert.deepEqual(await harness.refresh(), [{ op: "refresh", urn: zone.urn }]);
    await emu.markRequests();
    assert.deepEqual(await harness.refresh({ runProgram: true, program: single(keyA) }), [{ op: "gone", urn: zone.urn }]);
    assert.deepEqual(
      (await emu.requests()).map((r) => r.method),
      ["GET"],
      "one read, no check, create or write",
    );
    assert.equal(await inB(), "run-program.accounts.example", "the zone is still in account B");
    // The provider's state took the program's inputs (a Same or Update step of the provider in refresh mode).
    const provider = harness.resource(PROVIDER, "account")!;
    assert.equal(provider.inputs["bunnynet:apiKey"], keyA);
    assert.ok(provider.secretKeys.includes("bunnynet:apiKey"));
    await emu.client({ apiKey: keyB }).dns.deleteZone(Number(zone.id));

    // destroy --run-program likewise: the provider deletes with the program's key (A), where the zone is already gone.
    await harness.up(single(keyB));
    const again = harness.resource(ZONE, "zone")!;
    await emu.markRequests();
    assert.deepEqual((await harness.destroy({ runProgram: true, program: single(keyA) })).map((s) => s.op), ["delete", "delete"]);
    assert.deepEqual(harness.resources(), []);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.status}`), [`DELETE 404`], "one delete, refused in account A");
    assert.equal((await emu.client({ apiKey: keyB }).dns.getZone(Number(again.id))).Domain, "run-program.accounts.example");
    await emu.client({ apiKey: keyB }).dns.deleteZone(Number(again.id));
  });

  it("a provider removed from the program with its resources deletes them with its inputs saved in state", async () => {
    const removed = new ProgramHarness({ hostPerCommand: {} });
    await removed.up(() => {
      const account = new Provider("leaving", settings(keyB));
      new DnsZone("leaving-zone", { domain: "leaving.accounts.example" }, { provider: account });
    });
    const zone = removed.resource(ZONE, "leaving-zone")!;
    const run = await removed.up(() => ({}));
    assert.deepEqual(run.steps.map((s) => s.op), ["delete", "delete"]);
    assert.deepEqual(removed.resources(), []);
    await assert.rejects(emu.client({ apiKey: keyB }).dns.getZone(Number(zone.id)), /404/);
  });

  it("a lookup given { provider } outside a deployment fails naming a provider that is none of this package's", async () => {
    const other = { getPackage: () => "aws" } as unknown as pulumi.ProviderResource;
    await assert.rejects(getDnsZone({ domain: "a.accounts.example" }, { provider: other }), /getDnsZone: provider must be a bunnynet\.Provider/);
  });

  it("the kit refuses explicit providers without a plugin process per provider (hostPerCommand)", async () => {
    const inProcess = new ProgramHarness({});
    await assert.rejects(inProcess.preview(program(keyA, keyB)), /an explicit provider needs a plugin process of its own[^\n]*hostPerCommand/);
  });
});
