import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { tinyMp4 } from "../support/videoFile";
import { InvalidRequestError, NotFoundError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { VideoStatus } from "bunnynet-pulumi/dist/schemas/stream.js";

const VTT = Buffer.from("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello\n");

describe("client: Stream videos and collections over HTTP", () => {
  let emu: TestEmulator;
  let libraryId: number;
  before(async () => {
    emu = await startEmulator();
    libraryId = Number(emu.fixtures.videoLibraryId);
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const stream = () => emu.client().stream;
  /** Reads the video until its status stops changing; the statuses seen, in order. */
  async function statusesUntilSettled(videoId: string): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      const status = (await stream().getVideo(libraryId, videoId)).status ?? -1;
      if (seen.at(-1) === status) break;
      seen.push(status);
    }
    return seen;
  }

  it("creates a video, uploads a file streamed from a Readable, and reads it through every encoding status to Finished", async () => {
    const created = await stream().createVideo(libraryId, { title: "Streamed" });
    assert.equal(created.status, VideoStatus.Created);
    const bytes = tinyMp4(7, 64 * 1024);
    const chunks = Array.from({ length: 16 }, (_, i) => bytes.subarray(Math.floor((i * bytes.length) / 16), Math.floor(((i + 1) * bytes.length) / 16)));
    let opened = 0;
    await stream().uploadVideo(libraryId, created.guid, () => (opened++, Readable.from(chunks)));
    assert.equal(opened, 1);
    assert.deepEqual(await statusesUntilSettled(created.guid), [VideoStatus.Processing, VideoStatus.Transcoding, VideoStatus.Finished]);
    const video = await stream().getVideo(libraryId, created.guid);
    assert.equal(video.length, 7);
    assert.equal(video.originalHash, createHash("sha256").update(bytes).digest("hex"));
  });

  it("a file of known size is sent with its Content-Length, an unknown one chunked; the movie header is found across chunks; a file over the JSON body limit streams in", async () => {
    const bytes = tinyMp4(9, 4096);
    const header = bytes.indexOf("mvhd");
    // Split inside the `mvhd` type and again inside its duration: the emulator reads the header across three chunks.
    const chunks = [bytes.subarray(0, header + 2), bytes.subarray(header + 2, header + 22), bytes.subarray(header + 22)];
    const sized = await stream().createVideo(libraryId, { title: "Sized" });
    const chunked = await stream().createVideo(libraryId, { title: "Chunked" });
    await emu.markRequests();
    await stream().uploadVideo(libraryId, sized.guid, { length: bytes.length, open: () => Readable.from(chunks) });
    await stream().uploadVideo(libraryId, chunked.guid, () => Readable.from(chunks));
    const puts = (await emu.requests()).filter((r) => r.method === "PUT");
    assert.deepEqual(
      puts.map((r) => [r.status, r.contentLength, r.chunked]),
      [
        [200, bytes.length, undefined],
        [200, undefined, true],
      ],
    );
    for (const guid of [sized.guid, chunked.guid]) {
      await statusesUntilSettled(guid);
      const video = await stream().getVideo(libraryId, guid);
      assert.deepEqual([video.status, video.length, video.originalHash], [VideoStatus.Finished, 9, createHash("sha256").update(bytes).digest("hex")]);
    }

    // 25 MB: more than the emulator's limit for parsed bodies (20 MiB), never held whole on either side.
    const large = await stream().createVideo(libraryId, { title: "Large" });
    const megabyte = Buffer.alloc(1_000_000, 1);
    const hash = createHash("sha256").update(bytes);
    for (let i = 0; i < 25; i++) hash.update(megabyte);
    const open = () => Readable.from((function* () { yield bytes; for (let i = 0; i < 25; i++) yield megabyte; })());
    await stream().uploadVideo(libraryId, large.guid, { length: bytes.length + 25 * megabyte.length, open });
    assert.equal((await stream().getVideo(libraryId, large.guid)).originalHash, hash.digest("hex"), "every byte arrived");
  });

  it("a streamed upload refused by the rate limiter is sent again from a freshly opened file; a 503 is not (it may have arrived)", async () => {
    const { guid } = await stream().createVideo(libraryId, { title: "Retried" });
    const bytes = tinyMp4(2);
    let opened = 0;
    const body = () => (opened++, Readable.from([bytes]));
    await emu.faults({ rules: [{ path: "^/library/\\d+/videos/[^/]+$", method: "PUT", burst429: 1, retryAfterSeconds: 0 }] });
    await emu.client({ maxRetries: 2 }).stream.uploadVideo(libraryId, guid, body);
    assert.equal(opened, 2);
    assert.equal((await stream().getVideo(libraryId, guid)).status, VideoStatus.Processing);

    const other = await stream().createVideo(libraryId, { title: "Not retried" });
    opened = 0;
    await emu.faults({ rules: [{ path: "^/library/\\d+/videos/[^/]+$", method: "PUT", errorRate: 1, errorStatus: 503 }] });
    await assert.rejects(emu.client({ maxRetries: 2 }).stream.uploadVideo(libraryId, other.guid, body), /answered 503/);
    assert.equal(opened, 1);
  });

  it("refuses a second upload into one video (400), an empty file before sending, and ends a file that is not a video in Error", async () => {
    const { guid } = await stream().createVideo(libraryId, { title: "Twice" });
    await stream().uploadVideo(libraryId, guid, tinyMp4(1));
    await assert.rejects(stream().uploadVideo(libraryId, guid, tinyMp4(1)), (e: unknown) => e instanceof ValidationError && /already uploaded/.test(e.message));
    await emu.markRequests();
    await assert.rejects(stream().uploadVideo(libraryId, guid, new Uint8Array(0)), InvalidRequestError);
    assert.equal((await emu.requests()).length, 0);

    const other = await stream().createVideo(libraryId, { title: "Not a video" });
    await stream().uploadVideo(libraryId, other.guid, Buffer.from("%PDF-1.7 this is a document"));
    assert.deepEqual(await statusesUntilSettled(other.guid), [VideoStatus.Processing, VideoStatus.Error]);
  });

  it("fetches a video from a URL and finds its id though the answer names none; refuses private and unreachable URLs", async () => {
    const videoId = await stream().fetchVideo(libraryId, { url: "https://media.example.com/talk.mp4", title: "Fetched talk" });
    const video = await stream().getVideo(libraryId, videoId);
    assert.equal(video.title, "Fetched talk");
    await assert.rejects(stream().fetchVideo(libraryId, { url: "http://169.254.169.254/latest", title: "x" }), (e: unknown) => e instanceof ValidationError && /url must not point/.test(e.message));
    await assert.rejects(stream().fetchVideo(libraryId, { url: "https://cdn.unreachable.example/a.mp4", title: "y" }), (e: unknown) => e instanceof ValidationError && /Unable to fetch video/.test(e.message));
    await emu.markRequests();
    await assert.rejects(stream().fetchVideo(libraryId, { url: "ftp://example.com/a.mp4", title: "z" }), (e: unknown) => e instanceof InvalidRequestError && /url/.test(e.message));
    assert.equal((await emu.requests()).length, 0);
  });

  it("changes metadata in place, adds and removes captions, lists and deletes; a deleted video is NotFound", async () => {
    const collection = await stream().createCollection(libraryId, "Talks");
    const { guid } = await stream().createVideo(libraryId, { title: "Meta", collectionId: collection.guid });
    await stream().updateVideo(libraryId, guid, {
      title: "Meta 2",
      chapters: [{ title: "Intro", start: 0, end: 3 }],
      moments: [{ label: "Wave", timestamp: 2 }],
      metaTags: [{ property: "description", value: "About it" }],
    });
    await stream().addCaption(libraryId, guid, "en", { file: VTT, label: "English" });
    let video = await stream().getVideo(libraryId, guid);
    assert.equal(video.title, "Meta 2");
    assert.equal(video.description, "About it");
    assert.equal(video.collectionId, collection.guid);
    assert.deepEqual(video.chapters, [{ title: "Intro", start: 0, end: 3 }]);
    assert.deepEqual(video.captions?.map((c) => [c.srclang, c.label]), [["en", "English"]]);
    await assert.rejects(stream().addCaption(libraryId, guid, "de", { file: Buffer.from("not captions") }), ValidationError);
    await stream().deleteCaption(libraryId, guid, "en");
    await stream().updateVideo(libraryId, guid, { collectionId: "" });
    video = await stream().getVideo(libraryId, guid);
    assert.deepEqual(video.captions, []);
    assert.equal(video.collectionId, null);

    const titles: string[] = [];
    for await (const v of stream().listVideos(libraryId, { search: "meta" })) titles.push(String(v.title));
    assert.deepEqual(titles, ["Meta 2"]);
    await stream().deleteVideo(libraryId, guid);
    await assert.rejects(stream().getVideo(libraryId, guid), NotFoundError);
    await assert.rejects(stream().deleteVideo(libraryId, guid), NotFoundError);
  });

  it("manages collections: create, find by exact name across pages, rename, delete; the account key is refused", async () => {
    for (let i = 0; i < 105; i++) await stream().createCollection(libraryId, `bulk ${i}`);
    const target = await stream().createCollection(libraryId, "bulk");
    const found = await stream().findCollectionByName(libraryId, "bulk");
    assert.equal(found?.guid, target.guid);
    await stream().renameCollection(libraryId, target.guid, "renamed");
    assert.equal((await stream().getCollection(libraryId, target.guid)).name, "renamed");
    await stream().deleteCollection(libraryId, target.guid);
    await assert.rejects(stream().getCollection(libraryId, target.guid), NotFoundError);
    await assert.rejects(stream().createCollection(libraryId, "x", { libraryKey: String(emu.fixtures.accessKey) }), UnauthorizedError);
    await assert.rejects(stream().createCollection(libraryId, ""), InvalidRequestError);
  });

  it("a library deleted takes its videos and collections: every later call is NotFound", async () => {
    const library = await emu.client().videoLibraries.create({ Name: "doomed" });
    const { guid } = await stream().createVideo(library.Id, { title: "Doomed" });
    const collection = await stream().createCollection(library.Id, "Doomed");
    const key = { libraryKey: String(library.ApiKey) };
    await emu.client().videoLibraries.delete(library.Id);
    await assert.rejects(stream().deleteVideo(library.Id, guid, key), NotFoundError);
    await assert.rejects(stream().deleteCollection(library.Id, collection.guid, key), NotFoundError);
  });
});
