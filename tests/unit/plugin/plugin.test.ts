import assert from "node:assert/strict";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { changedSettings, configFailures, explicitProviderName } from "bunnynet-pulumi/dist/plugin/configuration.js";
import { SECRET_SIG, SIG_KEY, receive, send } from "bunnynet-pulumi/dist/plugin/properties.js";
import { DiffKind, resourceTypeOf, typeOfToken } from "bunnynet-pulumi/dist/plugin/resourceProvider.js";
import { UNKNOWN } from "bunnynet-pulumi/dist/pulumi/wire.js";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

describe("plugin: the wire format", () => {
  it("reveals secrets at any depth, remembering the top-level keys that held one", () => {
    const got = receive(Struct.fromJavaScript({ apiKey: secret("k"), nested: { a: [secret(1)] }, plain: "x" }));
    assert.deepEqual(got.values, { apiKey: "k", nested: { a: [1] }, plain: "x" });
    assert.deepEqual([...got.secrets].sort(), ["apiKey", "nested"]);
  });

  it("reads every kind of unknown as UNKNOWN, and leaves assets as they come", () => {
    const asset = { [SIG_KEY]: "c44067f5952c0a294b673a41bacd8c17", hash: "h", text: "t" };
    const got = receive(Struct.fromJavaScript({ s: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", n: "3eeb2bf0-c639-47a8-9e75-3b44932eb421", o: "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", asset }));
    assert.deepEqual(got.values, { s: UNKNOWN, n: UNKNOWN, o: UNKNOWN, asset });
  });

  it("wraps the secret keys that have a value, never an unknown, and drops undefined", () => {
    const out = send({ key: "k", gone: undefined, later: UNKNOWN, shown: 1 }, ["key", "gone", "later"]).toJavaScript();
    assert.deepEqual(out, { key: secret("k"), later: UNKNOWN, shown: 1 });
  });
});

describe("plugin: provider configuration", () => {
  it("names the key of a settings problem", () => {
    assert.deepEqual(configFailures({ apiKey: "k", apiUrl: "nope" }, undefined).map((f) => f.property), ["apiUrl"]);
    assert.deepEqual(configFailures({ apiKey: "k", streamApiUrl: "nope" }, "second").map((f) => f.property), ["streamApiUrl"]);
    assert.deepEqual(configFailures({ apiKey: "k", apiUrl: "https://api.example" }, undefined), []);
    assert.deepEqual(configFailures({ apiKey: UNKNOWN, apiUrl: "nope" }, undefined), [], "not judged while a value is unknown");
  });

  it("a changed key or URL is a change of settings; the version is none", () => {
    assert.deepEqual(changedSettings({ apiKey: "a", apiUrl: "u", version: "1" }, { apiKey: "b", apiUrl: "u", version: "2" }), ["apiKey"]);
  });

  it("tells an explicit provider from a default one by its URN", () => {
    assert.equal(explicitProviderName("urn:pulumi:s::p::pulumi:providers:bunnynet::second"), "second");
    assert.equal(explicitProviderName("urn:pulumi:s::p::pulumi:providers:bunnynet::default_0_2_0"), undefined);
  });
});

describe("plugin: resource types", () => {
  it("refuses an unknown token, naming the types there are", () => {
    assert.equal(typeOfToken("bunnynet:index:DnsZone"), "DnsZone");
    assert.throws(() => typeOfToken("bunnynet:index:Nope"), /no resource type "bunnynet:index:Nope": the types are .*bunnynet:index:DnsZone/);
  });

  it("names each change in a detailed diff, with the stables of an in-place update", () => {
    const zone = resourceTypeOf("bunnynet:index:DnsZone");
    const olds = { domain: "a.example", loggingEnabled: false, dnsZoneId: 7, nameservers: ["x"] };
    const d = zone.diff(olds, { domain: "a.example", loggingEnabled: true, soaEmail: "h@a.example" });
    assert.deepEqual(d.detailedDiff, { loggingEnabled: DiffKind.UPDATE, soaEmail: DiffKind.ADD });
    assert.deepEqual(d.replaces, []);
    assert.ok(d.stables.includes("domain") && d.stables.includes("dnsZoneId") && !d.stables.includes("loggingEnabled"));
    const renamed = zone.diff(olds, { domain: "b.example", loggingEnabled: false });
    assert.deepEqual([renamed.detailedDiff, renamed.replaces, renamed.stables], [{ domain: DiffKind.UPDATE_REPLACE }, ["domain"], []]);
  });

  it("predicts a create's and an update's outputs at preview", () => {
    const zone = resourceTypeOf("bunnynet:index:DnsZone");
    assert.equal(zone.predictCreate({ domain: "a.example" }).dnsZoneId, UNKNOWN);
    const updated = zone.predictUpdate({ domain: "a.example", loggingEnabled: false, dnsZoneId: 7 }, { domain: "a.example", loggingEnabled: true });
    assert.deepEqual([updated.dnsZoneId, updated.loggingEnabled], [7, true]);
  });
});
