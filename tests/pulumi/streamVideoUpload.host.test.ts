import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";
import { processMemory, resetPeakMemory } from "../support/processMemory";
import { writeLargeMp4 } from "../support/videoFile";

/**
 * Issue 27's upload, through the kit: a program's StreamVideo from a 50 MB file (written to a temporary directory
 * here, never committed) with captions in two languages, deployed by ProgramHarness through the SDK's provider host
 * against the emulator over HTTP. The video reaches Finished and carries both captions, the file went out through Stream's
 * tus endpoint in chunks each sent with its Content-Length, and the plugin's memory grew by less than 64 MB while it uploaded: its peak resident set during
 * `up` (VmHWM, reset just before) less its resident set before (Linux /proc; the memory part is skipped elsewhere).
 * A bound on memory, not on time. The garbage of a streamed file (its chunks, collected when V8 sees fit) takes tens
 * of megabytes whatever the size, so a 50 MB file held whole would stay under the bound as well: a 150 MB file under
 * the same bound is what fails if the upload ever holds the file. bench/videoUpload.ts prints the figures.
 */

const MB = 1_000_000;
const GROWTH_BOUND_MB = 64;

describe("pulumi: a 50 MB StreamVideo uploaded from a file through the kit's provider host", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  const captions: Record<string, string> = {};

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    dir = mkdtempSync(join(tmpdir(), "bunnynet-video-upload-"));
    for (const [lang, line] of [
      ["en", "Welcome"],
      ["de", "Willkommen"],
    ]) {
      captions[lang] = join(dir, `talk.${lang}.vtt`);
      writeFileSync(captions[lang], `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${line}\n`);
    }
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Deploys a StreamVideo from a file of `bytes` with both captions; the run, the file, and the plugin's growth in MB (undefined without /proc). */
  async function upload(name: string, bytes: number) {
    const video = join(dir, `${name}.mp4`);
    await writeLargeMp4(video, 600, bytes);
    const libraryId = Number(emu.fixtures.videoLibraryId);
    const harness = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const program = () => {
      const talk = new bunnynet.StreamVideo(name, {
        libraryId,
        title: name,
        source: new pulumi.asset.FileAsset(video),
        captions: { en: new pulumi.asset.FileAsset(captions.en), de: new pulumi.asset.FileAsset(captions.de) },
      });
      return { videoId: talk.videoId, status: talk.status };
    };
    // The plugin with the package loaded and the file read once (check hashes it): what the upload adds is measured.
    assert.deepEqual((await harness.preview(program)).steps.map((s) => s.op), ["create"]);
    const before = processMemory(host.pid);
    const peakReset = resetPeakMemory(host.pid);
    await emu.markRequests();
    const run = await harness.up(program);
    const during = processMemory(host.pid);
    const growthMb = before && during && peakReset ? during.peakMb - before.rssMb : undefined;
    const growth = growthMb === undefined ? "" : `the plugin grew by ${growthMb.toFixed(1)} MB (from ${before!.rssMb.toFixed(1)} MB to a peak of ${during!.peakMb.toFixed(1)} MB)`;
    return { run, video, libraryId, growthMb, growth };
  }

  it("50 MB: reaches Finished with both captions, sent in tus chunks with their Content-Length, the plugin growing by less than 64 MB", async () => {
    const { run, video, libraryId, growthMb, growth } = await upload("fifty", 50 * MB);
    assert.deepEqual(run.steps.map((s) => s.op), ["create"]);
    assert.equal(run.outputs.status, 4, "Finished");
    const uploaded = await emu.client().stream.getVideo(libraryId, String(run.outputs.videoId));
    assert.equal(uploaded.status, 4);
    assert.deepEqual(uploaded.captions?.map((c) => c.srclang).sort(), ["de", "en"]);
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(video)) hash.update(chunk as Buffer);
    assert.equal(uploaded.originalHash, hash.digest("hex"), "every byte of the file arrived");
    // Since issue 36 the file goes through Stream's tus endpoint (it used to be one PUT): one creation, then PATCHes of
    // at most 8 MiB, each with its Content-Length (never chunked), adding up to the file.
    const requests = await emu.requests();
    assert.deepEqual(requests.filter((r) => r.route === "/library/:libraryId/videos/:videoId" && r.method === "PUT"), [], "no direct PUT upload");
    assert.deepEqual(requests.filter((r) => r.route === "/tusupload").map((r) => [r.method, r.status]), [["POST", 201]]);
    const patches = requests.filter((r) => r.method === "PATCH" && r.route === "/tusupload/:uploadId");
    assert.equal(patches.length, Math.ceil((50 * MB) / (8 * 1024 * 1024)));
    assert.ok(patches.every((r) => r.status === 204 && r.chunked === undefined && r.contentLength !== undefined && r.contentLength <= 8 * 1024 * 1024));
    assert.equal(patches.reduce((n, r) => n + (r.contentLength ?? 0), 0), 50 * MB);
    if (growthMb !== undefined) assert.ok(growthMb < GROWTH_BOUND_MB, growth);
  });

  it("150 MB: the plugin still grows by less than 64 MB (a file held whole would not fit)", async function () {
    const { run, growthMb, growth } = await upload("hundred-fifty", 150 * MB);
    assert.equal(run.outputs.status, 4);
    if (growthMb === undefined) return this.skip(); // no /proc (not Linux)
    assert.ok(growthMb < GROWTH_BOUND_MB, growth);
  });
});
