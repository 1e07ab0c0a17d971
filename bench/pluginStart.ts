import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { percentile, printTable } from "./support";

/**
 * The provider plugin's start: the built plugin (provider/dist/pulumi-plugin, `npm run build:plugin`) started N
 * times by its launcher, as the engine starts it, each measured when it prints its port (when the engine can call it):
 * its CPU (user + system, from /proc: Linux only, in clock ticks of 10 ms) and its peak resident memory. The floor
 * beside it is a bare gRPC server in the same Node that prints its port the same way. The first start on a machine
 * (an empty compile cache) and the later ones (the cache the first left) are measured apart. `--plugin <folder>`
 * measures another build (an older checkout's, for a before and after).
 *
 *   node dist/bench/pluginStart.js [runs] [--plugin <folder>]
 */

const TICKS_PER_SECOND = 100; // USER_HZ: what /proc/<pid>/stat counts in on Linux

interface Start {
  cpuSeconds: number;
  peakRssMb: number;
}

/** Starts the command and reads its CPU and peak memory from /proc when it prints its first line (the port). */
function measureStart(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Start> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: join(__dirname, "..", ".."), env, stdio: ["ignore", "pipe", "inherit"] });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
      if (!printed.includes("\n") || child.pid === undefined) return;
      // The fields after the command's name, which is in parentheses: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]);
      child.kill();
      done({ cpuSeconds, peakRssMb: peakKb / 1024 });
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      if (!printed.includes("\n")) fail(new Error(`${command} exited (${code}) before printing its port`));
    });
  });
}

/** A gRPC server and nothing else, printing its port as the plugin does: what any Node plugin pays. */
const BARE_GRPC_SERVER = `
const grpc = require("@grpc/grpc-js");
const server = new grpc.Server();
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => { if (e) throw e; console.log(port); });
`;

/** The compile cache folder (NODE_COMPILE_CACHE) of each start: a fresh one each time, or one kept across starts. */
type CacheFolder = () => string;

async function row(what: string, runs: number, command: string, args: string[], cacheFolder: CacheFolder): Promise<Record<string, string | number>> {
  const starts: Start[] = [];
  for (let i = 0; i < runs; i++) starts.push(await measureStart(command, args, { ...process.env, NODE_COMPILE_CACHE: cacheFolder() }));
  const cpu = starts.map((s) => s.cpuSeconds).sort((a, b) => a - b);
  const rss = starts.map((s) => s.peakRssMb).sort((a, b) => a - b);
  return { what, runs, "CPU s median": percentile(cpu, 50), "CPU s min": cpu[0], "CPU s max": cpu[cpu.length - 1], "peak RSS MB median": Math.round(percentile(rss, 50)) };
}

export async function benchPluginStart(runs: number, pluginDir: string) {
  const launcher = join(pluginDir, "pulumi-resource-bunnynet");
  // The launcher runs `node` from PATH: this benchmark's own Node, as the tests run it.
  process.env.PATH = `${resolve(process.execPath, "..")}:${process.env.PATH ?? ""}`;
  const bytes = readdirSync(pluginDir).filter((name) => name.endsWith(".js")).reduce((sum, name) => sum + statSync(join(pluginDir, name)).size, 0);
  const scratch = mkdtempSync(join(tmpdir(), "bunnynet-plugin-start-"));
  try {
    // The engine starts the plugin at every command: the first start on a machine compiles the bundle, the later
    // ones read the compile cache the first left (when the build turns it on).
    const fresh: CacheFolder = () => mkdtempSync(join(scratch, "fresh-"));
    const kept = join(scratch, "kept");
    await measureStart(launcher, [], { ...process.env, NODE_COMPILE_CACHE: kept });
    return [
      { ...(await row("the plugin, first start (no compile cache)", runs, launcher, [], fresh)), "bundle MB": (bytes / 1e6).toFixed(1) },
      { ...(await row("the plugin, later starts", runs, launcher, [], () => kept)), "bundle MB": (bytes / 1e6).toFixed(1) },
      { ...(await row("a bare gRPC server (the floor)", runs, process.execPath, ["-e", BARE_GRPC_SERVER], fresh)), "bundle MB": "-" },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--plugin");
  const pluginDir = at >= 0 ? resolve(args[at + 1]!) : join(__dirname, "..", "..", "provider", "dist", "pulumi-plugin");
  const runs = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--plugin") ?? 10);
  if (process.platform !== "linux") {
    console.log("pluginStart: skipped, it reads the plugin's CPU and memory from /proc (Linux only)");
  } else if (!existsSync(join(pluginDir, "pulumi-resource-bunnynet"))) {
    console.log(`pluginStart: skipped, no plugin at ${pluginDir} (npm run build:plugin)`);
  } else {
    benchPluginStart(runs, pluginDir).then(
      (rows) => printTable(`Plugin start (${pluginDir})`, rows),
      (e: unknown) => {
        console.error(e);
        process.exitCode = 1;
      },
    );
  }
}
