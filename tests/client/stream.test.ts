import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { BunnyError, ForbiddenError, InvalidRequestError, NotFoundError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { encodePath } from "bunnynet-pulumi/dist/http/pathSegments.js";
import { StreamStatusSchema } from "bunnynet-pulumi/dist/schemas/stream.js";

// The smallest byte sequences each image format is recognised by.
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);
const NOT_AN_IMAGE = Buffer.from("%PDF-1.7 definitely not an image");

function sha12(content: Uint8Array | string): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 12);
}

describe("client: Stream video thumbnails", () => {
  let emu: TestEmulator;
  let libraryId: number;
  let videoId: string;
  before(async () => {
    emu = await startEmulator();
    libraryId = Number(emu.fixtures.videoLibraryId);
    videoId = String(emu.fixtures.videoId);
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const thumbnailPath = () => encodePath("library", libraryId, "videos", videoId, "thumbnail");
  const videoPath = () => encodePath("library", libraryId, "videos", videoId);
  const libraryKey = () => String(emu.fixtures.videoLibraryKey);
  const currentThumbnail = async () => (await emu.client().stream.getVideo(libraryId, videoId)).thumbnailFileName;
  /** Sets `thumbnailUrl` raw, bypassing the client's own URL check, so the emulator's answer is what is tested. */
  const rawSetByUrl = (thumbnailUrl: string) =>
    emu.client({ maxRetries: 0 }).http.request({
      api: "stream",
      method: "POST",
      path: thumbnailPath(),
      query: { thumbnailUrl },
      auth: { accessKey: libraryKey() },
      responseSchema: StreamStatusSchema,
    });

  it("reads a seeded video with its generated thumbnails", async () => {
    const video = await emu.client().stream.getVideo(libraryId, videoId);
    assert.equal(video.guid, videoId);
    assert.equal(video.videoLibraryId, libraryId);
    assert.equal(video.thumbnailCount, 5);
    assert.equal(video.thumbnailFileName, "thumbnail.jpg");
    assert.match(String(video.thumbnailUrl), new RegExp(`/${videoId}/thumbnail\\.jpg$`));
  });

  it("looks the library key up once and reuses it for every call", async () => {
    const client = emu.client();
    client.stream.forgetLibraryKey(libraryId);
    await emu.markRequests();
    assert.equal(await client.stream.getLibraryKey(libraryId), libraryKey());
    await Promise.all([client.stream.setThumbnail(libraryId, videoId, { frame: 2 }), client.stream.getVideo(libraryId, videoId)]);
    await client.stream.setThumbnail(libraryId, videoId, { frame: 2 });
    // Another client of the same process shares the cache.
    await emu.client().stream.setThumbnail(libraryId, videoId, { frame: 2 });
    const log = await emu.requests();
    assert.equal(log.filter((r) => r.route === "/videolibrary/:id").length, 1);
    assert.equal(log.filter((r) => r.route === "/library/:libraryId/videos/:videoId/thumbnail" && r.status === 200).length, 3);
  });

  it("picks a generated frame: the file name names the frame", async () => {
    const status = await emu.client().stream.setThumbnail(libraryId, videoId, { frame: 3 });
    assert.equal(status.success, true);
    assert.equal(await currentThumbnail(), "thumbnail_3.jpg");
  });

  it("uploads an image: the file name identifies the content, and the same upload gives the same name", async () => {
    const stream = emu.client().stream;
    await stream.setThumbnail(libraryId, videoId, { file: JPEG, contentType: "image/jpeg" });
    assert.equal(await currentThumbnail(), `thumbnail_${sha12(JPEG)}.jpg`);
    await stream.setThumbnail(libraryId, videoId, { file: JPEG });
    assert.equal(await currentThumbnail(), `thumbnail_${sha12(JPEG)}.jpg`);
    await stream.setThumbnail(libraryId, videoId, { file: PNG, contentType: "image/png" });
    assert.equal(await currentThumbnail(), `thumbnail_${sha12(PNG)}.jpg`);
    await stream.setThumbnail(libraryId, videoId, { file: WEBP, contentType: "image/webp" }, { libraryKey: libraryKey() });
    assert.equal(await currentThumbnail(), `thumbnail_${sha12(WEBP)}.jpg`);
  });

  it("sets a thumbnail from a public URL", async () => {
    const url = "https://images.example.com/covers/keynote.jpg";
    await emu.client().stream.setThumbnail(libraryId, videoId, { url });
    assert.equal(await currentThumbnail(), `thumbnail_${sha12(url)}.jpg`);
    // Just outside the private 172.16.0.0/12 range: public, so accepted.
    await emu.client().stream.setThumbnail(libraryId, videoId, { url: "http://172.32.0.1/a.png" });
    assert.equal(await currentThumbnail(), `thumbnail_${sha12("http://172.32.0.1/a.png")}.jpg`);
  });

  it("answers 422 when the origin cannot be fetched, and keeps the old thumbnail", async () => {
    await emu.client().stream.setThumbnail(libraryId, videoId, { frame: 1 });
    for (const url of ["https://thumbs.unreachable.example/a.jpg", "https://cdn.example.invalid/a.jpg"]) {
      await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { url }), (e: unknown) => {
        assert.ok(e instanceof ValidationError, String(e));
        assert.equal(e.status, 422);
        assert.match(e.message, /unable to fetch the thumbnail from origin/i);
        return true;
      });
    }
    assert.equal(await currentThumbnail(), "thumbnail_1.jpg");
  });

  const refusedUrls = [
    "http://127.0.0.1/a.jpg",
    "http://127.1/a.jpg",
    "http://2130706433/a.jpg",
    "http://0x7f000001/a.jpg",
    "http://0177.0.0.1/a.jpg",
    "http://0x7f.0.0.1/a.jpg",
    "http://localhost/a.jpg",
    "http://LOCALHOST./a.jpg",
    "http://thumbs.localhost/a.jpg",
    "http://10.20.30.40/a.jpg",
    "http://172.16.0.1/a.jpg",
    "http://172.31.255.254/a.jpg",
    "http://192.168.1.1/a.jpg",
    "http://169.254.169.254/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://0.0.0.0/a.jpg",
    "http://0/a.jpg",
    "http://[::1]/a.jpg",
    "http://[::]/a.jpg",
    "http://[fc00::1]/a.jpg",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://[fe80::1]/a.jpg",
    "http://[::ffff:127.0.0.1]/a.jpg",
    "http://[::ffff:a9fe:a9fe]/a.jpg",
    "http://[::ffff:10.0.0.1]/a.jpg",
    "ftp://images.example.com/a.jpg",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "/relative/a.jpg",
    "not a url",
  ];

  it(`the emulator refuses ${refusedUrls.length} loopback, private, link-local, metadata and non-http URLs with 400`, async () => {
    await emu.client().stream.setThumbnail(libraryId, videoId, { frame: 4 });
    for (const url of refusedUrls) {
      await assert.rejects(rawSetByUrl(url), (e: unknown) => e instanceof ValidationError && e.status === 400, `${url} must be refused`);
    }
    assert.equal(await currentThumbnail(), "thumbnail_4.jpg", "no refused URL changed the thumbnail");
  });

  it("the client refuses non-http(s) URLs before sending anything", async () => {
    await emu.markRequests();
    for (const url of ["ftp://images.example.com/a.jpg", "/relative/a.jpg", "file:///etc/passwd"]) {
      await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { url }), (e: unknown) => e instanceof InvalidRequestError && e.field === "source.url");
    }
    assert.equal((await emu.requests()).filter((r) => r.route.includes("thumbnail")).length, 0);
  });

  it("refuses an upload that is not an image, or is empty", async () => {
    await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { file: NOT_AN_IMAGE }), (e: unknown) => e instanceof ValidationError && e.status === 400 && /not a JPEG, PNG, GIF or WebP/.test(e.message));
    await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { file: new Uint8Array(0) }), (e: unknown) => e instanceof InvalidRequestError && e.field === "source.file");
    const http = emu.client({ maxRetries: 0 }).http;
    const emptyBody = http.request({ api: "stream", method: "POST", path: thumbnailPath(), body: new Uint8Array(0), auth: { accessKey: libraryKey() } });
    await assert.rejects(emptyBody, (e: unknown) => e instanceof ValidationError && e.status === 400);
    await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { file: JPEG, contentType: "text/plain" }), (e: unknown) => e instanceof InvalidRequestError && e.field === "source.contentType");
  });

  it("uploads go as application/octet-stream, the only documented media type; the server refuses image/jpeg with 415", async () => {
    // The client sent the image's own type before; the emulator now follows stream-api-v1.5.23.json.
    await emu.client().stream.setThumbnail(libraryId, videoId, { file: PNG, contentType: "image/png" });
    const http = emu.client({ maxRetries: 0 }).http;
    const typed = http.request({ api: "stream", method: "POST", path: thumbnailPath(), body: JPEG, contentType: "image/jpeg", auth: { accessKey: libraryKey() } });
    await assert.rejects(typed, (e: unknown) => e instanceof BunnyError && e.status === 415);
  });

  it("refuses a frame beyond the generated ones, on both sides", async () => {
    await emu.markRequests();
    for (const frame of [0, 6, 2.5]) {
      await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { frame }), (e: unknown) => e instanceof InvalidRequestError && e.field === "source.frame");
    }
    assert.equal((await emu.requests()).length, 0);
    for (const name of ["thumbnail_6.jpg", "thumbnail_0.jpg", "thumbnail_99.jpg"]) {
      await assert.rejects(rawSetByUrl(name), (e: unknown) => e instanceof ValidationError && e.status === 400 && /frame \d+ does not exist/.test(e.message));
    }
  });

  it("Stream refuses the account key and other libraries' keys; core refuses the library key", async () => {
    const client = emu.client({ maxRetries: 0 });
    // Sent with the account key (the transport's default).
    await assert.rejects(client.http.request({ api: "stream", method: "GET", path: videoPath() }), UnauthorizedError);
    await assert.rejects(client.stream.getVideo(libraryId, videoId, { libraryKey: String(emu.fixtures.otherVideoLibraryKey) }), UnauthorizedError);
    await assert.rejects(client.stream.setThumbnail(libraryId, videoId, { frame: 1 }, { libraryKey: emu.fixtures.accessKey }), UnauthorizedError);
    await assert.rejects(emu.client({ apiKey: libraryKey(), maxRetries: 0 }).stream.getLibraryKey(libraryId), UnauthorizedError);

    const res = await fetch(`${emu.url}${videoPath()}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { success: false, message: "Authorization has been denied for this request.", statusCode: 401 });
  });

  it("the read-only library key may read but not set a thumbnail", async () => {
    const readOnly = String(emu.fixtures.videoLibraryReadOnlyKey);
    const video = await emu.client().stream.getVideo(libraryId, videoId, { libraryKey: readOnly });
    assert.equal(video.guid, videoId);
    await assert.rejects(emu.client().stream.setThumbnail(libraryId, videoId, { frame: 1 }, { libraryKey: readOnly }), ForbiddenError);
  });

  it("answers 404 for an unknown video or library, in Stream's StatusModel shape", async () => {
    const stream = emu.client().stream;
    await assert.rejects(stream.getVideo(libraryId, "00000000-0000-0000-0000-000000000000"), NotFoundError);
    await assert.rejects(stream.setThumbnail(libraryId, "00000000-0000-0000-0000-000000000000", { frame: 1 }), NotFoundError);
    // The other library's video is not in this library.
    await assert.rejects(stream.getVideo(libraryId, String(emu.fixtures.otherVideoId)), NotFoundError);
    await assert.rejects(stream.getLibraryKey(999_999), NotFoundError);
    await assert.rejects(stream.getVideo(999_999, videoId, { libraryKey: libraryKey() }), NotFoundError);

    const res = await fetch(`${emu.url}${encodePath("library", libraryId, "videos", "nope")}`, { headers: { AccessKey: libraryKey() } });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { success: false, message: "The requested video was not found", statusCode: 404 });
  });

  it("retries thumbnail calls through injected 503s (the route acted, the answer was lost) to the same result", async () => {
    await emu.faults({ rules: [{ path: "/thumbnail$", errorRate: 0.5, errorStatus: 503, phase: "after" }], seed: 3 });
    const client = emu.client({ maxRetries: 10 });
    await emu.markRequests();
    for (const frame of [1, 2, 3, 4, 5]) await client.stream.setThumbnail(libraryId, videoId, { frame });
    await client.stream.setThumbnail(libraryId, videoId, { file: JPEG });
    const calls = (await emu.requests()).filter((r) => r.route.endsWith("/thumbnail"));
    assert.ok(calls.some((c) => c.status === 503), "some answers were lost");
    assert.ok(client.http.stats.retries > 0);
    await emu.clearFaults();
    assert.equal(await currentThumbnail(), `thumbnail_${sha12(JPEG)}.jpg`);
  });

  // Last: it resets the library key, so the seeded key in the fixtures no longer works.
  it("looks the key up again when the cached one was reset elsewhere, and never puts a key in an error", async () => {
    const client = emu.client();
    await client.stream.getLibraryKey(libraryId);
    await client.http.request({ api: "core", method: "POST", path: encodePath("videolibrary", libraryId, "resetApiKey") });
    await emu.markRequests();
    await client.stream.setThumbnail(libraryId, videoId, { frame: 5 });
    const log = await emu.requests();
    assert.deepEqual(
      log.map((r) => [r.route, r.status]),
      [
        ["/library/:libraryId/videos/:videoId/thumbnail", 401],
        ["/videolibrary/:id", 200],
        ["/library/:libraryId/videos/:videoId/thumbnail", 200],
      ],
    );
    const fresh = await client.stream.getLibraryKey(libraryId);
    assert.notEqual(fresh, libraryKey(), "the fixture still names the seeded key");

    const stale = libraryKey();
    await assert.rejects(client.stream.getVideo(libraryId, videoId, { libraryKey: stale }), (e: unknown) => {
      assert.ok(e instanceof UnauthorizedError);
      const everything = JSON.stringify({ ...(e as object), message: (e as Error).message, stack: (e as Error).stack });
      assert.ok(!everything.includes(stale) && !everything.includes(fresh) && !everything.includes(emu.fixtures.accessKey));
      return true;
    });
  });
});
