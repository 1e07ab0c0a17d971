import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { ProgramHarness } from "../support/programHarness";
import { Database } from "bunnynet-pulumi/dist/resources/database.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";

const TYPE = "Database";

/** Every JWT-shaped string in `value` whose claims say it is the account's (what the exchange gives the transport). */
function accountJwtsIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/eyJ[\w-]+\.([\w-]+)\.[\w-]+/g)].filter((m) => {
    try {
      return (JSON.parse(Buffer.from(m[1], "base64url").toString("utf8")) as { scope?: string }).scope === "account";
    } catch {
      return false;
    }
  }).map((m) => m[0]);
}

describe("pulumi: Database through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  const uniqueName = () => `pulumi-db-${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  async function created(extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { name: uniqueName(), primaryRegions: ["DE"], ...extra });
    assert.deepEqual(checked.failures, []);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  it("check refuses bad input naming each property, without any API call; a region both primary and replica too", async () => {
    await emu.markRequests();
    const res = await host.check(TYPE, {}, { name: "no spaces", primaryRegions: ["de", 3], replicaRegions: "NY", nmae: "typo" });
    const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
    assert.deepEqual(Object.keys(byProperty).sort(), ["name", "nmae", "primaryRegions.0", "primaryRegions.1", "replicaRegions"]);
    assert.deepEqual((await host.check(TYPE, {}, { name: "db", primaryRegions: [] })).failures.map(named), [{ property: "primaryRegions", reason: "must name at least one region" }]);
    const both = await host.check(TYPE, {}, { name: "db", primaryRegions: ["DE", "NY"], replicaRegions: ["NY", "SG"] });
    assert.deepEqual(both.failures.map(named), [{ property: "replicaRegions", reason: "must not include a primary region (NY)" }]);
    assert.equal((await emu.requests()).length, 0);
  });

  it("check normalises the region sets (sorted, no repeats, replicas default none) and leaves unknowns to up", async () => {
    const res = await host.check(TYPE, {}, { name: "db", primaryRegions: ["SG", "DE", "SG"] });
    assert.deepEqual(res.inputs, { name: "db", primaryRegions: ["DE", "SG"], replicaRegions: [], adoptExisting: false });
    assert.deepEqual((await host.check(TYPE, {}, { name: UNKNOWN_VALUE, primaryRegions: ["DE"], replicaRegions: UNKNOWN_VALUE })).failures, []);
  });

  it("creates the database; id, URL and a full-access and a read-only token are outputs", async () => {
    const { id, outputs } = await created({ replicaRegions: ["NY", "SG"] });
    const real = await emu.client().databases.getDatabase(id);
    assert.equal(outputs.databaseId, id);
    assert.equal(outputs.url, real.url);
    assert.deepEqual([real.primary_regions, real.replicas_regions], [["DE"], ["NY", "SG"]]);
    assert.equal(typeof outputs.fullAccessToken, "string");
    assert.equal(typeof outputs.readOnlyToken, "string");
    assert.notEqual(outputs.fullAccessToken, outputs.readOnlyToken);
    assert.deepEqual(accountJwtsIn(outputs), [], "the account's JWT is not in the outputs");
  });

  it("diff: region order is no change; regions change in place; a new name replaces", async () => {
    const { id, outputs, inputs } = await created({ primaryRegions: ["DE", "UK"] });
    const diff = (news: Record<string, unknown>) => host.diff(TYPE, id, outputs, { ...inputs, ...news });
    assert.deepEqual(await diff({}), { changes: "none", replaces: [], deleteBeforeReplace: false });
    // The order as the program writes it, through check as the engine sends it.
    const reordered = await host.check(TYPE, inputs, { ...inputs, primaryRegions: ["UK", "DE", "UK"] });
    assert.deepEqual(await diff(reordered.inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ primaryRegions: ["DE"] }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ replicaRegions: ["NY"] }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ name: "other" }), { changes: "some", replaces: ["name"], deleteBeforeReplace: false });
  });

  it("update moves regions in place (same id, same URL, same tokens)", async () => {
    const { id, outputs, inputs } = await created({ replicaRegions: ["NY"] });
    const updated = await host.update(TYPE, id, outputs, { ...inputs, primaryRegions: ["NY"], replicaRegions: ["DE", "SG"] });
    assert.deepEqual([updated.primaryRegions, updated.replicaRegions], [["NY"], ["DE", "SG"]]);
    assert.deepEqual([updated.url, updated.fullAccessToken, updated.readOnlyToken], [outputs.url, outputs.fullAccessToken, outputs.readOnlyToken]);
    const real = await emu.client().databases.getDatabase(id);
    assert.deepEqual([real.primary_regions, real.replicas_regions], [["NY"], ["DE", "SG"]]);
  });

  it("refresh shows regions changed outside Pulumi, keeps the tokens, and a database deleted outside as gone", async () => {
    const { id, outputs, inputs } = await created();
    await emu.client().databases.updateDatabase(id, { primary_regions: ["DE"], replicas_regions: ["SYD"] });
    host = await host.nextDeployment(CONFIG());
    const read = await host.read(TYPE, id, outputs, inputs);
    assert.deepEqual(read.inputs, { ...inputs, replicaRegions: ["SYD"] });
    assert.equal(read.outputs.fullAccessToken, outputs.fullAccessToken);
    assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
    await emu.client().databases.deleteDatabase(id);
    host = await host.nextDeployment(CONFIG());
    assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
  });

  it("delete removes the database; deleting again (already gone) succeeds", async () => {
    const { id, outputs } = await created();
    await host.delete(TYPE, id, outputs);
    await assert.rejects(emu.client().databases.getDatabase(id), NotFoundError);
    await host.delete(TYPE, id, outputs);
  });

  it("a create whose answer was lost (500 after the API made the database) leaves exactly one database, recorded with its tokens", async () => {
    const name = uniqueName();
    await emu.faults({ rules: [{ path: "^/edgedb/v2/databases$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after", times: 1 }] });
    try {
      const checked = await host.check(TYPE, {}, { name, primaryRegions: ["DE"] });
      const res = await host.create(TYPE, checked.inputs);
      const named = (await emu.client().databases.listDatabases()).filter((d) => d.name === name);
      assert.deepEqual(named.map((d) => d.id), [res.id]);
      assert.ok(String(res.outputs.fullAccessToken).length > 20 && String(res.outputs.readOnlyToken).length > 20);
    } finally {
      await emu.clearFaults();
    }
  });

  it("a token that cannot be made undoes the create: no database is left unrecorded", async () => {
    const name = uniqueName();
    await emu.faults({ rules: [{ path: "/auth/generate$", method: "POST", errorRate: 1, errorStatus: 400 }] });
    try {
      const checked = await host.check(TYPE, {}, { name, primaryRegions: ["DE"] });
      await assert.rejects(host.create(TYPE, checked.inputs));
      assert.deepEqual((await emu.client().databases.listDatabases()).filter((d) => d.name === name), []);
    } finally {
      await emu.clearFaults();
    }
  });

  it("adoption by name: refused without adoptExisting; with it, taken over with tokens of its own; other regions are refused", async () => {
    const name = uniqueName();
    const existing = await emu.client().databases.createDatabase({ name, primary_regions: ["DE"], replicas_regions: ["NY"], storage_region: "us-east-1" });
    host = await host.nextDeployment(CONFIG());
    const plain = await host.check(TYPE, {}, { name, primaryRegions: ["DE"], replicaRegions: ["NY"] });
    await assert.rejects(host.create(TYPE, plain.inputs), (e: unknown) => e instanceof HostError && /already exists .*adoptExisting: true/.test(e.message));
    const otherRegions = await host.check(TYPE, {}, { name, primaryRegions: ["SG"], adoptExisting: true });
    await assert.rejects(host.create(TYPE, otherRegions.inputs), /differs from the inputs in: primaryRegions, replicaRegions/);
    const adopting = await host.check(TYPE, {}, { name, primaryRegions: ["DE"], replicaRegions: ["NY"], adoptExisting: true });
    const res = await host.create(TYPE, adopting.inputs);
    assert.equal(res.id, existing);
    assert.ok(String(res.outputs.fullAccessToken).length > 20 && String(res.outputs.readOnlyToken).length > 20);
  });
});

