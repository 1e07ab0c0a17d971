import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, nameOf, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";

const PROJECT = "engine-options";
const DOMAIN = "options.example";
const RESOURCES = ["zone", "other", "kept", "a", "b", "ignored", "dbr"];
const changed = (ops: Record<string, string>) => Object.entries(ops).filter(([, op]) => op !== "same");

/**
 * The options users reach for, each through the real Pulumi CLI and engine against the emulator, on a small program of
 * DNS zones and records (tests/engine/programs/options.ts). Engine behaviours relied on (pulumi/pulumi v3.259.0,
 * besides those in tests/support/engineCycle.ts):
 * - `--target`: a resource not targeted keeps its old state, a Same step (pkg/resource/deploy/step_generator.go:158
 *   `isTargetedForUpdate`).
 * - `--replace`: the targeted resource is replaced without asking the provider's Diff (step_generator.go:2888-2891:
 *   `{Changes: Some, ReplaceKeys: ["id"]}`), so create-before-delete unless the resource option deleteBeforeReplace
 *   says otherwise (step_generator.go:2044-2047): the new object is created while the old one, with the same identity,
 *   still exists. The replacement's create and the original's delete run in one plugin process (one per provider
 *   for the whole command: pkg/resource/deploy/providers/registry.go).
 * - `up --refresh`: every resource is read before the update (pkg/resource/deploy/deployment_executor.go:169-170).
 * - `refresh --run-program`: the program runs and the refresh takes its providers (deployment_executor.go:222).
 * - `deleteBeforeReplace`: the option overrides the provider's answer (step_generator.go:2044-2047).
 * - `ignoreChanges`: the old inputs' values replace the program's before the diff (step_generator.go:1267, :3028
 *   `processIgnoreChanges`).
 * - `retainOnDelete`: the delete step is a no-op (pkg/resource/deploy/step.go:661).
 * - `protect`: each delete step of a protected resource fails (step.go:646-648, the message at step.go:613-624); every
 *   other delete of its antichain runs (a destroy's deletes are scheduled in antichains, each run in parallel:
 *   step_generator.go:2745 `ScheduleDeletes`, deployment_executor.go:501-552); what waits for it (its zone) does not. The kit deletes in
 *   the same rounds (emulator/testing/stepGenerator.ts, destroySteps), and tests/pulumi/engine.test.ts checks it on
 *   the same zones and records.
 * - `pulumi state delete`: the resource leaves the state, the object stays (pkg/cmd/pulumi/state/state_delete.go:167
 *   `runStateDeleteResources`: the state alone is edited).
 * - The resource option `import`: an ImportStep (step_generator.go:1113-1201) whose Read carries only the id
 *   (step.go:2037-2044), so the dynamic-provider host finds no provider text and fails with "code must be a string,
 *   not undefined" (@pulumi/pulumi cmd/dynamic-provider/index.js:67-73, pulumi/pulumi#16175). Our resources refuse the
 *   option in their constructor first, with the advice to adopt.
 * - `pulumi import` runs no program (pkg/cmd/pulumi/operations/import.go:1300-1360) but loads the project's language
 *   plugin; its preview's import step (the same ImportStep as the option's) fails in the SDK's dynamic-provider host with
 *   "code must be a string, not undefined", before any call to our provider, so nothing of ours can advise there: the
 *   options table of docs/guides/resource-options.md says what to do (adoptExisting).
 */
