import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { emulatorEnv, runTool } from "../support/cli";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { documentedGet } from "../support/documentedGet";
import { EngineStack, nameOf, skipWithoutCli } from "../support/engineCycle";
import { compileExportedProject } from "../support/exportedProject";

const PROJECT = "engine-exported";
const SECRET_VALUE = "engine-export-token-value";
const changed = (ops: Record<string, string>) => Object.entries(ops).filter(([, op]) => op !== "same");

/**
 * A project written by `bunnynet export` (an account made through the API as a dashboard user would, with the
 * emulator's own objects beside it) deployed through the real Pulumi CLI and engine: preview and up adopt every object
 * writing nothing but the script secret's value (the API never returns it), an unchanged up calls nothing, refresh
 * finds no drift, a config change and a change made outside are applied, destroy is refused while the exported
 * resources are protected, and after `pulumi state unprotect --all` leaves nothing.
 *
 * The exported project is TypeScript (Pulumi.yaml names no main): the Node.js language host would compile it with
 * ts-node at every command; the test compiles it once with its own tsconfig beside index.ts and adds `main: index.js`, which keeps the engine's working directory, for the program and
 * the plugin, the project's folder (pkg/engine/project.go:45 `getPwdMain`: the folder of main). With the template's
 * outDir (bin/) as main, the plugin would run in bin/ and the exported StorageFolder's relative `source` would not be
 * found there. The plugin finds bunnynet-pulumi in the project's node_modules, as after `npm install`.
 *
 * Engine behaviours relied on (pulumi/pulumi v3.259.0), besides those in tests/support/engineCycle.ts:
 * - destroy refuses a protected resource when its delete step runs (pkg/resource/deploy/step.go:646-648, the message
 *   at step.go:613-624); every resource here is protected, so the first delete fails and nothing is deleted.
 * - `pulumi state unprotect --all` clears protect on every resource of the state, with no provider call
 *   (pkg/cmd/pulumi/state/state_unprotect.go:109 `unprotectAllResources`).
 */
