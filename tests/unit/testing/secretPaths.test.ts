import assert from "node:assert/strict";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { Secret, envelopePathsIn, secret, secretPathsOf, topLevelKeys, withEnvelopesAt, withSecretsAt } from "bunnynet-emulator/dist/testing/wire.js";

const envelope = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

/** Where the kit keeps a resource's secrets: where the engine's annotateSecrets puts them (provider_plugin.go). */
describe("testing kit: secrets at their depth", () => {
  const outputs = { name: "app", containers: { web: { image: "nginx", env: { TOKEN: "t", MODE: "m" } } }, ports: [80, 443], password: "p" };

  it("a secret inside objects stays at its depth; the object around it is not secret", () => {
    const inputs = { name: "app", containers: { web: { image: "nginx", env: { TOKEN: secret("t"), MODE: "m" } } } };
    assert.deepEqual(secretPathsOf(outputs, inputs), [["containers", "web", "env", "TOKEN"]]);
  });

  it("a secret in an array makes the array secret; a secret object input makes the key secret whole", () => {
    const inputs = { ports: [80, secret(443)], containers: secret({ web: { image: "nginx" } }) };
    assert.deepEqual(secretPathsOf(outputs, inputs), [["ports"], ["containers"]]);
  });

  it("a secret input the outputs lack marks nothing; additionalSecretOutputs are whole keys, over nested paths", () => {
    const inputs = { missing: secret("x"), containers: { web: { env: { TOKEN: secret("t") } } } };
    assert.deepEqual(secretPathsOf(outputs, inputs, ["containers", "password", "absent"]), [["containers"], ["password"]]);
  });

  it("secretKeys are the top-level keys of the paths", () => {
    assert.deepEqual(topLevelKeys([["containers", "web", "env", "TOKEN"], ["containers", "web", "env", "MODE"], ["password"]]), ["containers", "password"]);
  });

  it("wraps the values at the paths only, copying the objects along them and leaving the original as it was", () => {
    const marked = withSecretsAt(outputs, [["containers", "web", "env", "TOKEN"], ["nope", "x"], ["password"]]);
    const web = (marked.containers as { web: { image: string; env: Record<string, unknown> } }).web;
    assert.ok(web.env.TOKEN instanceof Secret && web.env.TOKEN.value === "t");
    assert.equal(web.env.MODE, "m");
    assert.ok(marked.password instanceof Secret);
    assert.ok(!("nope" in marked));
    assert.equal(outputs.containers.web.env.TOKEN, "t");
  });

  it("finds the program's envelopes at their depth, and moves deserialized ones (secret whole) back there", () => {
    const serialized = { containers: { web: { env: { TOKEN: envelope("t") } } }, list: [1, envelope(2)], plain: "x" };
    const paths = envelopePathsIn(serialized);
    assert.deepEqual(paths, [["containers", "web", "env", "TOKEN"], ["list"]]);
    const deserialized = { containers: envelope({ web: { env: { TOKEN: "t" } } }), list: envelope([1, 2]), plain: "x" };
    assert.deepEqual(withEnvelopesAt(deserialized, paths), { containers: { web: { env: { TOKEN: envelope("t") } } }, list: envelope([1, 2]), plain: "x" });
  });
});
