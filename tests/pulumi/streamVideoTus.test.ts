import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { tusSignature } from "bunnynet-pulumi/dist/client/streamTus.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { startHostileServer } from "../support/hostileServer";
import { ProviderHost, hostConfig } from "../support/providerHost";
import { writeLargeMp4 } from "../support/videoFile";

/**
 * Issue 36: a StreamVideo from a file goes through Stream's resumable (tus) endpoint, `{streamApiUrl}/tusupload`
 * (docs.bunny.net "TUS Resumable Uploads"; the tus 1.0.0 protocol), in chunks of 8 MiB. Against the emulator over
 * HTTP, through the SDK's provider host: with a chunk's connection cut mid-body (the emulator's "body" drop fault) the
 * upload completes, resuming from the offset a HEAD confirms (the request log's `uploadOffset`), sending less than
 * twice the file; the same file without a fault goes in contiguous chunks with no HEAD. The endpoint's own refusals
 * (bad or expired signature, offset conflict, wrong media type, unknown upload, a body past the length, another
 * protocol version, a checksum mismatch) are checked with raw requests, and the client's refusal of a hostile server's answers (a
 * Location elsewhere, an offset out of range) against a hostile server. The tus routes are in no OpenAPI document, so these are their
 * conformance checks (tests/conformance/openapi.test.ts says so).
 */

const VIDEO = "StreamVideo";
const MiB = 1024 * 1024;
const CHUNK = 8 * MiB;
const SIZE = 20 * MiB + 12_345;

