import assert from "node:assert/strict";
import { request } from "undici";
import { ForbiddenError, InvalidRequestError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { putPullZone, removePullZone } from "../support/pullZoneRecords";

const CONDITION = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" };

describe("client: Shield custom WAF rules and access lists against the emulator", function () {
  let emu: TestEmulator;
  let counter = 0;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu?.stop());

  /** A fresh pull zone with a Shield zone on `planType`. */
  async function shieldZone(planType: "Basic" | "Advanced" = "Advanced"): Promise<{ pullZoneId: number; shieldZoneId: number }> {
    const pullZoneId = putPullZone(emu, `protected-${++counter}`);
    return { pullZoneId, shieldZoneId: (await emu.client().shieldZones.create({ pullZoneId, shieldZone: { planType } })).shieldZoneId };
  }

  /** Sends a body as it is (no client check), with the account key. */
  async function raw(method: "POST" | "PATCH", path: string, body: unknown) {
    const res = await request(`${emu.url}${path}`, { method, headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.statusCode, body: (await res.body.json()) as { error?: { errorKey?: string; message?: string } } };
  }

  describe("WAF rules", () => {
    it("create, get, list, update (the whole rule) and delete; already gone is false", async () => {
      const { shieldZoneId } = await shieldZone();
      const wafRules = emu.client().wafRules;
      const rule = await wafRules.create({ shieldZoneId, ruleName: "admin", ruleConfiguration: { actionType: "Block", ...CONDITION, chainedRuleConditions: [{ variableTypes: { GEO: "" }, operatorType: "STREQ", value: "DE", isNegated: true }] } });
      assert.equal(rule.shieldZoneId, shieldZoneId);
      assert.equal(rule.ruleConfiguration?.actionType, 1);
      assert.deepEqual(rule.ruleConfiguration?.chainedRuleConditions?.map((c) => c.value), ["DE"]);
      assert.deepEqual(await wafRules.get(rule.id), rule);
      assert.deepEqual((await wafRules.listPage(shieldZoneId)).data.map((r) => r.id), [rule.id]);
      const updated = await wafRules.update(rule.id, { ruleName: "admin 2", ruleConfiguration: { actionType: "Log", ...CONDITION } });
      assert.equal(updated.ruleName, "admin 2");
      assert.equal(updated.ruleDescription, "", "a description left out is removed");
      assert.deepEqual(updated.ruleConfiguration?.chainedRuleConditions, []);
      assert.equal(await wafRules.delete(rule.id), true);
      assert.equal(await wafRules.delete(rule.id), false);
      await assert.rejects(wafRules.get(rule.id), NotFoundError);
    });

    it("pages through a zone's rules (perPage bound)", async () => {
      const { shieldZoneId } = await shieldZone();
      for (let i = 0; i < 5; i++) await emu.client().wafRules.create({ shieldZoneId, ruleName: `r${i}`, ruleConfiguration: { actionType: "Block", ...CONDITION } });
      const page = await emu.client().wafRules.listPage(shieldZoneId, { perPage: 2, page: 3 });
      assert.deepEqual([page.data.map((r) => r.ruleName), page.page.totalPages], [["r4"], 3]);
      const all: string[] = [];
      for await (const r of emu.client().wafRules.list(shieldZoneId, { perPage: 2 })) all.push(r.ruleName ?? "");
      assert.deepEqual(all, ["r0", "r1", "r2", "r3", "r4"]);
    });

    it("bad input is refused by the client naming the field, before a call; the emulator refuses it too (400 naming it)", async () => {
      const { shieldZoneId } = await shieldZone();
      await emu.markRequests();
      await assert.rejects(
        emu.client().wafRules.create({ shieldZoneId, ruleName: "x", ruleConfiguration: { actionType: "RateLimit" as "Block", ...CONDITION } }),
        (e: unknown) => e instanceof InvalidRequestError && /ruleConfiguration\.actionType/.test(e.message),
      );
      assert.deepEqual(await emu.requests(), []);
      const sent = await raw("POST", "/shield/waf/custom-rule", { shieldZoneId, ruleName: "x", ruleConfiguration: { actionType: 9, ...CONDITION, operatorType: 0 } });
      assert.equal(sent.status, 400);
      assert.match(sent.body.error?.message ?? "", /ruleConfiguration\.actionType: must be one of 1 \(Block\)/);
    });

    it("an unknown zone is NotFoundError (202 envelope); a Basic zone allows no custom rule (ForbiddenError)", async () => {
      await assert.rejects(emu.client().wafRules.create({ shieldZoneId: 987654, ruleName: "x", ruleConfiguration: { actionType: "Block", ...CONDITION } }), NotFoundError);
      const { shieldZoneId } = await shieldZone("Basic");
      await assert.rejects(emu.client().wafRules.create({ shieldZoneId, ruleName: "x", ruleConfiguration: { actionType: "Block", ...CONDITION } }), (e: unknown) => e instanceof ForbiddenError && /plan_limit_restriction\.waf_rule/.test(e.message));
    });

    it("deleting the pull zone takes the Shield zone's rules: get is NotFoundError, delete is false", async () => {
      const { pullZoneId, shieldZoneId } = await shieldZone();
      const rule = await emu.client().wafRules.create({ shieldZoneId, ruleName: "gone", ruleConfiguration: { actionType: "Block", ...CONDITION } });
      removePullZone(emu, pullZoneId);
      await assert.rejects(emu.client().wafRules.get(rule.id), NotFoundError);
      assert.equal(await emu.client().wafRules.delete(rule.id), false);
    });
  });

  describe("access lists", () => {
    it("create, get, update, configure through the zone's listing, delete; already gone is false", async () => {
      const { shieldZoneId } = await shieldZone();
      const lists = emu.client().accessLists;
      const created = await lists.create(shieldZoneId, { name: "countries", type: "Country", content: "RU\nKP" });
      assert.deepEqual([created.content, created.entryCount, created.type], ["RU\nKP", 2, 3]);
      assert.deepEqual(await lists.get(shieldZoneId, created.id), created);
      const listed = (await lists.list(shieldZoneId, { fresh: true })).customLists.find((l) => l.listId === created.id)!;
      assert.deepEqual([listed.action, listed.isEnabled], [2, true]);
      await lists.configure(shieldZoneId, listed.configurationId, { action: "Challenge", isEnabled: false });
      const configured = (await lists.list(shieldZoneId, { fresh: true })).customLists.find((l) => l.listId === created.id)!;
      assert.deepEqual([configured.action, configured.isEnabled], [3, false]);
      const updated = await lists.update(shieldZoneId, created.id, { content: "IR" });
      assert.deepEqual([updated.name, updated.content], ["countries", "IR"]);
      assert.equal(await lists.delete(shieldZoneId, created.id), true);
      assert.equal(await lists.delete(shieldZoneId, created.id), false);
      await assert.rejects(lists.get(shieldZoneId, created.id), NotFoundError);
    });

    it("every zone lists the managed lists; configuring one changes only that zone", async () => {
      const a = await shieldZone();
      const b = await shieldZone();
      const lists = emu.client().accessLists;
      const tor = (await lists.list(a.shieldZoneId)).managedLists.find((l) => l.name === "Tor exit nodes")!;
      await lists.configure(a.shieldZoneId, tor.configurationId, { isEnabled: true, action: "Block" });
      const torIn = async (zone: number) => (await lists.list(zone, { fresh: true })).managedLists.find((l) => l.listId === tor.listId)!.isEnabled;
      assert.deepEqual([await torIn(a.shieldZoneId), await torIn(b.shieldZoneId)], [true, false]);
    });

    it("refuses a checksum that is not the content's SHA-256, and content with no entry, naming the field", async () => {
      const { shieldZoneId } = await shieldZone();
      const bad = await raw("POST", `/shield/shield-zone/${shieldZoneId}/access-lists`, { name: "x", type: 0, content: "192.0.2.1", checksum: "00" });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error?.message ?? "", /checksum/);
      await assert.rejects(emu.client().accessLists.create(shieldZoneId, { name: "x", type: "IP", content: "\n \n" }), (e: unknown) => e instanceof ValidationError && /content/.test(e.message));
      await assert.rejects(emu.client().accessLists.create(shieldZoneId, { name: "x", type: "Continent" as "IP", content: "EU" }), (e: unknown) => e instanceof InvalidRequestError && /type/.test(e.message));
    });

    it("refuses an entry that is not of the list's type (a country that is no ISO code, an address that is none), at create and update", async () => {
      const { shieldZoneId } = await shieldZone();
      const path = `/shield/shield-zone/${shieldZoneId}/access-lists`;
      const refusals = [
        { type: 3, content: "DE\nXX1", entry: "XX1" },
        { type: 3, content: "de", entry: "de" },
        { type: 0, content: "999.999.1.1", entry: "999.999.1.1" },
        { type: 1, content: "10.0.0.0/33", entry: "10.0.0.0/33" },
        { type: 2, content: "AS0", entry: "AS0" },
      ];
      for (const { type, content, entry } of refusals) {
        const bad = await raw("POST", path, { name: "x", type, content });
        assert.deepEqual([bad.status, bad.body.error?.errorKey], [400, "access_list.validation"], content);
        assert.ok(bad.body.error?.message?.includes(`content: "${entry}" is not`), bad.body.error?.message);
      }
      const list = await emu.client().accessLists.create(shieldZoneId, { name: "ok", type: "CIDR", content: "10.0.0.0/8\n2001:db8::/32" });
      const update = await raw("PATCH", `${path}/${list.id}`, { content: "192.0.2.1" });
      assert.deepEqual([update.status, update.body.error?.message], [400, 'The request is invalid. content: "192.0.2.1" is not a CIDR range']);
      const organisations = await emu.client().accessLists.create(shieldZoneId, { name: "orgs", type: "Organization", content: "Example Corp, Inc." });
      assert.equal(organisations.entryCount, 1, "an organisation's name is taken as written");
    });

    it("beyond the plan's lists is ForbiddenError; an unknown zone NotFoundError; a zone gone with its pull zone takes its lists", async () => {
      const { pullZoneId, shieldZoneId } = await shieldZone("Basic");
      const lists = emu.client().accessLists;
      const first = await lists.create(shieldZoneId, { name: "one", type: "IP", content: "192.0.2.1" });
      await assert.rejects(lists.create(shieldZoneId, { name: "two", type: "IP", content: "192.0.2.2" }), (e: unknown) => e instanceof ForbiddenError && /plan_limit_restriction\.access_list/.test(e.message));
      await assert.rejects(lists.create(987654, { name: "x", type: "IP", content: "192.0.2.3" }), NotFoundError);
      removePullZone(emu, pullZoneId);
      await assert.rejects(lists.list(shieldZoneId), NotFoundError);
      assert.equal(await lists.delete(shieldZoneId, first.id), false);
    });
  });
});
