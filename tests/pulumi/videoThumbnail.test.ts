import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, UNKNOWN_VALUE, hostConfig, named } from "../support/providerHost";
import { VideoThumbnail } from "bunnynet-pulumi/dist/resources/videoThumbnail.js";

const TYPE = "VideoThumbnail";

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A distinct "image" per call: the emulator checks the magic bytes and names the thumbnail after the content. */
let imageCounter = 0;
const pngBytes = () => Buffer.from([...PNG_MAGIC, ++imageCounter, 0x42, 0x42]);
const sha256 = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/**
 * An asset as the engine hands it to a provider: serialized by the SDK, then the engine keeps only its asset
 * fields (signature, hash, path/text/uri), so the program-side `__pulumiAsset` marker does not arrive.
 */
async function asEngineSends(asset: pulumi.asset.Asset | pulumi.asset.Archive): Promise<Record<string, unknown>> {
  const { value } = await pulumi.runtime.serializeProperties("test", { value: asset });
  const fields = Object.entries(value as Record<string, unknown>).filter(([k]) => !k.startsWith("__pulumi"));
  return { ...Object.fromEntries(fields), hash: "0123abcd" };
}

describe("pulumi: VideoThumbnail through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  let libraryId: number;
  let videoId: string;
  let libraryKey: string;

  before(async () => {
    emu = await startEmulator();
    libraryId = Number(emu.fixtures.videoLibraryId);
    videoId = String(emu.fixtures.videoId);
    libraryKey = String(emu.fixtures.videoLibraryKey);
    dir = mkdtempSync(join(tmpdir(), "bunnynet-thumbnail-"));
    host = await ProviderHost.start();
    await host.configure(hostConfig(emu));
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const video = () => emu.client().stream.getVideo(libraryId, videoId, { libraryKey });
  let fileCounter = 0;
  const imageFile = (bytes: Buffer = pngBytes()) => {
    const path = join(dir, `thumb-${++fileCounter}.png`);
    writeFileSync(path, bytes);
    return { path, bytes };
  };

  async function checked(props: Record<string, unknown>) {
    const res = await host.check(TYPE, {}, { libraryId, videoId, ...props });
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  async function created(props: Record<string, unknown>) {
    const inputs = await checked(props);
    const res = await host.create(TYPE, inputs);
    return { ...res, inputs };
  }

  describe("check", () => {
    it("refuses bad input naming each property, without a single API call", async () => {
      await emu.markRequests();
      const res = await host.check(TYPE, {}, { libraryId: "lib", videoId: "", frame: 9, url: "ftp://example.com/a.png", libraryKey: "", fiel: "a.png" });
      const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
      assert.deepEqual(Object.keys(byProperty).sort(), ["fiel", "frame", "libraryId", "libraryKey", "url", "videoId"]);
      assert.match(byProperty.url, /absolute http:\/\/ or https:\/\/ URL/);
      assert.equal((await emu.requests()).length, 0);
    });

    it("refuses several sources naming each, and no source naming all three, without a single API call", async () => {
      const { path } = imageFile();
      await emu.markRequests();
      const several = await host.check(TYPE, {}, { libraryId, videoId, file: path, frame: 2, url: "https://images.example.com/a.png" });
      assert.deepEqual(several.failures.map(named).map((f) => f.property), ["file", "frame", "url"]);
      for (const f of several.failures.map(named)) assert.equal(f.reason, "only one thumbnail source may be set, but file and frame and url are set");
      const two = await host.check(TYPE, {}, { libraryId, videoId, frame: 2, url: "https://images.example.com/a.png" });
      assert.deepEqual(two.failures.map(named).map((f) => f.property), ["frame", "url"]);
      const none = await host.check(TYPE, {}, { libraryId, videoId });
      const reason = "no thumbnail source: set exactly one of file, frame, url";
      assert.deepEqual(none.failures, [{ property: "file", reason }, { property: "frame", reason }, { property: "url", reason }]);
      assert.equal((await emu.requests()).length, 0);
    });

    it("refuses a file that cannot be read, an archive and a RemoteAsset, naming file", async () => {
      const missing = await host.check(TYPE, {}, { libraryId, videoId, file: join(dir, "missing.png") });
      assert.equal(named(missing.failures[0]).property, "file");
      assert.match(named(missing.failures[0]).reason, /cannot be read: ENOENT/);
      const archive = await host.check(TYPE, {}, { libraryId, videoId, file: await asEngineSends(new pulumi.asset.FileArchive(dir)) });
      assert.deepEqual(archive.failures.map(named), [{ property: "file", reason: "an archive is not an image: use a FileAsset, a StringAsset or a path" }]);
      const remote = await host.check(TYPE, {}, { libraryId, videoId, file: await asEngineSends(new pulumi.asset.RemoteAsset("https://images.example.com/a.png")) });
      assert.equal(named(remote.failures[0]).property, "file");
      assert.match(named(remote.failures[0]).reason, /RemoteAsset .* set url/);
    });

    it("fingerprints the source: sha256 of a path's or an asset's bytes, the frame, the URL", async () => {
      const { path, bytes } = imageFile();
      assert.equal((await checked({ file: path })).fingerprint, sha256(bytes));
      const fileAsset = await checked({ file: await asEngineSends(new pulumi.asset.FileAsset(path)) });
      assert.equal(fileAsset.fingerprint, sha256(bytes));
      assert.equal((fileAsset.file as Record<string, unknown>).hash, undefined, "the engine's hash is not kept (the fingerprint is)");
      assert.equal((await checked({ file: await asEngineSends(new pulumi.asset.StringAsset("GIF89a-text")) })).fingerprint, sha256("GIF89a-text"));
      assert.equal((await checked({ frame: 3 })).fingerprint, "frame:3");
      assert.equal((await checked({ url: "https://images.example.com/a.png" })).fingerprint, `url:sha256:${createHash("sha256").update("https://images.example.com/a.png").digest("hex")}`);
      assert.equal((await checked({ frame: 3, fingerprint: "forged" })).fingerprint, "frame:3");
    });

    it("a source not known yet (preview) is not judged and has no fingerprint", async () => {
      const inputs = await checked({ file: UNKNOWN_VALUE });
      assert.deepEqual(inputs, { libraryId, videoId, file: UNKNOWN_VALUE });
    });
  });

  describe("life cycle", () => {
    it("a file path is uploaded as the body; the library key is looked up with the account key", async () => {
      const { path, bytes } = imageFile();
      await emu.markRequests();
      const { id, outputs, inputs } = await created({ file: path });
      const real = await video();
      assert.equal(id, `${libraryId}/${videoId}`);
      assert.deepEqual(outputs, { ...inputs, fingerprint: sha256(bytes), thumbnailFileName: real.thumbnailFileName, thumbnailUrl: real.thumbnailUrl });
      assert.match(String(real.thumbnailFileName), /^thumbnail_[0-9a-f]{12}\.jpg$/);
      const routes = (await emu.requests()).map((r) => `${r.method} ${r.route}`);
      assert.ok(routes.includes("GET /videolibrary/:id"), "the first use in this provider process looks the key up");
      assert.ok(routes.includes("POST /library/:libraryId/videos/:videoId/thumbnail"));
      assert.ok(!routes.some((r) => r.startsWith("POST /videolibrary")), "nothing but the thumbnail is written");
    });

    it("a FileAsset and a StringAsset are uploaded the same way; the same bytes give the same thumbnail", async () => {
      const { path } = imageFile();
      const fromPath = await created({ file: path });
      const fromAsset = await created({ file: await asEngineSends(new pulumi.asset.FileAsset(path)) });
      assert.equal(fromAsset.outputs.thumbnailFileName, fromPath.outputs.thumbnailFileName);
      assert.equal(fromAsset.outputs.fingerprint, fromPath.outputs.fingerprint);
      const fromText = await created({ file: await asEngineSends(new pulumi.asset.StringAsset("GIF89a-a-tiny-gif")) });
      assert.notEqual(fromText.outputs.thumbnailFileName, fromPath.outputs.thumbnailFileName);
      assert.equal((await video()).thumbnailFileName, fromText.outputs.thumbnailFileName);
    });

    it("a frame, with an explicit library key (a wrong one is refused with 401, without echoing it)", async () => {
      const { outputs } = await created({ frame: 2, libraryKey });
      assert.equal(outputs.thumbnailFileName, "thumbnail_2.jpg");
      const wrong = "wrong-library-key-0123";
      const inputs = await checked({ frame: 3, libraryKey: wrong });
      await assert.rejects(host.create(TYPE, inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.match(e.message, /answered 401/);
        assert.ok(!e.message.includes(wrong));
        return true;
      });
      assert.equal((await video()).thumbnailFileName, "thumbnail_2.jpg");
      assert.ok(!host.logs().includes(wrong) && !host.logs().includes(libraryKey));
    });

    it("a URL the server fetches (one it cannot fetch fails with the server's 422)", async () => {
      const { outputs } = await created({ url: "https://images.example.com/poster.png" });
      assert.equal((await video()).thumbnailFileName, outputs.thumbnailFileName);
      const inputs = await checked({ url: "https://cdn.unreachable.example/poster.png" });
      await assert.rejects(host.create(TYPE, inputs), /answered 422/);
    });

    it("diff: a new source or new file content changes in place; another video replaces", async () => {
      const file = imageFile();
      const { id, outputs, inputs } = await created({ file: file.path });
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      const { file: _file, ...withoutFile } = inputs;
      assert.deepEqual(await host.diff(TYPE, id, outputs, await checked({ ...withoutFile, frame: 4 })), { changes: "some", replaces: [], deleteBeforeReplace: false });
      writeFileSync(file.path, pngBytes());
      assert.deepEqual(await host.diff(TYPE, id, outputs, await checked({ file: file.path })), { changes: "some", replaces: [], deleteBeforeReplace: false });
      const other = String(emu.fixtures.otherVideoId);
      assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, videoId: other }), { changes: "some", replaces: ["videoId"], deleteBeforeReplace: false });
    });

    it("update sets the thumbnail from the new source; a change of libraryKey alone sets nothing", async () => {
      const { id, outputs } = await created({ frame: 1 });
      const news = await checked({ url: "https://images.example.com/new.png" });
      const updated = await host.update(TYPE, id, outputs, news);
      assert.equal(updated.fingerprint, `url:sha256:${createHash("sha256").update("https://images.example.com/new.png").digest("hex")}`);
      assert.equal(updated.thumbnailFileName, (await video()).thumbnailFileName);
      assert.notEqual(updated.thumbnailFileName, "thumbnail_1.jpg");
      await emu.markRequests();
      const keyOnly = await host.update(TYPE, id, updated, { ...news, libraryKey });
      assert.equal(keyOnly.thumbnailFileName, updated.thumbnailFileName);
      assert.ok(!(await emu.requests()).some((r) => r.method === "POST"), "no thumbnail was sent");
    });

    it("refresh: unchanged keeps everything; a thumbnail changed elsewhere is drift that the next up sets again", async () => {
      const { id, outputs, inputs } = await created({ frame: 2 });
      const same = await host.read(TYPE, id, outputs, inputs);
      assert.deepEqual(same.outputs, outputs);
      assert.deepEqual(same.inputs, inputs);

      await emu.client().stream.setThumbnail(libraryId, videoId, { frame: 5 });
      const drifted = await host.read(TYPE, id, outputs, inputs);
      assert.equal(drifted.id, id);
      assert.equal(drifted.outputs.thumbnailFileName, "thumbnail_5.jpg");
      assert.match(String(drifted.inputs?.fingerprint), /changed outside Pulumi \(now thumbnail_5\.jpg\)/);
      assert.equal(drifted.outputs.fingerprint, drifted.inputs?.fingerprint);
      // The unchanged program now differs from the refreshed state: an in-place update that sets frame 2 again.
      const program = await checked({ frame: 2 });
      assert.deepEqual(await host.diff(TYPE, id, drifted.outputs, program), { changes: "some", replaces: [], deleteBeforeReplace: false });
      const repaired = await host.update(TYPE, id, drifted.outputs, program);
      assert.equal((await video()).thumbnailFileName, "thumbnail_2.jpg");
      assert.equal(repaired.fingerprint, "frame:2");
      assert.deepEqual(await host.diff(TYPE, id, repaired, program), { changes: "none", replaces: [], deleteBeforeReplace: false });
    });

    it("refresh of a video that is gone reports it gone (no id)", async () => {
      const { id, outputs, inputs } = await created({ frame: 3 });
      const missing = "00000000-0000-4000-8000-000000000000";
      assert.equal((await host.read(TYPE, id, { ...outputs, videoId: missing }, { ...inputs, videoId: missing })).id, "");
    });

    it("delete leaves the video's thumbnail as it is and sends nothing; deleting again succeeds", async () => {
      const { id, outputs } = await created({ frame: 4 });
      await emu.markRequests();
      await host.delete(TYPE, id, outputs);
      await host.delete(TYPE, id, outputs);
      assert.equal((await emu.requests()).length, 0);
      assert.equal((await video()).thumbnailFileName, "thumbnail_4.jpg");
    });
  });

  describe("in a program", () => {
    it("the library key is a secret output even when the program passes it in plain text", async () => {
      const harness = new ProgramHarness({
        config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:streamApiUrl": emu.url },
        secretConfig: ["bunnynet:apiKey"],
      });
      let thumbnail!: VideoThumbnail;
      await harness.up(() => {
        thumbnail = new VideoThumbnail("poster", { libraryId, videoId, frame: 1, libraryKey });
      });
      const secretness = await new Promise<boolean[]>((resolve) =>
        pulumi.all([pulumi.isSecret(thumbnail.libraryKey), pulumi.isSecret(thumbnail.thumbnailFileName)]).apply(resolve),
      );
      assert.deepEqual(secretness, [true, false]);
      assert.equal((await video()).thumbnailFileName, "thumbnail_1.jpg");
      await harness.destroy();
    });
  });
});
