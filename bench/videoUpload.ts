import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { ProviderHost, secret } from "../tests/support/providerHost";
import { processMemory, resetPeakMemory } from "../tests/support/processMemory";
import { writeLargeMp4 } from "../tests/support/videoFile";
import { admin, countRequests, printTable, spawnEmulator } from "./support";

/**
 * Video uploads, two ways:
 *
 * - Through the provider (issue 27): a StreamVideo created from a file of 50 MB and of `sizeMB`, with captions in two
 *   languages, by the SDK's provider host (the plugin process, as under `pulumi up`) against the emulator in its own
 *   process. Per size: the create's wall time (upload, captions and the polls until Finished), the upload's own time
 *   as the emulator timed its tus chunks (`PATCH /tusupload/{id}`, since issue 36), its throughput, whether every
 *   chunk carried a Content-Length, and the plugin's resident memory before the create (the package loaded and check
 *   done), its peak during the create (VmHWM, reset just before; Linux /proc) and the growth between them.
 * - The client alone, the direct upload (`PUT /library/{id}/videos/{videoId}`, `stream.uploadVideo`): streamed from
 *   disk (a body of known size that opens a file stream) against the same file read whole into a Buffer first, each in
 *   its own child process so each peak RSS is its own; the server is a sink in this process that counts the bytes and
 *   answers the StatusModel.
 *
 *   node dist/bench/videoUpload.js [sizeMB]      (default 256)
 */

const MB = 1_000_000;
type Mode = "streamed" | "buffered";

async function child(mode: Mode, url: string, path: string): Promise<void> {
  const settings = resolveSettings({ apiKey: "bench-account-key", apiUrl: url, streamApiUrl: url, timeoutMs: 120_000 }, {});
  const client = new BunnyClient(settings);
  const started = process.hrtime.bigint();
  const body = mode === "streamed" ? { length: statSync(path).size, open: () => createReadStream(path) } : readFileSync(path);
  await client.stream.uploadVideo(1, "bench-video", body, { libraryKey: "bench-library-key" });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
}

/** One StreamVideo create through the provider host from a file of `sizeMB`: its times and the plugin's memory. */
async function throughProvider(sizeMB: number, dir: string): Promise<Record<string, string | number>> {
  const path = join(dir, `talk-${sizeMB}.mp4`);
  await writeLargeMp4(path, 600, sizeMB * MB);
  const captions = Object.fromEntries(
    ["en", "de"].map((lang) => {
      const file = join(dir, `talk.${lang}.vtt`);
      writeFileSync(file, `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${lang}\n`);
      return [lang, file];
    }),
  );
  const emu = await spawnEmulator();
  const host = await ProviderHost.start().catch(async (e: unknown) => {
    await emu.stop();
    throw e;
  });
  try {
    await host.configure({ "bunnynet:apiKey": secret(emu.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:streamApiUrl": emu.url });
    const checked = await host.check("StreamVideo", {}, { libraryId: Number(emu.fixtures.videoLibraryId), title: `bench ${sizeMB} MB`, source: path, captions });
    if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    const since = (await countRequests(emu, Number.MAX_SAFE_INTEGER)).last;
    const before = processMemory(host.pid);
    const peakReset = resetPeakMemory(host.pid);
    const started = performance.now();
    const { outputs } = await host.create("StreamVideo", checked.inputs);
    const createS = (performance.now() - started) / 1000;
    const during = processMemory(host.pid);
    if (outputs.status !== 4) throw new Error(`the video ended in status ${String(outputs.status)}, not Finished`);
    const log = (await admin(emu, "GET", `/_emulator/requests?since=${since}`)) as { requests: { method: string; route: string; durationMs: number; contentLength?: number }[] };
    // StreamVideo uploads over tus (issue 36): the upload's time is its chunks' (PATCH) times together.
    const patches = log.requests.filter((r) => r.method === "PATCH" && r.route === "/tusupload/:uploadId");
    if (patches.length === 0) throw new Error("no upload reached the emulator");
    const put = { durationMs: patches.reduce((n, r) => n + r.durationMs, 0), contentLength: patches.every((r) => r.contentLength !== undefined) ? patches.reduce((n, r) => n + (r.contentLength ?? 0), 0) : undefined };
    const memory = (value: number | undefined) => (value === undefined || !peakReset ? "n/a" : value);
    return {
      "file MB": sizeMB,
      "create s": createS,
      "upload s": put.durationMs / 1000,
      "upload MB/s": sizeMB / (put.durationMs / 1000),
      "Content-Length": put.contentLength === sizeMB * MB ? "yes" : "no",
      "plugin RSS before MB": memory(before?.rssMb),
      "plugin peak MB": memory(during?.peakMb),
      "growth MB": memory(before && during ? during.peakMb - before.rssMb : undefined),
    };
  } finally {
    await host.stop();
    await emu.stop();
    rmSync(path, { force: true });
  }
}

async function main(): Promise<void> {
  const [, , first, second, third] = process.argv;
  if (first === "--child") return child(second as Mode, third, process.argv[5]);
  const sizeMB = Number(first ?? 256);
  const providerDir = mkdtempSync(join(tmpdir(), "bunnynet-bench-video-provider-"));
  try {
    const rows: Record<string, string | number>[] = [];
    for (const size of [...new Set([50, sizeMB])]) rows.push(await throughProvider(size, providerDir));
    printTable("StreamVideo from a file through the provider host (plugin process): upload throughput and the plugin's memory", rows);
  } finally {
    rmSync(providerDir, { recursive: true, force: true });
  }

  const dir = mkdtempSync(join(tmpdir(), "bunnynet-bench-video-"));
  const path = join(dir, "video.mp4");
  const out = createWriteStream(path);
  const chunk = Buffer.alloc(MB, 7);
  for (let i = 0; i < sizeMB; i++) if (!out.write(chunk)) await once(out, "drain");
  out.end();
  await once(out, "finish");

  let received = 0;
  const server = createServer((req, res) => {
    req.on("data", (c: Buffer) => (received += c.length));
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success: true, message: "OK", statusCode: 200 })));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rows: Record<string, string | number>[] = [];
  try {
    for (const mode of ["streamed", "buffered"] as Mode[]) {
      received = 0;
      const run = await new Promise<{ stdout: string; status: number | null }>((resolve) => {
        // Async spawn: the sink runs in this process and must keep reading while the child sends.
        const p = spawn(process.execPath, [__filename, "--child", mode, url, path], { stdio: ["ignore", "pipe", "inherit"] });
        let stdout = "";
        p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        p.on("exit", (status) => resolve({ stdout, status }));
      });
      if (run.status !== 0) throw new Error(`${mode} upload failed (exit ${run.status})`);
      const result = JSON.parse(run.stdout) as { seconds: number; peakRssMB: number };
      rows.push({ mode, "file MB": sizeMB, "received MB": received / MB, seconds: result.seconds, "MB/s": sizeMB / result.seconds, "peak RSS MB": result.peakRssMB });
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(`Video upload of ${sizeMB} MB: streamed from disk (StreamVideo) vs read whole into memory`, rows);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
