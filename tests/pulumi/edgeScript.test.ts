import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { createPullZone } from "bunnynet-emulator/dist/surfaces/pullZones.js";
import type { TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, UNKNOWN_VALUE, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";

const TYPE = "EdgeScript";
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

/** An asset as the engine hands it to a provider (the SDK's serialization, without the program-side marker, with the engine's hash). */
async function asEngineSends(asset: pulumi.asset.Asset): Promise<Record<string, unknown>> {
  const { value } = await pulumi.runtime.serializeProperties("test", { value: asset });
  const fields = Object.entries(value as Record<string, unknown>).filter(([k]) => !k.startsWith("__pulumi"));
  return { ...Object.fromEntries(fields), hash: "0123abcd" };
}

describe("pulumi: EdgeScript through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  let counter = 0;
  const uniqueName = () => `pulumi-script-${++counter}`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    dir = mkdtempSync(join(tmpdir(), "edge-script-"));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await stopEmulatorAndHost(emu, host);
  });
  const CONFIG = () => hostConfig(emu);
  const scripts = () => emu.client().edgeScripts;
  const calls = async () => (await emu.requests()).map((r) => `${r.method} ${r.route}`);

  async function checked(extra: Record<string, unknown> = {}) {
    const res = await host.check(TYPE, {}, { name: uniqueName(), type: "Standalone", code: "export default () => new Response('v1')", ...extra });
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }
  async function created(extra: Record<string, unknown> = {}) {
    const inputs = await checked(extra);
    return { ...(await host.create(TYPE, inputs)), inputs };
  }

  describe("check", () => {
    it("refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, { name: "", type: "DNS", code: 5, publish: "yes", linkedPullZoneName: "no spaces", cdoe: "typo" });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["cdoe", "code", "linkedPullZoneName", "name", "publish", "type"]);
      assert.match(byProperty.name, /must not be empty/);
      assert.match(byProperty.cdoe, /unknown property/);
      const middleware = await host.check(TYPE, {}, { name: "m", type: "Middleware", code: "x", createLinkedPullZone: true });
      assert.deepEqual(middleware.failures.map(named).map((f) => f.property), ["createLinkedPullZone"]);
      const empty = await host.check(TYPE, {}, { name: "m", type: "Middleware", code: "" });
      assert.deepEqual(empty.failures.map(named).map((f) => f.property), ["code"]);
      const missing = await host.check(TYPE, {}, { name: "m", type: "Middleware", code: await asEngineSends(new pulumi.asset.FileAsset(join(dir, "missing.js"))) });
      assert.deepEqual(missing.failures.map(named).map((f) => f.property), ["code"]);
      assert.equal((await emu.requests()).length, 0);
    });

    it("fills the defaults by type and fingerprints the code; unknown code at preview is judged later", async () => {
      const standalone = await host.check(TYPE, {}, { name: "s", type: "Standalone", code: "abc" });
      assert.deepEqual(standalone.inputs, { name: "s", type: "Standalone", code: "abc", publish: true, createLinkedPullZone: true, fingerprint: sha256("abc"), adoptExisting: false });
      const middleware = await host.check(TYPE, {}, { name: "m", type: "Middleware", code: "abc", publish: false });
      assert.equal(middleware.inputs.createLinkedPullZone, false);
      const preview = await host.check(TYPE, {}, { name: "p", type: "Middleware", code: UNKNOWN_VALUE });
      assert.deepEqual(preview.failures, []);
      assert.equal(preview.inputs.fingerprint, undefined);
    });
  });

  describe("life cycle", () => {
    it("creates a standalone script: code uploaded and published, its linked pull zone, a secret deployment key (find, create, publish, read the release)", async () => {
      const inputs = await checked();
      await emu.markRequests();
      const { id, outputs } = await host.create(TYPE, inputs);
      assert.deepEqual(await calls(), ["GET /compute/script", "POST /compute/script", "POST /compute/script/:id/publish", "GET /compute/script/:id/releases/active"]);
      const live = await scripts().getActiveRelease(Number(id));
      const real = await scripts().getScriptWithKey(Number(id));
      assert.equal(live.Code, inputs.code);
      assert.deepEqual(outputs, {
        ...inputs,
        scriptId: Number(id),
        releaseId: live.Id,
        releaseUuid: live.Uuid,
        deploymentKey: real.deploymentKey,
        linkedPullZoneId: real.script.LinkedPullZones[0].Id,
        linkedPullZoneHostname: real.script.LinkedPullZones[0].DefaultHostname,
      });
      assert.match(String(outputs.linkedPullZoneHostname), /\.b-cdn\.net$/);
    });

    it("publish: false uploads the code without a release; turning it on publishes in place", async () => {
      const { id, outputs, inputs } = await created({ type: "Middleware", publish: false });
      assert.equal(outputs.releaseId, undefined);
      assert.equal(outputs.linkedPullZoneId, undefined);
      await assert.rejects(scripts().getActiveRelease(Number(id)), NotFoundError);
      const updated = await host.update(TYPE, id, outputs, { ...inputs, publish: true });
      assert.equal(updated.releaseId, (await scripts().getActiveRelease(Number(id))).Id);
    });

    it("diff: code and name change in place; type and the linked pull zone replace (the old script deleted first: same name)", async () => {
      const { id, outputs, inputs } = await created();
      const none = { changes: "none", replaces: [], deleteBeforeReplace: false };
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), none);
      const newCode = await host.check(TYPE, outputs, { ...inputs, code: "changed", fingerprint: undefined });
      assert.deepEqual(await host.diff(TYPE, id, outputs, newCode.inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, name: "renamed" }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, type: "Middleware", createLinkedPullZone: false }), { changes: "some", replaces: ["type", "createLinkedPullZone"], deleteBeforeReplace: true });
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, linkedPullZoneName: "other-zone" }), { changes: "some", replaces: ["linkedPullZoneName"], deleteBeforeReplace: true });
      const renamedToo = { ...inputs, name: "another-name", type: "Middleware", createLinkedPullZone: false };
      assert.deepEqual(await host.diff(TYPE, id, outputs, renamedToo), { changes: "some", replaces: ["type", "createLinkedPullZone"], deleteBeforeReplace: false });
    });

    it("a code change uploads and publishes in place with a new release id (three calls); a rename is one call", async () => {
      const { id, outputs, inputs } = await created();
      const news = (await host.check(TYPE, outputs, { ...inputs, code: "export default () => new Response('v2')", fingerprint: undefined })).inputs;
      await emu.markRequests();
      const updated = await host.update(TYPE, id, outputs, news);
      assert.deepEqual(await calls(), ["POST /compute/script/:id/code", "POST /compute/script/:id/publish", "GET /compute/script/:id/releases/active"]);
      assert.notEqual(updated.releaseId, outputs.releaseId);
      assert.equal(updated.scriptId, Number(id));
      assert.equal((await scripts().getActiveRelease(Number(id))).Code, news.code);
      assert.equal(updated.deploymentKey, outputs.deploymentKey);
      assert.equal(updated.linkedPullZoneId, outputs.linkedPullZoneId);

      await emu.markRequests();
      const renamed = await host.update(TYPE, id, updated, { ...news, name: `${String(news.name)}-renamed` });
      assert.deepEqual(await calls(), ["POST /compute/script/:id"]);
      assert.equal(renamed.releaseId, updated.releaseId);
      assert.equal((await scripts().getScript(Number(id))).Name, `${String(news.name)}-renamed`);
    });

    it("code from a file asset: a change of the file's content is a change, and the new content is published", async () => {
      const path = join(dir, "handler.js");
      writeFileSync(path, "export default 1");
      const code = await asEngineSends(new pulumi.asset.FileAsset(path));
      const { id, outputs, inputs } = await created({ code });
      assert.equal(outputs.fingerprint, sha256("export default 1"));
      assert.equal((await scripts().getActiveRelease(Number(id))).Code, "export default 1");
      assert.deepEqual((await host.check(TYPE, outputs, { ...inputs, code, fingerprint: undefined })).inputs, inputs, "the same file is no change");

      writeFileSync(path, "export default 2");
      const news = (await host.check(TYPE, outputs, { ...inputs, code, fingerprint: undefined })).inputs;
      assert.equal(news.fingerprint, sha256("export default 2"));
      assert.deepEqual(await host.diff(TYPE, id, outputs, news), { changes: "some", replaces: [], deleteBeforeReplace: false });
      await host.update(TYPE, id, outputs, news);
      assert.equal((await scripts().getActiveRelease(Number(id))).Code, "export default 2");

      const text = await asEngineSends(new pulumi.asset.StringAsset("from a string asset"));
      assert.equal((await host.check(TYPE, {}, { name: "t", type: "Middleware", code: text })).inputs.fingerprint, sha256("from a string asset"));
    });

    it("refresh sees code published and a rename made outside Pulumi, and the next up sets them back in place", async () => {
      const { id, outputs, inputs } = await created();
      await scripts().setCode(Number(id), "theirs");
      await scripts().publish(Number(id));
      await scripts().updateScript(Number(id), { Name: "renamed-elsewhere" });
      host = await host.nextDeployment(CONFIG());
      await emu.markRequests();
      const read = await host.read(TYPE, id, outputs, inputs);
      // Sent at once (one round trip in a row): logged as they finish, in either order.
      assert.deepEqual((await calls()).sort(), ["GET /compute/script/:id", "GET /compute/script/:id/releases/active"]);
      assert.deepEqual(read.inputs, { ...inputs, name: "renamed-elsewhere", fingerprint: sha256("theirs") });
      assert.notEqual(read.outputs.releaseId, outputs.releaseId);
      assert.deepEqual(await host.diff(TYPE, id, read.outputs, inputs), { changes: "some", replaces: [], deleteBeforeReplace: false });
      const back = await host.update(TYPE, id, read.outputs, inputs);
      assert.equal((await scripts().getActiveRelease(Number(id))).Code, inputs.code);
      assert.equal(back.name, inputs.name);
    });

    it("refresh of an unchanged script keeps everything (two reads)", async () => {
      const { id, outputs, inputs } = await created();
      host = await host.nextDeployment(CONFIG());
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.deepEqual(read.inputs, inputs);
      assert.deepEqual(read.outputs, outputs);
    });

    it("delete takes the linked pull zone with it (after reading which zones are linked); with deleteLinkedPullZones: false the zone stays", async () => {
      const { id, outputs } = await created();
      await emu.markRequests();
      await host.delete(TYPE, id, outputs);
      assert.deepEqual((await emu.requests()).map((r) => r.url), [`/compute/script/${id}`, `/compute/script/${id}?deleteLinkedPullZones=true`]);
      await assert.rejects(scripts().getScript(Number(id)), NotFoundError);
      await assert.rejects(emu.client().pullZones.getPullZone(Number(outputs.linkedPullZoneId)), NotFoundError);

      const kept = await created({ deleteLinkedPullZones: false });
      await emu.markRequests();
      await host.delete(TYPE, kept.id, kept.outputs);
      assert.deepEqual((await emu.requests()).map((r) => r.url), [`/compute/script/${kept.id}?deleteLinkedPullZones=false`]);
      assert.equal((await emu.client().pullZones.getPullZone(Number(kept.outputs.linkedPullZoneId))).Id, kept.outputs.linkedPullZoneId);
    });

    it("by default, a pull zone managed apart whose origin is the script stops the script's delete, named (issue 37); with deleteLinkedPullZones: false it is kept on the landing page", async () => {
      const { id, outputs } = await created();
      const other = createPullZone(emu.emulator.ctx, `${uniqueName()}-apart`, { OriginType: 4, EdgeScriptId: Number(id) });
      assert.deepEqual(
        (await scripts().getScript(Number(id))).LinkedPullZones.map((z) => z.Id),
        [outputs.linkedPullZoneId, other.Id],
      );
      await assert.rejects(host.delete(TYPE, id, outputs), (e: unknown) => {
        assert.match(String(e), new RegExp(`Edge script \\S+ \\(id ${id}\\) is not deleted: it is the origin of pull zone ${other.Name} \\(id ${other.Id}\\), which would be left serving bunny.net's landing page`));
        return true;
      });
      assert.equal((await scripts().getScript(Number(id))).Id, Number(id), "still there");
      await host.delete(TYPE, id, { ...outputs, deleteLinkedPullZones: false });
      await assert.rejects(scripts().getScript(Number(id)), NotFoundError);
      assert.equal((await emu.client().pullZones.getPullZone(other.Id)).OriginUrl, "https://bunny.net");
    });
  });

  describe("already gone", () => {
    it("deleting a script already deleted succeeds; refresh of one deleted elsewhere says gone, and so do its variables and secrets", async () => {
      const { id, outputs, inputs } = await created();
      const scriptId = Number(id);
      const variable = await host.create("ScriptVariable", (await host.check("ScriptVariable", {}, { scriptId, name: "V" })).inputs);
      const secretInputs = (await host.check("ScriptSecret", {}, { scriptId, name: "S", value: "v" })).inputs;
      const secret = await host.create("ScriptSecret", secretInputs);
      await scripts().deleteScript(scriptId, { deleteLinkedPullZones: true });
      host = await host.nextDeployment(CONFIG());
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
      assert.equal((await host.read("ScriptVariable", variable.id, variable.outputs)).id, "");
      assert.equal((await host.read("ScriptSecret", secret.id, secret.outputs, secretInputs)).id, "");
      await host.delete("ScriptVariable", variable.id, variable.outputs);
      await host.delete("ScriptSecret", secret.id, secret.outputs);
      await host.delete(TYPE, id, outputs);
    });
  });

  describe("adoption instead of import", () => {
    it("without adoptExisting, a script of that name is refused; with it, it is adopted and the program's code published", async () => {
      const name = uniqueName();
      const existing = await scripts().createScript({ Name: name, ScriptType: 1, Code: "old code", CreateLinkedPullZone: true });
      host = await host.nextDeployment(CONFIG());
      const refused = await checked({ name });
      await assert.rejects(host.create(TYPE, refused), (e: unknown) => e instanceof HostError && new RegExp(`EdgeScript name="${name}" already exists .*set adoptExisting: true`).test(e.message));
      const inputs = await checked({ name, adoptExisting: true });
      const { id, outputs } = await host.create(TYPE, inputs);
      assert.equal(id, String(existing.script.Id));
      assert.equal((await scripts().getActiveRelease(Number(id))).Code, inputs.code);
      assert.equal(outputs.linkedPullZoneId, existing.script.LinkedPullZones[0].Id);
      assert.equal(outputs.deploymentKey, existing.deploymentKey);
    });

    it("a script of that name but another type is not adopted, naming the property", async () => {
      const name = uniqueName();
      await scripts().createScript({ Name: name, ScriptType: 2, Code: "x" });
      host = await host.nextDeployment(CONFIG());
      await assert.rejects(host.create(TYPE, await checked({ name, adoptExisting: true })), /differs from the inputs in: type/);
    });
  });

  it("a program with a script, its variable and its secret: up, an unchanged up without a call, refresh without drift, a code change in place, destroy leaves nothing", async () => {
    const harness = new ProgramHarness({ project: "edge-script-site", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const name = uniqueName();
    const program = (code: string) => () => {
      const script = new bunnynet.EdgeScript("site", { name, type: "Standalone", code: new pulumi.asset.StringAsset(code) });
      new bunnynet.ScriptVariable("origin", { scriptId: script.scriptId, name: "ORIGIN", defaultValue: "https://example.com" });
      new bunnynet.ScriptSecret("token", { scriptId: script.scriptId, name: "TOKEN", value: "s3cret" });
      return { hostname: script.linkedPullZoneHostname, zone: script.linkedPullZoneId };
    };
    const first = await harness.up(program("export default 1"));
    assert.deepEqual(first.steps.map((s) => s.op), ["create", "create", "create"]);
    assert.match(String(first.outputs.hostname), /\.b-cdn\.net$/);
    await emu.markRequests();
    const again = await harness.up(program("export default 1"));
    assert.deepEqual(again.steps.map((s) => s.op), ["same", "same", "same"]);
    assert.deepEqual(await emu.requests(), [], "an unchanged up makes no call");
    const refreshed = await harness.refresh();
    assert.deepEqual(refreshed.map((s) => s.op), ["refresh", "refresh", "refresh"]);
    assert.deepEqual((await harness.preview(program("export default 1"))).steps.map((s) => s.op), ["same", "same", "same"], "refresh found no drift");
    const changed = await harness.up(program("export default 2"));
    assert.deepEqual(changed.steps.map((s) => s.op), ["update", "same", "same"]);
    const scriptId = Number(harness.resource("EdgeScript", "site")?.id);
    assert.equal((await scripts().getActiveRelease(scriptId)).Code, "export default 2");
    await harness.destroy();
    await assert.rejects(scripts().getScript(scriptId), NotFoundError);
    await assert.rejects(emu.client().pullZones.getPullZone(Number(first.outputs.zone)), NotFoundError);
  });

  it("the deployment key is stored only as a secret, and nowhere in the host's output", async () => {
    const harness = new ProgramHarness({ project: "edge-script-test", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    await harness.up(() => ({ id: new bunnynet.EdgeScript("site", { name: uniqueName(), type: "Standalone", code: "export default {}" }).scriptId }));
    const [stored] = harness.resources();
    assert.deepEqual(stored.secretKeys, ["deploymentKey"]);
    const key = (await scripts().getScriptWithKey(Number(stored.id))).deploymentKey;
    assert.ok(key);
    assert.ok(!host.logs().includes(key));
    await harness.destroy();
    await assert.rejects(scripts().getScript(Number(stored.id)), NotFoundError);
  });
});