describe("pulumi: Database in a program (up, unchanged up, refresh, destroy)", function () {
  let emu: TestEmulator;
  let host: ProviderHost;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));

  it("deploys in one up, stores the tokens only as secrets and no account JWT anywhere, then changes nothing", async () => {
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const program = () => {
      const db = new Database("db", { name: "program-db", primaryRegions: ["DE"], replicaRegions: ["SG", "NY"] });
      return { url: db.url, token: db.fullAccessToken };
    };
    const first = await harness.up(program);
    assert.deepEqual(first.steps.map((s) => s.op), ["create"]);
    const stored = harness.resource(TYPE, "db")!;
    assert.ok(stored.secretKeys.includes("fullAccessToken") && stored.secretKeys.includes("readOnlyToken"), String(stored.secretKeys));
    const plainOutputs = Object.fromEntries(Object.entries(stored.outputs).filter(([k]) => !stored.secretKeys.includes(k)));
    assert.ok(!JSON.stringify(plainOutputs).includes(String(stored.outputs.fullAccessToken)), "the token in plain state");
    assert.deepEqual(accountJwtsIn(harness.resources()), [], "no account JWT in the state");
    assert.deepEqual(accountJwtsIn(first), [], "no account JWT in what the engine was told");

    await emu.markRequests();
    const again = await harness.up(program);
    assert.deepEqual(again.steps.map((s) => s.op), ["same"]);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), [], "an unchanged up writes nothing");
    assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
    assert.deepEqual((await harness.preview(program)).steps.map((s) => s.op), ["same"], "no drift after refresh");

    await harness.destroy();
    await assert.rejects(emu.client().databases.getDatabase(stored.id), NotFoundError);
  });
});
