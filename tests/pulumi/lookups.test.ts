import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import {
  getAccessLists,
  getAccessListsOutput,
  getApiKeys,
  getApiKeysOutput,
  getAppEndpoints,
  getAppEndpointsOutput,
  getCdnLogs,
  getCdnRegions,
  getCdnRegionsOutput,
  getContainerAppContainer,
  getContainerAppContainerOutput,
  getContainerRegistry,
  getContainerRegistryOutput,
  getDnsRecord,
  getDnsRecordOutput,
  getRegions,
  getVideoLanguages,
  getVideoLanguagesOutput,
} from "bunnynet-pulumi/dist/lookups/index.js";
import { ConfigurationError } from "bunnynet-pulumi/dist/http/errors.js";
import { MISSING_KEY_HELP } from "bunnynet-pulumi/dist/settings.js";

function settle<T>(o: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  return new Promise((resolve) => pulumi.all([o, pulumi.isSecret(o)]).apply(([value, secret]) => resolve({ value: value as T, secret })));
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const i of items) out.push(i);
  return out;
}

describe("pulumi: lookups in the program process (stack config, env fallback)", () => {
  let emu: TestEmulator;
  let config: Record<string, string>;

  before(async () => {
    emu = await startEmulator();
    config = { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:loggingApiUrl": emu.url };
    pulumi.runtime.setAllConfig(config, ["bunnynet:apiKey"]);
  });
  after(async () => {
    pulumi.runtime.setAllConfig({}, []);
    await emu?.stop();
  });

  it("getApiKeys reads bunnynet:* config and returns every key of every page", async () => {
    const result = await getApiKeys();
    assert.equal(result.keys.length, Number(emu.fixtures.apiKeyCount));
    assert.ok(result.keys.some((k) => k.key === emu.fixtures.accessKey));
    assert.equal(new Set(result.keys.map((k) => k.id)).size, result.keys.length);
  });

  it("getApiKeysOutput is secret, and so is anything derived from it", async () => {
    const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
    let keys!: pulumi.Output<unknown>;
    let count!: pulumi.Output<number>;
    await harness.up(() => {
      keys = getApiKeysOutput();
      count = getApiKeysOutput().apply((r) => r.keys.length);
    });
    assert.equal((await settle(keys)).secret, true);
    assert.deepEqual(await settle(count), { value: Number(emu.fixtures.apiKeyCount), secret: true });
  });

  it("getRegions returns every region, and the filters keep exactly the matching ones", async () => {
    const everything = await all(emu.client().containers.listRegions());
    const unfiltered = await getRegions();
    assert.deepEqual(unfiltered.ids, everything.map((r) => r.id));
    const withCapacity = await getRegions({ hasCapacity: true });
    const expected = everything.filter((r) => r.hasCapacity).map((r) => r.id);
    assert.deepEqual(withCapacity.ids, expected);
    assert.ok(expected.length > 0 && expected.length < everything.length, "the seeded regions exercise the filter");
    const both = await getRegions({ hasCapacity: true, anycast: true });
    assert.deepEqual(both.ids, everything.filter((r) => r.hasCapacity && r.hasAnycastSupport).map((r) => r.id));
    assert.ok(both.regions.every((r) => r.hasCapacity && r.hasAnycastSupport));
  });

  it("getCdnRegions returns every CDN region (GET /region), and the filters keep exactly the matching ones", async () => {
    const res = await fetch(`${emu.url}/region`, { headers: { AccessKey: emu.fixtures.accessKey } });
    const everything = (await res.json()) as { RegionCode: string; ContinentCode: string; AllowLatencyRouting: boolean }[];
    assert.deepEqual((await getCdnRegions()).regionCodes, everything.map((r) => r.RegionCode));
    const europe = await getCdnRegions({ continentCode: "eu" });
    const expected = everything.filter((r) => r.ContinentCode === "EU").map((r) => r.RegionCode);
    assert.deepEqual(europe.regionCodes, expected);
    assert.ok(expected.length > 0 && expected.length < everything.length, "the seeded regions exercise the filter");
    const one = await getCdnRegions({ regionCode: "de" });
    assert.deepEqual(one.regions.map((r) => [r.regionCode, r.countryCode]), [["DE", "DE"]]);
    const routing = await getCdnRegions({ allowLatencyRouting: false });
    assert.deepEqual(routing.regionCodes, everything.filter((r) => !r.AllowLatencyRouting).map((r) => r.RegionCode));
    const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
    let codes!: pulumi.Output<string[]>;
    await harness.up(() => {
      codes = getCdnRegionsOutput({ continentCode: pulumi.output("EU") }).regionCodes;
    });
    assert.deepEqual((await settle(codes)).value, expected);
  });

  it("getAccessLists gives a Shield zone's managed and custom lists with their ids by name; the Output form takes an Output id", async () => {
    const shieldZoneId = Number(emu.fixtures.shieldZoneId);
    const custom = await emu.client().accessLists.create(shieldZoneId, { name: "lookup list", type: "IP", content: "192.0.2.1\n192.0.2.2" });
    const answer = await emu.client().accessLists.list(shieldZoneId, { fresh: true });
    const result = await getAccessLists(shieldZoneId);
    assert.deepEqual(result.managedLists.map((l) => [l.id, l.name]), answer.managedLists.map((l) => [l.listId, l.name]));
    assert.deepEqual(result.customLists.map((l) => [l.id, l.name, l.entryCount, l.action, l.enabled]), [[custom.id, "lookup list", 2, 2, true]]);
    assert.equal(result.ids["lookup list"], custom.id);
    await assert.rejects(getAccessLists("zone-a"), /shieldZoneId/);
    const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
    let ids!: pulumi.Output<Record<string, number>>;
    await harness.up(() => {
      ids = getAccessListsOutput(pulumi.output(String(shieldZoneId))).ids;
    });
    assert.deepEqual((await settle(ids)).value, result.ids);
    await emu.client().accessLists.delete(shieldZoneId, custom.id);
  });

  it("getAppEndpoints lists every endpoint of the app, with their public hosts; the Output form takes Output args", async () => {
    const appId = String(emu.fixtures.appId);
    const expected = await all(emu.client().containers.listEndpoints(appId));
    const result = await getAppEndpoints({ appId });
    assert.deepEqual(result.endpoints.map((e) => e.id), expected.map((e) => e.id));
    assert.deepEqual(result.publicHosts, expected.map((e) => e.publicHost).filter(Boolean));
    const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
    let fromOutput!: pulumi.Output<string[]>;
    await harness.up(() => {
      fromOutput = getAppEndpointsOutput({ appId: pulumi.output(appId) }).apply((r) => r.publicHosts);
    });
    assert.deepEqual(await settle(fromOutput), { value: result.publicHosts, secret: false });
  });

  it("getContainerRegistry finds the public registry without a user name, and one with credentials by user name", async () => {
    const dockerHub = await getContainerRegistry({ type: "DockerHub" });
    assert.deepEqual(dockerHub, { registryId: Number(emu.fixtures.dockerHubRegistryId), type: "DockerHub", url: "docker.io", username: undefined, isPublic: true });
    const id = await emu.client().containers.addRegistry({ displayName: "GitHub", type: "gitHub", passwordCredentials: { userName: "lookup-user", password: "lookup-token" } });
    try {
      assert.deepEqual(await getContainerRegistry({ type: "GitHub", username: "lookup-user" }), { registryId: id, type: "GitHub", url: "ghcr.io", username: "lookup-user", isPublic: false });
      await assert.rejects(getContainerRegistry({ type: "GitHub", username: "nobody" }), /no GitHub registry for user "nobody" in this account/);
      await emu.markRequests();
      await assert.rejects(getContainerRegistry({ type: "Quay" as "GitHub" }), /type must be one of DockerHub, GitHub, got "Quay"/);
      assert.equal((await emu.requests()).length, 0);
      const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
      let registryId!: pulumi.Output<number>;
      await harness.up(() => {
        registryId = getContainerRegistryOutput({ type: pulumi.output("GitHub" as const), username: "lookup-user" }).registryId;
      });
      assert.deepEqual(await settle(registryId), { value: id, secret: false });
    } finally {
      await emu.client().containers.deleteRegistry(id);
    }
  });

  it("getDnsRecord finds a record by id, or by type and name (any case, '@' for the apex); several matches are refused naming their ids", async () => {
    const zoneId = Number(emu.fixtures.dnsZoneId);
    const dns = emu.client().dns;
    const first = await dns.addRecord(zoneId, { Type: 3, Name: "lookup", Value: "v=one", Ttl: 120 });
    try {
      const byName = await getDnsRecord({ dnsZoneId: zoneId, type: "txt" as "TXT", name: "LOOKUP" });
      assert.deepEqual([byName.recordId, byName.type, byName.name, byName.value, byName.ttl, byName.enabled], [first.Id, "TXT", "lookup", "v=one", 120, true]);
      assert.deepEqual(await getDnsRecord({ dnsZoneId: String(zoneId), recordId: first.Id }), byName);
      const apex = (await dns.getZone(zoneId)).Records.find((r) => r.Name === "" && r.Type === 0)!;
      assert.equal((await getDnsRecord({ dnsZoneId: zoneId, type: "A", name: "@" })).recordId, apex.Id);
      await assert.rejects(getDnsRecord({ dnsZoneId: zoneId, type: "TXT", name: "nothing" }), /zone \d+ \(emulator-dns\.example\) has no record TXT "nothing"/);
      await assert.rejects(getDnsRecord({ dnsZoneId: zoneId, recordId: first.Id, type: "A", name: "lookup" }), /has no record id \d+, A "lookup"/);
      await assert.rejects(getDnsRecord({ dnsZoneId: 987654, recordId: 1 }), /no DNS zone with id 987654/);
      const second = await dns.addRecord(zoneId, { Type: 3, Name: "lookup", Value: "v=two", Ttl: 120 });
      await assert.rejects(getDnsRecord({ dnsZoneId: zoneId, type: "TXT", name: "lookup" }), new RegExp(`has 2 records TXT "lookup" \\(ids ${first.Id}, ${second.Id}\\): give recordId`));
      assert.equal((await getDnsRecord({ dnsZoneId: zoneId, recordId: second.Id, type: "TXT", name: "lookup" })).value, "v=two");
      await emu.markRequests();
      await assert.rejects(getDnsRecord({ dnsZoneId: "zone", recordId: 1 }), /getDnsRecord: dnsZoneId must be a positive integer, got "zone"/);
      await assert.rejects(getDnsRecord({ dnsZoneId: zoneId, type: "TXT" }), /give type and name together \(got only type\)/);
      await assert.rejects(getDnsRecord({ dnsZoneId: zoneId }), /give recordId, or type and name/);
      await assert.rejects(getDnsRecord({ dnsZoneId: zoneId, type: "SPF" as "TXT", name: "x" }), /type must be one of A, AAAA/);
      assert.equal((await emu.requests()).length, 0, "bad arguments are refused before any call");
      const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
      let value!: pulumi.Output<string>;
      await harness.up(() => {
        value = getDnsRecordOutput({ dnsZoneId: pulumi.output(zoneId), recordId: pulumi.output(second.Id) }).value;
      });
      assert.deepEqual(await settle(value), { value: "v=two", secret: false });
      await dns.deleteRecord(zoneId, second.Id);
    } finally {
      await dns.deleteRecord(zoneId, first.Id);
    }
  });

  it("getContainerAppContainer gives a container of an app by name: its id, image and endpoints; the Output form takes Output args", async () => {
    const appId = String(emu.fixtures.appId);
    const app = await emu.client().containers.getApp(appId);
    const web = app.containerTemplates.find((c) => c.name === "web")!;
    const result = await getContainerAppContainer({ appId, name: "web" });
    assert.equal(result.containerId, web.id);
    assert.deepEqual(result.image, { registryId: web.imageRegistryId, namespace: web.imageNamespace, name: web.imageName, tag: web.imageTag, digest: web.imageDigest || undefined });
    assert.deepEqual(result.endpoints.map((e) => [e.endpointId, e.name, e.type, e.publicHost ?? null]), web.endpoints.map((e) => [e.id, e.displayName, e.type, e.publicHost || null]));
    assert.ok(result.endpoints.length > 0, "the seeded web container has endpoints");
    await assert.rejects(getContainerAppContainer({ appId, name: "nope" }), /app "emulator-app" has no container named "nope" \(its containers: "web", "api", "dns", "worker"\)/);
    await assert.rejects(getContainerAppContainer({ appId: "no-such-app", name: "web" }), /no container app with id "no-such-app"/);
    await emu.markRequests();
    await assert.rejects(getContainerAppContainer({ appId, name: "" }), /getContainerAppContainer: name must be a non-empty string/);
    assert.equal((await emu.requests()).length, 0);
    const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
    let id!: pulumi.Output<string>;
    await harness.up(() => {
      id = getContainerAppContainerOutput({ appId: pulumi.output(appId), name: "web" }).containerId;
    });
    assert.deepEqual(await settle(id), { value: web.id, secret: false });
  });

  it("getVideoLanguages returns every language of GET /videolibrary/languages, or the one with a code", async () => {
    const res = await fetch(`${emu.url}/videolibrary/languages`, { headers: { AccessKey: emu.fixtures.accessKey } });
    const everything = (await res.json()) as { ShortCode: string; Name: string; SupportTranscribing: boolean; TranscribingAccuracy: number }[];
    const all = await getVideoLanguages();
    assert.deepEqual(all.codes, everything.map((l) => l.ShortCode));
    const english = everything.find((l) => l.ShortCode === "en")!;
    const one = await getVideoLanguages({ code: "en" });
    assert.deepEqual(one.languages.map((l) => [l.code, l.name, l.supportTranscribing, l.transcribingAccuracy]), [["en", english.Name, english.SupportTranscribing, english.TranscribingAccuracy]]);
    await assert.rejects(getVideoLanguages({ code: "xx" }), /Stream has no language with code "xx"/);
    const harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"] });
    let transcribed!: pulumi.Output<string[]>;
    await harness.up(() => {
      transcribed = getVideoLanguagesOutput().apply((r) => r.languages.filter((l) => l.supportTranscribing).map((l) => l.code));
    });
    const expected = everything.filter((l) => l.SupportTranscribing).map((l) => l.ShortCode);
    assert.ok(expected.length > 0 && expected.length < everything.length, "the seeded languages exercise the filter");
    assert.deepEqual((await settle(transcribed)).value, expected);
  });

  it("getCdnLogs applies the v2 filters and stops at the caller's cap, saying when it did", async () => {
    const pullZoneId = Number(emu.fixtures.pullZoneId);
    const capped = await getCdnLogs({ pullZoneId, maxEntries: 5 });
    assert.equal(capped.entries.length, 5);
    assert.equal(capped.truncated, true);
    const hits = await getCdnLogs({ pullZoneId, cacheStatus: ["HIT"], status: ["2xx"], maxEntries: 10_000 });
    assert.ok(hits.entries.length > 0);
    assert.ok(hits.entries.every((e) => e.cacheStatus === "HIT" && e.statusCode >= 200 && e.statusCode < 300));
    const direct = await all(emu.client().logging.query(pullZoneId, { cacheStatus: ["HIT"], status: ["2xx"] }, { maxEntries: 10_001 }));
    assert.equal(hits.truncated, direct.length > 10_000);
    assert.equal(hits.entries.length, Math.min(direct.length, 10_000));
  });

  describe("without stack config", () => {
    const saved: Record<string, string | undefined> = {};
    const names = ["BUNNYNET_API_KEY", "BUNNY_API_KEY", "BUNNYNET_API_URL"];
    beforeEach(() => {
      for (const n of names) saved[n] = process.env[n];
      for (const n of names) delete process.env[n];
      pulumi.runtime.setAllConfig({}, []);
    });
    afterEach(() => {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
      pulumi.runtime.setAllConfig(config, ["bunnynet:apiKey"]);
    });

    it("falls back to BUNNYNET_* environment variables", async () => {
      process.env.BUNNYNET_API_KEY = emu.fixtures.accessKey;
      process.env.BUNNYNET_API_URL = emu.url;
      const result = await getApiKeys();
      assert.equal(result.keys.length, Number(emu.fixtures.apiKeyCount));
    });

    it("with no key anywhere, says how to set one", async () => {
      await assert.rejects(getApiKeys(), (e: unknown) => e instanceof ConfigurationError && e.message === MISSING_KEY_HELP);
    });
  });
});
