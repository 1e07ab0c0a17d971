import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { documentedGet } from "../support/documentedGet";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";
import { SITE_PROJECT, SITE_SECRET_CONFIG, siteConfig } from "../support/site";

/** Every resource of the site, by name. */
const RESOURCES = ["zone", "files", "content", "cdn", "www-record", "www", "shield", "api-limit", "admin-only-office", "blocked-countries", "redirect-to-www", "security-headers", "edge", "greeting", "api-token", "videos", "intro", "poster", "purge"];
const all = (op: string) => Object.fromEntries(RESOURCES.map((name) => [name, op]));
const changed = (ops: Record<string, string>) => Object.entries(ops).filter(([, op]) => op !== "same");

/**
 * examples/site (as tests/pulumi/site.test.ts runs it through the kit) through the real Pulumi CLI and engine against
 * the emulator, the whole cycle: preview, up, an unchanged up with no API call, refresh without drift, a new release
 * (a config change), a change made outside (shown by refresh, put back by up), destroy leaving nothing. What the API
 * holds is read with the documented GETs. The engine behaviours relied on are cited in tests/support/engineCycle.ts.
 */
describe("engine: examples/site, the whole cycle", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let ids: Record<string, string> = {};
  let config: Record<string, string>;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    config = siteConfig(emu);
    stack = await EngineStack.start(emu, compiledProject("engine-site", SITE_PROJECT, "examples/site/index.js"), config, SITE_SECRET_CONFIG);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  /** A documented GET of the core API, with the account key; undefined on 404. */
  const core = (path: string) => documentedGet(emu, path);

  it("preview plans every resource and writes nothing", async () => {
    await emu.markRequests();
    assert.deepEqual(await stack.preview(), all("create"));
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
  });

  it("one up creates the whole site", async () => {
    assert.deepEqual(await stack.up(), all("create"));
    ids = Object.fromEntries((await stack.resources()).map((r) => [r.urn.split("::").pop(), String(r.id)]));
    const out = await stack.cli.outputs();
    const www = ((await core(`/pullzone/${ids.cdn}`))?.Hostnames as Record<string, unknown>[]).find((h) => h.Value === "www.site.example");
    assert.deepEqual([www?.HasCertificate, www?.ForceSSL], [true, true]);
    assert.equal(out.siteFiles, 3);
    assert.equal((await core(`/videolibrary/${ids.videos}`))?.VideoCount, 1);
  });

  it("an unchanged up makes no API call; refresh finds no drift; preview plans nothing", async () => {
    await stack.expectUnchangedUp(RESOURCES);
    await stack.expectNoDrift(RESOURCES);
  });

  it("a new release (config) purges the cache once, a replacement of the purge, and changes nothing else", async () => {
    await stack.setConfig({ [`${SITE_PROJECT}:release`]: "2" });
    await emu.markRequests();
    assert.deepEqual(changed(await stack.up()), [["purge", "replace"]]);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["POST /pullzone/:id/purgeCache"]);
  });

  it("the pull zone's cache time alone: preview plans no replacement, and up updates the pull zone alone", async () => {
    await stack.setConfig({ [`${SITE_PROJECT}:cacheSeconds`]: "600" });
    // The id outputs the children take (pullZoneId) stay known at preview (provider/pulumi/base.ts); cdnHostname, which
    // the record's value and the redirect's trigger take, is unknown until the pull zone's update answers, so those two
    // preview as updates that up then finds unneeded (issue 44 point 2; before: +-5 to replace).
    assert.deepEqual(changed(await stack.preview()).sort(), [["cdn", "update"], ["redirect-to-www", "update"], ["www-record", "update"]]);
    assert.deepEqual(changed(await stack.up()), [["cdn", "update"]]);
    assert.equal((await core(`/pullzone/${ids.cdn}`))?.CacheControlMaxAgeOverride, 600);
  });

  it("a variable changed outside: refresh shows the drift, the next up puts it back", async () => {
    const script = await core(`/compute/script/${ids.edge}`);
    const variable = (script?.EdgeScriptVariables as { Id: number; Name: string }[]).find((v) => v.Name === "GREETING")!;
    // The documented update of a variable (POST /compute/script/{id}/variables/{variableId}).
    const res = await fetch(`${emu.url}/compute/script/${ids.edge}/variables/${variable.Id}`, {
      method: "POST",
      headers: { AccessKey: emu.fixtures.accessKey, "Content-Type": "application/json" },
      body: JSON.stringify({ DefaultValue: "changed outside", Required: false }),
    });
    assert.ok(res.ok, `update the variable: ${res.status}`);
    assert.deepEqual(changed(await stack.refresh()), [["greeting", "update"]]);
    assert.equal((await stack.resource("greeting")).outputs?.defaultValue, "changed outside");
    assert.deepEqual(changed(await stack.up()), [["greeting", "update"]]);
    const after = (await core(`/compute/script/${ids.edge}`))?.EdgeScriptVariables as { Name: string; DefaultValue: string }[];
    assert.equal(after.find((v) => v.Name === "GREETING")?.DefaultValue, "hello");
    await stack.expectNoDrift(RESOURCES);
  });

  it("a site file changed outside: refresh shows the folder's drift, the next up uploads the file again", async () => {
    const zone = await core(`/storagezone/${ids.files}`);
    const file = `${emu.url}/storage/${String(zone?.Name)}/index.html`;
    const original = await (await fetch(file, { headers: { AccessKey: String(zone?.Password) } })).text();
    // The documented upload of the Storage API (PUT /{storageZoneName}/{path}, the zone's password as AccessKey).
    const put = await fetch(file, { method: "PUT", headers: { AccessKey: String(zone?.Password) }, body: "<h1>defaced</h1>\n" });
    assert.ok(put.ok, `upload: ${put.status}`);
    assert.deepEqual(changed(await stack.refresh()), [["content", "update"]]);
    await emu.markRequests();
    const ops = await stack.up();
    assert.equal(ops.content, "update");
    assert.deepEqual((await emu.requests()).filter((r) => r.method === "PUT").map((r) => r.url.split("/").pop()), ["index.html"]);
    assert.equal(await (await fetch(file, { headers: { AccessKey: String(zone?.Password) } })).text(), original);
    await stack.expectNoDrift(RESOURCES);
  });

  it("the state holds neither the API key nor the token nor the storage zone's password in plain text", async () => {
    const state = await stack.exportText();
    const zone = await core(`/storagezone/${ids.files}`);
    for (const secret of [emu.fixtures.accessKey, config[`${SITE_PROJECT}:apiToken`], String(zone?.Password), String(zone?.ReadOnlyPassword)]) assert.ok(!state.includes(secret));
  });

  it("destroy leaves nothing", async () => {
    assert.deepEqual(await stack.destroy(), all("delete"));
    assert.deepEqual(await stack.resources(), []);
    for (const path of [`/dnszone/${ids.zone}`, `/storagezone/${ids.files}`, `/pullzone/${ids.cdn}`, `/videolibrary/${ids.videos}`, `/compute/script/${ids.edge}`]) {
      assert.equal(await core(path), undefined, `${path} is gone`);
    }
  });
});
