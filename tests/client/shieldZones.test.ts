import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { putPullZone, removePullZone } from "../support/pullZoneRecords";
import { AlreadyExistsError, InvalidRequestError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: Shield zones (create, update, get) against the emulator", function () {
  let emu: TestEmulator;
  let counter = 0;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu?.stop());
  const client = () => emu.client().shieldZones;
  const pullZone = () => putPullZone(emu, `shielded-${++counter}`);

  it("creates a zone with settings by name, reads it back (one POST, one GET), by id and by pull zone", async () => {
    const pullZoneId = pullZone();
    await emu.markRequests();
    const zone = await client().create({ pullZoneId, shieldZone: { planType: "Advanced", wafExecutionMode: "Log", dDoSShieldSensitivity: "High", wafDisabledRules: ["920100"] } });
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`), ["POST /shield/shield-zone 200", "GET /shield/shield-zone/:shieldZoneId 200"]);
    assert.equal(zone.pullZoneId, pullZoneId);
    assert.equal(zone.planType, 1);
    assert.equal(zone.wafExecutionMode, 0);
    assert.equal(zone.dDoSShieldSensitivity, 3);
    assert.deepEqual(zone.wafDisabledRules, ["920100"]);
    assert.equal(zone.rateLimitRulesLimit, 10);
    assert.deepEqual(await client().get(zone.shieldZoneId), zone);
    assert.deepEqual(await client().getByPullZone(pullZoneId), zone);
  });

  it("a second zone for the same pull zone is AlreadyExistsError (409); findByPullZone finds the first", async () => {
    const pullZoneId = pullZone();
    const first = await client().create({ pullZoneId });
    await assert.rejects(client().create({ pullZoneId }), AlreadyExistsError);
    assert.equal((await client().findByPullZone(pullZoneId))?.shieldZoneId, first.shieldZoneId);
  });

  it("a pull zone that does not exist is refused (400), and has no zone to find", async () => {
    await assert.rejects(client().create({ pullZoneId: 987654 }), (e: unknown) => e instanceof ValidationError && /not found/i.test(e.message));
    assert.equal(await client().findByPullZone(987654), undefined);
  });

  it("update changes only the settings given and answers the zone as it now is", async () => {
    const zone = await client().create({ pullZoneId: pullZone(), shieldZone: { wafEnabled: true, learningMode: true } });
    const updated = await client().update({ shieldZoneId: zone.shieldZoneId, shieldZone: { learningMode: false, whitelabelResponsePages: true, planType: 2 } });
    assert.equal(updated.learningMode, false);
    assert.equal(updated.wafEnabled, true);
    assert.equal(updated.whitelabelResponsePages, true);
    assert.equal(updated.rateLimitRulesLimit, 25, "the plan sets the rule limit");
  });

  it("bad input is refused before sending, naming the field", async () => {
    await emu.markRequests();
    await assert.rejects(client().create({ pullZoneId: 1, shieldZone: { planType: "Gold" as never } }), (e: unknown) => e instanceof InvalidRequestError && /shieldZone\.planType/.test(e.message));
    await assert.rejects(client().update({ shieldZoneId: 1, shieldZone: { wafDisabledRules: ["1", "1"] } }), (e: unknown) => e instanceof InvalidRequestError && /wafDisabledRules/.test(e.message));
    await assert.rejects(client().update({ shieldZoneId: 1, shieldZone: { wafEnable: true } as never }), InvalidRequestError);
    assert.deepEqual(await emu.requests(), []);
  });

  it("the server refuses what the document refuses (unknown properties, enums) on its own", async () => {
    const raw = async (method: string, body: unknown) => {
      const res = await fetch(`${emu.url}/shield/shield-zone`, { method, headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as { error?: { errorKey?: string; message?: string } } };
    };
    const unknown = await raw("POST", { pullZoneId: pullZone(), shieldZone: { wafEnable: true } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.json.error?.message ?? "", /shieldZone\.wafEnable/);
    const badEnum = await raw("PATCH", { shieldZoneId: 1, shieldZone: { dDoSShieldSensitivity: 9 } });
    assert.equal(badEnum.status, 400);
    assert.match(badEnum.json.error?.message ?? "", /dDoSShieldSensitivity/);
  });

  it("a zone whose pull zone was deleted is gone: get is NotFoundError, update is NotFoundError (Shield's 202 envelope)", async () => {
    const pullZoneId = pullZone();
    const zone = await client().create({ pullZoneId });
    removePullZone(emu, pullZoneId);
    await assert.rejects(client().get(zone.shieldZoneId), NotFoundError);
    await assert.rejects(client().update({ shieldZoneId: zone.shieldZoneId, shieldZone: { wafEnabled: false } }), NotFoundError);
    assert.equal(await client().findByPullZone(pullZoneId), undefined);
  });
});
