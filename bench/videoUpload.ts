import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { printTable } from "./support";

/**
 * A video upload (`PUT /library/{id}/videos/{videoId}`) streamed from disk (a body that opens a file stream, as StreamVideo sends it)
 * against the same file read whole into a Buffer first, each in its own child process so each peak RSS is its own.
 * The server is a sink in this process that counts the bytes and answers the StatusModel.
 *
 *   node dist/bench/videoUpload.js [sizeMB]      (default 256)
 */

const MB = 1_000_000;
type Mode = "streamed" | "buffered";

async function child(mode: Mode, url: string, path: string): Promise<void> {
  const settings = resolveSettings({ apiKey: "bench-account-key", apiUrl: url, streamApiUrl: url, timeoutMs: 120_000 }, {});
  const client = new BunnyClient(settings);
  const started = process.hrtime.bigint();
  const body = mode === "streamed" ? () => createReadStream(path) : readFileSync(path);
  await client.stream.uploadVideo(1, "bench-video", body, { libraryKey: "bench-library-key" });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
}

async function main(): Promise<void> {
  const [, , first, second, third] = process.argv;
  if (first === "--child") return child(second as Mode, third, process.argv[5]);
  const sizeMB = Number(first ?? 256);
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
