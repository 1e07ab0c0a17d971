import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { type CheckFailure, named } from "bunnynet-emulator/dist/testing/engineMessages.js";
import { check } from "./registered";

const { specialSigKey, specialAssetSig, specialArchiveSig } = pulumi.runtime;
/** The property each failure is about: named as the property, or (nested or maybe secret) at the start of the reason. */
const properties = (failures: CheckFailure[] | undefined) => (failures ?? []).map((f) => named(f).property);

describe("unit: check of each resource type", () => {
  describe("ScriptVariable", () => {
    it("converts a string id, fills the defaults, and treats an empty default value as unset", async () => {
      assert.deepEqual(await check("ScriptVariable", { scriptId: "42", name: "A", defaultValue: "" }), {
        inputs: { scriptId: 42, name: "A", required: false, adoptExisting: false },
        failures: [],
      });
    });

    it("names the property of a bad value; a bad secret input is named in the reason only, without its value", async () => {
      const secretValue = "s3cret-".repeat(700);
      const { failures } = await check("ScriptVariable", { scriptId: "x", name: "", defaultValue: secretValue });
      assert.deepEqual(failures?.slice(0, 2), [
        { property: "scriptId", reason: "must be a positive integer (a number or a string of digits)" },
        { property: "name", reason: "must not be empty" },
      ]);
      assert.equal(failures?.[2].property, "", "the engine would print the value of a named property");
      assert.match(failures?.[2].reason ?? "", /^defaultValue: .*4096/);
      assert.ok(!JSON.stringify(failures).includes("s3cret"));
    });

    it("refuses a misspelt key by name in the reason (its value may be anything), or as the property when it holds nothing", async () => {
      const expected = "unknown property (expected one of scriptId, name, required, defaultValue, adoptExisting)";
      assert.deepEqual((await check("ScriptVariable", { scriptId: 1, name: "A", defaultVlaue: "v" })).failures, [{ property: "", reason: `defaultVlaue: ${expected}` }]);
      assert.deepEqual((await check("ScriptVariable", { scriptId: 1, name: "A", defaultVlaue: null })).failures, [{ property: "defaultVlaue", reason: expected }]);
    });

    it("does not judge a script id not known yet, and still judges the name", async () => {
      const result = await check("ScriptVariable", { scriptId: unknownValue, name: "" });
      assert.deepEqual(properties(result.failures), ["name"]);
      assert.equal(result.inputs.scriptId, unknownValue);
    });
  });

  describe("ScriptSecret", () => {
    it("requires a value, and reports a bad value without naming the property", async () => {
      assert.deepEqual(properties((await check("ScriptSecret", { scriptId: 1, name: "S" })).failures), ["value"]);
      const { failures } = await check("ScriptSecret", { scriptId: 1, name: "S", value: "x".repeat(5000) });
      assert.equal(failures?.length, 1);
      assert.equal(failures?.[0].property, "");
      assert.match(failures?.[0].reason ?? "", /^value: /);
    });
  });

  describe("RateLimitRule", () => {
    const configuration = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/api", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" };

    it("turns enum names into the API's numbers and spells out the API's defaults", async () => {
      assert.deepEqual(await check("RateLimitRule", { pullZoneId: "1", name: "r", configuration }), {
        inputs: {
          pullZoneId: 1,
          name: "r",
          adoptExisting: false,
          configuration: {
            ...{ actionType: 1, severityType: 0, counterKeyType: 0, transformationTypes: [], chainedConditions: [], isNegated: false, isRegexVariable: false },
            ...{ variableTypes: { REQUEST_URI: "" }, operatorType: 0, value: "/api", requestCount: 10, timeframe: 60, blockTime: 60 },
          },
        },
        failures: [],
      });
    });

    it("needs exactly one of pullZoneId and shieldZoneId, naming both", async () => {
      assert.deepEqual((await check("RateLimitRule", { name: "r", configuration })).failures, [
        { property: "pullZoneId", reason: "give pullZoneId or shieldZoneId (exactly one)" },
        { property: "shieldZoneId", reason: "give pullZoneId or shieldZoneId (exactly one)" },
      ]);
      assert.deepEqual(properties((await check("RateLimitRule", { pullZoneId: 1, shieldZoneId: 2, name: "r", configuration })).failures), ["pullZoneId", "shieldZoneId"]);
    });

    it("names a bad enum by its path in the configuration, with the names and numbers it accepts", async () => {
      const { failures } = await check("RateLimitRule", { shieldZoneId: 2, name: "r", configuration: { ...configuration, operatorType: "NOPE", timeframe: 61 } });
      assert.deepEqual(properties(failures), ["configuration.operatorType", "configuration.timeframe"]);
      assert.match(failures?.[1].reason ?? "", /PerOneMinute.*\b60\b/);
    });

    it("at preview: an unknown zone counts as given, and an unknown condition keeps its defaults filled around it", async () => {
      assert.deepEqual((await check("RateLimitRule", { pullZoneId: unknownValue, name: "r", configuration: unknownValue })).failures, []);
      const chained = [{ variableTypes: { REQUEST_URI: "" }, operatorType: unknownValue }];
      const result = await check("RateLimitRule", { shieldZoneId: 2, name: "r", configuration: { ...configuration, chainedConditions: chained } });
      assert.deepEqual(result.failures, []);
      assert.deepEqual(result.inputs.configuration.chainedConditions, [{ variableTypes: { REQUEST_URI: "" }, operatorType: unknownValue, isNegated: false, isRegexVariable: false }]);
    });
  });

  describe("PullZone origin", () => {
    const zone = (origin: Record<string, unknown>) => check("PullZone", { name: "cdn", origin });

    it("takes a container app's endpoint as the origin", async () => {
      const { inputs, failures } = await zone({ containerAppId: "app1", containerEndpointId: "ep1" });
      assert.deepEqual(failures, []);
      assert.deepEqual(inputs.origin, { containerAppId: "app1", containerEndpointId: "ep1", forwardHostHeader: false, verifySsl: false, followRedirects: false });
    });

    it("refuses a missing or empty container id naming it, and a container id beside another kind", async () => {
      assert.deepEqual((await zone({ containerAppId: "app1" })).failures?.map(named), [
        { property: "origin.containerEndpointId", reason: "is required with containerAppId (a container origin is an app's endpoint)" },
      ]);
      assert.deepEqual(properties((await zone({ containerEndpointId: "ep1" })).failures), ["origin.containerAppId"]);
      assert.deepEqual(properties((await zone({ containerAppId: "", containerEndpointId: "ep1" })).failures), ["origin.containerAppId"]);
      assert.deepEqual(properties((await zone({ containerAppId: "app1", containerEndpointId: " " })).failures), ["origin.containerEndpointId"]);
      const mixed = await zone({ url: "https://a.example", containerAppId: "app1", containerEndpointId: "ep1" });
      assert.equal(mixed.failures?.length, 1);
      assert.match(mixed.failures?.[0].reason ?? "", /exactly one of .*\(got url, containerAppId\/containerEndpointId\)/);
    });

    it("does not judge container ids not known yet", async () => {
      assert.deepEqual((await zone({ containerAppId: unknownValue, containerEndpointId: unknownValue })).failures, []);
    });
  });

  describe("PullZoneHostname", () => {
    it("lowercases the hostname and fills the defaults", async () => {
      assert.deepEqual((await check("PullZoneHostname", { pullZoneId: 1, hostname: "CDN.Example.com" })).inputs, {
        pullZoneId: 1,
        hostname: "cdn.example.com",
        tls: "none",
        forceSsl: false,
        certificateWaitSeconds: 120,
        adoptExisting: false,
      });
    });

    it("refuses force-SSL without a certificate, except on bunny.net's own domain or while the hostname is unknown", async () => {
      assert.deepEqual((await check("PullZoneHostname", { pullZoneId: 1, hostname: "cdn.example.com", forceSsl: true })).failures, [
        { property: "forceSsl", reason: 'needs a certificate: set tls to "free" or to a custom certificate' },
      ]);
      assert.deepEqual((await check("PullZoneHostname", { pullZoneId: 1, hostname: "zone.b-cdn.net", forceSsl: true })).failures, []);
      assert.deepEqual((await check("PullZoneHostname", { pullZoneId: 1, hostname: unknownValue, forceSsl: true })).failures, []);
    });

    it("reports a wrong tls without naming the property (it may hold a key), and nested problems by their path", async () => {
      assert.deepEqual((await check("PullZoneHostname", { pullZoneId: 1, hostname: "a.example", tls: "bogus" })).failures, [
        { property: "", reason: 'tls: must be "none", "free", or { certificate, privateKey } (PEM text)' },
      ]);
      const nested = await check("PullZoneHostname", { pullZoneId: 1, hostname: "a.example", tls: { certificate: "nope", privateKey: "k", extra: 1 } });
      // Named in the reason, not as the property: the engine would print `value {<nil>}` for a path it cannot look up.
      assert.deepEqual(nested.failures?.map((f) => f.property), ["", ""]);
      assert.deepEqual(properties(nested.failures), ["tls.extra", "tls.certificate"]);
    });

    it("does not judge a certificate not known yet, and keeps it unknown", async () => {
      const tls = { certificate: unknownValue, privateKey: unknownValue };
      const result = await check("PullZoneHostname", { pullZoneId: 1, hostname: "a.example", tls });
      assert.deepEqual(result.failures, []);
      assert.deepEqual(result.inputs.tls, tls);
    });

    it("names a hostname with a scheme and a wait out of range", async () => {
      const { failures } = await check("PullZoneHostname", { pullZoneId: 1, hostname: "https://a.example/x", certificateWaitSeconds: 4000 });
      assert.deepEqual(properties(failures), ["hostname", "certificateWaitSeconds"]);
      assert.match(failures?.[0].reason ?? "", /scheme/);
    });
  });

  describe("StreamVideo", () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), "bunnynet-unit-"))));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const base = { libraryId: "1", title: "T" };

    it("derives the source's fingerprint (replacing one given by hand) and fills the encoding timeout", async () => {
      const path = join(dir, "clip.mp4");
      writeFileSync(path, "not really a video");
      const { inputs, failures } = await check("StreamVideo", { ...base, source: path, sourceFingerprint: "mine" });
      assert.deepEqual(failures, []);
      assert.match(String(inputs.sourceFingerprint), /^sha256:[0-9a-f]{64}$/);
      assert.deepEqual([inputs.libraryId, inputs.encodeTimeoutSeconds], [1, 1800]);
      const text = await check("StreamVideo", { ...base, source: { [specialSigKey]: specialAssetSig, text: "not really a video" } });
      assert.equal(text.inputs.sourceFingerprint, inputs.sourceFingerprint, "the same bytes as a StringAsset are the same source");
    });

    it("keeps a bad URL out of the failure (the source may hold a signed URL) and never echoes it", async () => {
      const { failures } = await check("StreamVideo", { ...base, source: { url: "ftp://media.example.com/a.mp4?token=t0ps3cret" } });
      assert.equal(failures?.length, 1);
      assert.equal(failures?.[0].property, "");
      assert.match(failures?.[0].reason ?? "", /^source: .*http/);
      assert.ok(!JSON.stringify(failures).includes("t0ps3cret"));
    });

    it("fingerprints each captions file, and names a language's file that cannot be read", async () => {
      const vtt = join(dir, "en.vtt");
      writeFileSync(vtt, "WEBVTT\n");
      const { inputs } = await check("StreamVideo", { ...base, source: { url: "https://a.example/v.mp4" }, captions: { en: vtt } });
      assert.match(String((inputs.captionFingerprints as Record<string, string>).en), /^sha256:/);
      const missing = await check("StreamVideo", { ...base, source: { url: "https://a.example/v.mp4" }, captions: { de: join(dir, "none.vtt") } });
      assert.deepEqual(properties(missing.failures), ["captions.de"]);
    });

    it("does not judge or fingerprint a source or captions not known yet", async () => {
      const result = await check("StreamVideo", { ...base, source: unknownValue, captions: unknownValue });
      assert.deepEqual(result.failures, []);
      assert.equal(result.inputs.sourceFingerprint, undefined);
      assert.equal(result.inputs.captionFingerprints, undefined);
    });
  });

  describe("StreamCollection", () => {
    it("converts a string library id and fills adoptExisting", async () => {
      assert.deepEqual(await check("StreamCollection", { libraryId: "7", name: "Talks" }), { inputs: { libraryId: 7, name: "Talks", adoptExisting: false }, failures: [] });
    });
  });

  describe("VideoThumbnail", () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), "bunnynet-unit-"))));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const video = { libraryId: 1, videoId: "v" };
    const fingerprintOf = async (news: Record<string, unknown>) => (await check("VideoThumbnail", { ...video, ...news })).inputs.fingerprint as unknown;

    it("needs exactly one source, naming each candidate (a secret one in the reason only)", async () => {
      const none = await check("VideoThumbnail", video);
      assert.deepEqual(properties(none.failures), ["file", "frame", "url"]);
      assert.deepEqual((await check("VideoThumbnail", { ...video, frame: 2, url: "https://a.example/x.png" })).failures, [
        { property: "frame", reason: "only one thumbnail source may be set, but frame and url are set" },
        { property: "", reason: "url: only one thumbnail source may be set, but frame and url are set" },
      ]);
    });

    it("derives the fingerprint from the source, replacing one given by hand", async () => {
      assert.equal(await fingerprintOf({ frame: 2, fingerprint: "mine" }), "frame:2");
    });

    it("fingerprints a URL without the URL in it (a signed URL carries a token)", async () => {
      const signed = await fingerprintOf({ url: "https://a.example/x.png?token=abc" });
      assert.match(String(signed), /^url:sha256:[0-9a-f]{64}$/);
      assert.notEqual(await fingerprintOf({ url: "https://a.example/x.png?token=abd" }), signed);
    });

    it("fingerprints a file's bytes: the same path with new contents is a change, and a StringAsset of the same bytes is the same", async () => {
      const path = join(dir, "thumb.png");
      writeFileSync(path, "hello");
      const first = await fingerprintOf({ file: path });
      writeFileSync(path, "hello again");
      assert.notEqual(await fingerprintOf({ file: path }), first);
      const asset = { [specialSigKey]: specialAssetSig, text: "hello", hash: "the engine's hash" };
      const fromText = await check("VideoThumbnail", { ...video, file: asset });
      assert.equal(fromText.inputs.fingerprint, first);
      assert.deepEqual(fromText.inputs.file, { [specialSigKey]: specialAssetSig, text: "hello" }, "the engine's hash is not stored");
    });

    it("refuses an unreadable file and an archive, without naming the secret property", async () => {
      const missing = await check("VideoThumbnail", { ...video, file: join(dir, "missing.png") });
      assert.equal(missing.failures?.[0].property, "");
      assert.match(missing.failures?.[0].reason ?? "", /^file: cannot be read: ENOENT/);
      const archive = await check("VideoThumbnail", { ...video, file: { [specialSigKey]: specialArchiveSig, path: "x" } });
      assert.match(archive.failures?.[0].reason ?? "", /^file: an archive is not an image/);
    });

    it("at preview, with the source unknown: no failure, and no stale fingerprint", async () => {
      assert.deepEqual(await check("VideoThumbnail", { ...video, file: unknownValue, fingerprint: "sha256:old" }), { inputs: { ...video, file: unknownValue }, failures: [] });
    });
  });

  describe("VolumeInstanceDeletion", () => {
    it("does not detach by default, and refuses ids that would name another route and triggers that are neither list nor map", async () => {
      assert.deepEqual((await check("VolumeInstanceDeletion", { appId: "a", volumeId: "v", instanceId: "i" })).inputs, { appId: "a", volumeId: "v", instanceId: "i", detachFirst: false });
      const { failures } = await check("VolumeInstanceDeletion", { appId: "..", volumeId: "v", instanceId: "i", triggers: "x" });
      assert.deepEqual(properties(failures), ["appId", "triggers"]);
      assert.match(failures?.[0].reason ?? "", /\.\./);
    });
  });
});
