import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { ProgramHarness, startEmulator, type TestEmulator } from "bunnynet-emulator/testing";

/**
 * Lookups in a user's unit test written as Pulumi's docs write one: under `pulumi.runtime.setMocks` they are answered
 * by the mocks' `call` (the function's token and its arguments) and never reach the API, even with a real key in the
 * environment; under the testing kit's harness they call the API, as under the engine.
 */
describe("lookups under a unit test's mocks", () => {
  let emu: TestEmulator;
  const calls: pulumi.runtime.MockCallArgs[] = [];
  const saved = { key: process.env.BUNNYNET_API_KEY, url: process.env.BUNNYNET_API_URL };

  before(async () => {
    emu = await startEmulator();
    // A key that works, where a lookup that escaped the mocks would find it.
    process.env.BUNNYNET_API_KEY = emu.fixtures.accessKey;
    process.env.BUNNYNET_API_URL = emu.url;
    pulumi.runtime.setAllConfig({}, []);
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
        call: (args) => {
          calls.push(args);
          if (args.token === "bunnynet:index:getPullZone") return { pullZoneId: 42, name: args.inputs.name, cdnHostname: `${args.inputs.name}.b-cdn.net` };
          return {};
        },
      },
      "my-site",
      "unit",
    );
  });
  after(async () => {
    process.env.BUNNYNET_API_KEY = saved.key;
    process.env.BUNNYNET_API_URL = saved.url;
    if (saved.key === undefined) delete process.env.BUNNYNET_API_KEY;
    if (saved.url === undefined) delete process.env.BUNNYNET_API_URL;
    // The docs' mocks stay set for the rest of a mocha run; the suite's other files look things up for real.
    pulumi.runtime.resetOptions("project", "stack", -1, "", "", false, "");
    await emu?.stop();
  });

  it("getPullZone and getPullZoneOutput are answered by the mocks' call with the token and arguments; no request reaches the API", async () => {
    await emu.markRequests();
    const zone = await bunnynet.getPullZone({ name: "my-site" });
    assert.deepEqual({ id: zone.pullZoneId, host: zone.cdnHostname }, { id: 42, host: "my-site.b-cdn.net" });
    const host = await new Promise((resolve) => bunnynet.getPullZoneOutput({ name: "other" }).apply(resolve));
    assert.equal(host && (host as { cdnHostname: string }).cdnHostname, "other.b-cdn.net");
    assert.deepEqual(
      calls.map((c) => [c.token, c.inputs]),
      [
        ["bunnynet:index:getPullZone", { name: "my-site" }],
        ["bunnynet:index:getPullZone", { name: "other" }],
      ],
    );
    assert.deepEqual(await emu.requests(), []);
  });

  it("a lookup the mocks do not know answers what they return, still without a request", async () => {
    await emu.markRequests();
    const keys = await bunnynet.getApiKeys();
    assert.deepEqual(keys, {});
    assert.equal(calls.at(-1)?.token, "bunnynet:index:getApiKeys");
    assert.deepEqual(await emu.requests(), []);
  });

  it("getDnsRecord and getContainerAppContainer are invokes too, with their tokens and arguments", async () => {
    await emu.markRequests();
    await bunnynet.getDnsRecord({ dnsZoneId: 7, type: "MX", name: "@" });
    await bunnynet.getContainerAppContainer({ appId: "app", name: "web" });
    assert.deepEqual(
      calls.slice(-2).map((c) => [c.token, c.inputs]),
      [
        ["bunnynet:index:getDnsRecord", { dnsZoneId: 7, type: "MX", name: "@" }],
        ["bunnynet:index:getContainerAppContainer", { appId: "app", name: "web" }],
      ],
    );
    assert.deepEqual(await emu.requests(), []);
  });

  it("under the kit's harness, in the same process, the same lookup calls the emulator", async () => {
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"] });
    await emu.markRequests();
    const { outputs } = await stack.up(() => ({ zone: bunnynet.getPullZoneOutput({ id: Number(emu.fixtures.pullZoneId) }).apply((z) => z.pullZoneId) }));
    assert.equal(outputs.zone, Number(emu.fixtures.pullZoneId));
    assert.ok((await emu.requests()).some((r) => r.method === "GET" && r.url.startsWith("/pullzone/")));
  });

  it("a lookup given a bunnynet.Provider is an invoke with that provider, as the docs' mocks see one; the provider's inputs hold its key as a secret", async () => {
    const registered: pulumi.runtime.MockResourceArgs[] = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push(args);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: (args) => {
          calls.push(args);
          return { pullZoneId: 7, name: "in-prod" };
        },
      },
      "my-site",
      "unit",
    );
    calls.length = 0;
    await emu.markRequests();
    const prod = new bunnynet.Provider("prod", { apiKey: "prod-key", apiUrl: "https://api.example" });
    const zone = await bunnynet.getPullZone({ name: "in-prod" }, { provider: prod });
    assert.equal(zone.pullZoneId, 7);
    assert.deepEqual(
      calls.map((c) => [c.token, c.provider]),
      [["bunnynet:index:getPullZone", "urn:pulumi:unit::my-site::pulumi:providers:pulumi-nodejs::prod::prod-id"]],
    );
    const provider = registered.find((r) => r.type === "pulumi:providers:pulumi-nodejs")!;
    assert.deepEqual(Object.keys(provider.inputs).sort(), ["bunnynet:apiKey", "bunnynet:apiUrl", "bunnynet:provider"]);
    // The SDK's secret envelope: the key is registered (and so stored) as a secret.
    const { specialSigKey, specialSecretSig } = pulumi.runtime;
    assert.deepEqual(provider.inputs["bunnynet:apiKey"], { [specialSigKey]: specialSecretSig, value: "prod-key" });
    assert.deepEqual(await emu.requests(), []);
  });
});
