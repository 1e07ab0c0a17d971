import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { ProgramHarness } from "../support/programHarness";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProviderHost, secret } from "../support/providerHost";

/**
 * A PullZone whose origin is a ContainerApp's endpoint (`origin.containerAppId` + `containerEndpointId`, the API's
 * OriginType 5), through the kit's real provider host against a fresh emulator: the program wires the app's `appId`
 * and `endpoints[name].id` outputs into the zone; up creates it with that origin; refresh finds no drift; moving it
 * to another endpoint is one update in place; an origin changed outside shows on refresh and up puts it back; destroy
 * leaves nothing.
 */
describe("pulumi: PullZone with a container app's endpoint as its origin", function () {
  this.timeout(60_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let harness: ProgramHarness;
  const suffix = `c${Date.now() % 100000}`;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    await host.configure({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" });
    harness = new ProgramHarness({ project: "container-origin", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  const program = (endpoint: "site" | "api") => () => {
    const app = new bunnynet.ContainerApp("web", {
      name: `web ${suffix}`,
      regions: { allowed: ["DE"], required: ["DE"] },
      autoscaling: { min: 1, max: 1 },
      containers: {
        web: {
          image: { registryId: Number(emu.fixtures.dockerHubRegistryId), namespace: "library", name: "nginx", tag: "1.27" },
          endpoints: { site: { type: "cdn" as const, ports: [{ container: 80 }] }, api: { type: "cdn" as const, ports: [{ container: 8080 }] } },
        },
      },
    });
    const zone = new bunnynet.PullZone("front", {
      name: `container-front-${suffix}`,
      origin: { containerAppId: app.appId, containerEndpointId: app.endpoints.apply((e) => e[endpoint].id) },
    });
    return { appId: app.appId, endpoints: app.endpoints, zoneId: zone.pullZoneId, origin: zone.origin };
  };

  const zoneOf = async (id: unknown) => emu.client().pullZones.getPullZone(Number(id));
  const endpointIds = (outputs: Record<string, unknown>) => Object.fromEntries(Object.entries(outputs.endpoints as Record<string, { id: string }>).map(([name, e]) => [name, e.id]));

  it("up creates the zone on the endpoint (OriginType 5, the app's and endpoint's ids, no URL)", async () => {
    const run = await harness.up(program("site"));
    assert.deepEqual(run.steps.map((s) => s.op), ["create", "create"]);
    const ids = endpointIds(run.outputs);
    const zone = await zoneOf(run.outputs.zoneId);
    assert.deepEqual([zone.OriginType, zone.MagicContainersAppId, zone.MagicContainersEndpointId, zone.OriginUrl], [5, run.outputs.appId, ids.site, ""]);
    assert.deepEqual(run.outputs.origin, { containerAppId: run.outputs.appId, containerEndpointId: ids.site, forwardHostHeader: false, verifySsl: false, followRedirects: false });
  });

  it("refresh finds no drift, and an unchanged up makes no call", async () => {
    const before = JSON.stringify(harness.resources());
    const steps = await harness.refresh();
    assert.deepEqual(steps.map((s) => s.op), ["refresh", "refresh"]);
    assert.equal(JSON.stringify(harness.resources()), before);
    await emu.markRequests();
    assert.deepEqual((await harness.up(program("site"))).steps.map((s) => s.op), ["same", "same"]);
    assert.deepEqual(await emu.requests(), []);
  });

  it("another endpoint is one update in place of the same zone", async () => {
    const id = harness.resource("PullZone", "front")!.id;
    await emu.markRequests();
    const run = await harness.up(program("api"));
    assert.deepEqual(run.steps.map((s) => s.op), ["same", "update"]);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`), ["POST /pullzone/:id"]);
    assert.equal(harness.resource("PullZone", "front")!.id, id);
    assert.equal((await zoneOf(id)).MagicContainersEndpointId, endpointIds(run.outputs).api);
  });

  it("refresh shows an origin changed outside the program, and up puts it back", async () => {
    const id = harness.resource("PullZone", "front")!.id;
    const ids = endpointIds(harness.resource("ContainerApp", "web")!.outputs);
    const appId = String(harness.resource("ContainerApp", "web")!.outputs.appId);
    await emu.client().pullZones.updatePullZone(Number(id), { OriginType: 5, MagicContainersAppId: appId, MagicContainersEndpointId: ids.site });
    await harness.refresh();
    assert.equal((harness.resource("PullZone", "front")!.outputs.origin as { containerEndpointId: string }).containerEndpointId, ids.site);
    const run = await harness.up(program("api"));
    assert.deepEqual(run.steps.map((s) => s.op), ["same", "update"]);
    assert.equal((await zoneOf(id)).MagicContainersEndpointId, ids.api);
  });

  it("destroy leaves nothing", async () => {
    const zoneId = harness.resource("PullZone", "front")!.id;
    const appId = String(harness.resource("ContainerApp", "web")!.outputs.appId);
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    await assert.rejects(zoneOf(zoneId), NotFoundError);
    await assert.rejects(emu.client().containers.getApp(appId), NotFoundError);
  });
});