describe("engine: resource options and CLI options", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    const config = { ...stackConfigFor(emu.url, emu.fixtures.accessKey), [`${PROJECT}:domain`]: DOMAIN };
    stack = await EngineStack.start(emu, compiledProject("engine-options", PROJECT, "tests/engine/programs/options.js"), config, ["bunnynet:apiKey"]);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const urn = async (name: string) => (await stack.resource(name)).urn;
  const zoneOf = async (domain: string) => emu.client().dns.findZoneByDomain(domain);
  const records = async (name: string) => ((await zoneOf(DOMAIN))?.Records ?? []).filter((r) => r.Name === name);
  const routes = async () => (await emu.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);

  it("up creates the zones and records", async () => {
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
  });

  it("--target updates the targeted record only; the next up the other", async () => {
    await stack.setConfig({ [`${PROJECT}:valueA`]: "192.0.2.11", [`${PROJECT}:valueB`]: "192.0.2.12" });
    assert.deepEqual(changed(await stack.up(["--target", await urn("a")])), [["a", "update"]]);
    assert.deepEqual([(await records("a"))[0].Value, (await records("b"))[0].Value], ["192.0.2.11", "192.0.2.2"]);
    assert.deepEqual(changed(await stack.up()), [["b", "update"]]);
  });

  it("up --refresh reads a change made outside and puts it back", async () => {
    const [b] = await records("b");
    await emu.client().dns.updateRecord(Number((await stack.resource("zone")).id), b.Id, { Value: "198.51.100.1" });
    assert.deepEqual(changed(await stack.up(["--refresh"])), [["b", "update"]]);
    assert.equal((await records("b"))[0].Value, "192.0.2.12");
  });

  it("refresh --run-program finds no drift", async () => {
    const ops = await stack.refresh(["--run-program", "--expect-no-changes"]);
    assert.deepEqual(changed(ops), []);
    assert.deepEqual(Object.keys(ops).sort(), [...RESOURCES].sort());
  });

  it("ignoreChanges: a new value in the program changes nothing", async () => {
    await stack.setConfig({ [`${PROJECT}:ignoredValue`]: "second" });
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up()), []);
    assert.deepEqual(await routes(), []);
    assert.equal((await records("ignored"))[0].Value, "first");
  });

  it("deleteBeforeReplace: moving the record to the other zone deletes the old one before creating the new", async () => {
    await stack.setConfig({ [`${PROJECT}:dbrZone`]: "1" });
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up()), [["dbr", "replace"]]);
    assert.deepEqual(await routes(), ["DELETE /dnszone/:zoneId/records/:id", "PUT /dnszone/:zoneId/records"]);
    assert.deepEqual(await records("dbr"), []);
    assert.equal((await zoneOf(`other.${DOMAIN}`))?.Records.filter((r) => r.Name === "dbr").length, 1);
  });

  it("pulumi state delete, then adoptExisting: the record is taken over, with no duplicate and no write", async () => {
    await stack.cli.run(["state", "delete", await urn("a"), "--yes"], true);
    assert.equal((await records("a")).length, 1, "the object stays");
    await stack.setConfig({ [`${PROJECT}:adoptA`]: "true" });
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up()), [["a", "create"]]);
    assert.deepEqual(await routes(), []);
    assert.deepEqual((await records("a")).map((r) => String(r.Id)), [(await stack.resource("a")).id]);
  });

  it("--replace of a record that keeps its identity finds the original by its own mark and keeps it: nothing is made or deleted", async () => {
    // For --replace the engine asks no diff (step_generator.go:2888-2891), so the provider cannot ask to delete first;
    // the replacement's create finds the original, which carries this resource's mark (pulumi/ownership.ts), and takes
    // it, and the original's delete then leaves it (adoption.ts, adoptedHere). deleteBeforeReplace makes a new one.
    const before = (await stack.resource("b")).id;
    await emu.markRequests();
    const run = await stack.cli.attempt(["up", "--yes", "--skip-preview", "--replace", await urn("b")]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal((await records("b")).length, 1);
    assert.equal((await stack.resource("b")).id, before);
    assert.deepEqual(await routes(), [], "nothing created or deleted");
  });

  it("--replace with deleteBeforeReplace deletes the record, then creates it again (a new id)", async () => {
    const before = (await stack.resource("dbr")).id;
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up(["--replace", await urn("dbr")])), [["dbr", "replace"]]);
    assert.deepEqual(await routes(), ["DELETE /dnszone/:zoneId/records/:id", "PUT /dnszone/:zoneId/records"]);
    assert.notEqual((await stack.resource("dbr")).id, before);
  });

  it("--replace of a record with adoptExisting keeps the object: the replacement adopts it, and it is not deleted as the original", async () => {
    const id = (await stack.resource("a")).id;
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up(["--replace", await urn("a")])), [["a", "replace"]]);
    assert.deepEqual(await routes(), [], "nothing deleted");
    assert.deepEqual((await records("a")).map((r) => String(r.Id)), [id]);
    assert.equal((await stack.resource("a")).id, id);
    assert.deepEqual(changed(await stack.refresh()), [], "the state's object exists");
  });

  it("the resource option import is refused by the resource, with the advice to adopt, before any API call", async () => {
    const existing = await emu.client().dns.addZone(`imported.${DOMAIN}`);
    await stack.setConfig({ [`${PROJECT}:importZoneId`]: String(existing.Id) });
    await emu.markRequests();
    for (const command of ["preview", "up"]) {
      const run = await stack.cli.attempt(command === "up" ? ["up", "--yes", "--skip-preview"] : ["preview"]);
      assert.notEqual(run.status, 0);
      const output = run.stdout + run.stderr;
      assert.match(output, /DnsZone imported: the resource option import cannot work on bunnynet-pulumi's resources/);
      assert.match(output, /adoptExisting: true/);
      assert.doesNotMatch(output, /requireFromString/, "the engine never reached the import step");
    }
    assert.deepEqual(await emu.requests(), []);
    assert.ok(!(await stack.resources()).some((r) => nameOf(r.urn) === "imported"));
    await stack.cli.run(["config", "rm", `${PROJECT}:importZoneId`], true);
    await emu.client().dns.deleteZone(existing.Id);
  });

  it("pulumi import fails in the dynamic-provider host before any of our code, and makes no API call", async () => {
    const existing = await emu.client().dns.addZone(`cli-imported.${DOMAIN}`);
    await emu.markRequests();
    const run = await stack.cli.attempt(["import", "pulumi-nodejs:dynamic/bunnynet:DnsZone", "cli-imported", String(existing.Id), "--yes"]);
    // The engine's import step sends only the id, and the SDK's host fails to load a provider text it was not given:
    // what a user sees, in the preview `pulumi import` runs first. Our code is never called, so it cannot advise.
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /DnsZone \(cli-imported\):\s+error: Preview failed: code must be a string, not undefined/);
    assert.deepEqual(await emu.requests(), []);
    assert.ok(!(await stack.resources()).some((r) => nameOf(r.urn) === "cli-imported"));
    await emu.client().dns.deleteZone(existing.Id);
  });

  it("the state holds no API key", async () => {
    assert.ok(!(await stack.exportText()).includes(emu.fixtures.accessKey));
  });

  it("protect: destroy deletes everything that does not depend on the protected record and fails at it (the kit deletes the same: tests/pulumi/engine.test.ts)", async () => {
    await stack.setConfig({ [`${PROJECT}:protectB`]: "true" });
    assert.deepEqual(changed(await stack.up()), []);
    const run = await stack.cli.attempt(["destroy", "--yes", "--skip-preview"]);
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /cannot be deleted\s+because it is protected/);
    // Record a was declared before b, zone "other" before both: deleted all the same. The zone stays (b is in it).
    assert.deepEqual((await records("a")).length, 0);
    assert.equal(await zoneOf(`other.${DOMAIN}`), undefined);
    assert.deepEqual((await records("b")).length, 1, "the protected record stays");
    assert.deepEqual((await stack.resources()).filter((r) => !r.type.startsWith("pulumi:providers:")).map((r) => nameOf(r.urn)).sort(), ["b", "zone"]);
  });

  it("retainOnDelete: destroy (once the record is unprotected) leaves the retained zone; nothing else is left", async () => {
    await stack.cli.run(["state", "unprotect", await urn("b"), "--yes"], true);
    await stack.destroy();
    assert.deepEqual(await stack.resources(), []);
    assert.equal(await zoneOf(DOMAIN), undefined);
    assert.equal(await zoneOf(`other.${DOMAIN}`), undefined);
    assert.ok(await zoneOf(`kept.${DOMAIN}`), "the retained zone stays");
  });
});
