import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type TestEmulator } from "../support/emulator";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, UNKNOWN_VALUE, hostConfig, named } from "../support/providerHost";
import { tinyMp4 } from "../support/videoFile";

const VIDEO = "StreamVideo";
const COLLECTION = "StreamCollection";
const sha256 = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const NO_CHANGE = { changes: "none", replaces: [], deleteBeforeReplace: false };
const IN_PLACE = { changes: "some", replaces: [], deleteBeforeReplace: false };

describe("pulumi: StreamVideo and StreamCollection through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  let libraryId: number;

  before(async () => {
    emu = await startEmulator();
    libraryId = Number(emu.fixtures.videoLibraryId);
    dir = mkdtempSync(join(tmpdir(), "bunnynet-video-"));
    host = await ProviderHost.start();
    await host.configure(hostConfig(emu));
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const stream = () => emu.client().stream;
  let counter = 0;
  /** A distinct small video file (its own content, so its own fingerprint). */
  const videoFile = (seconds = 5, bytes: Buffer = tinyMp4(seconds, 2048, ++counter)) => {
    const path = join(dir, `clip-${++counter}.mp4`);
    writeFileSync(path, bytes);
    return { path, bytes };
  };
  const captionFile = (text: string) => {
    const path = join(dir, `captions-${++counter}.vtt`);
    writeFileSync(path, `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${text}\n`);
    return path;
  };

  async function checked(type: string, props: Record<string, unknown>) {
    const res = await host.check(type, {}, { libraryId, ...props });
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }
  async function created(type: string, props: Record<string, unknown>) {
    const inputs = await checked(type, props);
    const res = await host.create(type, inputs);
    return { ...res, inputs };
  }

  describe("StreamVideo", () => {
    it("check refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(VIDEO, {}, {
        libraryId: "lib",
        title: "",
        source: { url: "ftp://example.com/a.mp4" },
        chapters: [{ title: "Intro", start: 9, end: 3 }],
        moments: [{ label: "", timestamp: 1 }],
        metaTags: [{ property: "description", value: "x" }],
        captions: { "not a language": captionFile("x") },
        encodeTimeoutSeconds: 0,
        collectionId: "..",
        libraryKey: "",
        titel: "typo",
      });
      const properties = res.failures.map(named).map((f) => f.property.split(".")[0]);
      assert.deepEqual(
        [...new Set(properties)].sort(),
        ["captions", "chapters", "collectionId", "encodeTimeoutSeconds", "libraryId", "libraryKey", "metaTags", "moments", "source", "title", "titel"].sort(),
      );
      assert.match(named(res.failures.find((f) => named(f).property.startsWith("metaTags"))!).reason, /description input/);
      assert.equal((await emu.requests()).length, 0);
    });

    it("check refuses a missing source and a file that cannot be read, naming source", async () => {
      const none = await host.check(VIDEO, {}, { libraryId, title: "t" });
      assert.deepEqual(none.failures.map(named).map((f) => f.property), ["source"]);
      const missing = await host.check(VIDEO, {}, { libraryId, title: "t", source: join(dir, "missing.mp4") });
      assert.equal(named(missing.failures[0]).property, "source");
      assert.match(named(missing.failures[0]).reason, /cannot be read: ENOENT/);
    });

    it("check fingerprints the file by content, the URL by its hash, each captions file; unknown values (preview) are not judged", async () => {
      const { path, bytes } = videoFile();
      const inputs = await checked(VIDEO, { title: "t", source: path, captions: { en: captionFile("hi") } });
      assert.equal(inputs.sourceFingerprint, sha256(bytes));
      assert.match(String((inputs.captionFingerprints as Record<string, string>).en), /^sha256:/);
      assert.equal(inputs.encodeTimeoutSeconds, 1800);
      const url = "https://media.example.com/a.mp4?token=secret";
      assert.equal((await checked(VIDEO, { title: "t", source: { url } })).sourceFingerprint, `url:${sha256(url)}`);
      const preview = await host.check(VIDEO, {}, { libraryId: UNKNOWN_VALUE, title: UNKNOWN_VALUE, source: UNKNOWN_VALUE, captions: UNKNOWN_VALUE, collectionId: UNKNOWN_VALUE });
      assert.deepEqual(preview.failures, []);
      assert.equal(preview.inputs.sourceFingerprint, undefined);
    });

    it("create streams the file, logs its progress, waits until the video plays and sets metadata and captions", async () => {
      const { path, bytes } = videoFile(6);
      const collection = await stream().createCollection(libraryId, "create-test");
      const { id, outputs } = await created(VIDEO, {
        title: "Launch",
        description: "The launch",
        source: path,
        collectionId: collection.guid,
        chapters: [{ title: "Intro", start: 0, end: 2 }],
        moments: [{ label: "Wave", timestamp: 1 }],
        metaTags: [{ property: "genre", value: "talk" }],
        captions: { en: captionFile("Hello") },
      });
      const video = await stream().getVideo(libraryId, String(outputs.videoId));
      assert.equal(id, `${libraryId}/${video.guid}`);
      assert.equal(outputs.status, 4);
      assert.equal(outputs.length, 6);
      assert.equal(outputs.thumbnailUrl, video.thumbnailUrl);
      assert.equal(video.originalHash, sha256(bytes).slice(7));
      assert.equal(video.description, "The launch");
      assert.equal(video.collectionId, collection.guid);
      assert.deepEqual(video.captions?.map((c) => c.srclang), ["en"]);
      assert.match(host.logs(), /video "Launch": uploaded 100 %/);
      assert.match(host.logs(), /video "Launch": Finished/);
    });

    it("a URL is fetched by the API and waited for; an unreachable one fails with the server's 422", async () => {
      const { outputs } = await created(VIDEO, { title: "From a URL", source: { url: "https://media.example.com/keynote.mp4" } });
      assert.equal((await stream().getVideo(libraryId, String(outputs.videoId))).title, "From a URL");
      assert.equal(outputs.status, 4);
      const inputs = await checked(VIDEO, { title: "Nowhere", source: { url: "https://cdn.unreachable.example/a.mp4" } });
      await assert.rejects(host.create(VIDEO, inputs), /answered 422/);
    });

    it("a file that does not encode fails the create with the reason, and leaves no video behind", async () => {
      const path = join(dir, "notes.mp4");
      writeFileSync(path, "these are notes, not a video");
      const inputs = await checked(VIDEO, { title: "Broken upload", source: path });
      await assert.rejects(host.create(VIDEO, inputs), (e: unknown) => e instanceof HostError && /failed to encode \(status Error\)/.test(e.message));
      const left: string[] = [];
      for await (const v of stream().listVideos(libraryId, { search: "Broken upload" })) left.push(v.guid);
      assert.deepEqual(left, []);
    });

    it("a video that does not play within encodeTimeoutSeconds fails the create saying so, and is deleted", async () => {
      // Every read of the video takes at least 600 ms and encoding needs three reads: never within 1 s, however fast the machine.
      await emu.faults({ rules: [{ path: "^/library/\\d+/videos/[^/]+$", method: "GET", latencyMs: 600 }] });
      try {
        const inputs = await checked(VIDEO, { title: "Too slow", source: videoFile().path, encodeTimeoutSeconds: 1 });
        await assert.rejects(host.create(VIDEO, inputs), (e: unknown) => e instanceof HostError && /did not finish encoding within encodeTimeoutSeconds \(1 s; last status/.test(e.message));
      } finally {
        await emu.clearFaults();
      }
      const left: string[] = [];
      for await (const v of stream().listVideos(libraryId, { search: "Too slow" })) left.push(v.guid);
      assert.deepEqual(left, []);
    });

    it("diff: metadata and captions change in place; new file content (same path) or another URL replaces, the new video first", async () => {
      const file = videoFile();
      const { id, outputs, inputs } = await created(VIDEO, { title: "Diffed", source: file.path });
      assert.deepEqual(await host.diff(VIDEO, id, outputs, inputs), NO_CHANGE);
      assert.deepEqual(await host.diff(VIDEO, id, outputs, await checked(VIDEO, { title: "Renamed", source: file.path })), IN_PLACE);
      assert.deepEqual(await host.diff(VIDEO, id, outputs, await checked(VIDEO, { title: "Diffed", source: file.path, captions: { en: captionFile("x") } })), IN_PLACE);
      assert.deepEqual(await host.diff(VIDEO, id, outputs, await checked(VIDEO, { title: "Diffed", source: file.path, encodeTimeoutSeconds: 60 })), IN_PLACE);
      writeFileSync(file.path, tinyMp4(5, 2048, 999));
      assert.deepEqual(await host.diff(VIDEO, id, outputs, await checked(VIDEO, { title: "Diffed", source: file.path })), {
        changes: "some",
        replaces: ["sourceFingerprint"],
        deleteBeforeReplace: false,
      });
      const byUrl = await checked(VIDEO, { title: "Diffed", source: { url: "https://media.example.com/other.mp4" } });
      assert.deepEqual((await host.diff(VIDEO, id, outputs, byUrl)).replaces, ["sourceFingerprint"]);
      assert.deepEqual((await host.diff(VIDEO, id, outputs, { ...inputs, libraryId: Number(emu.fixtures.otherVideoLibraryId) })).replaces, ["libraryId"]);
    });

    it("update changes title, description, collection, lists and captions in place; unchanged captions are not sent again", async () => {
      const { id, outputs } = await created(VIDEO, { title: "Before", source: videoFile().path, captions: { en: captionFile("one") }, chapters: [{ title: "A", start: 0, end: 1 }] });
      const collection = await stream().createCollection(libraryId, "update-test");
      const news = await checked(VIDEO, {
        title: "After",
        description: "now described",
        source: (outputs as { source: string }).source,
        collectionId: collection.guid,
        captions: { en: (outputs as { captions: Record<string, string> }).captions.en, de: captionFile("eins") },
      });
      await emu.markRequests();
      const updated = await host.update(VIDEO, id, outputs, news);
      const routes = (await emu.requests()).map((r) => `${r.method} ${r.route}`);
      assert.deepEqual(routes.filter((r) => r.includes("captions")), ["POST /library/:libraryId/videos/:videoId/captions/:srclang"], "only de is sent");
      assert.ok(!routes.some((r) => r.startsWith("PUT")), "nothing is uploaded again");
      const video = await stream().getVideo(libraryId, String(outputs.videoId));
      assert.equal(video.title, "After");
      assert.equal(video.description, "now described");
      assert.equal(video.collectionId, collection.guid);
      assert.deepEqual(video.chapters, [], "chapters removed from the program are cleared");
      assert.deepEqual(video.captions?.map((c) => c.srclang).sort(), ["de", "en"]);
      assert.equal(updated.videoId, outputs.videoId);
      assert.deepEqual(await host.diff(VIDEO, id, updated, news), NO_CHANGE);

      const fewer = await checked(VIDEO, { title: "After", source: news.source, collectionId: collection.guid, description: "now described", captions: { de: (news.captions as Record<string, unknown>).de } });
      await host.update(VIDEO, id, updated, fewer);
      assert.deepEqual((await stream().getVideo(libraryId, String(outputs.videoId))).captions?.map((c) => c.srclang), ["de"]);
    });

    it("refresh: unchanged keeps the inputs; a title and captions changed elsewhere are drift the next up repairs", async () => {
      const program = { title: "Refreshed", source: videoFile().path, captions: { en: captionFile("hi") } };
      const { id, outputs, inputs } = await created(VIDEO, program);
      const same = await host.read(VIDEO, id, outputs, inputs);
      assert.deepEqual(same.inputs, inputs);
      const videoId = String(outputs.videoId);
      await stream().updateVideo(libraryId, videoId, { title: "Edited in the dashboard" });
      await stream().deleteCaption(libraryId, videoId, "en");
      await stream().addCaption(libraryId, videoId, "fr", { file: Buffer.from("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nSalut\n") });
      const drifted = await host.read(VIDEO, id, outputs, inputs);
      assert.equal(drifted.inputs?.title, "Edited in the dashboard");
      assert.deepEqual(drifted.inputs?.captionFingerprints, { en: "removed outside Pulumi", fr: "added outside Pulumi" });
      const news = await checked(VIDEO, program);
      assert.deepEqual(await host.diff(VIDEO, id, drifted.outputs, news), IN_PLACE);
      const repaired = await host.update(VIDEO, id, drifted.outputs, news);
      const video = await stream().getVideo(libraryId, videoId);
      assert.equal(video.title, "Refreshed");
      assert.deepEqual(video.captions?.map((c) => c.srclang), ["en"]);
      assert.deepEqual(await host.diff(VIDEO, id, (await host.read(VIDEO, id, repaired, news)).outputs, news), NO_CHANGE);
    });

    it("delete: gone afterwards; deleting again, or after the library took the video with it, succeeds", async () => {
      const { id, outputs } = await created(VIDEO, { title: "Doomed", source: videoFile().path });
      await host.delete(VIDEO, id, outputs);
      await assert.rejects(stream().getVideo(libraryId, String(outputs.videoId)), /answered 404/);
      await host.delete(VIDEO, id, outputs);
      assert.equal((await host.read(VIDEO, id, outputs)).id, "");

      const library = await emu.client().videoLibraries.create({ Name: "video-doomed-library" });
      const inLibrary = await host.create(VIDEO, await checked(VIDEO, { libraryId: library.Id, title: "In a doomed library", source: videoFile().path }));
      const withKey = await host.create(VIDEO, await checked(VIDEO, { libraryId: library.Id, title: "With its key", source: videoFile().path, libraryKey: String(library.ApiKey) }));
      await emu.client().videoLibraries.delete(library.Id);
      await host.delete(VIDEO, inLibrary.id, inLibrary.outputs);
      await host.delete(VIDEO, withKey.id, withKey.outputs);
      assert.equal((await host.read(VIDEO, inLibrary.id, inLibrary.outputs)).id, "");
    });
  });

  describe("StreamCollection", () => {
    it("check refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(COLLECTION, {}, { libraryId: 0, name: "", libraryKey: "", nmae: "x" });
      assert.deepEqual(res.failures.map(named).map((f) => f.property).sort(), ["libraryId", "libraryKey", "name", "nmae"]);
      assert.equal((await emu.requests()).length, 0);
      const preview = await host.check(COLLECTION, {}, { libraryId: UNKNOWN_VALUE, name: "later" });
      assert.deepEqual(preview.failures, []);
    });

    it("create, rename in place, another library replaces, refresh shows a rename elsewhere, delete twice", async () => {
      const { id, outputs, inputs } = await created(COLLECTION, { name: "Talks" });
      assert.equal(id, `${libraryId}/${outputs.collectionId}`);
      assert.equal((await stream().getCollection(libraryId, String(outputs.collectionId))).name, "Talks");
      assert.deepEqual(await host.diff(COLLECTION, id, outputs, inputs), NO_CHANGE);
      const renamed = await checked(COLLECTION, { name: "Keynotes" });
      assert.deepEqual(await host.diff(COLLECTION, id, outputs, renamed), IN_PLACE);
      assert.deepEqual((await host.diff(COLLECTION, id, outputs, { ...inputs, libraryId: Number(emu.fixtures.otherVideoLibraryId) })).replaces, ["libraryId"]);
      const updated = await host.update(COLLECTION, id, outputs, renamed);
      assert.equal(updated.collectionId, outputs.collectionId);
      assert.equal((await stream().getCollection(libraryId, String(outputs.collectionId))).name, "Keynotes");

      await stream().renameCollection(libraryId, String(outputs.collectionId), "Changed elsewhere");
      const drifted = await host.read(COLLECTION, id, updated, renamed);
      assert.equal(drifted.inputs?.name, "Changed elsewhere");
      assert.deepEqual(await host.diff(COLLECTION, id, drifted.outputs, renamed), IN_PLACE);

      await host.delete(COLLECTION, id, updated);
      await host.delete(COLLECTION, id, updated);
      assert.equal((await host.read(COLLECTION, id, updated)).id, "");
    });

    it("adoptExisting: an existing collection of that name is refused without it and adopted with it", async () => {
      const existing = await stream().createCollection(libraryId, "Adopt me");
      await assert.rejects(host.create(COLLECTION, await checked(COLLECTION, { name: "Adopt me" })), /already exists .*adoptExisting: true/);
      const adopted = await created(COLLECTION, { name: "Adopt me", adoptExisting: true });
      assert.equal(adopted.outputs.collectionId, existing.guid);
    });

    it("an explicit library key works; a wrong one is refused with 401, and neither is in the logs or the error", async () => {
      const key = String(emu.fixtures.videoLibraryKey);
      const { outputs } = await created(COLLECTION, { name: "Keyed", libraryKey: key });
      assert.equal(typeof outputs.collectionId, "string");
      const wrong = "wrong-library-key-0123";
      await assert.rejects(host.create(COLLECTION, await checked(COLLECTION, { name: "Wrong key", libraryKey: wrong })), (e: unknown) => e instanceof HostError && /answered 401/.test(e.message) && !e.message.includes(wrong));
      assert.ok(!host.logs().includes(key) && !host.logs().includes(wrong));
    });
  });

  describe("in a program", () => {
    it("a library, a collection and a video from zero (assets for the file and captions): the library key stays a secret in state; unchanged up, refresh and preview change nothing; destroy leaves nothing", async () => {
      const harness = new ProgramHarness({
        config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:streamApiUrl": emu.url },
        secretConfig: ["bunnynet:apiKey"],
      });
      const file = videoFile(3).path;
      const captions = captionFile("Hello");
      let video!: bunnynet.StreamVideo;
      const program = () => {
        const library = new bunnynet.VideoLibrary("lib", { name: "program videos" });
        const collection = new bunnynet.StreamCollection("talks", { libraryId: library.libraryId, name: "Talks", libraryKey: library.apiKey });
        video = new bunnynet.StreamVideo("clip", {
          libraryId: library.libraryId,
          title: "Clip",
          source: new pulumi.asset.FileAsset(file),
          captions: { en: new pulumi.asset.FileAsset(captions) },
          collectionId: collection.collectionId,
          libraryKey: library.apiKey,
        });
      };
      const run = await harness.up(program);
      assert.deepEqual(run.steps.map((s) => s.op), ["create", "create", "create"]);
      // The upload's progress is in the command's messages (as the engine shows it), not in the test's output.
      assert.deepEqual(
        run.messages.filter((m) => m.message.startsWith('video "Clip"')).map((m) => m.message.replace(/ \(.*\)$/, "")),
        ['video "Clip": uploading 2204 bytes', 'video "Clip": uploaded 100 %', 'video "Clip": Processing', 'video "Clip": Transcoding', 'video "Clip": Finished'],
      );
      const secretness = await new Promise<boolean[]>((resolve) => pulumi.all([pulumi.isSecret(video.libraryKey), pulumi.isSecret(video.videoId)]).apply(resolve));
      assert.deepEqual(secretness, [true, false]);
      for (const name of ["clip", "talks"]) assert.ok(harness.resources().find((r) => r.name === name)?.secretKeys.includes("libraryKey"), `${name} stores libraryKey as a secret`);
      // Assets (the source, and captions nested by language) come back elided from the engine: still no change.
      await emu.markRequests();
      const again = await harness.up(program);
      assert.deepEqual(again.steps.map((s) => s.op), ["same", "same", "same"]);
      assert.deepEqual(await emu.requests(), [], "an unchanged up makes no API call");
      await harness.refresh();
      assert.deepEqual((await harness.preview(program)).steps.map((s) => s.op), ["same", "same", "same"]);
      writeFileSync(captions, "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello again\n");
      const changed = await harness.up(program);
      assert.deepEqual(changed.steps.map((s) => s.op), ["same", "same", "update"], "new captions change the video in place");
      await harness.destroy();
      assert.equal(harness.resources().length, 0);
    });
  });
});
