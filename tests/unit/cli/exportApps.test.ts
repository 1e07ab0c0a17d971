import assert from "node:assert/strict";
import type { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { readAccount } from "bunnynet-pulumi/dist/cli/export/account.js";
import { printValue, type ProgramResource } from "bunnynet-pulumi/dist/cli/export/program.js";
import { ApplicationSchema } from "bunnynet-pulumi/dist/schemas/containers.js";
import type { PullZone } from "bunnynet-pulumi/dist/types.generated.js";

/**
 * `bunnynet export`'s container apps, on a client that answers from memory: which pull zone a CDN endpoint fronts is
 * declared and referenced, which one the API made for the endpoint is left to the app (its `endpoints` output), and
 * environment values are config keys, never values in the program.
 */

const APP = ApplicationSchema.parse({
  id: "app1",
  name: "shop",
  status: "active",
  runtimeType: "shared",
  autoScaling: { min: 1, max: 1 },
  regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: [] },
  volumes: [],
  containerTemplates: [
    {
      id: "c1",
      name: "web",
      imageName: "shop",
      imageNamespace: "acme",
      imageTag: "2.0",
      imageRegistryId: "1",
      imagePullPolicy: "ifNotPresent",
      environmentVariables: [{ name: "API_KEY", value: "value-never-written" }],
      endpoints: [
        // The API made this one's zone (the endpoint's host is the zone's own), and the program fronts the other with a zone of its own.
        { id: "e1", displayName: "made", type: "cdn", publicHost: "mc-app1-made.b-cdn.net", pullZoneId: "701", portMappings: [{ containerPort: 80, exposedPort: 443 }] },
        { id: "e2", displayName: "fronted", type: "cdn", publicHost: "mc-app1-fronted.b-cdn.net", pullZoneId: "702", portMappings: [{ containerPort: 81, exposedPort: 443 }] },
      ],
    },
  ],
});

const zone = (id: number, name: string): PullZone => ({ Id: id, Name: name, Hostnames: [{ Id: id * 10, Value: `${name}.b-cdn.net`, IsSystemHostname: true }] }) as unknown as PullZone;

async function* items<T>(list: T[]): AsyncGenerator<T> {
  yield* list;
}

/** Only what the kinds read for apps and pull zones. */
const client = {
  containers: { listApps: () => items([{ id: APP.id, name: APP.name }]), getApp: async () => APP, listRegistries: async () => [] },
  pullZones: {
    listPullZones: () =>
      // shop-origin is declared with the app's endpoint `made` as its origin (OriginType 5): the app did not make it.
      // shop-cdn is fronted by the endpoint `fronted`, which bunny.net made its origin (OriginType 5).
      items([zone(701, "mc-app1-made"), { ...zone(702, "shop-cdn"), OriginType: 5, OriginUrl: "", MagicContainersAppId: "app1", MagicContainersEndpointId: "e2" }, { ...zone(703, "shop-origin"), OriginType: 5, OriginUrl: "", MagicContainersAppId: "app1", MagicContainersEndpointId: "e1" }]),
  },
  videoLibraries: { list: () => items([]) },
  edgeScripts: { listScripts: () => items([]) },
} as unknown as BunnyClient;

const resourcesOf = async (only: string[]) => {
  const exported = await readAccount(client, { only: new Set(only), filters: {}, progress: () => undefined });
  assert.ok(exported);
  return { exported, resources: exported.sections.flatMap((s) => s.resources) };
};
const endpointsOf = (r: ProgramResource | undefined) => printValue((r?.inputs.containers as Record<string, Record<string, unknown>>).web.endpoints as never);

