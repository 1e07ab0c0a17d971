import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { InvalidRequestError, NotFoundError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { RegionPageSchema } from "bunnynet-pulumi/dist/schemas/containers.js";

describe("client: Magic Containers (regions, endpoints, volumes)", () => {
  let emu: TestEmulator;
  let appId: string;
  before(async () => {
    emu = await startEmulator();
    appId = String(emu.fixtures.appId);
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const regionCount = () => Number(emu.fixtures.regionCount);
  const regionCalls = async () => (await emu.requests()).filter((r) => r.route === "/mc/regions");

  describe("regions", () => {
    it("one page has the API's default size, the total and a cursor", async () => {
      const page = await emu.client().containers.listRegionsPage();
      assert.equal(page.items.length, 20);
      assert.equal(page.meta?.totalItems, regionCount());
      assert.ok(page.cursor, "more pages follow");
      const region = page.items[0];
      assert.equal(typeof region.id, "string");
      assert.equal(typeof region.name, "string");
      assert.equal(typeof region.group, "string");
      assert.equal(typeof region.hasAnycastSupport, "boolean");
      assert.equal(typeof region.hasCapacity, "boolean");
    });

    it("pages through every region at the default size, sending the cursor back, without duplicates", async () => {
      assert.ok(regionCount() > 40);
      await emu.markRequests();
      const regions = [];
      for await (const region of emu.client().containers.listRegions()) regions.push(region);
      assert.equal(regions.length, regionCount());
      assert.equal(new Set(regions.map((r) => r.id)).size, regions.length);
      const calls = await regionCalls();
      assert.equal(calls.length, Math.ceil(regionCount() / 20));
      assert.ok(calls.length >= 3);
      assert.ok(!calls[0].url.includes("nextCursor"));
      assert.ok(calls.slice(1).every((c) => c.url.includes("nextCursor=")));
      assert.ok(regions.some((r) => r.hasCapacity === false) && regions.some((r) => r.hasCapacity === true));
      assert.ok(regions.some((r) => r.hasAnycastSupport === true) && regions.some((r) => r.hasAnycastSupport === false));
    });

    it("a larger page size needs one request; the last page has no cursor", async () => {
      await emu.markRequests();
      const ids = [];
      for await (const region of emu.client().containers.listRegions({ limit: 1000 })) ids.push(region.id);
      assert.equal(ids.length, regionCount());
      assert.equal((await regionCalls()).length, 1);
      const last = await emu.client().containers.listRegionsPage({ limit: 1000 });
      assert.equal(last.cursor ?? "", "");
    });

    it("the client refuses a limit outside 1..1000 before sending anything", async () => {
      await emu.markRequests();
      for (const limit of [0, 1001, 2.5, -1]) {
        await assert.rejects(emu.client().containers.listRegionsPage({ limit }), (e: unknown) => e instanceof InvalidRequestError && e.field === "limit");
      }
      assert.equal((await emu.requests()).length, 0);
    });

    it("the emulator refuses a bad limit or cursor with extended problem details naming the field", async () => {
      const http = emu.client({ maxRetries: 0 }).http;
      for (const limit of ["0", "1001", "abc", "1.5"]) {
        await assert.rejects(http.request({ api: "containers", method: "GET", path: "/regions", query: { limit }, responseSchema: RegionPageSchema }), (e: unknown) => {
          assert.ok(e instanceof ValidationError, String(e));
          assert.equal(e.status, 400);
          assert.equal(e.field, "limit");
          return true;
        });
      }
      await assert.rejects(http.request({ api: "containers", method: "GET", path: "/regions", query: { nextCursor: "garbage!" } }), (e: unknown) => e instanceof ValidationError && e.field === "nextCursor");

      const res = await fetch(`${emu.url}/mc/regions?limit=0`, { headers: { AccessKey: emu.fixtures.accessKey } });
      assert.equal(res.status, 400);
      assert.match(String(res.headers.get("content-type")), /application\/problem\+json/);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.status, 400);
      assert.equal(typeof body.title, "string");
      assert.equal(body.instance, "/mc/regions");
      // `id` is the application's id (ErrorDetails.id in the published document), so a list of regions has none.
      assert.equal(body.id, undefined);
      assert.deepEqual((body.errors as { field: string }[]).map((e) => e.field), ["limit"]);
    });

    it("refuses keys that are not the account's", async () => {
      await assert.rejects(emu.client({ apiKey: "not-an-account-key", maxRetries: 0 }).containers.listRegionsPage(), UnauthorizedError);
    });

    it("retries listing through injected 503s and still yields each region once", async () => {
      await emu.faults({ rules: [{ path: "^/mc/regions$", errorRate: 0.5, errorStatus: 503 }], seed: 5 });
      const client = emu.client({ maxRetries: 10 });
      const ids = [];
      for await (const region of client.containers.listRegions({ limit: 7 })) ids.push(region.id);
      assert.equal(ids.length, regionCount());
      assert.equal(new Set(ids).size, ids.length);
      assert.ok(client.http.stats.retries > 0, "some pages needed a retry");
    });
  });

  describe("app endpoints", () => {
    it("lists every endpoint of every container, with types and port mappings", async () => {
      const endpoints = [];
      for await (const endpoint of emu.client().containers.listEndpoints(appId)) endpoints.push(endpoint);
      assert.equal(endpoints.length, Number(emu.fixtures.endpointCount));
      assert.deepEqual(new Set(endpoints.map((e) => e.type)), new Set(["cdn", "anycast", "publicIp"]));
      assert.ok(new Set(endpoints.map((e) => e.containerId)).size >= 3, "endpoints of several containers");
      const cdn = endpoints.find((e) => e.type === "cdn");
      assert.ok(cdn?.publicHost && cdn.pullZoneId && cdn.isSslEnabled === true);
      const dns = endpoints.find((e) => e.portMappings.some((p) => p.protocols.includes("udp")));
      assert.deepEqual(dns?.portMappings, [{ containerPort: 5353, exposedPort: 53, protocols: ["udp", "tcp"] }]);
      const direct = endpoints.find((e) => e.type === "publicIp");
      assert.ok((direct?.publicIpAddresses ?? []).length >= 2);
    });

    it("asks for the endpoints in one request without paging parameters, and does not follow a cursor", async () => {
      // The published API documents no paging parameters for this list (magic-containers-api-v1.0.0.json,
      // GET /apps/{appId}/endpoints); the emulator answers the whole list with a cursor anyway.
      await emu.markRequests();
      const ids = [];
      for await (const endpoint of emu.client().containers.listEndpoints(appId)) ids.push(endpoint.id);
      assert.equal(ids.length, Number(emu.fixtures.endpointCount));
      const calls = (await emu.requests()).filter((r) => r.route === "/mc/apps/:appId/endpoints");
      assert.equal(calls.length, 1);
      assert.ok(!calls[0].url.includes("?"), `no query string: ${calls[0].url}`);
    });

    it("answers 404 for an unknown app", async () => {
      await assert.rejects(emu.client().containers.listEndpointsPage("no-such-app"), (e: unknown) => e instanceof NotFoundError && e.field === "appId");
      const res = await fetch(`${emu.url}/mc/apps/no-such-app/endpoints`, { headers: { AccessKey: emu.fixtures.accessKey } });
      assert.equal(res.status, 404);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.status, 404);
      assert.equal(body.instance, "/mc/apps/no-such-app/endpoints");
      assert.equal(body.id, "no-such-app", "the extended problem's id is the application id, not a request id");
    });
  });

  describe("volumes", () => {
    const attachedVolumeId = () => String(emu.fixtures.attachedVolumeId);
    const attachedInstanceId = () => String(emu.fixtures.attachedInstanceId);
    const detachedVolumeId = () => String(emu.fixtures.detachedVolumeId);
    const detachedInstanceId = () => String(emu.fixtures.detachedInstanceId);

    it("lists the app's volumes with their instances", async () => {
      const list = await emu.client().containers.listVolumesPage(appId);
      assert.equal(list.meta?.totalItems, list.items.length);
      assert.ok((list.summary?.totalPods ?? 0) > 0);
      const attached = list.items.find((v) => v.id === attachedVolumeId());
      const detached = list.items.find((v) => v.id === detachedVolumeId());
      assert.ok(attached && detached);
      assert.ok(attached.volumeInstances.length >= 2 && detached.volumeInstances.length >= 2);
      assert.ok(attached.volumeInstances.every((i) => i.status === "attached" && i.attachedPods.length > 0));
      assert.equal(attached.attachedInstancesCount, attached.volumeInstances.length);
      assert.ok(detached.volumeInstances.every((i) => i.status === "detached"));
      assert.equal(detached.attachedInstancesCount, 0);
    });

    it("deletes an instance of a detached volume; deleting it again is a 404", async () => {
      const containers = emu.client().containers;
      assert.deepEqual(await containers.deleteVolumeInstance(appId, detachedVolumeId(), detachedInstanceId()), { id: detachedInstanceId() });
      const volume = await containers.findVolume(appId, detachedVolumeId());
      assert.ok(volume && !volume.volumeInstances.some((i) => i.id === detachedInstanceId()));
      await assert.rejects(containers.deleteVolumeInstance(appId, detachedVolumeId(), detachedInstanceId()), (e: unknown) => e instanceof NotFoundError && e.field === "instanceId");
    });

    it("refuses to delete an instance while the volume is attached, allows it after detaching", async () => {
      const containers = emu.client().containers;
      await assert.rejects(containers.deleteVolumeInstance(appId, attachedVolumeId(), attachedInstanceId()), (e: unknown) => {
        assert.ok(e instanceof ValidationError, String(e));
        assert.equal(e.status, 400);
        assert.equal(e.field, "instanceId");
        assert.match(e.message, /must be detached/);
        return true;
      });
      assert.equal((await containers.findVolume(appId, attachedVolumeId()))?.volumeInstances.length, 3, "nothing was deleted");

      const detached = await containers.detachVolume(appId, attachedVolumeId());
      assert.equal(detached.name, "api-data");
      const volume = await containers.findVolume(appId, attachedVolumeId());
      assert.ok(volume?.volumeInstances.every((i) => i.status === "detached" && i.attachedPods.length === 0));
      assert.equal(volume?.attachedInstancesCount, 0);
      // Detaching again changes nothing.
      assert.deepEqual(await containers.detachVolume(appId, attachedVolumeId()), detached);

      assert.deepEqual(await containers.deleteVolumeInstance(appId, attachedVolumeId(), attachedInstanceId()), { id: attachedInstanceId() });
      assert.equal((await containers.findVolume(appId, attachedVolumeId()))?.volumeInstances.length, 2);
    });

    it("detach is retried when its answer is lost after the server acted", async () => {
      await emu.faults({ rules: [{ path: "/detach$", errorRate: 1, errorStatus: 503, phase: "after" }] });
      const client = emu.client({ maxRetries: 2 });
      await emu.markRequests();
      await assert.rejects(client.containers.detachVolume(appId, detachedVolumeId()), (e: unknown) => (e as { attempts?: number }).attempts === 3);
      await emu.faults({ rules: [{ path: "/detach$", errorRate: 0.5, errorStatus: 503, phase: "after" }], seed: 2 });
      const retrying = emu.client({ maxRetries: 10 });
      for (let i = 0; i < 4; i++) assert.equal((await retrying.containers.detachVolume(appId, detachedVolumeId())).name, "old-cache");
      assert.ok(retrying.http.stats.retries > 0);
    });

    it("answers 404 for an unknown app, volume or instance", async () => {
      const containers = emu.client().containers;
      await assert.rejects(containers.listVolumesPage("no-such-app"), NotFoundError);
      await assert.rejects(containers.detachVolume(appId, "no-such-volume"), (e: unknown) => e instanceof NotFoundError && e.field === "volumeId");
      await assert.rejects(containers.detachVolume("no-such-app", detachedVolumeId()), (e: unknown) => e instanceof NotFoundError && e.field === "appId");
      await assert.rejects(containers.deleteVolumeInstance(appId, detachedVolumeId(), "no-such-instance"), (e: unknown) => e instanceof NotFoundError && e.field === "instanceId");
      await assert.rejects(containers.deleteVolumeInstance(appId, "", "x"), (e: unknown) => e instanceof InvalidRequestError && e.field === "volumeId");
    });
  });

  describe("image registries", () => {
    const containers = () => emu.client().containers;
    const request = (userName: string, password = "token-1234") => ({ displayName: "GitHub", type: "gitHub" as const, passwordCredentials: { userName, password } });

    it("lists the public registries every account has", async () => {
      const registries = await containers().listRegistries();
      const dockerHub = registries.find((r) => String(r.id) === String(emu.fixtures.dockerHubRegistryId))!;
      assert.equal(dockerHub.displayName, "DockerHub Public");
      assert.equal(dockerHub.hostName, "docker.io");
      assert.equal(dockerHub.isPublic, true);
    });

    it("adds a registry (answered 201 with its id), reads it back with only the password's ends, updates and deletes it", async () => {
      await emu.markRequests();
      const id = await containers().addRegistry(request("octocat", "ghp_first-token"));
      assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`), ["POST /mc/registries 201"]);
      const read = await containers().getRegistry(id);
      assert.deepEqual(
        { id: read.id, displayName: read.displayName, hostName: read.hostName, userName: read.userName, first: read.firstPasswordSymbols, last: read.lastPasswordSymbols },
        { id, displayName: "GitHub", hostName: "ghcr.io", userName: "octocat", first: "gh", last: "en" },
      );
      assert.ok(!JSON.stringify(await containers().listRegistries()).includes("ghp_first-token"));
      await containers().updateRegistry(id, request("octocat", "second-token!"));
      assert.equal((await containers().getRegistry(id)).lastPasswordSymbols, "n!");
      await containers().deleteRegistry(id);
      await assert.rejects(containers().getRegistry(id), NotFoundError);
      // A retried delete is told the registry is gone (200 status notFound).
      await assert.rejects(containers().deleteRegistry(id), NotFoundError);
      await assert.rejects(containers().updateRegistry(id, request("octocat")), NotFoundError);
    });

    it("the API refuses a body the client would refuse, naming the field; the client refuses it first", async () => {
      await emu.markRequests();
      await assert.rejects(containers().addRegistry({ ...request("u"), displayName: "" }), (e: unknown) => e instanceof InvalidRequestError && e.field === "displayName");
      await assert.rejects(containers().addRegistry({ ...request(""), type: "gitHub" }), (e: unknown) => e instanceof InvalidRequestError && /passwordCredentials/.test(String(e.field)));
      await assert.rejects(containers().getRegistry(0), (e: unknown) => e instanceof InvalidRequestError && e.field === "registryId");
      assert.equal((await emu.requests()).length, 0);
      const raw = await fetch(`${emu.url}/mc/registries`, { method: "POST", headers: { AccessKey: String(emu.fixtures.accessKey), "content-type": "application/json" }, body: JSON.stringify({ displayName: "x", type: "quay" }) });
      assert.equal(raw.status, 400);
      assert.match(JSON.stringify(await raw.json()), /"field":"type"/);
    });

    it("a public registry cannot be deleted, and one an app's container uses is refused naming the app", async () => {
      await assert.rejects(containers().deleteRegistry(Number(emu.fixtures.dockerHubRegistryId)), (e: unknown) => e instanceof ValidationError && e.field === "registryId");
      const id = await containers().addRegistry(request("app-user"));
      const app = {
        name: "registry-user",
        runtimeType: "shared",
        autoScaling: { min: 1, max: 1 },
        regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: ["DE"] },
        containerTemplates: [{ name: "web", imageNamespace: "octocat", imageName: "web", imageTag: "1", imageRegistryId: String(id), imagePullPolicy: "always" }],
      };
      const headers = { AccessKey: String(emu.fixtures.accessKey), "content-type": "application/json" };
      const created = await fetch(`${emu.url}/mc/apps`, { method: "POST", headers, body: JSON.stringify(app) });
      assert.equal(created.status, 201, await created.clone().text());
      const { id: appId } = (await created.json()) as { id: string };
      await assert.rejects(containers().deleteRegistry(id), (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.match(e.message, new RegExp(`^container registry ${id} is still used by the image of container app registry-user \\(${appId}\\): move their images`));
        assert.doesNotMatch(e.message, /answered 200/);
        return true;
      });
      assert.equal((await containers().getRegistry(id)).id, id, "still there");
      await fetch(`${emu.url}/mc/apps/${appId}`, { method: "DELETE", headers: { AccessKey: String(emu.fixtures.accessKey) } });
      await containers().deleteRegistry(id);
    });
  });
});
