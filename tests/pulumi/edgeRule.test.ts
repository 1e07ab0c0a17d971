import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { type ProviderHost, UNKNOWN_VALUE, named, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { CachePurge } from "bunnynet-pulumi/dist/resources/cachePurge.js";
import { EdgeRule } from "bunnynet-pulumi/dist/resources/edgeRule.js";
import { ownerMark, unmarked } from "bunnynet-pulumi/dist/pulumi/ownership.js";
import { PullZone } from "bunnynet-pulumi/dist/resources/pullZone.js";

const PROJECT = "edge-rules";
const RULE = "pulumi-nodejs:dynamic/bunnynet:EdgeRule";

/**
 * Issue 26's check for a pull zone's edge: five edge rules (a redirect, a header, a country block, several actions in
 * one rule, and an explicit order) and a cache purge keyed on the content, through the SDK's real provider host
 * against a fresh emulator. What the API holds is read with the documented GET, not with our client.
 */
describe("pulumi: a pull zone's edge rules and cache purge (EdgeRule, CachePurge)", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    // bunny.net loses overlapping writes to one pull zone (Terraform provider #64, #6): the five rules, written at the
    // engine's parallelism, must all land anyway.
    await emu.faults({ loseConcurrentWrites: true });
    harness = new ProgramHarness({
      project: PROJECT,
      config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url },
      secretConfig: ["bunnynet:apiKey"],
      // A plugin process per command, as the engine starts them: each refresh reads afresh.
      hostPerCommand: {},
    });
  });
  after(() => emu?.stop());

  /** The program: `order` gives each rule's priority by description; `content` stands for the site's files. */
  const program =
    (order: Record<string, number>, content = "v1") =>
    () => {
      const cdn = new PullZone("cdn", { name: "edge-rules-cdn", origin: { url: "https://origin.site.example" } });
      const pullZoneId = cdn.pullZoneId;
      new EdgeRule("redirect", {
        pullZoneId,
        description: "old host",
        priority: order["old host"],
        actions: [{ type: "Redirect", parameters: ["https://www.site.example%{Url.Path}", "301"] }],
        triggers: [{ type: "Url", patterns: ["https://old.site.example/*"] }],
      });
      new EdgeRule("hsts", {
        pullZoneId,
        description: "hsts",
        priority: order.hsts,
        actions: [{ type: "SetResponseHeader", parameters: ["Strict-Transport-Security", "max-age=31536000"] }],
        triggers: [{ type: "Url", patterns: ["*"] }],
      });
      new EdgeRule("block", {
        pullZoneId,
        description: "blocked countries",
        priority: order["blocked countries"],
        actions: [{ type: 4 }],
        triggers: [{ type: "CountryCode", patterns: ["KP", "CU"] }],
      });
      new EdgeRule("security-headers", {
        pullZoneId,
        description: "security headers",
        priority: order["security headers"],
        actions: [
          { type: "SetResponseHeader", parameters: ["X-Frame-Options", "DENY"] },
          { type: "SetResponseHeader", parameters: ["X-Content-Type-Options", "nosniff"] },
          { type: "OverrideCacheTime", parameters: ["3600"] },
        ],
        triggers: [{ type: "UrlExtension", patterns: ["html", "htm"] }],
        triggerMatchingType: "MatchAny",
      });
      new EdgeRule("admin", {
        pullZoneId,
        description: "admin",
        priority: order.admin,
        enabled: false,
        actions: [{ type: "BlockRequest" }],
        triggers: [
          { type: "Url", patterns: ["*/admin/*"] },
          { type: "RequestHeader", parameters: ["X-Admin"], patterns: ["yes"], matchType: "MatchNone" },
        ],
        triggerMatchingType: "MatchAll",
      });
      const purge = new CachePurge("purge", { pullZoneId, triggers: { content: pulumi.output(content) } });
      return { pullZoneId, purgedAt: purge.purgedAt };
    };

  const ORDER = { "old host": 1, hsts: 2, "blocked countries": 3, "security headers": 4, admin: 5 };
  const SWAPPED = { ...ORDER, "old host": 2, hsts: 1 };

  async function zone(): Promise<Record<string, unknown> | undefined> {
    const id = harness.resources().find((r) => r.name === "cdn")?.id;
    const res = await fetch(`${emu.url}/pullzone/${id}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    if (res.status === 404) return undefined;
    return (await res.json()) as Record<string, unknown>;
  }
  /** The rules' descriptions in order, each without the owner's mark it must end with (pulumi/ownership.ts). */
  const ruleOrder = async () =>
    ((await zone())?.EdgeRules as { Description: string }[]).map((r) => {
      const { text, mark } = unmarked(r.Description);
      assert.match(String(mark), /^\[pulumi:[0-9a-f]{12}\]$/, `${r.Description} carries its resource's mark`);
      return text;
    });
  const purges = async () => (await emu.requests()).filter((r) => r.method === "POST" && r.route === "/pullzone/:id/purgeCache").length;

  it("one up creates the five rules in the order of their priorities, and purges once", async () => {
    await emu.markRequests();
    const run = await harness.up(program(ORDER));
    assert.deepEqual(run.steps.map((s) => s.op), Array(7).fill("create"));
    assert.deepEqual(await ruleOrder(), ["old host", "hsts", "blocked countries", "security headers", "admin"]);
    const rules = (await zone())?.EdgeRules as Record<string, unknown>[];
    const headers = rules.find((r) => unmarked(r.Description as string).text === "security headers")!;
    assert.deepEqual([headers.ActionType, (headers.ExtraActions as unknown[]).length], [5, 2]);
    const admin = rules.find((r) => unmarked(r.Description as string).text === "admin")!;
    assert.deepEqual([admin.Enabled, admin.TriggerMatchingType, (admin.Triggers as { Parameter1: string }[])[1].Parameter1], [false, 1, "X-Admin"]);
    assert.equal(await purges(), 1);
  });

  it("an unchanged up makes no API call", async () => {
    await emu.markRequests();
    const run = await harness.up(program(ORDER));
    assert.deepEqual(run.steps.map((s) => s.op), Array(7).fill("same"));
    assert.deepEqual(await emu.requests(), []);
  });

  it("swapping two priorities updates those two rules in place; refresh then finds no drift", async () => {
    const ids = harness.resources().map((r) => r.id);
    const run = await harness.up(program(SWAPPED));
    const changed = run.steps.filter((s) => s.op !== "same").map((s) => `${s.urn.split("::").pop()} ${s.op}`);
    assert.deepEqual(changed.sort(), ["hsts update", "redirect update"]);
    assert.deepEqual(harness.resources().map((r) => r.id), ids);
    assert.deepEqual(await ruleOrder(), ["hsts", "old host", "blocked countries", "security headers", "admin"]);
    const before = JSON.stringify(harness.resources());
    await harness.refresh();
    assert.equal(JSON.stringify(harness.resources()), before);
    const preview = await harness.preview(program(SWAPPED));
    assert.deepEqual(preview.steps.map((s) => s.op), Array(7).fill("same"));
  });

  it("refresh shows a rule changed outside the program, and up puts it back", async () => {
    const id = harness.resource(RULE, "hsts")!.id;
    const zoneId = harness.resources().find((r) => r.name === "cdn")!.id;
    await emu.client().pullZones.setEdgeRuleEnabled(Number(zoneId), id, false);
    await harness.refresh();
    assert.equal(harness.resource(RULE, "hsts")!.outputs.enabled, false);
    const run = await harness.up(program(SWAPPED));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => s.op), ["update"]);
    assert.equal(((await zone())?.EdgeRules as { Guid: string; Enabled: boolean }[]).find((r) => r.Guid === id)?.Enabled, true);
  });

  it("CachePurge purges again exactly when its triggers change", async () => {
    await emu.markRequests();
    await harness.up(program(SWAPPED, "v1"));
    assert.equal(await purges(), 0);
    const run = await harness.up(program(SWAPPED, "v2"));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => `${s.urn.split("::").pop()} ${s.op}`), ["purge replace"]);
    assert.equal(await purges(), 1);
  });

  it("destroy leaves nothing", async () => {
    const id = harness.resources().find((r) => r.name === "cdn")!.id;
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    const res = await fetch(`${emu.url}/pullzone/${id}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(res.status, 404);
  });

  it("rules whose pull zone was deleted outside the program are already gone: refresh drops them, destroy succeeds", async () => {
    await harness.up(program(ORDER));
    const id = Number(harness.resources().find((r) => r.name === "cdn")!.id);
    await emu.client().pullZones.deletePullZone(id);
    await harness.refresh();
    assert.deepEqual(harness.resources().filter((r) => r.type === RULE), []);
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
  });

  it("a rule found at create is taken without adoptExisting only when it carries this resource's mark (issue 42)", async () => {
    const client = emu.client().pullZones;
    const zone = await client.createPullZone({ Name: "edge-adopt", OriginUrl: "https://origin.site.example" });
    const urn = "urn:pulumi:test::edge-rules::pulumi-nodejs:dynamic/bunnynet:EdgeRule::by-hand";
    const rule = (Description: string, OrderIndex = 7) =>
      client.addOrUpdateEdgeRule(zone.Id, { ActionType: 4, Triggers: [{ Type: 4, PatternMatches: ["KP"], PatternMatchingType: 0, Parameter1: "" }], TriggerMatchingType: 0, Description, Enabled: true, OrderIndex });
    const declared = (priority: number, adoptExisting = false) => () => {
      new EdgeRule("by-hand", { pullZoneId: zone.Id, description: "made by hand", priority, adoptExisting, actions: [{ type: "BlockRequest" }], triggers: [{ type: "CountryCode", patterns: ["KP"] }] });
    };
    // Identical, but made by hand (no mark): refused, with the command that takes it over.
    const byHand = await rule("made by hand");
    await emu.markRequests();
    const refusal = await harness.up(declared(7)).then(
      () => assert.fail("taken without proof"),
      (e: Error) => e.message,
    );
    assert.match(refusal, /carries no mark of this resource's/);
    assert.ok(refusal.includes(`BUNNYNET_ADOPT='${urn}=${byHand.Guid}' pulumi up`), refusal);
    assert.ok(!(await emu.requests()).some((r) => r.route.endsWith("/addOrUpdate")), "nothing was created");
    await assert.rejects(harness.up(declared(8, true)), /already exists .*but differs from the inputs in: priority/s);
    await client.deleteEdgeRule(zone.Id, byHand.Guid);
    // Another stack's (its resource of the same name has another URN): refused even with the same description.
    const theirs = await rule(`made by hand ${ownerMark(urn.replace("urn:pulumi:test::", "urn:pulumi:production::"))}`);
    await assert.rejects(harness.up(declared(7)), /made by another stack or resource/);
    await client.deleteEdgeRule(zone.Id, theirs.Guid);
    // This resource's own (a create an up cut off): taken back, and the priority that differs set in place.
    const own = await rule(`made by hand ${ownerMark(urn)}`, 3);
    await emu.markRequests();
    await harness.up(declared(7));
    assert.equal(harness.resource(RULE, "by-hand")!.id, own.Guid);
    assert.deepEqual((await emu.requests()).filter((r) => r.route.endsWith("/addOrUpdate")).length, 1, "one update, no create");
    assert.equal((await client.listEdgeRules(zone.Id))[0].OrderIndex, 7);
    await harness.destroy();
    assert.deepEqual(await client.listEdgeRules(zone.Id), []);
  });

  it("a secret parameter (a credential for the origin) keeps the rule's actions secret in the state", async () => {
    const client = emu.client().pullZones;
    const zone = await client.createPullZone({ Name: "edge-secret", OriginUrl: "https://origin.site.example" });
    const token = "Bearer origin-credential-1234";
    await harness.up(() => {
      new EdgeRule("origin-auth", {
        pullZoneId: zone.Id,
        actions: [{ type: "SetRequestHeader", parameters: ["Authorization", pulumi.secret(token)] }],
        triggers: [{ type: "Url", patterns: ["*"] }],
      });
    });
    const stored = harness.resource(RULE, "origin-auth")!;
    assert.ok(stored.secretKeys.includes("actions"), JSON.stringify(stored.secretKeys));
    assert.equal((await client.listEdgeRules(zone.Id))[0].ActionParameter2, token);
    await harness.destroy();
  });
});

/** Check at preview, where some values are not known yet (Terraform's issues #18 and #23): what is known is still judged. */
describe("pulumi: EdgeRule's check around values not known yet", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));

  const check = async (news: Record<string, unknown>) => (await host.check("EdgeRule", {}, news)).failures.map(named);
  const triggers = [{ type: "Url", patterns: ["*"] }];

  it("an unknown redirect URL or pull zone is not judged; the known status code still is", async () => {
    await emu.markRequests();
    assert.deepEqual(await check({ pullZoneId: UNKNOWN_VALUE, actions: [{ type: "Redirect", parameters: [UNKNOWN_VALUE, "301"] }], triggers }), []);
    const failures = await check({ pullZoneId: UNKNOWN_VALUE, actions: [{ type: "Redirect", parameters: [UNKNOWN_VALUE, "200"] }], triggers });
    assert.deepEqual(failures.map((f) => f.property), ["actions.0.parameters.1"]);
    assert.deepEqual(await emu.requests(), [], "no API call");
  });

  it("an unknown action type judges none of its parameters; unknown patterns and parameter lists are not judged", async () => {
    assert.deepEqual(await check({ pullZoneId: 1, actions: [{ type: UNKNOWN_VALUE, parameters: ["not a header:", "x"] }], triggers }), []);
    assert.deepEqual(await check({ pullZoneId: 1, actions: [{ type: "Redirect", parameters: UNKNOWN_VALUE }], triggers: [{ type: "CountryCode", patterns: [UNKNOWN_VALUE, "DE"] }] }), []);
    assert.deepEqual(await check({ pullZoneId: 1, actions: UNKNOWN_VALUE, triggers: [{ type: "RequestHeader", patterns: ["1"], parameters: [UNKNOWN_VALUE] }] }), []);
    const failures = await check({ pullZoneId: 1, actions: [{ type: "BlockRequest" }], triggers: [{ type: "CountryCode", patterns: [UNKNOWN_VALUE, "Germany"] }] });
    assert.deepEqual(failures.map((f) => f.property), ["triggers.0.patterns.1"]);
  });

  it("types by name in any case or by number are stored by name, with the defaults", async () => {
    const res = await host.check("EdgeRule", {}, { pullZoneId: "7", actions: [{ type: "redirect", parameters: ["https://a.example", "302", ""] }], triggers: [{ type: 4, patterns: ["DE"] }] });
    assert.deepEqual(res.failures, []);
    assert.deepEqual(res.inputs, {
      pullZoneId: 7,
      actions: [{ type: "Redirect", parameters: ["https://a.example", "302"] }],
      triggers: [{ type: "CountryCode", patterns: ["DE"], matchType: "MatchAny" }],
      triggerMatchingType: "MatchAny",
      enabled: true,
      priority: 0,
      adoptExisting: false,
    });
  });
});
