import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { InvalidRequestError, NotFoundError, ServerError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: edge scripts, their code and releases", () => {
  let emu: TestEmulator;
  let counter = 0;
  const unique = (prefix = "client-script") => `${prefix}-${++counter}`;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  it("creates a standalone script with its code and a linked pull zone; the key only through getScriptWithKey", async () => {
    const scripts = emu.client().edgeScripts;
    const name = unique();
    const created = await scripts.createScript({ Name: name, ScriptType: 1, Code: "export default {}", CreateLinkedPullZone: true, LinkedPullZoneName: `${name}-zone` });
    assert.equal(created.script.Name, name);
    assert.equal(created.script.ScriptType, 1);
    assert.equal(created.script.CurrentReleaseId, 0);
    assert.match(created.deploymentKey ?? "", /^[0-9a-f]{32}$/);
    assert.ok(!("DeploymentKey" in created.script));
    assert.deepEqual(
      created.script.LinkedPullZones.map((z) => [z.PullZoneName, z.DefaultHostname]),
      [[`${name}-zone`, `${name}-zone.b-cdn.net`]],
    );
    const zone = await emu.client().pullZones.getPullZone(created.script.LinkedPullZones[0].Id);
    assert.equal(zone.Name, `${name}-zone`);
    assert.equal((await scripts.getCode(created.script.Id)).Code, "export default {}");
    assert.ok(!("DeploymentKey" in (await scripts.getScript(created.script.Id))));
    assert.equal((await scripts.getScriptWithKey(created.script.Id)).deploymentKey, created.deploymentKey);
  });

  it("a middleware script has no linked pull zone; asking for one is refused by the emulator", async () => {
    const scripts = emu.client().edgeScripts;
    const created = await scripts.createScript({ Name: unique(), ScriptType: 2, Code: "x" });
    assert.deepEqual(created.script.LinkedPullZones, []);
    await assert.rejects(scripts.createScript({ Name: unique(), ScriptType: 2, CreateLinkedPullZone: true }), (e: unknown) => e instanceof ValidationError && e.field === "CreateLinkedPullZone");
  });

  it("uploads code, publishes releases with new ids, lists them newest first, and reads the live one", async () => {
    const scripts = emu.client().edgeScripts;
    const { script } = await scripts.createScript({ Name: unique(), ScriptType: 2, Code: "v1" });
    await assert.rejects(scripts.getActiveRelease(script.Id), NotFoundError);
    await scripts.publish(script.Id, "first");
    const first = await scripts.getActiveRelease(script.Id);
    assert.equal(first.Code, "v1");
    assert.equal(first.Status, 1);
    assert.equal(first.Note, "first");
    assert.match(first.Uuid, /^[0-9a-f-]{36}$/);
    assert.equal((await scripts.getScript(script.Id)).CurrentReleaseId, first.Id);

    await scripts.setCode(script.Id, "v2");
    assert.equal((await scripts.getCode(script.Id)).Code, "v2");
    assert.equal((await scripts.getActiveRelease(script.Id)).Code, "v1", "an upload is not live until published");
    await scripts.publish(script.Id);
    const second = await scripts.getActiveRelease(script.Id);
    assert.notEqual(second.Id, first.Id);
    assert.equal(second.Code, "v2");
    const releases = [];
    for await (const r of scripts.listReleases(script.Id, { perPage: 5 })) releases.push(r);
    assert.deepEqual(
      releases.map((r) => [r.Id, r.Status]),
      [
        [second.Id, 1],
        [first.Id, 0],
      ],
    );
  });

  it("publishing a script without code is refused", async () => {
    const scripts = emu.client().edgeScripts;
    const { script } = await scripts.createScript({ Name: unique(), ScriptType: 2 });
    assert.equal((await scripts.getCode(script.Id)).Code, "");
    await assert.rejects(scripts.publish(script.Id), (e: unknown) => e instanceof ValidationError && e.status === 400);
  });

  it("renames a script, lists and finds scripts by exact name", async () => {
    const scripts = emu.client().edgeScripts;
    const name = unique("findable");
    const { script } = await scripts.createScript({ Name: name, ScriptType: 2, Code: "x" });
    await scripts.createScript({ Name: `${name}-longer`, ScriptType: 2, Code: "x" });
    assert.deepEqual(
      (await scripts.findScriptsByName(name)).map((s) => s.Id),
      [script.Id],
    );
    const renamed = await scripts.updateScript(script.Id, { Name: `${name}-renamed` });
    assert.equal(renamed.Name, `${name}-renamed`);
    assert.deepEqual(await scripts.findScriptsByName(name), []);
    let all = 0;
    for await (const _ of scripts.listScripts({ perPage: 5 })) all++;
    assert.ok(all >= 5, `${all} scripts listed`);
  });

  it("delete keeps the linked pull zone (re-pointed) unless deleteLinkedPullZones; the script, its secrets and variables are then gone", async () => {
    const client = emu.client();
    const scripts = client.edgeScripts;
    const kept = await scripts.createScript({ Name: unique(), ScriptType: 1, Code: "x", CreateLinkedPullZone: true });
    await scripts.addSecret(kept.script.Id, { Name: "S", Secret: "v" });
    const variable = await scripts.addVariable(kept.script.Id, { Name: "V", Required: false });
    await emu.markRequests();
    await scripts.deleteScript(kept.script.Id);
    assert.deepEqual(
      (await emu.requests()).map((r) => [r.method, r.url]),
      [["DELETE", `/compute/script/${kept.script.Id}?deleteLinkedPullZones=false`]],
    );
    const zone = await client.pullZones.getPullZone(kept.script.LinkedPullZones[0].Id);
    assert.equal(zone.OriginUrl, "https://bunny.net");
    await assert.rejects(scripts.getScript(kept.script.Id), NotFoundError);
    await assert.rejects(scripts.listSecrets(kept.script.Id), NotFoundError);
    await assert.rejects(scripts.getVariable(kept.script.Id, variable.Id), NotFoundError);
    await assert.rejects(scripts.deleteScript(kept.script.Id), NotFoundError);

    const removed = await scripts.createScript({ Name: unique(), ScriptType: 1, Code: "x", CreateLinkedPullZone: true });
    await scripts.deleteScript(removed.script.Id, { deleteLinkedPullZones: true });
    await assert.rejects(client.pullZones.getPullZone(removed.script.LinkedPullZones[0].Id), NotFoundError);
  });

  it("refuses invalid scripts before sending anything, naming the field", async () => {
    const scripts = emu.client().edgeScripts;
    await emu.markRequests();
    const refused = (p: Promise<unknown>, field: string) => assert.rejects(p, (e: unknown) => e instanceof InvalidRequestError && e.message.includes(field));
    await refused(scripts.createScript({ Name: "", ScriptType: 1 }), "Name");
    await refused(scripts.createScript({ Name: "a", ScriptType: 7 as 1 }), "ScriptType");
    await refused(scripts.createScript({ Name: "a", ScriptType: 1, LinkedPullZoneName: "no spaces" }), "LinkedPullZoneName");
    await refused(scripts.updateScript(1, { Name: "n".repeat(101) }), "Name");
    assert.deepEqual(await emu.requests(), []);
  });

  it("the emulator itself refuses invalid script bodies with the core error shape, and DNS scripts take variables but no secrets", async () => {
    const http = emu.client().http;
    const cases: { path: string; json: unknown; field: string }[] = [
      { path: "/compute/script", json: { ScriptType: 1 }, field: "Name" },
      { path: "/compute/script", json: { Name: "a" }, field: "ScriptType" },
      { path: "/compute/script", json: { Name: "a", ScriptType: 3 }, field: "ScriptType" },
      { path: "/compute/script", json: { Name: "a", ScriptType: 1, Extra: 1 }, field: "Extra" },
      { path: "/compute/script", json: { Name: "a", ScriptType: 1, CreateLinkedPullZone: true, LinkedPullZoneName: "a b" }, field: "LinkedPullZoneName" },
    ];
    for (const c of cases) {
      await assert.rejects(http.request({ api: "core", method: "POST", path: c.path, json: c.json, retry: "never" }), (e: unknown) => {
        assert.ok(e instanceof ValidationError, String(e));
        assert.equal(e.status, 400);
        assert.equal(e.field, c.field);
        return true;
      });
    }
    const scripts = emu.client().edgeScripts;
    const dns = await scripts.createScript({ Name: unique(), ScriptType: 0, Code: "x" });
    const variable = await scripts.addVariable(dns.script.Id, { Name: "V", Required: false, DefaultValue: "dns-value" });
    assert.equal((await scripts.getVariable(dns.script.Id, variable.Id)).DefaultValue, "dns-value");
    await assert.rejects(scripts.addSecret(dns.script.Id, { Name: "S", Secret: "v" }), (e: unknown) => e instanceof ValidationError && e.status === 400 && e.errorKey === "edgescript.unsupported_script_type");
  });

  it("does not repeat a create or a publish after a 503; code uploads are retried", async () => {
    const scripts = emu.client({ maxRetries: 2 }).edgeScripts;
    const { script } = await scripts.createScript({ Name: unique(), ScriptType: 2, Code: "x" });
    await emu.faults({ rules: [{ path: "^/compute/script", method: "POST", errorRate: 1, errorStatus: 503 }] });
    await emu.markRequests();
    await assert.rejects(scripts.createScript({ Name: unique(), ScriptType: 2 }), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    await assert.rejects(scripts.publish(script.Id), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    await assert.rejects(scripts.setCode(script.Id, "y"), (e: unknown) => e instanceof ServerError && e.attempts === 3);
  });
});
