import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { percentile, printTable } from "./support";

/**
 * The provider plugin's start: the built plugin (provider/dist/pulumi-plugin, `npm run build:plugin`) started N
 * times by its launcher, as the engine starts it, each measured when it prints its port (when the engine can call it):
 * its CPU (user + system, from /proc: Linux only, in clock ticks of 10 ms) and its peak resident memory. The floor
 * beside it is a bare gRPC server in the same Node that prints its port the same way. `--plugin <folder>` measures
 * another build (an older checkout's, for a before and after).
 *
 *   node dist/bench/pluginStart.js [runs] [--plugin <folder>]
 */

const TICKS_PER_SECOND = 100; // USER_HZ: what /proc/<pid>/stat counts in on Linux

interface Start {
  cpuSeconds: number;
  peakRssMb: number;
}

/** Starts the command and reads its CPU and peak memory from /proc when it prints its first line (the port). */
function measureStart(command: string, args: string[]): Promise<Start> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: join(__dirname, "..", ".."), stdio: ["ignore", "pipe", "inherit"] });
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

async function row(what: string, runs: number, command: string, args: string[]): Promise<Record<string, string | number>> {
  const starts: Start[] = [];
  for (let i = 0; i < runs; i++) starts.push(await measureStart(command, args));
  const cpu = starts.map((s) => s.cpuSeconds).sort((a, b) => a - b);
  const rss = starts.map((s) => s.peakRssMb).sort((a, b) => a - b);
  return { what, runs, "CPU s median": percentile(cpu, 50), "CPU s min": cpu[0], "CPU s max": cpu[cpu.length - 1], "peak RSS MB median": Math.round(percentile(rss, 50)) };
}

export async function benchPluginStart(runs: number, pluginDir: string) {
  const launcher = join(pluginDir, "pulumi-resource-bunnynet");
  if (!existsSync(launcher)) throw new Error(`no plugin at ${launcher}: npm run build:plugin`);
  // The launcher runs `node` from PATH: this benchmark's own Node, as the tests run it.
  process.env.PATH = `${resolve(process.execPath, "..")}:${process.env.PATH ?? ""}`;
  const bytes = readFileSync(join(pluginDir, "pulumi-resource-bunnynet.js")).length;
  return [
    { ...(await row("the plugin", runs, launcher, [])), "bundle MB": (bytes / 1e6).toFixed(1) },
    { ...(await row("a bare gRPC server (the floor)", runs, process.execPath, ["-e", BARE_GRPC_SERVER])), "bundle MB": "-" },
  ];
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--plugin");
  const pluginDir = at >= 0 ? resolve(args[at + 1]!) : join(__dirname, "..", "..", "provider", "dist", "pulumi-plugin");
  const runs = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--plugin") ?? 10);
  if (process.platform !== "linux") {
    console.log("pluginStart: skipped, it reads the plugin's CPU and memory from /proc (Linux only)");
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
