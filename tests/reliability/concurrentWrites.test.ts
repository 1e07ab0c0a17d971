import assert from "node:assert/strict";
import { unmarked } from "bunnynet-pulumi/dist/pulumi/ownership.js";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { ServerError } from "bunnynet-pulumi/dist/http/errors.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost, secret } from "../support/providerHost";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../support/quickstart";
import { SITE_PROJECT, SITE_SECRET_CONFIG, siteConfig } from "../support/site";
import { quickstart } from "../../examples/quickstart/program";
import { site } from "../../examples/site/program";

const RULE_CONFIGURATION = { variableTypes: { REQUEST_URI: "" }, operatorType: 0, requestCount: 10, timeframe: 60, blockTime: 60 };
const CONCURRENT = 6;

/**
 * Issue 23: concurrent writes to one zone as bunny.net's API loses them (WAF rules: BunnyWay/terraform-provider-bunnynet#64;
 * a pull zone's settings and edge rules: #6, simplesurance/terraform-provider-bunny PR #32; emulator/concurrentWrites.ts),
 * and the provider's writes serialised per zone (provider/http/zoneWrites.ts), only for those.
 */
describe("concurrent writes to one zone (loseConcurrentWrites)", function () {
  let emu: TestEmulator;

  before(async () => {
    emu = await startEmulator();
  });
  after(async () => {
    await emu?.stop();
  });
  afterEach(async () => {
    await emu.clearFaults();
  });

  /** Sends `count` writes at once with the client used directly (no zone scope: nothing serialises them), no retries. */
  async function atOnce<T>(count: number, write: (i: number) => Promise<T>) {
    const outcomes = await Promise.allSettled(Array.from({ length: count }, (_, i) => write(i)));
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected").map((o) => o.reason as Error);
    return { succeeded: outcomes.length - refused.length, refused };
  }

  /** A pull zone with an Advanced Shield zone of its own (room for ten WAF rules). */
  async function zones(name: string) {
    const client = emu.client();
    const pullZoneId = (await client.pullZones.createPullZone({ Name: name, OriginUrl: "https://origin.lost.example" })).Id;
    return { pullZoneId, shieldZoneId: (await client.shieldZones.create({ pullZoneId, shieldZone: { planType: 1 } })).shieldZoneId };
  }
  const WAF_CONFIGURATION = { actionType: "Block", variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" } as const;
  const edgeRule = (i: number) => ({ ActionType: 4, Triggers: [{ Type: 4, PatternMatches: ["KP"], PatternMatchingType: 0, Parameter1: "" }], TriggerMatchingType: 0, Description: `rule ${i}`, Enabled: true, OrderIndex: i });
  const wafRulesOf = async (shieldZoneId: number) => (await emu.client().wafRules.listPage(shieldZoneId, { perPage: 1000 }, { fresh: true })).data;
  const rulesNamed = async (shieldZoneId: number, prefix: string) =>
    (await emu.client().shield.listRateLimitsPage(shieldZoneId, { perPage: 1000 })).data.filter((r) => r.ruleName?.startsWith(prefix) === true);
  const hostnamesUnder = async (pullZoneId: number, domain: string) => (await emu.client().pullZones.getPullZone(pullZoneId)).Hostnames?.filter((h) => h.Value.endsWith(domain)) ?? [];

  it("on: WAF rules and edge rules written at once to one zone are lost (#64; simplesurance PR #32), each refused with a 500 that says why", async () => {
    const { pullZoneId, shieldZoneId } = await zones("lost-zone");
    await emu.faults({ loseConcurrentWrites: true });
    const client = emu.client({ maxRetries: 0 });
    const wafRules = await atOnce(CONCURRENT, (i) => client.wafRules.create({ shieldZoneId, ruleName: `lost ${i}`, ruleConfiguration: WAF_CONFIGURATION }));
    const edgeRules = await atOnce(CONCURRENT, (i) => client.pullZones.addOrUpdateEdgeRule(pullZoneId, edgeRule(i)));

    for (const [written, stored] of [
      [wafRules, await wafRulesOf(shieldZoneId)],
      [edgeRules, await client.pullZones.listEdgeRules(pullZoneId)],
    ] as const) {
      assert.ok(written.refused.length > 0, "some writes overlapped and were refused");
      assert.equal(stored.length, written.succeeded, "only the writes answered success are stored");
      for (const e of written.refused) {
        assert.ok(e instanceof ServerError, e.message);
        assert.match(e.message, /deadlocked with another write to (shieldzone|pullzone) \d+/);
      }
    }
    const state = (await (await fetch(`${emu.url}/_emulator/faults`)).json()) as { refused: number };
    assert.equal(state.refused, wafRules.refused.length + edgeRules.refused.length);
    assert.ok((await emu.requests()).some((r) => r.fault === "concurrentWrite" && r.status === 500));
  });

  it("on: pull zones created at once meet whatever zone they create: some refused with a 502 (Terraform 0.4.2) and not stored", async () => {
    await emu.faults({ loseConcurrentWrites: true });
    const client = emu.client({ maxRetries: 0 });
    const created = await atOnce(CONCURRENT, (i) => client.pullZones.createPullZone({ Name: `created-at-once-${i}`, OriginUrl: "https://origin.lost.example" }));
    assert.ok(created.refused.length > 0, "some creates overlapped and were refused");
    for (const e of created.refused) assert.ok(e instanceof ServerError && e.status === 502, e.message);
    const listed = await fetch(`${emu.url}/pullzone?search=created-at-once-`, { headers: { AccessKey: emu.fixtures.accessKey } });
    const stored = (await listed.json()) as { Name: string }[];
    assert.equal(stored.length, created.succeeded);
  });

  it("on: hostnames, rate-limit rules and access lists written at once are all stored (no evidence they are lost); WAF rules one at a time too", async () => {
    const { pullZoneId, shieldZoneId } = await zones("kept-zone");
    await emu.faults({ loseConcurrentWrites: true });
    const client = emu.client({ maxRetries: 0 });
    const hostnames = await atOnce(CONCURRENT, (i) => client.pullZones.addHostname(pullZoneId, `h${i}.together.example`));
    const rules = await atOnce(CONCURRENT, (i) => client.shield.createRateLimit({ shieldZoneId, ruleName: `kept ${i}`, ruleDescription: "", ruleConfiguration: RULE_CONFIGURATION }));
    const lists = await atOnce(3, (i) => client.accessLists.create(shieldZoneId, { name: `kept ${i}`, type: "CIDR", content: `198.51.100.${i}/32` }));
    assert.deepEqual([hostnames.succeeded, rules.succeeded, lists.succeeded], [CONCURRENT, CONCURRENT, 3]);
    assert.equal((await hostnamesUnder(pullZoneId, ".together.example")).length, CONCURRENT);
    assert.equal((await rulesNamed(shieldZoneId, "kept ")).length, CONCURRENT);
    assert.equal((await client.accessLists.list(shieldZoneId)).customLists.filter((l) => l.name?.startsWith("kept ") === true).length, 3);

    for (let i = 0; i < 3; i++) await client.wafRules.create({ shieldZoneId, ruleName: `one by one ${i}`, ruleConfiguration: WAF_CONFIGURATION });
    assert.equal((await wafRulesOf(shieldZoneId)).length, 3);
    const state = (await (await fetch(`${emu.url}/_emulator/faults`)).json()) as { refused: number };
    assert.equal(state.refused, 0);
  });

  it("off: WAF rules written at once are all stored", async () => {
    const { shieldZoneId } = await zones("off-zone");
    const together = await atOnce(CONCURRENT, (i) => emu.client({ maxRetries: 0 }).wafRules.create({ shieldZoneId, ruleName: `together ${i}`, ruleConfiguration: WAF_CONFIGURATION }));
    assert.equal(together.succeeded, CONCURRENT);
    assert.equal((await wafRulesOf(shieldZoneId)).length, CONCURRENT);
  });

  it("refuses a bad setting naming it", async () => {
    await assert.rejects(emu.faults({ loseConcurrentWrites: "yes" as unknown as boolean }), /loseConcurrentWrites/);
    await assert.rejects(emu.faults({ loseConcurrentWrites: true, concurrentWriteWindowMs: -1 }), /concurrentWriteWindowMs/);
  });
});

describe("pulumi: with lost concurrent writes on, whole programs deploy at the engine's parallelism", function () {
  let emu: TestEmulator;
  let host: ProviderHost | undefined;

  beforeEach(async () => {
    emu = await startEmulator();
    // A window longer than the default, so that writes sent together surely overlap unless they wait for each other.
    await emu.faults({ loseConcurrentWrites: true, concurrentWriteWindowMs: 50 });
  });
  afterEach(async () => {
    await host?.stop();
    host = undefined;
    await emu?.stop();
  });

  /** A documented GET of the core API with the account key. */
  async function core(path: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${emu.url}${path}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(res.status, 200, `GET ${path}`);
    return (await res.json()) as Record<string, unknown>;
  }
  const hostnamesOf = async (pullZoneId: string) => ((await core(`/pullzone/${pullZoneId}`)).Hostnames as { Value: string }[]).map((h) => h.Value);
  const ruleNamesOf = async (shieldZoneId: unknown) => ((await core(`/shield/rate-limits/${shieldZoneId}?perPage=1000`)).data as { ruleName: string }[]).map((r) => r.ruleName);
  const writesRefused = async () => ((await (await fetch(`${emu.url}/_emulator/faults`)).json()) as { refused: number }).refused;

  it("ten hostnames, five rate-limit rules, five WAF rules (issue #64's case) and five edge rules of one pull zone: created, changed and destroyed, no write refused", async () => {
    host = await ProviderHost.start();
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const [pullZoneId, shieldZoneId] = [Number(emu.fixtures.pullZoneId), Number(emu.fixtures.shieldZoneId)];
    const program = (requestCount: number) => () => {
      for (let i = 0; i < 10; i++) new bunnynet.PullZoneHostname(`host-${i}`, { pullZoneId, hostname: `h${i}.many.example` });
      for (let i = 0; i < 5; i++) {
        new bunnynet.RateLimitRule(`rule-${i}`, {
          pullZoneId,
          name: `many ${i}`,
          configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: `/path${i}/`, requestCount, timeframe: "PerOneMinute", blockTime: "ForOneMinute" },
        });
        new bunnynet.WafRule(`waf-${i}`, { shieldZoneId, name: `many ${i}`, conditions: [{ variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: `/admin${i}/${requestCount}` }], action: "Block" });
        new bunnynet.EdgeRule(`edge-${i}`, { pullZoneId, description: `many ${i}`, priority: requestCount + i, actions: [{ type: "BlockRequest" }], triggers: [{ type: "CountryCode", patterns: ["KP"] }] });
      }
    };
    const names = Array.from({ length: 5 }, (_, i) => `many ${i}`);
    const rules = async () => (await ruleNamesOf(shieldZoneId)).filter((n) => n.startsWith("many ")).sort();
    const wafRules = async () => (await emu.client().wafRules.listPage(shieldZoneId, { perPage: 1000 }, { fresh: true })).data.map((r) => String(r.ruleName)).sort();
    const edgeRules = async () => (await emu.client().pullZones.listEdgeRules(pullZoneId)).map((r) => String(unmarked(r.Description).text)).filter((d) => d.startsWith("many ")).sort();
    const hostnames = async () => (await hostnamesOf(String(pullZoneId))).filter((h) => h.endsWith(".many.example")).sort();

    await harness.up(program(10));
    assert.deepEqual(await hostnames(), Array.from({ length: 10 }, (_, i) => `h${i}.many.example`).sort());
    assert.deepEqual([await rules(), await wafRules(), await edgeRules()], [names, names, names]);
    const changed = await harness.up(program(20));
    assert.deepEqual(changed.steps.filter((s) => s.op === "update").length, 15);
    assert.equal(await writesRefused(), 0);
    await harness.destroy();
    assert.deepEqual([await hostnames(), await rules(), await wafRules(), await edgeRules()], [[], [], [], []]);
    assert.equal(await writesRefused(), 0);
  });

  it("five pull zones of one program: all created and destroyed, no write refused", async () => {
    host = await ProviderHost.start();
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const names = Array.from({ length: 5 }, (_, i) => `five-zones-${i}`);
    await harness.up(() => {
      for (const name of names) new bunnynet.PullZone(name, { name, origin: { url: "https://origin.site.example" } });
    });
    const stored = async () => ((await core("/pullzone")) as unknown as { Name: string }[]).map((z) => z.Name).filter((n) => n.startsWith("five-zones-")).sort();
    assert.deepEqual(await stored(), names);
    assert.equal(await writesRefused(), 0);
    await harness.destroy();
    assert.deepEqual(await stored(), []);
  });

  it("the site: every hostname, the Shield zone and its rule present, no write refused", async () => {
    host = await ProviderHost.start({ project: SITE_PROJECT });
    const harness = new ProgramHarness({ project: SITE_PROJECT, config: siteConfig(emu), secretConfig: SITE_SECRET_CONFIG, providerHost: host });
    const run = await harness.up(site);
    const ids = Object.fromEntries(harness.resources().map((r) => [r.name, r.id]));
    assert.ok((await hostnamesOf(ids.cdn)).includes("www.site.example"));
    assert.deepEqual(await ruleNamesOf(run.outputs.shieldZoneId), [harness.resources().find((r) => r.name === "api-limit")?.outputs.name]);
    assert.equal(await writesRefused(), 0);
    await harness.destroy();
    assert.equal(await writesRefused(), 0);
  });

  it("the quickstart: every hostname and rule present, no write refused", async () => {
    host = await ProviderHost.start({ project: QUICKSTART_PROJECT });
    const harness = new ProgramHarness({ project: QUICKSTART_PROJECT, config: await quickstartConfig(emu), secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
    await harness.up(quickstart);
    const declared = (type: string) => harness.resources().filter((r) => r.type.endsWith(`:${type}`));
    for (const hostname of declared("PullZoneHostname")) {
      assert.ok((await hostnamesOf(String(hostname.outputs.pullZoneId))).includes(String(hostname.outputs.hostname)), String(hostname.outputs.hostname));
    }
    for (const rule of declared("RateLimitRule")) assert.ok((await ruleNamesOf(rule.outputs.shieldZoneId)).includes(String(rule.outputs.name)));
    assert.ok(declared("PullZoneHostname").length > 0 && declared("RateLimitRule").length > 0);
    assert.equal(await writesRefused(), 0);
    await harness.destroy();
    assert.equal(await writesRefused(), 0);
  });
});

describe("pulumi: two stacks creating the same rate-limit rule names at once", function () {
  let emu: TestEmulator;
  const hosts: ProviderHost[] = [];
  const NAMES = Array.from({ length: 10 }, (_, i) => `race ${i}`);

  before(async () => {
    emu = await startEmulator();
  });
  after(async () => {
    for (const host of hosts) await host.stop();
    await emu?.stop();
  });

  /**
   * Two stacks, each in its own provider process, deploying the same ten rule names into a new zone at once: the first
   * through the kit's ProgramHarness, the second as its engine would drive its own plugin (Check, then Create, ten at
   * once). The kit runs one command at a time in a process (emulator/testing/pulumiRuntime.ts), so a second harness
   * could not overlap the first; the second stack's plugin is driven directly instead, as another deployment's
   * engine does.
   */
  async function race(zoneName: string, adoptExisting: boolean) {
    // A zone of its own on the Enterprise plan: room for both stacks' rules while they race.
    const client = emu.client();
    const pullZone = await client.pullZones.createPullZone({ Name: zoneName, OriginUrl: "https://origin.race.example" });
    const shieldZoneId = (await client.shieldZones.create({ pullZoneId: pullZone.Id, shieldZone: { planType: 3 } })).shieldZoneId;
    // The first creates held back for a second (latency comes before the route acts): both stacks look every name up
    // before either stack's first rule exists, as two CI jobs starting together can.
    await emu.faults({ rules: [{ method: "POST", path: "^/shield/rate-limit$", latencyMs: 1_000, times: 2 }] });

    const ruleInputs = (name: string) => ({
      shieldZoneId,
      name,
      adoptExisting,
      configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/api", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" } as const,
    });
    const program = () => {
      for (const [i, name] of NAMES.entries()) new bunnynet.RateLimitRule(`rule-${i}`, ruleInputs(name));
    };
    // Each host names its stack in the URNs it sends, as each stack's engine does: two stacks, two owners' marks.
    const [firstHost, secondHost] = await Promise.all([ProviderHost.start({ stack: "first" }), ProviderHost.start({ stack: "second" })]);
    hosts.push(firstHost, secondHost);
    const first = new ProgramHarness({ stack: "first", config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: firstHost });
    await secondHost.configure({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url });
    const secondHeld: { id: string; name: string }[] = [];
    const secondStack = Promise.allSettled(
      NAMES.map(async (name, i) => {
        const checked = await secondHost.check("RateLimitRule", {}, ruleInputs(name), `rule-${i}`);
        const created = await secondHost.create("RateLimitRule", checked.inputs, `rule-${i}`);
        secondHeld.push({ id: created.id, name: String(created.outputs.name) });
      }),
    );
    const [firstOutcome, secondOutcomes] = await Promise.all([first.up(program).then(() => undefined, (e: unknown) => e), secondStack]);
    await emu.clearFaults();
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    const rules = (await client.shield.findRateLimits(shieldZoneId, () => true)).map((r) => ({ id: String(r.id), name: String(r.ruleName) })).sort(byName);
    const held = [first.resources().map((r) => ({ id: r.id, name: String(r.outputs.name) })), secondHeld].map((h) => h.sort(byName));
    const failures = [
      ...(firstOutcome === undefined ? [] : ((firstOutcome as { errors?: Error[] }).errors ?? [firstOutcome as Error])),
      ...secondOutcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as Error] : [])),
    ];
    return { rules, held, failures };
  }

  it("leave one rule per name, and the stack whose rule yielded says it exists and how to adopt it", async () => {
    const { rules, held, failures } = await race("race-zone", false);
    assert.deepEqual(rules.map((r) => r.name), [...NAMES].sort(), "one rule per name");
    // Each rule is in exactly one stack's state, with the rule's id.
    assert.deepEqual(held.flat().sort((a, b) => a.name.localeCompare(b.name)), rules);

    // Whichever stack's creates yielded failed, each naming the rule that stays and adoptExisting.
    assert.equal(failures.length, NAMES.length, failures.map((e) => e.message).join("\n"));
    for (const e of failures) assert.match(e.message, /RateLimitRule shieldZoneId=\d+, name="race \d" already exists \(id \d+\) and was made by another stack or resource .*To manage it with this resource, set adoptExisting: true/);
    assert.ok(failures.some((e) => /another deployment created it at the same time as this one/.test(e.message)), "the race happened: both stacks created, and one yielded");
  });

  it("with adoptExisting, the stack whose rule yielded adopts the other: one rule per name, held by both stacks", async () => {
    const { rules, held, failures } = await race("race-adopting-zone", true);
    assert.deepEqual(failures, []);
    assert.deepEqual(rules.map((r) => r.name), [...NAMES].sort(), "one rule per name");
    assert.deepEqual(held, [rules, rules]);
  });
});
