import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { ProgramHarness } from "../support/programHarness";
import { putPullZone, removePullZone } from "../support/pullZoneRecords";

import { refusal, takeOverValue } from "../support/takeOver";

const TYPE = "ShieldZone";
const TOKEN = `pulumi-nodejs:dynamic/bunnynet:${TYPE}`;
type Plain = Record<string, unknown>;
const none = { changes: "none", replaces: [], deleteBeforeReplace: false };
const inPlace = { changes: "some", replaces: [], deleteBeforeReplace: false };

describe("pulumi: ShieldZone through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const pullZone = () => putPullZone(emu, `shield-host-${++counter}`);

  async function checked(news: Plain): Promise<Plain> {
    const res = await host.check(TYPE, {}, news);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }
  async function created(news: Plain) {
    const inputs = await checked(news);
    return { ...(await host.create(TYPE, inputs)), inputs };
  }

  it("refuses bad input naming the property, without a single API call; unknown values pass at preview", async () => {
    const bad: { news: Plain; property: string }[] = [
      { news: {}, property: "pullZoneId" },
      { news: { pullZoneId: "abc" }, property: "pullZoneId" },
      { news: { pullZoneId: 1, planType: "Gold" }, property: "planType" },
      { news: { pullZoneId: 1, wafExecutionMode: 5 }, property: "wafExecutionMode" },
      { news: { pullZoneId: 1, ddosShieldSensitivity: "Extreme" }, property: "ddosShieldSensitivity" },
      { news: { pullZoneId: 1, ddosChallengeWindow: 0 }, property: "ddosChallengeWindow" },
      { news: { pullZoneId: 1, wafDisabledRules: ["1", "1"] }, property: "wafDisabledRules" },
      { news: { pullZoneId: 1, wafEnabled: "yes" }, property: "wafEnabled" },
      { news: { pullZoneId: 1, waf: { enabled: true } }, property: "waf" },
    ];
    await emu.markRequests();
    for (const b of bad) {
      const res = await host.check(TYPE, {}, b.news);
      assert.deepEqual(res.failures.map(named).map((f) => f.property), [b.property], JSON.stringify(b.news));
    }
    assert.deepEqual(await emu.requests(), []);
    const preview = await host.check(TYPE, {}, { pullZoneId: UNKNOWN_VALUE, planType: "Advanced" });
    assert.deepEqual(preview.failures, []);
    assert.equal(preview.inputs.planType, 1);
  });

  it("creates the zone (one POST, one GET: the write answers only the request); outputs show every setting; an unchanged program shows no diff", async () => {
    const pullZoneId = pullZone();
    await emu.markRequests();
    const { id, outputs, inputs } = await created({ pullZoneId: String(pullZoneId), planType: "Advanced", wafEnabled: true, ddosShieldSensitivity: "High" });
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["POST /shield/shield-zone", "GET /shield/shield-zone/:shieldZoneId"]);
    assert.equal(outputs.shieldZoneId, Number(id));
    assert.equal(outputs.pullZoneId, pullZoneId);
    assert.equal(outputs.planType, 1);
    assert.equal(outputs.ddosShieldSensitivity, 3);
    assert.equal(outputs.learningMode, undefined, "an unset setting stays unset");
    assert.equal((outputs.settings as Plain).learningMode, false, "settings show each as the API has it");
    assert.equal((outputs.settings as Plain).planType, 1);
    assert.equal(outputs.rateLimitRulesLimit, 10);
    assert.equal(inputs.learningMode, undefined);
    assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), none);
  });

  it("diff: settings change in place, another pull zone replaces; update sends one PATCH", async () => {
    const { id, outputs, inputs } = await created({ pullZoneId: pullZone() });
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, wafEnabled: false }), inPlace);
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, planType: 0 }), inPlace, "a setting newly given is sent, even the value it has");
    assert.deepEqual(await host.diff(TYPE, id, { ...outputs, planType: 0 }, inputs), none, "a setting no longer given is left as it is");
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, pullZoneId: 4242 }), { changes: "some", replaces: ["pullZoneId"], deleteBeforeReplace: false });
    const news = await checked({ ...inputs, learningMode: true, wafRequestIgnoredHeaders: ["Cookie"] });
    await emu.markRequests();
    const updated = await host.update(TYPE, id, outputs, news);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`), ["PATCH /shield/shield-zone"]);
    assert.equal(updated.learningMode, true);
    assert.deepEqual(updated.wafRequestIgnoredHeaders, ["Cookie"]);
    assert.equal((await emu.client().shieldZones.get(id)).learningMode, true);
  });

  it("refresh: a setting the program gives and someone changed shows as drift; one it leaves unset follows the API", async () => {
    const { id, outputs, inputs } = await created({ pullZoneId: pullZone(), wafEnabled: true });
    await emu.client().shieldZones.update({ shieldZoneId: Number(id), shieldZone: { wafEnabled: false, learningMode: true } });
    const read = await host.read(TYPE, id, outputs, inputs);
    assert.equal(read.inputs?.wafEnabled, false);
    assert.equal(read.inputs?.learningMode, undefined);
    assert.equal(read.outputs.learningMode, undefined);
    assert.equal((read.outputs.settings as Plain).learningMode, true);
    assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), inPlace);
  });

  it("adoption: a pull zone that has a zone refuses a create without adoptExisting; with it, the zone is adopted and the settings given are set", async () => {
    const pullZoneId = pullZone();
    const existing = await emu.client().shieldZones.create({ pullZoneId, shieldZone: { learningMode: true } });
    host = await host.nextDeployment(hostConfig(emu));
    const inputs = await checked({ pullZoneId, learningMode: false });
    await assert.rejects(host.create(TYPE, inputs), (e: unknown) => e instanceof HostError && /already exists .*adoptExisting: true/.test(e.message));
    const adopted = await host.create(TYPE, { ...inputs, adoptExisting: true });
    assert.equal(adopted.id, String(existing.shieldZoneId));
    assert.equal(adopted.outputs.learningMode, false);
    assert.equal(adopted.outputs.wafEnabled, undefined);
    assert.equal((await emu.client().shieldZones.get(existing.shieldZoneId)).learningMode, false);
  });

  it("a pull zone's zone that a cut create left is not taken without proof: the refusal's command takes it, and its pages are set", async () => {
    const pullZoneId = pullZone();
    // What a create cut after its POST leaves: the zone with the plan asked for, and none of the pages set after it.
    const existing = await emu.client().shieldZones.create({ pullZoneId, shieldZone: { planType: 1 } });
    host = await host.nextDeployment(hostConfig(emu));
    const inputs = await checked({ pullZoneId, planType: "Advanced", customPages: { block: "<p>blocked</p>" } });
    // bunny.net keeps nothing on a Shield zone that says which stack made it: another stack's zone looks the same.
    const refused = await refusal(host.create(TYPE, inputs));
    assert.match(refused, /keeps nothing on a ShieldZone that shows which stack made it, so it is not taken/);
    const adopt = takeOverValue(refused);
    assert.equal(adopt, `urn:pulumi:test::bunnynet-test::pulumi-nodejs:dynamic/bunnynet:ShieldZone::test=${existing.shieldZoneId}`);
    host = await host.nextDeployment(hostConfig(emu), { env: { BUNNYNET_ADOPT: adopt } });
    const taken = await host.create(TYPE, inputs);
    assert.equal(taken.id, String(existing.shieldZoneId));
    assert.equal(await emu.client().shieldZones.getCustomPage(existing.shieldZoneId, "block"), "<p>blocked</p>");
    host = await host.nextDeployment(hostConfig(emu));
  });

  it("destroy resets the zone to the Basic plan without WAF (the API has no delete); when its pull zone went first, it is already gone", async () => {
    const pullZoneId = pullZone();
    const { id, outputs, inputs } = await created({ pullZoneId, planType: "Business", wafEnabled: true, learningMode: true });
    await host.delete(TYPE, id, outputs);
    const after = await emu.client().shieldZones.get(id);
    assert.deepEqual([after.planType, after.wafEnabled, after.learningMode], [0, false, false]);
    removePullZone(emu, pullZoneId);
    host = await host.nextDeployment(hostConfig(emu));
    assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
    await host.delete(TYPE, id, outputs);
  });

  it("a rate-limit rule whose pull zone was deleted (with its shield zone) is already gone on refresh and delete", async () => {
    const pullZoneId = pullZone();
    const zone = await created({ pullZoneId });
    const ruleInputs = await host.check("RateLimitRule", {}, {
      shieldZoneId: zone.id,
      name: "gone with the pull zone",
      configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/", requestCount: 5, timeframe: "PerOneMinute", blockTime: "ForOneMinute" },
    });
    const rule = await host.create("RateLimitRule", ruleInputs.inputs);
    removePullZone(emu, pullZoneId);
    host = await host.nextDeployment(hostConfig(emu));
    assert.equal((await host.read("RateLimitRule", rule.id, rule.outputs, ruleInputs.inputs)).id, "");
    await host.delete("RateLimitRule", rule.id, rule.outputs);
    await host.delete(TYPE, zone.id, zone.outputs);
  });
});

describe("pulumi: a program with a ShieldZone and a RateLimitRule on it, in-process", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;
  let pullZoneId: number;
  before(async () => {
    emu = await startEmulator();
    pullZoneId = putPullZone(emu, "shield-program");
    harness = new ProgramHarness({ config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" }, secretConfig: ["bunnynet:apiKey"] });
  });
  after(() => emu?.stop());

  const program = (waf: boolean) => () => {
    const zone = new bunnynet.ShieldZone("shield", { pullZoneId, wafEnabled: waf });
    const rule = new bunnynet.RateLimitRule("login", {
      shieldZoneId: zone.shieldZoneId,
      name: "login",
      configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/login", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" },
    });
    return { shieldZoneId: zone.shieldZoneId, ruleId: rule.ruleId };
  };

  it("up creates both, an unchanged up writes nothing, a change is one update, refresh finds no drift, destroy leaves no rule", async () => {
    const run = await harness.up(program(true));
    assert.deepEqual(run.steps.map((s) => s.op).sort(), ["create", "create"]);
    assert.equal(run.outputs.shieldZoneId, Number(harness.resource(TOKEN, "shield")!.id));
    await emu.markRequests();
    const again = await harness.up(program(true));
    assert.ok(again.steps.every((s) => s.op === "same"));
    assert.ok((await emu.requests()).every((r) => r.method === "GET"));
    const changed = await harness.up(program(false));
    assert.deepEqual(changed.steps.filter((s) => s.op !== "same").map((s) => s.op), ["update"]);
    const refreshed = await harness.refresh();
    assert.deepEqual(refreshed.map((s) => s.op), ["refresh", "refresh"]);
    assert.ok((await harness.preview(program(false))).steps.every((s) => s.op === "same"), "no drift after the refresh");
    await harness.destroy();
    const zone = await emu.client().shieldZones.getByPullZone(pullZoneId);
    assert.equal(zone.wafEnabled, false);
    const rules = [];
    for await (const r of emu.client().shield.listRateLimits(zone.shieldZoneId)) rules.push(r);
    assert.deepEqual(rules, []);
  });
});
