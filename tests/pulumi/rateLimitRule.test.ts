import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { HostError, ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { ProgramHarness } from "../support/programHarness";

import { unmarked } from "bunnynet-pulumi/dist/pulumi/ownership.js";

const TYPE = "RateLimitRule";
const TOKEN = `pulumi-nodejs:dynamic/bunnynet:${TYPE}`;

type Plain = Record<string, unknown>;

/** A valid configuration given with enum names, as a program would write it. */
const loginConfiguration = {
  variableTypes: { REQUEST_URI: "" },
  operatorType: "BEGINSWITH",
  value: "/login",
  requestCount: 10,
  timeframe: "PerOneMinute",
  blockTime: "ForFiveMinutes",
};

/** `loginConfiguration` as check normalises it: numbers, and the API's defaults made explicit. */
const loginConfigurationChecked = {
  actionType: 1,
  variableTypes: { REQUEST_URI: "" },
  operatorType: 0,
  value: "/login",
  isNegated: false,
  isRegexVariable: false,
  severityType: 0,
  transformationTypes: [],
  requestCount: 10,
  counterKeyType: 0,
  timeframe: 60,
  blockTime: 300,
  chainedConditions: [],
};

describe("pulumi: RateLimitRule through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let pullZoneId: number;
  let zoneId: number;
  let provisioningZoneId: number;
  let counter = 0;
  const uniqueName = () => `rule ${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    pullZoneId = Number(emu.fixtures.pullZoneId);
    zoneId = Number(emu.fixtures.shieldZoneId);
    provisioningZoneId = Number(emu.fixtures.provisioningShieldZoneId);
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);
  // Zones allow few rules (10, and 2 while provisioning): every test starts with empty zones.
  afterEach(async () => {
    await emu.clearFaults();
    const shield = emu.client().shield;
    for (const zone of [zoneId, provisioningZoneId]) {
      const rules = [];
      for await (const rule of shield.listRateLimits(zone)) rules.push(rule);
      for (const rule of rules) await shield.deleteRateLimit(rule.id);
    }
  });

  async function checked(news: Plain): Promise<Plain> {
    const res = await host.check(TYPE, {}, news);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  async function created(news: Plain) {
    const inputs = await checked(news);
    return { ...(await host.create(TYPE, inputs)), inputs };
  }

  describe("check", () => {
    const valid = { shieldZoneId: 1, name: "login", configuration: loginConfiguration };
    const withConfiguration = (extra: Plain) => ({ ...valid, configuration: { ...loginConfiguration, ...extra } });
    const { timeframe: _timeframe, ...withoutTimeframe } = loginConfiguration;
    const { shieldZoneId: _zone, ...withoutZone } = valid;
    const { configuration: _configuration, ...withoutConfiguration } = valid;
    const badInputs: { kind: string; news: Plain; properties: string[]; reason: RegExp }[] = [
      { kind: "neither zone id", news: withoutZone, properties: ["pullZoneId", "shieldZoneId"], reason: /exactly one/ },
      { kind: "both zone ids", news: { ...valid, pullZoneId: 5 }, properties: ["pullZoneId", "shieldZoneId"], reason: /not both/ },
      { kind: "a zone id that is not a number", news: { ...withoutZone, pullZoneId: "abc" }, properties: ["pullZoneId"], reason: /./ },
      { kind: "empty name", news: { ...valid, name: "" }, properties: ["name"], reason: /must not be empty/ },
      { kind: "blank name", news: { ...valid, name: "   " }, properties: ["name"], reason: /must not be empty/ },
      { kind: "unknown top-level property", news: { ...valid, enabled: true }, properties: ["enabled"], reason: /unknown property \(expected one of pullZoneId, shieldZoneId, name/ },
      { kind: "unknown property in the configuration", news: withConfiguration({ burst: 3 }), properties: ["configuration.burst"], reason: /^unknown property$/ },
      { kind: "the API's name for chained conditions", news: withConfiguration({ chainedRuleConditions: [] }), properties: ["configuration.chainedRuleConditions"], reason: /unknown property/ },
      { kind: "unknown property in a chained condition", news: withConfiguration({ chainedConditions: [{ variableTypes: { ARGS: "" }, operatorType: "CONTAINS", severityType: 1 }] }), properties: ["configuration.chainedConditions.0.severityType"], reason: /unknown property/ },
      { kind: "wrong timeframe name", news: withConfiguration({ timeframe: "PerTwoMinutes" }), properties: ["configuration.timeframe"], reason: /must be one of PerSecond, PerTenSeconds/ },
      { kind: "wrong action name", news: withConfiguration({ actionType: "Deny" }), properties: ["configuration.actionType"], reason: /must be one of RateLimit, Block, Log, Challenge/ },
      { kind: "operator number the API does not have", news: withConfiguration({ operatorType: 13 }), properties: ["configuration.operatorType"], reason: /must be one of/ },
      { kind: "block time that is not one of the API's", news: withConfiguration({ blockTime: 45 }), properties: ["configuration.blockTime"], reason: /ForThirtySeconds/ },
      { kind: "wrong transformation name, second in the list", news: withConfiguration({ transformationTypes: ["LOWERCASE", "LOWER"] }), properties: ["configuration.transformationTypes.1"], reason: /must be one of/ },
      { kind: "wrong operator in a chained condition", news: withConfiguration({ chainedConditions: [{ variableTypes: { ARGS: "" }, operatorType: "EQ" }, { variableTypes: { ARGS: "" }, operatorType: "SIMILAR" }] }), properties: ["configuration.chainedConditions.1.operatorType"], reason: /must be one of/ },
      { kind: "request count 0", news: withConfiguration({ requestCount: 0 }), properties: ["configuration.requestCount"], reason: />=1/ },
      { kind: "request count over int32", news: withConfiguration({ requestCount: 2147483648 }), properties: ["configuration.requestCount"], reason: /<=2147483647/ },
      { kind: "fractional request count", news: withConfiguration({ requestCount: 2.5 }), properties: ["configuration.requestCount"], reason: /int/ },
      { kind: "no variable to match", news: withConfiguration({ variableTypes: {} }), properties: ["configuration.variableTypes"], reason: /at least one variable/ },
      { kind: "unknown request variable", news: withConfiguration({ variableTypes: { REQUEST_URI: "", REQUEST_PATH: "" } }), properties: ["configuration.variableTypes.REQUEST_PATH"], reason: /unknown property/ },
      { kind: "negation that is not a boolean", news: withConfiguration({ isNegated: "yes" }), properties: ["configuration.isNegated"], reason: /boolean/ },
      { kind: "missing timeframe", news: { ...valid, configuration: withoutTimeframe }, properties: ["configuration.timeframe"], reason: /./ },
      { kind: "missing configuration", news: withoutConfiguration, properties: ["configuration"], reason: /./ },
    ];

    it(`refuses ${badInputs.length} kinds of bad input, each naming the property, without a single API call`, async () => {
      await emu.markRequests();
      for (const bad of badInputs) {
        const res = await host.check(TYPE, {}, bad.news);
        assert.deepEqual(res.failures.map(named).map((f) => f.property).sort(), bad.properties, bad.kind);
        for (const f of res.failures.map(named)) assert.match(f.reason, bad.reason, `${bad.kind}: ${f.reason}`);
      }
      assert.deepEqual(await emu.requests(), []);
    });

    it("normalises inputs: enum names to the API's numbers, string ids to numbers, the API's defaults explicit", async () => {
      const inputs = await checked({
        pullZoneId: String(pullZoneId),
        name: "login",
        description: "",
        configuration: { ...loginConfiguration, chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: "POST", isNegated: true }] },
      });
      assert.deepEqual(inputs, {
        pullZoneId,
        name: "login",
        adoptExisting: false,
        configuration: {
          ...loginConfigurationChecked,
          chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: 15, value: "POST", isNegated: true, isRegexVariable: false }],
        },
      });
      // The package root's enums give the same numbers.
      const byConstant = await checked({
        shieldZoneId: zoneId,
        name: "login",
        configuration: {
          ...loginConfiguration,
          actionType: bunnynet.RateLimitAction.Challenge,
          operatorType: bunnynet.RuleOperator.BEGINSWITH,
          timeframe: bunnynet.RateLimitTimeframe.PerOneMinute,
          blockTime: bunnynet.RateLimitBlockTime.ForFiveMinutes,
          counterKeyType: bunnynet.RateLimitCounterKey.Country,
          transformationTypes: [bunnynet.RuleTransformation.LOWERCASE],
          variableTypes: { [bunnynet.RuleVariable.REQUEST_URI]: "" },
        },
      });
      assert.deepEqual(byConstant.configuration, { ...loginConfigurationChecked, actionType: 3, counterKeyType: 2, transformationTypes: [8] });
    });

    it("passes values not known yet at preview through: an unknown pull zone counts as given", async () => {
      const res = await host.check(TYPE, {}, { pullZoneId: UNKNOWN_VALUE, name: "login", configuration: { ...loginConfiguration, requestCount: UNKNOWN_VALUE } });
      assert.deepEqual(res.failures, []);
      assert.equal(res.inputs.pullZoneId, UNKNOWN_VALUE);
      const both = await host.check(TYPE, {}, { pullZoneId: UNKNOWN_VALUE, shieldZoneId: zoneId, name: "login", configuration: loginConfiguration });
      assert.deepEqual(both.failures.map(named).map((f) => f.property), ["pullZoneId", "shieldZoneId"]);
    });
  });

  describe("life cycle", () => {
    it("creates by pullZoneId: the shield zone is looked up, outputs hold the rule as stored, and an unchanged program shows no diff", async () => {
      const chained = [{ variableTypes: { REQUEST_HEADERS: "User-Agent" }, operatorType: "CONTAINS", value: "curl", isNegated: true }];
      host = await host.nextDeployment(CONFIG());
      await emu.markRequests();
      const { id, outputs, inputs } = await created({ pullZoneId, name: uniqueName(), description: "login page", configuration: { ...loginConfiguration, chainedConditions: chained } });
      // The shield zone is looked up once: the read-back after the create (two stacks creating one name) uses the one the create resolved.
      assert.deepEqual(
        (await emu.requests()).map((r) => `${r.method} ${r.route}`),
        ["GET /shield/shield-zone/get-by-pullzone/:pullZoneId", "GET /shield/rate-limits/:shieldZoneId", "POST /shield/rate-limit", "GET /shield/rate-limits/:shieldZoneId"],
      );
      assert.equal(inputs.shieldZoneId, undefined);
      assert.deepEqual(outputs, { ...inputs, ruleId: Number(id), shieldZoneId: zoneId });
      const rule = await emu.client().shield.getRateLimit(id);
      assert.equal(rule.shieldZoneId, zoneId);
      assert.equal(unmarked(rule.ruleDescription).text, "login page");
      assert.ok(unmarked(rule.ruleDescription).mark, "the description ends with the owner's mark");
      assert.deepEqual(rule.ruleConfiguration?.chainedRuleConditions, [{ variableTypes: { REQUEST_HEADERS: "User-Agent" }, operatorType: 2, value: "curl", isNegated: true, isRegexVariable: false }]);
      assert.equal(rule.ruleConfiguration?.timeframe, 60);
      // The resolved shieldZoneId in the outputs is not a change against a program that gives only pullZoneId.
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
    });

    it("creates by shieldZoneId", async () => {
      const { id, outputs, inputs } = await created({ shieldZoneId: String(zoneId), name: uniqueName(), configuration: loginConfiguration });
      assert.equal(outputs.pullZoneId, undefined);
      assert.deepEqual(outputs, { ...inputs, shieldZoneId: zoneId, ruleId: Number(id) });
      assert.equal((await emu.client().shield.getRateLimit(id)).shieldZoneId, zoneId);
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
    });

    it("creates in a zone that answers 202 (provisioning): the rule is read back and stored as the API has it", async () => {
      const name = uniqueName();
      await emu.markRequests();
      const { id, outputs, inputs } = await created({ shieldZoneId: provisioningZoneId, name, configuration: loginConfiguration });
      const posts = (await emu.requests()).filter((r) => r.method === "POST");
      assert.deepEqual(posts.map((r) => `${r.route} ${r.status}`), ["/shield/rate-limit 202"]);
      const rule = await emu.client().shield.getRateLimit(id);
      assert.equal(rule.ruleName, name);
      assert.equal(rule.shieldZoneId, provisioningZoneId);
      assert.deepEqual(outputs, { ...inputs, ruleId: rule.id });
    });

    it("diff: name, description and configuration change in place; a zone change replaces, deleting first only when the identity may collide", async () => {
      const { id, outputs, inputs } = await created({ pullZoneId, name: uniqueName(), configuration: loginConfiguration });
      const none = { changes: "none", replaces: [], deleteBeforeReplace: false };
      const inPlace = { changes: "some", replaces: [], deleteBeforeReplace: false };
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, adoptExisting: true }), none);
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, name: "renamed" }), inPlace);
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, description: "now described" }), inPlace);
      const configuration = inputs.configuration as Plain;
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, configuration: { ...configuration, requestCount: 11 } }), inPlace);
      const chained = [{ variableTypes: { ARGS: "" }, operatorType: 2, value: "x", isNegated: false, isRegexVariable: false }];
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, configuration: { ...configuration, chainedConditions: chained } }), inPlace);
      // Another pull zone, same name: its zone is unknown until looked up, so the old rule goes first.
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, pullZoneId: 999 }), { changes: "some", replaces: ["pullZoneId"], deleteBeforeReplace: true });
      // The same zone named directly, same name: the new rule would be found as the old one, so the old one goes first.
      const { pullZoneId: _p, ...byZone } = inputs;
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...byZone, shieldZoneId: zoneId }), { changes: "some", replaces: ["pullZoneId"], deleteBeforeReplace: true });
      // Another zone and a new name: no collision, the new rule is created first.
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...byZone, shieldZoneId: provisioningZoneId, name: "elsewhere" }), {
        changes: "some",
        replaces: ["pullZoneId", "shieldZoneId"],
        deleteBeforeReplace: false,
      });
      // A pull zone not known yet may be the same one: the old rule goes first.
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, pullZoneId: UNKNOWN_VALUE }), { changes: "some", replaces: ["pullZoneId"], deleteBeforeReplace: true });
    });

    it("update sends the whole rule once (PATCH); removed description and chained conditions are removed in the API", async () => {
      const chained = [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: "POST" }];
      const { id, outputs } = await created({ pullZoneId, name: uniqueName(), description: "before", configuration: { ...loginConfiguration, chainedConditions: chained } });
      const news = await checked({ pullZoneId, name: "renamed rule", configuration: { ...loginConfiguration, requestCount: 50, actionType: "Log", timeframe: "PerTenSeconds" } });
      await emu.markRequests();
      const updated = await host.update(TYPE, id, outputs, news);
      assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["PATCH /shield/rate-limit/:id"]);
      assert.deepEqual(updated, { ...news, ruleId: Number(id), shieldZoneId: zoneId });
      const rule = await emu.client().shield.getRateLimit(id);
      assert.equal(rule.ruleName, "renamed rule");
      // The description removed, only the owner's mark is left in it (pulumi/ownership.ts).
      assert.equal(unmarked(rule.ruleDescription).text, undefined);
      assert.equal(rule.ruleConfiguration?.requestCount, 50);
      assert.equal(rule.ruleConfiguration?.actionType, 2);
      assert.equal(rule.ruleConfiguration?.timeframe, 10);
      assert.deepEqual(rule.ruleConfiguration?.chainedRuleConditions, []);
      assert.deepEqual(await host.diff(TYPE, id, updated, news), { changes: "none", replaces: [], deleteBeforeReplace: false });
    });

    it("refresh after a change outside Pulumi returns the real rule as outputs and as inputs (chained conditions too); the next diff sees the drift", async () => {
      const { id, outputs, inputs } = await created({ pullZoneId, name: uniqueName(), configuration: loginConfiguration });
      await emu.client().shield.updateRateLimit(id, {
        ruleName: "edited in the dashboard",
        ruleDescription: "theirs",
        ruleConfiguration: {
          ...loginConfiguration,
          requestCount: 99,
          chainedRuleConditions: [{ variableTypes: { REMOTE_ADDR: "" }, operatorType: "WITHIN", value: "10.0.0.0/8", isNegated: true }],
        },
      });
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.equal(read.id, id);
      const real = {
        ...inputs,
        name: "edited in the dashboard",
        description: "theirs",
        configuration: {
          ...loginConfigurationChecked,
          requestCount: 99,
          chainedConditions: [{ variableTypes: { REMOTE_ADDR: "" }, operatorType: 12, value: "10.0.0.0/8", isNegated: true, isRegexVariable: false }],
        },
      };
      assert.deepEqual(read.inputs, real, "refreshed inputs keep pullZoneId and leave shieldZoneId unset");
      assert.deepEqual(read.outputs, { ...real, ruleId: Number(id), shieldZoneId: zoneId });
      assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
      // Refreshing an unchanged rule changes nothing.
      const again = await host.read(TYPE, id, read.outputs, read.inputs);
      assert.deepEqual(again.outputs, read.outputs);
    });

    it("refresh after a delete outside Pulumi reports it gone, whether the API answers 202 (deleted earlier) or 404", async () => {
      const { id, outputs, inputs } = await created({ shieldZoneId: zoneId, name: uniqueName(), configuration: loginConfiguration });
      await emu.client().shield.deleteRateLimit(id);
      host = await host.nextDeployment(CONFIG());
      await emu.markRequests();
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
      // Not in its zone's listing (which serves every rule of the zone in a refresh), so its own GET decides.
      assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`), ["GET /shield/rate-limits/:shieldZoneId 200", "GET /shield/rate-limit/:id 202"]);
      const neverExisted = await host.read(TYPE, "8000", { ...outputs, ruleId: 8000 }, inputs);
      assert.equal(neverExisted.id, "");
    });

    it("refresh of a rule whose zone's plan lost rate limiting (Shield's 202 envelope) fails naming the key; the rule is not dropped as gone", async () => {
      const { outputs, inputs } = await created({ shieldZoneId: zoneId, name: uniqueName(), configuration: loginConfiguration });
      const id = String(emu.fixtures.downgradedRateLimitId);
      const zone = Number(emu.fixtures.downgradedShieldZoneId);
      await assert.rejects(host.read(TYPE, id, { ...outputs, ruleId: Number(id), shieldZoneId: zone }, { ...inputs, shieldZoneId: zone }), (e: unknown) => {
        assert.ok(e instanceof HostError, String(e));
        assert.match(e.message, /plan_limit_restriction\.rate_limit/);
        return true;
      });
    });

    it("delete removes the rule, and deleting it again succeeds", async () => {
      const { id, outputs } = await created({ pullZoneId, name: uniqueName(), configuration: loginConfiguration });
      await host.delete(TYPE, id, outputs);
      await assert.rejects(emu.client().shield.getRateLimit(id), NotFoundError);
      await host.delete(TYPE, id, outputs);
    });
  });

  describe("adoption instead of import", () => {
    /** A rule made outside Pulumi, before the deployment that adopts it. */
    async function existingRule(name: string, requestCount = 10) {
      const { chainedConditions: _c, ...configuration } = loginConfigurationChecked;
      const rule = await emu.client().shield.createRateLimit({ shieldZoneId: zoneId, ruleName: name, ruleDescription: "made elsewhere", ruleConfiguration: { ...configuration, requestCount } });
      host = await host.nextDeployment(CONFIG());
      return rule;
    }

    it("without adoptExisting, create refuses a rule of the same name in the zone and says how to adopt it", async () => {
      const name = uniqueName();
      await existingRule(name);
      const inputs = await checked({ pullZoneId, name, description: "made elsewhere", configuration: loginConfiguration });
      await emu.markRequests();
      await assert.rejects(host.create(TYPE, inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.match(e.message, new RegExp(`RateLimitRule shieldZoneId=${zoneId}, name="${name}" already exists .*set adoptExisting: true`));
        return true;
      });
      assert.ok(!(await emu.requests()).some((r) => r.method !== "GET"), "nothing was created or changed");
    });

    it("with adoptExisting, create takes over a rule that matches exactly, without changing it", async () => {
      const name = uniqueName();
      const existing = await existingRule(name);
      const inputs = await checked({ pullZoneId, name, description: "made elsewhere", configuration: loginConfiguration, adoptExisting: true });
      await emu.markRequests();
      const res = await host.create(TYPE, inputs);
      assert.equal(res.id, String(existing.id));
      assert.deepEqual(res.outputs, { ...inputs, ruleId: existing.id, shieldZoneId: zoneId });
      assert.ok(!(await emu.requests()).some((r) => r.method !== "GET"), "nothing was created or changed");
    });

    it("with adoptExisting, a rule that differs is refused, naming the properties that differ", async () => {
      const name = uniqueName();
      await existingRule(name, 500);
      const inputs = await checked({ shieldZoneId: zoneId, name, configuration: loginConfiguration, adoptExisting: true });
      await assert.rejects(host.create(TYPE, inputs), /already exists \(id \d+\) but differs from the inputs in: description, configuration\./);
    });
  });

  it("a create whose answer was lost (500 after the API stored the rule) is found, not repeated", async () => {
    const name = uniqueName();
    await emu.faults({ rules: [{ path: "^/shield/rate-limit$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after" }] });
    const inputs = await checked({ shieldZoneId: zoneId, name, configuration: loginConfiguration });
    await emu.markRequests();
    const res = await host.create(TYPE, inputs);
    assert.equal((await emu.requests()).filter((r) => r.method === "POST").length, 1);
    const rules = [];
    for await (const rule of emu.client().shield.listRateLimits(zoneId)) if (rule.ruleName === name) rules.push(String(rule.id));
    assert.deepEqual(rules, [res.id]);
  });
});

