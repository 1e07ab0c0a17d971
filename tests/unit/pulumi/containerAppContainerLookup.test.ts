import assert from "node:assert/strict";
import type { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { getContainerAppContainer } from "bunnynet-pulumi/dist/lookups/containerAppContainers.js";

/**
 * `getContainerAppContainer`'s rule for a name two containers share, which the emulator (like the API's document:
 * names unique in the app) never answers: an app as a stand-in client gives it.
 */
describe("unit: getContainerAppContainer", () => {
  const template = (id: string, name: string) => ({ id, name, imageName: "site", imageNamespace: "team", imageTag: "1.0", imageRegistryId: "7", environmentVariables: [], endpoints: [], volumeMounts: [] });
  const clientAnswering = (templates: ReturnType<typeof template>[]) =>
    ({ containers: { getApp: async (id: string) => ({ id, name: "shop", containerTemplates: templates }) } }) as unknown as BunnyClient;

  it("refuses a name two containers of the app share, naming their ids", async () => {
    const client = clientAnswering([template("c1", "web"), template("c2", "web"), template("c3", "worker")]);
    await assert.rejects(getContainerAppContainer({ appId: "app", name: "web" }, { client }), /app "shop" has 2 containers named "web" \(ids c1, c2\)/);
    assert.equal((await getContainerAppContainer({ appId: "app", name: "worker" }, { client })).containerId, "c3");
  });

  it("a digest the API leaves empty is undefined, not an empty string", async () => {
    const result = await getContainerAppContainer({ appId: "app", name: "web" }, { client: clientAnswering([{ ...template("c1", "web"), imageDigest: "" } as ReturnType<typeof template>]) });
    assert.equal(result.image.digest, undefined);
    assert.deepEqual(result.image, { registryId: "7", namespace: "team", name: "site", tag: "1.0", digest: undefined });
  });
});
