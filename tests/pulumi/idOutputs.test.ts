import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/** What an Output holds, from the SDK's own promises (@pulumi/pulumi output.js: `isKnown`, `isSecret`, `resources()`). */
async function held(o: pulumi.Output<unknown>): Promise<{ value: unknown; known: boolean; secret: boolean; dependsOn: pulumi.Resource[] }> {
  const inner = o as unknown as { promise(): Promise<unknown>; isKnown: Promise<boolean>; isSecret: Promise<boolean>; allResources?: () => Promise<Set<pulumi.Resource>>; resources(): Set<pulumi.Resource> };
  const resources = inner.allResources ? await inner.allResources() : inner.resources();
  return { value: await inner.promise(), known: await inner.isKnown, secret: await inner.isSecret, dependsOn: [...resources] };
}

/**
 * The id outputs derived from the resource's id (provider/pulumi/base.ts), at the preview of an update as the engine
 * answers it for a dynamic resource: the old id, and the checked inputs as outputs with no computed output
 * (pulumi/pulumi v3.276.0 sdk/go/common/resource/plugin/provider_plugin.go:1713; pkg/resource/deploy/step.go:1078).
 * Under the SDK's mocks in preview mode, whose registration answers the mocks' id and state as the engine's would.
 */
describe("id outputs at the preview of an update", () => {
  before(async () => {
    pulumi.runtime.setAllConfig({}, []);
    await pulumi.runtime.setMocks({ newResource: (args) => ({ id: args.name === "rule" ? "0b8e7a3c-guid" : "42", state: {} }), call: () => ({}) }, "ids", "unit", true);
  });
  after(() => {
    pulumi.runtime.resetOptions("project", "stack", -1, "", "", false, "");
  });

  it("a numeric id output is the id as a number, known, depending on its resource; other computed outputs stay unknown", async () => {
    const cdn = new bunnynet.PullZone("cdn", { name: "site-cdn", origin: { url: "https://origin.example" } });
    const id = await held(cdn.pullZoneId);
    assert.deepEqual({ value: id.value, known: id.known, secret: id.secret }, { value: 42, known: true, secret: false });
    assert.ok(id.dependsOn.includes(cdn), "the output carries the resource as its dependency");
    assert.equal((await held(cdn.cdnHostname)).known, false);
  });

  it("a text id output is the id as it is; a user's additionalSecretOutputs still makes it secret", async () => {
    const rule = new bunnynet.EdgeRule("rule", { pullZoneId: 42, actions: [{ type: "ForceSSL" }], triggers: [{ type: "Url", patterns: ["*"] }] });
    assert.deepEqual(await held(rule.edgeRuleId).then((h) => [h.value, h.known]), ["0b8e7a3c-guid", true]);
    const zone = new bunnynet.DnsZone("zone", { domain: "ids.example" }, { additionalSecretOutputs: ["dnsZoneId"] });
    assert.deepEqual(await held(zone.dnsZoneId).then((h) => [h.value, h.secret]), [42, true]);
  });
});