describe("pulumi: a program with RateLimitRule deployed, changed, refreshed and destroyed in-process", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    harness = new ProgramHarness({
      config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" },
      secretConfig: ["bunnynet:apiKey"],
    });
  });
  after(() => emu?.stop());

  const program = (requestCount: number) => () => {
    const rule = new bunnynet.RateLimitRule("login", {
      pullZoneId: Number(emu.fixtures.pullZoneId),
      name: "login limit",
      configuration: {
        actionType: bunnynet.RateLimitAction.Block,
        variableTypes: { [bunnynet.RuleVariable.REQUEST_URI]: "" },
        operatorType: "BEGINSWITH",
        value: "/login",
        requestCount,
        timeframe: bunnynet.RateLimitTimeframe.PerOneMinute,
        blockTime: "ForOneMinute",
        chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: bunnynet.RuleOperator.STREQ, value: "POST" }],
      },
    });
    return { ruleId: rule.ruleId, shieldZoneId: rule.shieldZoneId };
  };
  const stored = () => harness.resource(TOKEN, "login")!;

  it("up creates the rule; outputs give its id and resolved shield zone", async () => {
    const run = await harness.up(program(10));
    assert.deepEqual(run.steps.map((s) => s.op), ["create"]);
    assert.equal(run.outputs.ruleId, Number(stored().id));
    assert.equal(run.outputs.shieldZoneId, Number(emu.fixtures.shieldZoneId));
    assert.equal((await emu.client().shield.getRateLimit(stored().id)).ruleConfiguration?.chainedRuleConditions?.[0]?.value, "POST");
  });

  it("up with the same program changes nothing and writes nothing", async () => {
    await emu.markRequests();
    assert.deepEqual((await harness.up(program(10))).steps.map((s) => s.op), ["same"]);
    assert.ok(!(await emu.requests()).some((r) => r.method !== "GET"));
  });

  it("up with a new request count updates in place (same id)", async () => {
    const id = stored().id;
    assert.deepEqual((await harness.up(program(20))).steps.map((s) => s.op), ["update"]);
    assert.equal(stored().id, id);
    assert.equal((await emu.client().shield.getRateLimit(id)).ruleConfiguration?.requestCount, 20);
  });

  it("refresh takes a change made outside Pulumi; the next up puts the program's values back", async () => {
    const id = stored().id;
    const rule = await emu.client().shield.getRateLimit(id);
    await emu.client().shield.updateRateLimit(id, { ruleName: "login limit", ruleDescription: "", ruleConfiguration: { ...loginConfiguration, requestCount: 7 } });
    assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
    assert.equal((stored().inputs.configuration as Plain).requestCount, 7);
    assert.deepEqual((await harness.up(program(20))).steps.map((s) => s.op), ["update"]);
    assert.deepEqual((await emu.client().shield.getRateLimit(id)).ruleConfiguration, rule.ruleConfiguration);
  });

  it("destroy deletes the rule", async () => {
    const id = stored().id;
    assert.deepEqual((await harness.destroy()).map((s) => s.op), ["delete"]);
    await assert.rejects(emu.client().shield.getRateLimit(id), NotFoundError);
  });
});