describe("pulumi: StreamVideo uploads through Stream's tus endpoint, resuming after a dropped chunk", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  let libraryId: number;
  let file: string;
  let fileHash: string;

  before(async () => {
    emu = await startEmulator();
    libraryId = Number(emu.fixtures.videoLibraryId);
    dir = mkdtempSync(join(tmpdir(), "bunnynet-tus-"));
    file = join(dir, "talk.mp4");
    await writeLargeMp4(file, 42, SIZE);
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    fileHash = hash.digest("hex");
    host = await ProviderHost.start();
    await host.configure(hostConfig(emu, { "bunnynet:maxRetries": "2" }));
  });
  after(async () => {
    await emu?.clearFaults();
    await host?.stop();
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function createVideo(title: string) {
    const checked = await host.check(VIDEO, {}, { libraryId, title, source: file });
    assert.deepEqual(checked.failures, []);
    return host.create(VIDEO, checked.inputs);
  }

  it("a chunk cut mid-body: the upload completes, resuming from the offset HEAD confirms, sending less than twice the file", async () => {
    await emu.markRequests();
    // The second PATCH loses its connection after 3 MiB of its 8.
    await emu.faults({ rules: [{ path: "^/tusupload/", method: "PATCH", dropRate: 1, phase: "body", dropAfterBytes: 3 * MiB, skip: 1, times: 1 }] });
    const lines: string[] = [];
    const stop = host.onStdoutLine((line) => lines.push(line));
    const res = await createVideo("resumed").finally(stop);
    await emu.clearFaults();
    assert.equal(res.outputs.status, 4, "Finished");
    const video = await emu.client().stream.getVideo(libraryId, String(res.outputs.videoId));
    assert.equal(video.originalHash, fileHash, "every byte arrived, in order");

    const tus = (await emu.requests()).filter((r) => r.route.startsWith("/tusupload"));
    assert.deepEqual(tus.map((r) => `${r.method} ${r.status}${r.fault ? ` ${r.fault}` : ""}`), ["POST 201", "PATCH 204", "PATCH 0 drop", "HEAD 200", "PATCH 204", "PATCH 204"]);
    const [, first, dropped, head, resumed] = tus;
    assert.equal(first.uploadOffset, 0);
    assert.equal(dropped.uploadOffset, CHUNK);
    // What arrived before the cut was kept: HEAD confirms it, and the next PATCH starts exactly there, not at zero.
    assert.equal(head.uploadOffset, CHUNK + 3 * MiB);
    assert.equal(resumed.uploadOffset, head.uploadOffset);
    const declared = tus.filter((r) => r.method === "PATCH").reduce((n, r) => n + (r.contentLength ?? 0), 0);
    assert.ok(declared < 2 * SIZE, `${declared} bytes offered for a file of ${SIZE}`);
    assert.ok(tus.filter((r) => r.method === "PATCH").every((r) => r.chunked === undefined && (r.contentLength ?? Infinity) <= CHUNK));
    // Progress in the engine's log as before, with the resume and where it resumed.
    const progress = lines.filter((l) => l.includes('video "resumed"'));
    assert.ok(progress.some((l) => l.includes(`video "resumed": resuming at ${CHUNK + 3 * MiB} of ${SIZE} bytes`)), progress.join("\n"));
    assert.ok(progress.some((l) => l.includes('video "resumed": uploaded 100 %')), progress.join("\n"));
    assert.ok(!lines.some((l) => /[0-9a-f]{64}/.test(l) || l.includes(String(emu.fixtures.videoLibraryKey))), "no signature or key in the log");
  });

  it("the same file with no fault: contiguous chunks of 8 MiB, no HEAD, the same bytes", async () => {
    await emu.markRequests();
    const res = await createVideo("unbroken");
    assert.equal(res.outputs.status, 4);
    assert.equal((await emu.client().stream.getVideo(libraryId, String(res.outputs.videoId))).originalHash, fileHash);
    const tus = (await emu.requests()).filter((r) => r.route.startsWith("/tusupload"));
    assert.deepEqual(tus.map((r) => `${r.method} ${r.status}`), ["POST 201", "PATCH 204", "PATCH 204", "PATCH 204"]);
    assert.deepEqual(tus.slice(1).map((r) => [r.uploadOffset, r.contentLength]), [[0, CHUNK], [CHUNK, CHUNK], [2 * CHUNK, SIZE - 2 * CHUNK]]);
    assert.ok(!(await emu.requests()).some((r) => r.method === "PUT"), "no direct PUT upload");
  });

  it("a chunk that keeps failing ends the upload, saying how many tries over how long", async () => {
    await emu.faults({ rules: [{ path: "^/tusupload/", method: "PATCH", dropRate: 1, phase: "body", dropAfterBytes: 0 }] });
    try {
      const checked = await host.check(VIDEO, {}, { libraryId, title: "never", source: file });
      await assert.rejects(host.create(VIDEO, checked.inputs), /PATCH \/tusupload\/[^ ]+ failed.*gave up after 3 tries over/s);
    } finally {
      await emu.clearFaults();
    }
    // The failed create removed its video (StreamVideo's create deletes what it made).
    for await (const v of emu.client().stream.listVideos(libraryId, { search: "never" })) assert.notEqual(v.title, "never");
  });

  it("against a hostile server: a Location elsewhere and an Upload-Offset out of range are refused, the signature sent nowhere else", async () => {
    const hostile = await startHostileServer();
    try {
      const client = new BunnyClient({ ...resolveSettings({ apiKey: "account-key-0123456789", apiUrl: hostile.url, streamApiUrl: hostile.url }, {}), retryBaseDelayMs: 5 });
      const upload = () => client.stream.uploadVideoResumable(7, "video-1", { length: 100, open: (s, e) => createReadStream(file, { start: s, end: e }) }, { filetype: "video/mp4", title: "t" }, { libraryKey: "library-key-0123456789" });
      for (const location of ["https://elsewhere.example/tusupload/x", "/other/x", "/tusupload/../apikey", undefined]) {
        hostile.reset();
        hostile.route("/tusupload", (_req, res) => void res.writeHead(201, location === undefined ? {} : { location }).end());
        await assert.rejects(upload(), (e: Error) => /Location/.test(e.message) && !/[0-9a-f]{64}/.test(e.message));
        assert.deepEqual(hostile.requests.map((r) => r.method), ["POST"], `nothing sent after the creation answered ${location}`);
      }
      hostile.reset();
      hostile.route("/tusupload", (_req, res) => void res.writeHead(201, { location: `${hostile.url}/tusupload/abc` }).end());
      hostile.route("/tusupload/abc", (req, res) => {
        req.resume();
        req.on("end", () => res.writeHead(204, { "upload-offset": "5000" }).end());
      });
      await assert.rejects(upload(), /Upload-Offset "5000" is not between 1 and 100/);
      assert.ok(hostile.requests.every((r) => r.headers.authorizationsignature === hostile.requests[0].headers.authorizationsignature));
    } finally {
      await hostile.close();
    }
  });

  describe("the endpoint's refusals (raw requests)", () => {
    let videoId: string;
    let key: string;
    const expire = () => Math.floor(Date.now() / 1000) + 600;
    const signed = (e = expire(), vid = videoId, k = key) => ({ authorizationsignature: tusSignature(libraryId, k, e, vid), authorizationexpire: String(e), videoid: vid, libraryid: String(libraryId) });
    const meta = `filetype ${Buffer.from("video/mp4").toString("base64")},title ${Buffer.from("raw").toString("base64")}`;
    const create = async (headers: Record<string, string>) => {
      const res = await request(`${emu.url}/tusupload`, { method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": "100", "upload-metadata": meta, ...headers } });
      return { status: res.statusCode, location: res.headers.location as string | undefined, text: await res.body.text() };
    };

    before(async () => {
      key = String(emu.fixtures.videoLibraryKey);
      videoId = (await emu.client().stream.createVideo(libraryId, { title: "raw" })).guid;
    });

    it("a bad, expired or missing signature is refused with 401, naming neither the key nor the signature", async () => {
      const bad = signed(expire(), videoId, "not-the-library-key");
      for (const headers of [bad, signed(Math.floor(Date.now() / 1000) - 10), {}]) {
        const res = await create(headers);
        assert.equal(res.status, 401, res.text);
        assert.equal(JSON.parse(res.text).success, false);
        assert.ok(!res.text.includes(key) && !res.text.includes(bad.authorizationsignature));
      }
      // Through the client with a wrong library key: the error names neither the key nor its signature.
      const client = new BunnyClient({ ...resolveSettings({ apiKey: emu.fixtures.accessKey, apiUrl: emu.url, streamApiUrl: emu.url }, {}), retryBaseDelayMs: 5 });
      const wrongKey = "0123456789abcdef-wrong-library-key";
      const err = (await client.stream.uploadVideoResumable(libraryId, videoId, { length: 10, open: (s, e) => createReadStream(file, { start: s, end: e }) }, { filetype: "video/mp4", title: "raw" }, { libraryKey: wrongKey }).catch((e: Error) => e)) as Error;
      assert.match(err.message, /POST \/tusupload answered 401/);
      assert.ok(!err.message.includes(wrongKey) && !/[0-9a-f]{64}/.test(err.message), err.message);
    });

    it("an offset conflict is 409 with the upload's offset; media type 415, unknown upload 404, past the length 413, another version 412, checksum mismatch 460", async () => {
      const created = await create(signed());
      assert.equal(created.status, 201, created.text);
      const url = created.location!;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/tusupload\/[0-9a-f-]+$/);
      const patch = (headers: Record<string, string>, body: Buffer, at = url) =>
        request(at, { method: "PATCH", headers: { "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream", ...signed(), ...headers }, body }).then(async (r) => ({ status: r.statusCode, offset: r.headers["upload-offset"], text: await r.body.text() }));

      const conflict = await patch({ "upload-offset": "40" }, Buffer.alloc(10));
      assert.deepEqual([conflict.status, conflict.offset], [409, "0"], conflict.text);
      assert.equal((await patch({ "upload-offset": "0", "content-type": "application/octet-stream" }, Buffer.alloc(10))).status, 415);
      assert.equal((await patch({ "upload-offset": "0" }, Buffer.alloc(10), url.replace(/[^/]+$/, "no-such-upload"))).status, 404);
      assert.equal((await patch({ "upload-offset": "0" }, Buffer.alloc(101))).status, 413);
      assert.equal((await patch({ "upload-offset": "0", "tus-resumable": "0.2.2" }, Buffer.alloc(10))).status, 412);
      // Another video's signature does not reach this upload.
      const other = (await emu.client().stream.createVideo(libraryId, { title: "raw other" })).guid;
      assert.equal((await patch({ "upload-offset": "0", ...signed(expire(), other) }, Buffer.alloc(10))).status, 404);

      const first = await patch({ "upload-offset": "0" }, Buffer.alloc(60, 1));
      assert.deepEqual([first.status, first.offset], [204, "60"]);
      const head = await request(url, { method: "HEAD", headers: { "tus-resumable": "1.0.0", ...signed() } });
      await head.body.dump();
      assert.deepEqual([head.statusCode, head.headers["upload-offset"], head.headers["upload-length"]], [200, "60", "100"]);
      assert.equal((await patch({ "upload-offset": "0" }, Buffer.alloc(40))).status, 409, "the start again is a conflict once bytes are in");
      // The checksum extension: another algorithm is 400, a mismatch 460 with nothing kept, a match is taken.
      const sha1 = (b: Buffer) => `sha1 ${createHash("sha1").update(b).digest("base64")}`;
      assert.equal((await patch({ "upload-offset": "60", "upload-checksum": `md5 ${Buffer.alloc(16).toString("base64")}` }, Buffer.alloc(40, 2))).status, 400);
      const mismatch = await patch({ "upload-offset": "60", "upload-checksum": sha1(Buffer.alloc(40, 3)) }, Buffer.alloc(40, 2));
      assert.deepEqual([mismatch.status, mismatch.offset], [460, "60"], mismatch.text);
      const last = await patch({ "upload-offset": "60", "upload-checksum": sha1(Buffer.alloc(40, 2)) }, Buffer.alloc(40, 2));
      assert.deepEqual([last.status, last.offset], [204, "100"]);
      // Complete: the video is Uploaded as after the direct PUT (not a video file, so it will end in Error).
      const video = await emu.client().stream.getVideo(libraryId, videoId);
      assert.notEqual(video.status, 0, "uploaded");
      assert.equal(video.originalHash, createHash("sha256").update(Buffer.concat([Buffer.alloc(60, 1), Buffer.alloc(40, 2)])).digest("hex"));
      assert.equal((await create(signed())).status, 400, "a second upload into the video is refused");
    });
  });
});