describe("engine: a project written by bunnynet export", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let root: string;
  let ids: { dnsZoneId: number; recordId: number; storageZoneId: number; pullZoneId: number; scriptId: number; libraryId: number };
  let names: string[];
  let secretName: string;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    root = mkdtempSync(join(tmpdir(), "bunnynet-engine-export-"));
    const out = join(root, PROJECT);
    const client = emu.client();
    const dns = await client.dns.addZone("engine-export.example");
    const storage = await client.storageZones.createStorageZone({ Name: "engine-export-files", Region: "DE" });
    const cdn = await client.pullZones.createPullZone({ Name: "engine-export-cdn", OriginType: 2, StorageZoneId: storage.Id });
    const record = await client.dns.addRecord(dns.Id, { Type: 2, Name: "www", Value: `${cdn.Name}.b-cdn.net`, Ttl: 300 });
    await client.dns.addRecord(dns.Id, { Type: 3, Name: "", Value: "v=spf1 -all", Ttl: 3600 });
    const script = await client.edgeScripts.createScript({ Name: "engine-export-edge", ScriptType: 1, Code: 'export default { fetch: () => new Response("hi") };\n', CreateLinkedPullZone: false });
    await client.edgeScripts.publish(script.script.Id);
    await client.edgeScripts.addVariable(script.script.Id, { Name: "GREETING", Required: false, DefaultValue: "hello" });
    await client.edgeScripts.addSecret(script.script.Id, { Name: "API_TOKEN", Secret: SECRET_VALUE });
    const library = await client.videoLibraries.create({ Name: "engine-export-videos" });
    const files = await client.storage.access(storage.Id);
    const text = "<h1>exported</h1>\n";
    await client.storage.putFile(files, "index.html", Buffer.from(text), { checksum: createHash("sha256").update(text).digest("hex") });
    ids = { dnsZoneId: dns.Id, recordId: record.Id, storageZoneId: storage.Id, pullZoneId: cdn.Id, scriptId: script.script.Id, libraryId: library.Id };

    const exported = await runTool(["export", "--out", out], emulatorEnv(emu));
    assert.equal(exported.code, 0, exported.stderr);
    // The values the API never returns, which the report asks for: the script secret's, given; any other, made up.
    const asked = [...exported.stdout.matchAll(/pulumi config set --secret (\w+)/g)].map((m) => m[1]);
    secretName = asked.find((key) => /ApiToken$/.test(key)) ?? assert.fail(`no config asked for the script secret:\n${exported.stdout}`);
    const secrets = Object.fromEntries(asked.map((key) => [`${PROJECT}:${key}`, key === secretName ? SECRET_VALUE : `made-up-${key}`]));
    compileExportedProject(out, out);
    appendFileSync(join(out, "Pulumi.yaml"), "main: index.js\n");
    stack = await EngineStack.start(emu, out, { ...stackConfigFor(emu.url, emu.fixtures.accessKey), ...secrets }, ["bunnynet:apiKey", ...Object.keys(secrets)]);
    names = (readFileSync(join(out, "index.ts"), "utf8").match(/new bunnynet\.\w+\("[^"]+"/g) ?? []).map((m) => m.split('"')[1]);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** A documented GET of the core API; undefined on 404. */
  const core = (path: string) => documentedGet(emu, path);
  const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);

  it("preview plans every declared object and writes nothing", async () => {
    await emu.markRequests();
    const ops = await stack.preview();
    assert.deepEqual(Object.keys(ops).sort(), [...names].sort());
    assert.ok(Object.values(ops).every((op) => op === "create"));
    assert.deepEqual(await writes(), []);
  });

  it("up adopts every object: nothing is written but the script secret's value", async () => {
    await emu.markRequests();
    const ops = await stack.up();
    assert.deepEqual(Object.keys(ops).sort(), [...names].sort());
    assert.ok(Object.values(ops).every((op) => op === "create"));
    assert.deepEqual(
      (await writes()).filter((w) => !w.startsWith("PUT /compute/script/:id/secrets") && !w.startsWith("POST /compute/script/:id/secrets")),
      [],
      "no write but the secret's value",
    );
    assert.ok((await stack.resources()).filter((r) => !r.type.startsWith("pulumi:providers:")).every((r) => r.outputs?.adoptExisting === true || r.type.endsWith(":StorageFolder")));
  });

  it("an unchanged up makes no API call; refresh finds no drift; preview plans nothing", async () => {
    await stack.expectUnchangedUp(names);
    await stack.expectNoDrift(names);
  });

  it("a new value of the secret in config updates the script secret only", async () => {
    await stack.cli.run(["config", "set", "--secret", `${PROJECT}:${secretName}`, "a-rotated-token"], true);
    await emu.markRequests();
    const ops = changed(await stack.up());
    assert.equal(ops.length, 1, JSON.stringify(ops));
    assert.match(ops[0][0], /api-token$/);
    assert.equal(ops[0][1], "update");
  });

  it("the secret's value changed outside: refresh shows it (its LastModified moved), the next up writes the program's value again", async () => {
    const [secret] = await emu.client().edgeScripts.listSecrets(ids.scriptId);
    await emu.client().edgeScripts.updateSecret(ids.scriptId, secret.Id, "set in the dashboard");
    const drifted = changed(await stack.refresh());
    assert.equal(drifted.length, 1, JSON.stringify(drifted));
    assert.deepEqual([drifted[0][1], /api-token$/.test(drifted[0][0])], ["update", true]);
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up()), drifted);
    assert.deepEqual(await writes(), ["POST /compute/script/:id/secrets/:secretId"]);
    await stack.expectNoDrift(names);
  });

  it("a record changed outside: refresh shows the drift, the next up puts it back", async () => {
    await emu.client().dns.updateRecord(ids.dnsZoneId, ids.recordId, { Value: "elsewhere.example.net" });
    const drifted = changed(await stack.refresh());
    assert.equal(drifted.length, 1, JSON.stringify(drifted));
    assert.equal(drifted[0][1], "update");
    assert.deepEqual(changed(await stack.up()), drifted);
    const records = (await core(`/dnszone/${ids.dnsZoneId}`))?.Records as { Id: number; Value: string }[];
    assert.equal(records.find((r) => r.Id === ids.recordId)?.Value, "engine-export-cdn.b-cdn.net");
  });

  it("destroy refuses while the exported resources are protected, and deletes nothing", async () => {
    await emu.markRequests();
    const run = await stack.cli.attempt(["destroy", "--yes", "--skip-preview"]);
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /because it is protected\. To unprotect the resource/);
    assert.deepEqual(await writes(), []);
  });

  it("after `pulumi state unprotect --all`, destroy leaves nothing", async () => {
    await stack.cli.run(["state", "unprotect", "--all", "--yes"], true);
    const ops = await stack.destroy();
    assert.deepEqual(Object.keys(ops).sort(), [...names].sort());
    assert.deepEqual((await stack.resources()).map((r) => nameOf(r.urn)), []);
    for (const path of [`/dnszone/${ids.dnsZoneId}`, `/storagezone/${ids.storageZoneId}`, `/pullzone/${ids.pullZoneId}`, `/compute/script/${ids.scriptId}`, `/videolibrary/${ids.libraryId}`]) {
      assert.equal(await core(path), undefined, `${path} is gone`);
    }
  });
});
