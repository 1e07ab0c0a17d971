import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { processMemory } from "../tests/support/processMemory";
import { writeLargeMp4 } from "../tests/support/videoFile";
import { admin, printTable, spawnEmulator } from "./support";

/**
 * Resumable video uploads over Stream's tus endpoint (issue 36): the client's `stream.uploadVideoResumable` (what
 * StreamVideo calls) sends a generated MP4 of `--size-mb` (default 1024; written to a temporary folder, deleted after)
 * to the emulator in its own process, persisted to a data file in that folder (so the upload's bytes go to disk beside
 * it), while the emulator cuts the connection of `--drop-rate` of the chunks (default 0.25) at a random point of
 * their body (fault phase "body", seeded by `--seed`). Printed: bytes sent over the file's size, how many times the
 * upload resumed, the time and throughput, this process's peak RSS (resourceUsage maxRSS: the client streaming from
 * disk) and the emulator's (VmHWM from Linux /proc), and whether the emulator's SHA-256 of what it stored is the file's.
 *
 *   node dist/bench/tusUpload.js [--size-mb=1024] [--drop-rate=0.25] [--seed=7]
 */

const MB = 1024 * 1024;

function flag(name: string, fallback: number): number {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
  return value;
}

async function main(): Promise<void> {
  const sizeMb = flag("size-mb", 1024);
  const dropRate = flag("drop-rate", 0.25);
  const seed = flag("seed", 7);
  const dir = mkdtempSync(join(tmpdir(), "bunnynet-bench-tus-"));
  const path = join(dir, "video.mp4");
  try {
    await writeLargeMp4(path, 3600, sizeMb * MB);
    const size = statSync(path).size;
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    const fileHash = hash.digest("hex");

    const emu = await spawnEmulator(["--data", join(dir, "emulator.db")]);
    try {
      const settings = resolveSettings({ apiKey: emu.accessKey, apiUrl: emu.url, streamApiUrl: emu.url, maxRetries: 8 }, {});
      const client = new BunnyClient({ ...settings, retryBaseDelayMs: 20 });
      const libraryId = Number(emu.fixtures.videoLibraryId);
      const video = await client.stream.createVideo(libraryId, { title: "bench tus" });
      await admin(emu, "POST", "/_emulator/faults", { seed, rules: [{ path: "^/tusupload/", method: "PATCH", dropRate, phase: "body" }] });
      const started = performance.now();
      const result = await client.stream.uploadVideoResumable(libraryId, video.guid, { length: size, open: (start, end) => createReadStream(path, { start, end }) }, { filetype: "video/mp4", title: "bench tus" });
      const seconds = (performance.now() - started) / 1000;
      await admin(emu, "DELETE", "/_emulator/faults");
      const emulatorMemory = processMemory(emu.child.pid);
      const stored = await client.stream.getVideo(libraryId, video.guid);
      printTable(`tus upload of ${sizeMb} MiB against the emulator, ${dropRate * 100} % of chunks cut mid-body (seed ${seed})`, [
        {
          "file MiB": sizeMb,
          "sent / size": result.bytesSent / size,
          resumes: result.resumes,
          seconds,
          "MiB/s": sizeMb / seconds,
          "client peak RSS MiB": process.resourceUsage().maxRSS / 1024,
          "emulator peak RSS MiB": emulatorMemory ? emulatorMemory.peakMb : "n/a",
          "stored = file": stored.originalHash === fileHash ? "yes" : "NO",
        },
      ]);
      if (stored.originalHash !== fileHash) process.exitCode = 1;
    } finally {
      await emu.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
