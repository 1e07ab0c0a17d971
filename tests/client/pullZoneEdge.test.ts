import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { InvalidRequestError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import type { EdgeRuleRequest } from "bunnynet-pulumi/dist/types.generated.js";

/** A pull zone's edge over HTTP: edge rules, optimizer classes, purges and the CDN's regions, client against emulator. */
describe("client: a pull zone's edge rules, optimizer classes, purges and regions", () => {
  let emu: TestEmulator;
  let zoneId: number;

  before(async () => {
    emu = await startEmulator();
    zoneId = (await emu.client().pullZones.createPullZone({ Name: "edge-client", OriginUrl: "https://origin.example.com" })).Id;
  });
  after(() => emu.stop());

  const rule = (changes: Partial<EdgeRuleRequest> = {}): EdgeRuleRequest => ({
    ActionType: 4,
    Triggers: [{ Type: 4, PatternMatches: ["KP"], PatternMatchingType: 0 }],
    TriggerMatchingType: 0,
    Enabled: true,
    OrderIndex: 0,
    ...changes,
  });
  /** A raw core call, to send what the client itself would refuse. */
  const raw = (method: string, path: string, body?: unknown) =>
    fetch(`${emu.url}${path}`, { method, headers: { AccessKey: emu.fixtures.accessKey, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

  it("adds rules (201 with the rule and a new Guid) and lists them by OrderIndex, equal ones in the order added", async () => {
    const client = emu.client().pullZones;
    const late = await client.addOrUpdateEdgeRule(zoneId, rule({ Description: "late", OrderIndex: 5 }));
    const first = await client.addOrUpdateEdgeRule(zoneId, rule({ Description: "first", OrderIndex: 1 }));
    const tie = await client.addOrUpdateEdgeRule(zoneId, rule({ Description: "tie", OrderIndex: 1, ExtraActions: [{ ActionType: 5, ActionParameter1: "X-A", ActionParameter2: "b" }] }));
    assert.match(late.Guid, /^[0-9a-f-]{36}$/);
    assert.notEqual(late.Guid, first.Guid);
    assert.deepEqual(tie.ExtraActions, [{ ActionType: 5, ActionParameter1: "X-A", ActionParameter2: "b", ActionParameter3: "" }]);
    assert.deepEqual((await client.listEdgeRules(zoneId)).map((r) => r.Description), ["first", "tie", "late"]);
  });

  it("an update with the Guid replaces the whole rule; setEdgeRuleEnabled toggles it; delete removes it", async () => {
    const client = emu.client().pullZones;
    const [first] = await client.listEdgeRules(zoneId);
    const updated = await client.addOrUpdateEdgeRule(zoneId, rule({ Guid: first.Guid, Description: "first, later", OrderIndex: 9, ActionType: 1, ActionParameter1: "https://a.example", ActionParameter2: "301" }));
    assert.deepEqual([updated.Guid, updated.ActionType, updated.OrderIndex], [first.Guid, 1, 9]);
    assert.equal((await client.listEdgeRules(zoneId)).at(-1)?.Guid, first.Guid);
    await client.setEdgeRuleEnabled(zoneId, first.Guid, false);
    assert.equal((await client.listEdgeRules(zoneId)).find((r) => r.Guid === first.Guid)?.Enabled, false);
    await client.deleteEdgeRule(zoneId, first.Guid);
    assert.ok(!(await client.listEdgeRules(zoneId)).some((r) => r.Guid === first.Guid));
    await assert.rejects(client.deleteEdgeRule(zoneId, first.Guid), NotFoundError);
    await assert.rejects(client.addOrUpdateEdgeRule(zoneId, rule({ Guid: first.Guid })), NotFoundError);
    await assert.rejects(client.addOrUpdateEdgeRule(999_999, rule()), NotFoundError);
  });

  it("the emulator refuses what the document does not allow, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ ...rule(), ActionType: 35 }, "ActionType"],
      [{ ...rule(), TriggerMatchingType: 3 }, "TriggerMatchingType"],
      [{ ...rule(), Triggers: [{ Type: 14, PatternMatches: ["x"] }] }, "Triggers[0].Type"],
      [{ ...rule(), Triggers: [{ Type: 0, PatternMatches: [] }] }, "Triggers[0].PatternMatches"],
      [{ ...rule(), ExtraActions: [{ ActionType: "Redirect" }] }, "ExtraActions[0].ActionType"],
      [{ ...rule(), OrderIndex: -1 }, "OrderIndex"],
    ];
    for (const [body, field] of cases) {
      const res = await raw("POST", `/pullzone/${zoneId}/edgerules/addOrUpdate`, body);
      assert.equal(res.status, 400, field);
      assert.equal(((await res.json()) as { Field: string }).Field, field);
    }
    // The client refuses it before sending.
    await assert.rejects(emu.client().pullZones.addOrUpdateEdgeRule(zoneId, { ...rule(), TriggerMatchingType: 3 }), (e: unknown) => e instanceof InvalidRequestError && /not sent: TriggerMatchingType/.test(e.message));
  });

  it("optimizer classes are the zone's list: replaced whole by an update, names unique, kept with the zone", async () => {
    const client = emu.client().pullZones;
    const zone = await client.updatePullZone(zoneId, { OptimizerClasses: [{ Name: "thumb", Properties: { width: "320" } }, { Name: "hero", Properties: { quality: "90" } }] });
    assert.deepEqual(zone.OptimizerClasses.map((c) => c.Name), ["thumb", "hero"]);
    assert.deepEqual((await client.updatePullZone(zoneId, { EnableTLS1: false })).OptimizerClasses.length, 2);
    for (const classes of [[{ Name: "a", Properties: {} }, { Name: "A", Properties: {} }], [{ Name: "with space", Properties: {} }], [{ Name: "n", Properties: { width: 3 } }]]) {
      const res = await raw("POST", `/pullzone/${zoneId}`, { OptimizerClasses: classes });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { Field: string }).Field, "OptimizerClasses");
    }
  });

  it("purges a zone (whole, or one tag) and a URL; an unknown zone is 404, a URL without a scheme 400", async () => {
    const client = emu.client().pullZones;
    await emu.markRequests();
    await client.purgeCache(zoneId);
    await client.purgeCache(zoneId, "css");
    await client.purgeUrl("https://edge-client.b-cdn.net/app.css", { exactPath: true });
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`), ["POST /pullzone/:id/purgeCache 204", "POST /pullzone/:id/purgeCache 204", "POST /purge 200"]);
    await assert.rejects(client.purgeCache(999_999), NotFoundError);
    await assert.rejects(client.purgeUrl("edge-client.b-cdn.net/app.css"), ValidationError);
  });

  it("lists the CDN's regions", async () => {
    const regions = await emu.client().pullZones.listCdnRegions();
    assert.ok(regions.length >= 5);
    // Codes of two or three letters, as the API names them (LJ, SYD: emulator/surfaces/pullZones/edge.ts).
    assert.ok(regions.every((r) => /^[A-Z]{2,3}$/.test(r.RegionCode) && r.PricePerGigabyte > 0));
  });

  it("deleting the zone deletes its rules and classes with it", async () => {
    const client = emu.client().pullZones;
    const zone = await client.createPullZone({ Name: "edge-cascade", OriginUrl: "https://origin.example.com" });
    const added = await client.addOrUpdateEdgeRule(zone.Id, rule());
    await client.updatePullZone(zone.Id, { OptimizerClasses: [{ Name: "thumb", Properties: {} }] });
    await client.deletePullZone(zone.Id);
    await assert.rejects(client.deleteEdgeRule(zone.Id, added.Guid), NotFoundError);
    await assert.rejects(client.listEdgeRules(zone.Id), NotFoundError);
  });
});
