import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, InvalidRequestError, NotFoundError, ServerError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: edge script variables", () => {
  let emu: TestEmulator;
  let scriptId: number;
  const missingScriptId = 999_999;

  before(async () => {
    emu = await startEmulator();
    scriptId = Number(emu.fixtures.scriptId);
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const callsTo = async (route: string) => (await emu.requests()).filter((r) => r.route === route);

  it("reads the seeded script with its variables, without its deployment key", async () => {
    const script = await emu.client().edgeScripts.getScript(scriptId);
    assert.equal(script.Id, scriptId);
    assert.equal(script.Name, "emulator-script");
    assert.deepEqual(
      script.EdgeScriptVariables.map((v) => [v.Name, v.Required, v.DefaultValue]),
      [
        ["API_BASE_URL", true, "https://api.example.com"],
        ["FEATURE_FLAGS", false, null],
      ],
    );
    assert.ok(!("DeploymentKey" in script));
  });

  it("adds, reads, updates and deletes a variable", async () => {
    const scripts = emu.client().edgeScripts;
    const added = await scripts.addVariable(scriptId, { Name: "LIFECYCLE", Required: false, DefaultValue: "one" });
    assert.ok(added.Id > 0);
    assert.deepEqual(added, { Id: added.Id, Name: "LIFECYCLE", Required: false, DefaultValue: "one" });
    assert.deepEqual(await scripts.getVariable(scriptId, added.Id), added);

    const updated = await scripts.updateVariable(scriptId, added.Id, { DefaultValue: "two", Required: true });
    assert.deepEqual(updated, { ...added, DefaultValue: "two", Required: true });
    // A value left out stays; DefaultValue can be cleared with null.
    assert.deepEqual(await scripts.updateVariable(scriptId, added.Id, { DefaultValue: null }), { ...added, DefaultValue: null, Required: true });
    assert.deepEqual(await scripts.getVariable(scriptId, added.Id), { ...added, DefaultValue: null, Required: true });

    await emu.markRequests();
    await scripts.deleteVariable(scriptId, added.Id);
    assert.deepEqual(
      (await callsTo("/compute/script/:id/variables/:variableId")).map((r) => [r.method, r.status]),
      [["DELETE", 204]],
    );
    await assert.rejects(scripts.getVariable(scriptId, added.Id), NotFoundError);
    await assert.rejects(scripts.updateVariable(scriptId, added.Id, { Required: false }), NotFoundError);
    await assert.rejects(scripts.deleteVariable(scriptId, added.Id), NotFoundError);
    assert.equal(await scripts.findVariableByName(scriptId, "LIFECYCLE"), undefined);
  });

  it("refuses a second variable with the same name as AlreadyExistsError; names are case-sensitive", async () => {
    const scripts = emu.client().edgeScripts;
    await assert.rejects(scripts.addVariable(scriptId, { Name: "API_BASE_URL", Required: false }), (e: unknown) => {
      assert.ok(e instanceof AlreadyExistsError);
      assert.equal(e.status, 400);
      assert.equal(e.field, "Name");
      assert.equal(e.errorKey, "edgescript.variable_name_taken");
      return true;
    });
    const lower = await scripts.addVariable(scriptId, { Name: "api_base_url", Required: false });
    assert.equal(lower.Name, "api_base_url");
    assert.equal((await scripts.findVariableByName(scriptId, "API_BASE_URL"))?.DefaultValue, "https://api.example.com");
  });

  it("finds a variable by its exact name", async () => {
    const scripts = emu.client().edgeScripts;
    const found = await scripts.findVariableByName(scriptId, "FEATURE_FLAGS");
    assert.ok(found);
    assert.deepEqual(await scripts.getVariable(scriptId, found.Id), found);
    assert.equal(await scripts.findVariableByName(scriptId, "feature_flags"), undefined);
    assert.equal(await scripts.findVariableByName(scriptId, "NO_SUCH_VARIABLE"), undefined);
  });

  it("upserts: 200 with the variable when it creates, 204 when it updates, the variable read back either way", async () => {
    const scripts = emu.client().edgeScripts;
    await emu.markRequests();
    const created = await scripts.upsertVariable(scriptId, { Name: "UPSERTED", Required: true, DefaultValue: "a" });
    assert.equal(created.created, true);
    assert.deepEqual(created.variable, { Id: created.variable.Id, Name: "UPSERTED", Required: true, DefaultValue: "a" });

    const updated = await scripts.upsertVariable(scriptId, { Name: "UPSERTED", DefaultValue: "b" });
    assert.equal(updated.created, false);
    assert.deepEqual(updated.variable, { ...created.variable, DefaultValue: "b" });
    assert.deepEqual(
      (await callsTo("/compute/script/:id/variables")).map((r) => [r.method, r.status]),
      [
        ["PUT", 200],
        ["PUT", 204],
      ],
    );
    const all = (await scripts.getScript(scriptId)).EdgeScriptVariables.filter((v) => v.Name === "UPSERTED");
    assert.equal(all.length, 1);
  });

  it("refuses invalid variables before sending anything, naming the field", async () => {
    const scripts = emu.client().edgeScripts;
    await emu.markRequests();
    const refused = async (p: Promise<unknown>, field: string) =>
      assert.rejects(p, (e: unknown) => e instanceof InvalidRequestError && e.field === field, `expected a refusal on ${field}`);
    await refused(scripts.addVariable(scriptId, { Name: "", Required: false }), "Name");
    await refused(scripts.addVariable(scriptId, { Name: "N".repeat(257), Required: false }), "Name");
    await refused(scripts.addVariable(scriptId, { Name: "X", Required: false, DefaultValue: "v".repeat(4097) }), "DefaultValue");
    await refused(scripts.addVariable(scriptId, { Name: "X" } as unknown as { Name: string; Required: boolean }), "Required");
    await refused(scripts.updateVariable(scriptId, 1, { DefaultValue: "v".repeat(4097) }), "DefaultValue");
    await refused(scripts.upsertVariable(scriptId, { Name: "" }), "Name");
    await refused(scripts.addVariable(scriptId, { Name: "BAD NAME", Required: false }), "Name");
    await refused(scripts.upsertVariable(scriptId, { Name: "2FA" }), "Name");
    assert.deepEqual(await emu.requests(), []);
  });

  it("the emulator itself refuses invalid variable bodies with the core error shape", async () => {
    const http = emu.client().http;
    const cases: { path: string; method: "POST" | "PUT"; json: unknown; field: string }[] = [
      { path: `/compute/script/${scriptId}/variables/add`, method: "POST", json: { Required: true }, field: "Name" },
      { path: `/compute/script/${scriptId}/variables/add`, method: "POST", json: { Name: "A" }, field: "Required" },
      { path: `/compute/script/${scriptId}/variables/add`, method: "POST", json: { Name: "A", Required: false, Secret: true }, field: "Secret" },
      { path: `/compute/script/${scriptId}/variables/add`, method: "POST", json: { Name: "A".repeat(257), Required: false }, field: "Name" },
      // Not an environment variable's name: the script could not read it as process.env.<name>.
      { path: `/compute/script/${scriptId}/variables/add`, method: "POST", json: { Name: "BAD NAME", Required: false }, field: "Name" },
      { path: `/compute/script/${scriptId}/variables`, method: "PUT", json: { Name: "API-KEY" }, field: "Name" },
      { path: `/compute/script/${scriptId}/secrets`, method: "POST", json: { Name: "BAD NAME", Secret: "s" }, field: "Name" },
      { path: `/compute/script/${scriptId}/variables`, method: "PUT", json: { Name: "A", DefaultValue: 5 }, field: "DefaultValue" },
    ];
    for (const c of cases) {
      await assert.rejects(http.request({ api: "core", method: c.method, path: c.path, json: c.json, retry: "never" }), (e: unknown) => {
        assert.ok(e instanceof ValidationError && !(e instanceof AlreadyExistsError), String(e));
        assert.equal(e.status, 400);
        assert.equal(e.errorKey, "validation_error");
        assert.equal(e.field, c.field);
        return true;
      });
    }
  });

  it("an unknown script is NotFoundError for every operation", async () => {
    const scripts = emu.client().edgeScripts;
    const isNotFound = (e: unknown) => e instanceof NotFoundError && e.status === 404;
    await assert.rejects(scripts.getScript(missingScriptId), isNotFound);
    await assert.rejects(scripts.addVariable(missingScriptId, { Name: "A", Required: false }), isNotFound);
    await assert.rejects(scripts.getVariable(missingScriptId, 1), isNotFound);
    await assert.rejects(scripts.updateVariable(missingScriptId, 1, { Required: true }), isNotFound);
    await assert.rejects(scripts.deleteVariable(missingScriptId, 1), isNotFound);
    await assert.rejects(scripts.upsertVariable(missingScriptId, { Name: "A" }), isNotFound);
    await assert.rejects(scripts.findVariableByName(missingScriptId, "A"), isNotFound);
  });

  it("retries updates, reads and upserts under injected 503s", async () => {
    const scripts = emu.client({ maxRetries: 2 }).edgeScripts;
    const variable = await scripts.addVariable(scriptId, { Name: "RETRIED", Required: false });
    await emu.faults({ rules: [{ path: "^/compute/script/", errorRate: 1, errorStatus: 503 }] });
    await emu.markRequests();
    await assert.rejects(scripts.updateVariable(scriptId, variable.Id, { DefaultValue: "x" }), (e: unknown) => e instanceof ServerError && e.attempts === 3);
    await assert.rejects(scripts.getVariable(scriptId, variable.Id), (e: unknown) => e instanceof ServerError && e.attempts === 3);
    await assert.rejects(scripts.upsertVariable(scriptId, { Name: "RETRIED" }), (e: unknown) => e instanceof ServerError && e.attempts === 3);
    const byMethod = (method: string) => callsTo("/compute/script/:id/variables/:variableId").then((l) => l.filter((r) => r.method === method && r.status === 503).length);
    assert.equal(await byMethod("POST"), 3);
    assert.equal(await byMethod("GET"), 3);
    assert.equal((await callsTo("/compute/script/:id/variables")).length, 3);

    // An update whose answer was lost after it was applied is simply applied again.
    await emu.faults({ rules: [{ path: "/variables/\\d+$", method: "POST", errorRate: 0.5, errorStatus: 503, phase: "after" }], seed: 7 });
    await emu.markRequests();
    const updated = await emu.client({ maxRetries: 5 }).edgeScripts.updateVariable(scriptId, variable.Id, { DefaultValue: "final" });
    assert.equal(updated.DefaultValue, "final");
    const statuses = (await callsTo("/compute/script/:id/variables/:variableId")).map((r) => r.status);
    assert.ok(statuses.includes(503), `no 503 was injected: ${statuses.join(",")}`);
  });

  it("does not repeat addVariable after a 503; a variable the server did create is found by name", async () => {
    const scripts = emu.client({ maxRetries: 3 }).edgeScripts;
    await emu.faults({ rules: [{ path: "/variables/add$", errorRate: 1, errorStatus: 503 }] });
    await emu.markRequests();
    await assert.rejects(scripts.addVariable(scriptId, { Name: "ONCE", Required: false }), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    assert.equal((await callsTo("/compute/script/:id/variables/add")).length, 1);
    assert.equal(await scripts.findVariableByName(scriptId, "ONCE"), undefined);

    await emu.faults({ rules: [{ path: "/variables/add$", errorRate: 1, errorStatus: 503, phase: "after" }] });
    await emu.markRequests();
    await assert.rejects(scripts.addVariable(scriptId, { Name: "LOST_ANSWER", Required: true, DefaultValue: "v" }), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    assert.equal((await callsTo("/compute/script/:id/variables/add")).length, 1);
    await emu.clearFaults();
    const adopted = await scripts.findVariableByName(scriptId, "LOST_ANSWER");
    assert.ok(adopted);
    assert.equal(adopted.Required, true);
    assert.equal(adopted.DefaultValue, "v");
    await assert.rejects(scripts.addVariable(scriptId, { Name: "LOST_ANSWER", Required: true, DefaultValue: "v" }), AlreadyExistsError);
  });
});
