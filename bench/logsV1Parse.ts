import { spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { V1Filter, type V1FilterSpec } from "bunnynet-pulumi/dist/logs/filter.js";
import { newV1ParseStats, parseV1Batches, parseV1Log } from "bunnynet-pulumi/dist/logs/parseV1.js";
import { logGenerator, v1Line } from "bunnynet-emulator/dist/surfaces/logging/generator.js";
import { printTable } from "./support";

/**
 * v1 day-file parsing: the streaming parser (with a filter) against the naive way (read the whole file,
 * toString, split lines, split("|")), each in its own child process so each peak RSS is its own.
 *
 *   node dist/bench/logsV1Parse.js [sizeMB]      (default 1024: a ~1 GB synthetic day file in a temp dir)
 */

const MB = 1_000_000;
const STATUS_FILTER: V1FilterSpec = { status: ["5xx", 404] };
const SEARCH_FILTER: V1FilterSpec = { status: ["5xx", 404], search: "m3u8" };

interface WorkerResult {
  seconds: number;
  lines: number;
  kept: number;
  malformed: number;
  peakRssMB: number;
}

type Mode = "batches" | "batches+search" | "records" | "naive";

/** Writes synthetic lines (same generator as the emulator's seeded logs) until the file reaches `bytes`. */
async function generateDayFile(path: string, bytes: number): Promise<number> {
  const next = logGenerator({ pullZoneId: 1001, hosts: ["emulator-main.b-cdn.net", "cdn.emulator-main.example"], seed: 42 });
  const out = createWriteStream(path, { highWaterMark: 4 * 1024 * 1024 });
  const dayStart = Date.UTC(2026, 0, 15);
  const averageLine = 260;
  const step = (24 * 60 * 60 * 1000) / Math.max(1, bytes / averageLine);
  let written = 0;
  let lines = 0;
  while (written < bytes) {
    const batch: string[] = [];
    for (let i = 0; i < 2000; i++) batch.push(v1Line(next(Math.floor(dayStart + lines++ * step))));
    const text = batch.join("\n") + "\n";
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return lines;
}

async function runWorker(mode: Mode, file: string): Promise<WorkerResult> {
  const started = performance.now();
  let kept = 0;
  let lines = 0;
  let malformed = 0;
  if (mode === "naive") {
    // What a first attempt looks like: the whole file in memory, twice (bytes, then one string), then every line split.
    const filter = new V1Filter(STATUS_FILTER);
    const text = readFileSync(file).toString("utf8");
    for (const line of text.split("\n")) {
      if (line === "") continue;
      lines++;
      const cols = line.split("|");
      if (cols.length < 12) {
        malformed++;
        continue;
      }
      const status = Number(cols[1]);
      if (!Number.isInteger(status)) malformed++;
      else if (filter.acceptsStatus(status, cols[0])) kept++;
    }
  } else {
    const stats = newV1ParseStats();
    const filter = mode === "batches+search" ? SEARCH_FILTER : STATUS_FILTER;
    // fs's default 64 KiB reads: bigger ones only raise RSS (each read is a fresh Buffer outside the heap).
    const source = createReadStream(file);
    if (mode === "records") {
      for await (const r of parseV1Log(source, { filter, stats })) if (r.kind === "entry") kept++;
    } else {
      for await (const batch of parseV1Batches(source, { filter, stats })) for (const r of batch) if (r.kind === "entry") kept++;
    }
    lines = stats.lines;
    malformed = stats.malformed;
  }
  const seconds = (performance.now() - started) / 1000;
  // maxRSS is in kilobytes: the process's peak, which is why each variant runs in its own process.
  return { seconds, lines, kept, malformed, peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) };
}

function runChild(mode: Mode, file: string): WorkerResult | { error: string } {
  const child = spawnSync(process.execPath, [__filename, "--worker", mode, file], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const last = child.stdout.trim().split("\n").pop() ?? "";
  if (child.status === 0 && last.startsWith("{")) return JSON.parse(last) as WorkerResult;
  const reason = (child.stderr.match(/(RangeError|Error|FATAL ERROR)[^\n]*/)?.[0] ?? `exit ${child.status ?? child.signal}`).slice(0, 90);
  return { error: reason };
}

async function main(): Promise<void> {
  if (process.argv[2] === "--worker") {
    const result = await runWorker(process.argv[3] as Mode, process.argv[4]);
    process.stdout.write(JSON.stringify(result) + "\n");
    return;
  }
  const sizeMB = process.argv[2] === undefined ? 1024 : Number(process.argv[2]);
  if (!Number.isFinite(sizeMB) || sizeMB <= 0) throw new Error(`size must be a positive number of MB, got ${process.argv[2]}`);
  const dir = mkdtempSync(join(tmpdir(), "bunnynet-logs-bench-"));
  const file = join(dir, "01-15-26.log");
  try {
    const genStarted = performance.now();
    const generated = await generateDayFile(file, sizeMB * MB);
    const bytes = statSync(file).size;
    console.log(`generated ${generated} lines, ${(bytes / MB).toFixed(0)} MB in ${((performance.now() - genStarted) / 1000).toFixed(1)} s: ${file}`);

    const variants: [Mode, string][] = [
      ["batches", "streaming parseV1Batches, status filter"],
      ["batches+search", "streaming parseV1Batches, status + search"],
      ["records", "streaming parseV1Log (per record), status filter"],
      ["naive", "naive: readFile, toString, split lines, split('|')"],
    ];
    const rows: Record<string, string | number>[] = [];
    const keptCounts = new Set<number>();
    for (const [mode, label] of variants) {
      const r = runChild(mode, file);
      if ("error" in r) {
        rows.push({ variant: label, "MB/s": "-", "peak RSS MB": "-", lines: "-", kept: "-", note: `failed: ${r.error}` });
        continue;
      }
      if (mode !== "batches+search") keptCounts.add(r.kept);
      rows.push({ variant: label, "MB/s": Math.round(bytes / MB / r.seconds), "peak RSS MB": r.peakRssMB, lines: r.lines, kept: r.kept, note: r.malformed ? `${r.malformed} malformed` : "" });
    }
    printTable(`v1 day file, ${(bytes / MB).toFixed(0)} MB (MB = 10^6 bytes), one core each`, rows);
    if (keptCounts.size > 1) console.log(`\nWARNING: the variants kept different numbers of lines: ${[...keptCounts].join(", ")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