describe("unit: bunnynet export's container apps", () => {
  it("the pull zone the API made for an endpoint is the app's (not declared); a zone the endpoint fronts is declared and referenced", async () => {
    const { exported, resources } = await resourcesOf(["PullZone", "ContainerApp"]);
    assert.deepEqual(
      resources.map((r) => `${r.type} ${r.name}`),
      ["PullZone shop-cdn", "ContainerApp shop", "PullZone shop-origin"],
    );
    assert.match(exported.skipped.map((s) => `${s.what}: ${s.reason}`).join("\n"), /pull zone mc-app1-made: the pull zone the API made for endpoint made of container app shop, managed with the app/);
    const endpoints = endpointsOf(resources.find((r) => r.type === "ContainerApp"));
    assert.match(endpoints, /fronted: \{[^]*cdn: \{\n {6}pullZoneId: shopCdn\.pullZoneId,/);
    // The made zone's id is stated nowhere: unset, the API keeps the endpoint on it.
    assert.doesNotMatch(endpoints, /701/);
    assert.doesNotMatch(endpoints, /made: \{\n {4}type: "cdn",\n {4}ports: \[[^\]]*\],\n {4}cdn:/);
  });

  it("a declared zone an endpoint fronts, whose origin bunny.net set to that endpoint, is written frontsContainerEndpoint (no cycle)", async () => {
    const { resources } = await resourcesOf(["PullZone", "ContainerApp"]);
    const origin = printValue(resources.find((r) => r.name === "shop-cdn")!.inputs.origin as never);
    assert.match(origin, /frontsContainerEndpoint: true,/);
    assert.doesNotMatch(origin, /containerAppId|containerEndpointId|shop\.|app1|e2/);
  });

  it("a declared pull zone whose origin is an endpoint of the app is written after the app, referring to it", async () => {
    const { resources } = await resourcesOf(["PullZone", "ContainerApp"]);
    const origin = printValue(resources.find((r) => r.name === "shop-origin")!.inputs.origin as never);
    assert.match(origin, /containerAppId: shop\.appId,/);
    assert.match(origin, /containerEndpointId: shop\.endpoints\.made\.id,/);
    assert.doesNotMatch(origin, /app1|e1/);
  });

  it("a container or endpoint whose name holds a dot is referred to in brackets, and the zone made for it is still the app's", async () => {
    const template = APP.containerTemplates[0];
    const dotted = ApplicationSchema.parse({
      ...APP,
      containerTemplates: [{ ...template, name: "web.v2", endpoints: template.endpoints.map((e) => (e.id === "e1" ? { ...e, displayName: "made.v1" } : e)) }],
    });
    const dottedClient = { ...client, containers: { ...client.containers, getApp: async () => dotted } } as unknown as BunnyClient;
    const exported = await readAccount(dottedClient, { only: new Set(["PullZone", "ContainerApp"]), filters: {}, progress: () => undefined });
    const resources = exported!.sections.flatMap((s) => s.resources);
    assert.match(printValue(resources.find((r) => r.name === "shop-origin")!.inputs.origin as never), /containerEndpointId: shop\.endpoints\["made\.v1"\]\.id,/);
    const app = resources.find((r) => r.type === "ContainerApp")!;
    const endpoints = printValue((app.inputs.containers as Record<string, Record<string, unknown>>)["web.v2"].endpoints as never);
    assert.match(endpoints, /fronted: \{[^]*cdn: \{\n {6}pullZoneId: shopCdn\.pullZoneId,/);
    assert.doesNotMatch(endpoints, /701/);
  });

  it("without the pull zones exported, no endpoint names one (an id is stated only as a reference)", async () => {
    const { resources } = await resourcesOf(["ContainerApp"]);
    assert.doesNotMatch(endpointsOf(resources[0]), /cdn:|70[12]/);
  });

  it("environment values come from secret config keys, and no value is in the program", async () => {
    const { exported, resources } = await resourcesOf(["ContainerApp"]);
    const text = printValue(resources[0].inputs);
    assert.match(text, /API_KEY: config\.requireSecret\("shopWebApiKey"\)/);
    assert.ok(!text.includes("value-never-written"));
    assert.deepEqual(exported.config, [{ key: "shopWebApiKey", secret: true, what: "the value of environment variable API_KEY of container web (kept secret: the API does not say which values are secrets)" }]);
    // The API's defaults inside the containers are left out, as a person writes them.
    assert.ok(!text.includes("pullPolicy"));
  });
});
