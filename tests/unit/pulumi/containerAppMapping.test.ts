import assert from "node:assert/strict";
import { containerAppInputs } from "bunnynet-pulumi/dist/resources/containerAppInputs.js";
import { appOutputs, applicationRequest, observedInputs, removedVolumes, repeatedEndpoint } from "bunnynet-pulumi/dist/resources/containerAppMapping.js";
import { ApplicationSchema } from "bunnynet-pulumi/dist/schemas/containers.js";
import { sameValue } from "bunnynet-pulumi/dist/pulumi/index.js";

/** ContainerApp's name-keyed maps against the API's arrays, both ways, and the rules check applies (no API). */
describe("ContainerApp mapping (containerAppMapping.ts)", () => {
  const image = (tag: string) => ({ registryId: 7, namespace: "library", name: "nginx", tag });
  const inputs = (containers: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    containerAppInputs.parse({ name: "shop", regions: { allowed: ["UK", "DE"], required: ["DE"] }, autoscaling: { min: 1, max: 2 }, containers, ...extra });

  const twoContainers = {
    web: {
      image: image("1.27"),
      env: { ZED: "z", ALPHA: "a" },
      probes: { readiness: { type: "http", port: 80, path: "/healthz", expectedStatus: 200 }, liveness: { type: "grpc", port: 81, service: "health" } },
      volumeMounts: { data: "/data" },
      endpoints: { site: { type: "cdn", ports: [{ container: 80 }], cdn: { pullZoneId: 42 } }, admin: { type: "anycast", ports: [{ container: 81, exposed: 8081 }] } },
    },
    api: { image: image("2") },
  };

  /** The Application the API would answer for a request (ids given, defaults filled as the emulator fills them). */
  function answerFor(request: ReturnType<typeof applicationRequest>, reversed = false) {
    const templates = (request.containerTemplates ?? []).map((c, i) => ({
      ...c,
      id: `c${i}`,
      imagePullPolicy: c.imagePullPolicy === "always" ? "Always" : "IfNotPresent",
      imageDigest: `sha256:${"a".repeat(64)}`,
      endpoints: (c.endpoints ?? []).map((e, j) => ({
        id: `e${i}${j}`,
        displayName: e.displayName,
        type: e.cdn ? "cdn" : "anycast",
        publicHost: `${e.displayName}.example`,
        isSslEnabled: e.cdn?.isSslEnabled ?? false,
        pullZoneId: String(e.cdn?.pullZoneId ?? (e.cdn ? 999 : 0)),
        portMappings: (e.cdn ?? e.anycast)!.portMappings.map((m) => ({ containerPort: m.containerPort, exposedPort: m.exposedPort ?? 443, protocols: ["tcp"] })),
      })),
    }));
    return ApplicationSchema.parse({
      id: "app1",
      name: request.name,
      status: "active",
      runtimeType: "shared",
      regionSettings: { allowedRegionIds: [...(request.regionSettings.allowedRegionIds ?? [])].reverse(), requiredRegionIds: request.regionSettings.requiredRegionIds },
      containerTemplates: reversed ? templates.reverse() : templates,
      containerInstances: [],
      volumes: request.volumes,
      autoScaling: request.autoScaling,
    });
  }

  it("sends containers, env, endpoints, mounts and volumes as arrays sorted by name, whatever the program's order", () => {
    const request = applicationRequest(inputs(twoContainers, { volumes: { data: { sizeGb: 3 } } }));
    assert.deepEqual(request.containerTemplates!.map((c) => c.name), ["api", "web"]);
    const web = request.containerTemplates![1];
    assert.deepEqual(web.environmentVariables, [{ name: "ALPHA", value: "a" }, { name: "ZED", value: "z" }]);
    assert.deepEqual(web.endpoints!.map((e) => e.displayName), ["admin", "site"]);
    assert.deepEqual(web.endpoints![1].cdn, { isSslEnabled: false, pullZoneId: 42, portMappings: [{ containerPort: 80 }] });
    assert.deepEqual(web.probes!.readiness!.httpGet, { request: { path: "/healthz", portNumber: 80 }, response: { expectedStatusCode: 200 } });
    assert.deepEqual(web.probes!.liveness!.grpc, { request: { portNumber: 81, serviceName: "health" } });
    assert.deepEqual(request.regionSettings.allowedRegionIds, ["DE", "UK"]);
    assert.deepEqual(request.volumes, [{ name: "data", size: 3 }]);
    const reordered = applicationRequest(inputs({ api: twoContainers.api, web: { ...twoContainers.web, env: { ALPHA: "a", ZED: "z" } } }, { volumes: { data: { sizeGb: 3 } } }));
    assert.deepEqual(reordered, request);
  });

  it("an update names each container's id by name, so the API keeps it", () => {
    const request = applicationRequest(inputs(twoContainers, { volumes: { data: { sizeGb: 1 } } }), { web: "id-web", api: "id-api" });
    assert.deepEqual(request.containerTemplates!.map((c) => [c.name, c.id]), [["api", "id-api"], ["web", "id-web"]]);
  });

  it("reads the answer back into the same inputs, in any order, leaving unset what the program did not set", () => {
    const wanted = inputs(twoContainers, { volumes: { data: { sizeGb: 3 } } });
    for (const reversed of [false, true]) {
      const observed = observedInputs(answerFor(applicationRequest(wanted), reversed), wanted);
      assert.ok(sameValue(observed, wanted), JSON.stringify(observed));
    }
  });

  it("shows drift: a changed tag, env value or scaling, and a container added outside", () => {
    const wanted = inputs(twoContainers, { volumes: { data: { sizeGb: 3 } } });
    const request = applicationRequest(wanted);
    request.containerTemplates![1].imageTag = "1.28";
    request.containerTemplates![1].environmentVariables = [{ name: "ALPHA", value: "changed" }];
    request.autoScaling = { min: 2, max: 2 };
    request.containerTemplates!.push({ name: "sidecar", imageRegistryId: "7", imageNamespace: "library", imageName: "busybox", imageTag: "1" });
    const observed = observedInputs(answerFor(request), wanted);
    assert.equal(observed.containers.web.image.tag, "1.28");
    assert.deepEqual(observed.containers.web.env, { ALPHA: "changed" });
    assert.deepEqual(observed.autoscaling, { min: 2, max: 2 });
    assert.deepEqual(Object.keys(observed.containers).sort(), ["api", "sidecar", "web"]);
  });

  it("the outputs: container ids by name, each endpoint's host and pull zone (none for anycast)", () => {
    const outputs = appOutputs(answerFor(applicationRequest(inputs(twoContainers, { volumes: { data: { sizeGb: 3 } } }))));
    assert.deepEqual(outputs.containerIds, { api: "c0", web: "c1" });
    assert.deepEqual(outputs.endpoints.site, { id: "e11", container: "web", type: "cdn", publicHost: "site.example", pullZoneId: 42 });
    assert.equal(outputs.endpoints.admin.pullZoneId, undefined);
  });

  it("a removed volume, and an endpoint name used by two containers, are found by name", () => {
    assert.deepEqual(removedVolumes({ data: {}, logs: {} }, { data: {} }), ["logs"]);
    assert.deepEqual(removedVolumes({ data: {} }, undefined), ["data"]);
    assert.deepEqual(removedVolumes(undefined, { data: {} }), []);
    assert.deepEqual(repeatedEndpoint({ b: { endpoints: { site: {} } }, a: { endpoints: { site: {} } } }), { endpoint: "site", containers: ["a", "b"] });
    assert.equal(repeatedEndpoint({ a: { endpoints: { one: {} } }, b: { endpoints: { two: {} } } }), undefined);
  });
});
