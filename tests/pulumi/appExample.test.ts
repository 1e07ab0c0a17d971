import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { documentedGet } from "../support/documentedGet";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";
import { app } from "../../examples/app/program";

const PROJECT = "bunnynet-app";
const short = (urn: string) => urn.split("::").pop();
/** Every resource of the example, by name. */
const RESOURCES = ["front", "app", "zone", "app-record", "app-hostname", "videos", "tutorials", "clip"];

/**
 * examples/app from zero against a fresh emulator, through the kit's real provider host: one `up` deploys the app
 * (running, its CDN endpoint on the declared pull zone with a hostname and a certificate, an Anycast endpoint, the
 * secret env value never in plain state) and the video in its collection; an unchanged `up` makes no call but its registry look-up; a new
 * image tag is one in-place update; refresh finds no drift; destroy leaves nothing. What the API holds is read with
 * the documented GETs.
 */
describe("pulumi: a container app with its media (examples/app)", function () {
  this.timeout(120_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let harness: ProgramHarness;
  const sessionSecret = `session-${randomBytes(12).toString("base64url")}`;
  const config = (extra: Record<string, string> = {}) => ({
    ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)),
    [`${PROJECT}:sessionSecret`]: sessionSecret,
    // The video the example ships, wherever the compiled program runs from (dist/tests/pulumi).
    [`${PROJECT}:mediaFolder`]: join(__dirname, "..", "..", "..", "examples", "app", "media"),
    ...extra,
  });

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: PROJECT });
    harness = new ProgramHarness({ project: PROJECT, config: config(), secretConfig: ["bunnynet:apiKey", `${PROJECT}:sessionSecret`], providerHost: host });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  const mc = (path: string) => documentedGet(emu, `/mc${path}`);

  it("one up deploys the app behind its declared pull zone, and the video into its collection", async () => {
    const run = await harness.up(app);
    assert.deepEqual(run.steps.map((s) => `${short(s.urn)} ${s.op}`).sort(), RESOURCES.map((name) => `${name} create`).sort());
    assert.equal(run.outputs.appStatus, "active");
    const ids = Object.fromEntries(harness.resources().map((r) => [r.name, r.id]));
    assert.equal(run.outputs.cdnEndpointPullZoneId, Number(ids.front), "the CDN endpoint is on the program's pull zone");
    assert.match(String(run.outputs.anycastHost), /\.bunny\.run$/);
    assert.ok(Date.parse(String(run.outputs.certificateExpiresAt)) > Date.now());
    const deployed = await mc(`/apps/${run.outputs.appId}`);
    assert.equal(deployed?.status, "active");
    const [web] = deployed?.containerTemplates as { environmentVariables: { name: string; value: string }[]; volumeMounts: unknown[] }[];
    assert.ok(web.environmentVariables.some((v) => v.name === "SESSION_SECRET" && v.value === sessionSecret));
    assert.deepEqual(deployed?.volumes, [{ name: "uploads", size: 1 }]);
    assert.equal(run.outputs.videoStatus, 4, "the video plays");
    // The video, read with the library's own key as Stream requires: in the collection.
    const library = (await (await fetch(`${emu.url}/videolibrary/${ids.videos}`, { headers: { AccessKey: emu.fixtures.accessKey } })).json()) as { ApiKey: string };
    const video = (await (await fetch(`${emu.url}/library/${ids.videos}/videos/${run.outputs.videoId}`, { headers: { AccessKey: library.ApiKey } })).json()) as Record<string, unknown>;
    assert.deepEqual([video.title, video.collectionId], ["Getting started", run.outputs.collectionId]);
    const stored = harness.resource("ContainerApp", "app")!;
    const plainOutputs = Object.fromEntries(Object.entries(stored.outputs).filter(([k]) => !stored.secretKeys.includes(k)));
    assert.ok(!JSON.stringify(plainOutputs).includes(sessionSecret), "the session secret in plain state");
  });

  it("an unchanged up makes no resource call, and refresh finds no drift", async () => {
    await emu.markRequests();
    const run = await harness.up(app);
    assert.deepEqual(run.steps.map((s) => s.op), Array(RESOURCES.length).fill("same"));
    // Only the program's own look-up of the public registry (a lookup runs at every `up`), no resource's call.
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /mc/registries"]);
    const before = JSON.stringify(harness.resources());
    await harness.refresh();
    assert.equal(JSON.stringify(harness.resources()), before);
  });

  it("a new image tag is one in-place update of the app", async () => {
    harness.setConfig(config({ [`${PROJECT}:imageTag`]: "1.28" }));
    const run = await harness.up(app);
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => `${short(s.urn)} ${s.op}`), ["app update"]);
    assert.equal(run.outputs.appStatus, "active");
  });

  it("destroy leaves nothing", async () => {
    const appId = String(harness.resource("ContainerApp", "app")!.outputs.appId);
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    assert.equal(await mc(`/apps/${appId}`), undefined);
  });
});
