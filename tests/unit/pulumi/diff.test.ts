import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { sameValue } from "bunnynet-pulumi/dist/pulumi/index.js";
import { checked, implementation } from "./registered";

const { specialSigKey, specialAssetSig, specialArchiveSig } = pulumi.runtime;
const diff = (type: string, olds: Record<string, unknown>, news: Record<string, unknown>) => implementation(type).diff("1", olds, news);
const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };
const inPlace = { changes: true, replaces: [], deleteBeforeReplace: false };

describe("unit: diff of each resource type (in place, replace, delete first)", () => {
  describe("ScriptVariable", () => {
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("ScriptVariable", { scriptId: 1, name: "A", defaultValue: "x" })));

    it("sees no change in the same inputs, nor in adoptExisting (read only at create)", async () => {
      assert.deepEqual(await diff("ScriptVariable", olds, await checked("ScriptVariable", { scriptId: "1", name: "A", defaultValue: "x" })), NO_CHANGE);
      assert.deepEqual(await diff("ScriptVariable", olds, { ...olds, adoptExisting: true }), NO_CHANGE);
    });

    it("changes required and a removed default value in place", async () => {
      assert.deepEqual(await diff("ScriptVariable", olds, { ...olds, required: true }), inPlace);
      assert.deepEqual(await diff("ScriptVariable", olds, await checked("ScriptVariable", { scriptId: 1, name: "A" })), inPlace);
    });

    it("replaces on a new name without deleting first: the new variable's identity differs", async () => {
      assert.deepEqual(await diff("ScriptVariable", olds, { ...olds, name: "B" }), { changes: true, replaces: ["name"], deleteBeforeReplace: false });
    });

    it("at preview, an unknown script id may be another script: a replace, not delete-first", async () => {
      assert.deepEqual(await diff("ScriptVariable", olds, { ...olds, scriptId: unknownValue }), { changes: true, replaces: ["scriptId"], deleteBeforeReplace: false });
    });
  });

  describe("RateLimitRule", () => {
    const configuration = { variableTypes: { REQUEST_URI: "" }, operatorType: 0, requestCount: 10, timeframe: 60, blockTime: 60 };
    let olds: Record<string, unknown>;
    // As stored after create: the shield zone the pull zone resolved to is in the outputs.
    before(async () => (olds = { ...(await checked("RateLimitRule", { pullZoneId: 1, name: "r", configuration })), shieldZoneId: 7, ruleId: 3 }));

    it("sees no change when shieldZoneId stays unset (the stored one was resolved from the pull zone)", async () => {
      assert.deepEqual(await diff("RateLimitRule", olds, await checked("RateLimitRule", { pullZoneId: 1, name: "r", configuration })), NO_CHANGE);
    });

    it("changes the name, description and configuration in place", async () => {
      assert.deepEqual(await diff("RateLimitRule", olds, { ...olds, name: "s", description: "d", configuration: { ...(olds.configuration as object), requestCount: 11 } }), inPlace);
    });

    it("deletes first on a new pull zone with the same name: it may resolve to the same shield zone", async () => {
      const news = await checked("RateLimitRule", { pullZoneId: 2, name: "r", configuration });
      assert.deepEqual(await diff("RateLimitRule", olds, news), { changes: true, replaces: ["pullZoneId"], deleteBeforeReplace: true });
      assert.deepEqual(await diff("RateLimitRule", olds, { ...news, name: "s" }), { changes: true, replaces: ["pullZoneId"], deleteBeforeReplace: false });
    });

    it("does not delete first for another shield zone, given or unknown", async () => {
      const given = { ...olds, pullZoneId: undefined, shieldZoneId: 8 };
      assert.deepEqual(await diff("RateLimitRule", olds, given), { changes: true, replaces: ["pullZoneId", "shieldZoneId"], deleteBeforeReplace: false });
      assert.deepEqual(await diff("RateLimitRule", olds, { ...olds, shieldZoneId: unknownValue }), { changes: true, replaces: ["shieldZoneId"], deleteBeforeReplace: false });
    });
  });

  describe("PullZoneHostname", () => {
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("PullZoneHostname", { pullZoneId: 1, hostname: "cdn.example.com" })));

    it("changes the certificate, force-SSL and the wait in place", async () => {
      assert.deepEqual(await diff("PullZoneHostname", olds, { ...olds, tls: "free", forceSsl: true, certificateWaitSeconds: 5 }), inPlace);
    });

    it("replaces on another hostname (case aside) without deleting first", async () => {
      assert.deepEqual(await diff("PullZoneHostname", olds, await checked("PullZoneHostname", { pullZoneId: 1, hostname: "CDN.example.COM" })), NO_CHANGE);
      assert.deepEqual(await diff("PullZoneHostname", olds, { ...olds, hostname: "www.example.com" }), { changes: true, replaces: ["hostname"], deleteBeforeReplace: false });
    });
  });

  describe("VolumeInstanceDeletion", () => {
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("VolumeInstanceDeletion", { appId: "a", volumeId: "v", instanceId: "i", triggers: [1] })));

    it("runs again for new triggers, deleting first: the replacement has the same identity", async () => {
      assert.deepEqual(await diff("VolumeInstanceDeletion", olds, { ...olds, triggers: [2] }), { changes: true, replaces: ["triggers"], deleteBeforeReplace: true });
    });

    it("runs for another instance without deleting first, and takes detachFirst in place", async () => {
      assert.deepEqual(await diff("VolumeInstanceDeletion", olds, { ...olds, instanceId: "j" }), { changes: true, replaces: ["instanceId"], deleteBeforeReplace: false });
      assert.deepEqual(await diff("VolumeInstanceDeletion", olds, { ...olds, detachFirst: true }), inPlace);
    });
  });

  describe("StorageZone", () => {
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("StorageZone", { name: "files", region: "DE", replicationRegions: ["NY", "SG"] })));

    it("adds a replication region in place (in any order), and the 404 settings", async () => {
      assert.deepEqual(await diff("StorageZone", olds, await checked("StorageZone", { name: "files", region: "DE", replicationRegions: ["SG", "NY"] })), NO_CHANGE);
      assert.deepEqual(await diff("StorageZone", olds, await checked("StorageZone", { name: "files", region: "DE", replicationRegions: ["LA", "NY", "SG"] })), inPlace);
      assert.deepEqual(await diff("StorageZone", olds, { ...olds, rewrite404To200: true }), inPlace);
    });

    it("replaces, deleting first (the same name), when a replication region is removed: the API cannot remove one", async () => {
      assert.deepEqual(await diff("StorageZone", olds, { ...olds, replicationRegions: ["NY"] }), { changes: true, replaces: ["replicationRegions"], deleteBeforeReplace: true });
      assert.deepEqual(await diff("StorageZone", olds, { ...olds, replicationRegions: ["LA"] }), { changes: true, replaces: ["replicationRegions"], deleteBeforeReplace: true });
    });

    it("at preview, unknown regions are not judged a removal (up diffs again with the values)", async () => {
      assert.deepEqual(await diff("StorageZone", olds, { ...olds, replicationRegions: unknownValue }), inPlace);
    });
  });

  describe("PullZone", () => {
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("PullZone", { name: "cdn", origin: { url: "https://a.example" } })));

    it("changes the origin's kind and the settings in place; a new name replaces without deleting first", async () => {
      assert.deepEqual(await diff("PullZone", olds, await checked("PullZone", { name: "cdn", origin: { storageZoneId: 4 } })), inPlace);
      const container = await checked("PullZone", { name: "cdn", origin: { containerAppId: "app1", containerEndpointId: "ep1" } });
      assert.deepEqual(await diff("PullZone", olds, container), inPlace);
      assert.deepEqual(await diff("PullZone", container, await checked("PullZone", { name: "cdn", origin: { containerAppId: "app1", containerEndpointId: "ep2" } })), inPlace);
      assert.deepEqual(await diff("PullZone", olds, { ...olds, zones: ["EU"] }), inPlace);
      assert.deepEqual(await diff("PullZone", olds, { ...olds, name: "cdn2" }), { changes: true, replaces: ["name"], deleteBeforeReplace: false });
    });
  });

  describe("VideoThumbnail", () => {
    const asset = { [specialSigKey]: specialAssetSig, text: "hello" };
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("VideoThumbnail", { libraryId: 1, videoId: "v", file: asset })));

    it("compares an asset by its fingerprint: the engine's elided old asset, or none after refresh, is no change", async () => {
      const elided = { [specialSigKey]: specialAssetSig, hash: "abc" };
      assert.deepEqual(await diff("VideoThumbnail", { ...olds, file: elided }, olds), NO_CHANGE);
      assert.deepEqual(await diff("VideoThumbnail", { ...olds, file: undefined }, olds), NO_CHANGE);
    });

    it("sets a new image in place (a new fingerprint), and replaces for another video", async () => {
      const news = await checked("VideoThumbnail", { libraryId: 1, videoId: "v", file: { ...asset, text: "bye" } });
      assert.deepEqual(await diff("VideoThumbnail", { ...olds, file: { [specialSigKey]: specialAssetSig, hash: "abc" } }, news), inPlace);
      assert.deepEqual(await diff("VideoThumbnail", olds, { ...olds, videoId: "w" }), { changes: true, replaces: ["videoId"], deleteBeforeReplace: false });
    });
  });

  describe("StorageFolder", () => {
    const archive = (text: string) => ({ [specialSigKey]: specialArchiveSig, assets: { "index.html": { [specialSigKey]: specialAssetSig, text } } });
    let olds: Record<string, unknown>;
    before(async () => (olds = await checked("StorageFolder", { storageZoneId: 1, source: archive("hello") })));

    it("compares the files by their checksums: the engine's elided old archive is no change", async () => {
      const elided = { [specialSigKey]: specialArchiveSig, hash: "abc" };
      assert.deepEqual(await diff("StorageFolder", { ...olds, source: elided }, olds), NO_CHANGE);
    });

    it("a changed file is a change in place; another prefix or zone replaces, without deleting first", async () => {
      const news = await checked("StorageFolder", { storageZoneId: 1, source: archive("bye") });
      assert.deepEqual(await diff("StorageFolder", { ...olds, source: { [specialSigKey]: specialArchiveSig, hash: "abc" } }, news), inPlace);
      assert.deepEqual(await diff("StorageFolder", olds, await checked("StorageFolder", { storageZoneId: 1, source: archive("hello"), prefix: "www" })), {
        changes: true,
        replaces: ["prefix"],
        deleteBeforeReplace: false,
      });
    });
  });

  describe("StreamVideo", () => {
    const asset = (text: string) => ({ [specialSigKey]: specialAssetSig, text });
    const elided = { [specialSigKey]: specialAssetSig, hash: "abc" };
    const program = { libraryId: 1, title: "T", source: asset("video"), captions: { en: asset("WEBVTT\n") } };

    it("old assets the engine elided, at the top and nested by language, are no change; the fingerprints are compared instead", async () => {
      const news = await checked("StreamVideo", program);
      assert.deepEqual(await diff("StreamVideo", { ...news, source: elided, captions: { en: elided } }, news), NO_CHANGE);
      const { source: _source, captions: _captions, ...refreshed } = news;
      assert.deepEqual(await diff("StreamVideo", { ...refreshed, captions: {} }, news), NO_CHANGE, "a refresh leaves elided assets out");
      const newCaptions = await checked("StreamVideo", { ...program, captions: { en: asset("WEBVTT\n\nnew") } });
      assert.deepEqual(await diff("StreamVideo", { ...news, captions: { en: elided } }, newCaptions), inPlace);
      const dropped = await checked("StreamVideo", { ...program, captions: {} });
      assert.deepEqual(await diff("StreamVideo", { ...news, captions: { en: elided } }, dropped), inPlace);
    });

    it("another file's content replaces; the title changes in place", async () => {
      const news = await checked("StreamVideo", program);
      assert.deepEqual(await diff("StreamVideo", { ...news, source: elided }, await checked("StreamVideo", { ...program, source: asset("another video") })), {
        changes: true,
        replaces: ["sourceFingerprint"],
        deleteBeforeReplace: false,
      });
      assert.deepEqual(await diff("StreamVideo", news, await checked("StreamVideo", { ...program, title: "U" })), inPlace);
    });
  });

  describe("sameValue", () => {
    it("treats null and undefined as the same (unset), at any depth", () => {
      assert.ok(sameValue(null, undefined));
      assert.ok(sameValue({ a: 1, b: null }, { a: 1 }));
      assert.ok(sameValue([{ a: undefined }], [{}]));
    });

    it("tells unset apart from falsy values, arrays from objects, and order in arrays", () => {
      assert.ok(!sameValue(undefined, 0));
      assert.ok(!sameValue(null, ""));
      assert.ok(!sameValue(false, undefined));
      assert.ok(!sameValue([1, 2], { 0: 1, 1: 2 }));
      assert.ok(!sameValue([1, 2], [2, 1]));
      assert.ok(!sameValue({ a: { b: 1 } }, { a: { b: 2 } }));
      assert.ok(sameValue({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] }));
    });
  });
});
